package clairvoyant

import (
	"context"

	"github.com/calcsol/calcsol/solver"
)

// SetRestartSchedule shortens the restart schedule for a test (passes cut
// after pass nodes, runs of unit·luby(i) nodes) and returns a function that
// restores it. The tests of this package do not run in parallel.
func SetRestartSchedule(pass, unit int64) (restore func()) {
	p, u := restartPassNodes, restartUnit
	restartPassNodes, restartUnit = pass, unit
	return func() { restartPassNodes, restartUnit = p, u }
}

// RestartRuns is the number of restart runs the last search of sv began.
func RestartRuns(sv *Solver) int { return sv.s.runs }

// Luby exposes the run-length sequence.
func Luby(i int) int64 { return luby(i) }

// FormulaSize is the number of variables and clauses of the SAT formula of
// deck d under rules r.
func FormulaSize(d *solver.Deck, r solver.Rules) (vars, clauses int) {
	e := encode(d, r)
	return e.nvars, len(e.clauses)
}

// Game plays d by w's pilot of the given level (0: the strategy's own game)
// and returns its moves and whether they won.
func (w *StrategyWitness) Game(ctx context.Context, d *solver.Deck, r solver.Rules, level int) ([]solver.Move, bool) {
	return w.game(ctx, d, r, level)
}

// PilotCandidates exposes the moves a pilot tries in g.
func PilotCandidates(g *solver.Game, own solver.Move, ok, assign bool) []solver.Move {
	return pilotCandidates(g, own, ok, assign, nil)
}
