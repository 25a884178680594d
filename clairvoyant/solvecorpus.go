package clairvoyant

import (
	"context"
	"time"

	"github.com/calcsol/calcsol/decks/corpus"
	"github.com/calcsol/calcsol/solver"
	"github.com/calcsol/calcsol/tournament/stats"
)

// CorpusJob says how SolveCorpus solves a corpus.
type CorpusJob struct {
	Rules  solver.Rules
	Budget Budget // per deck
	// Options are the search's; SolveCorpus sets Start and, with Try, Witness.
	Options Options
	Workers int // decks solved in parallel (< 1: one a CPU)
	// Start is the deck searched first (Options.Start).
	Start int
	// Prior, when not nil, holds the verdicts of an earlier run
	// (BoundFile.Settled): the decks it settles are not searched again.
	Prior []Result
	// Try are strategies played on each deck first, in turn: a game one
	// wins settles the deck (StrategyWitness). Pilot and PilotAssign set
	// their pilot (StrategyWitness.SetPilot); Handoff, when not nil, has the
	// search take over from their lost games.
	Try         []solver.Strategy
	Pilot       int
	PilotAssign bool
	Handoff     *Handoff
	// Progress, when not nil, is told the number of decks searched so far.
	Progress func(done int)
}

// TryError is a strategy of CorpusJob.Try that could not be set up: the one at Index
// failed to start, or (Pilot) refused the pilot.
type TryError struct {
	Index int
	Pilot bool
	Err   error
}

func (e *TryError) Error() string { return e.Err.Error() }
func (e *TryError) Unwrap() error { return e.Err }

// CorpusSolve is what SolveCorpus found: every deck's result and their
// counts.
type CorpusSolve struct {
	Results []Result
	Tally
	// Handoff says whether the job had handoff searches, HandoffNodes the
	// nodes they spent (apart from Nodes, the searches from the start).
	Handoff      bool
	HandoffNodes int64
	BySAT        int           // decks the SAT solver settled
	Elapsed      time.Duration // the solving, without setting up Try
}

// Share is the share of winnable decks (unknowns counted as not won) with
// its Wilson 95 % interval.
func (s *CorpusSolve) Share() (p, lo, hi float64) {
	lo, hi = stats.Wilson(s.Winnable, s.Decks, stats.Z95)
	return float64(s.Winnable) / float64(s.Decks), lo, hi
}

// Bound is the clairvoyant bound on any strategy's success rate on these
// decks: [winnable, winnable + unknown] / decks, and that range widened by
// the Wilson 95 % interval at each end.
func (s *CorpusSolve) Bound() (lo, hi, ciLo, ciHi float64) {
	n := float64(s.Decks)
	ciLo, _ = stats.Wilson(s.Winnable, s.Decks, stats.Z95)
	_, ciHi = stats.Wilson(s.Winnable+s.Unknown, s.Decks, stats.Z95)
	return float64(s.Winnable) / n, float64(s.Winnable+s.Unknown) / n, ciLo, ciHi
}

// SolveCorpus solves every deck of c as job says (SolveAll), trying the
// job's strategies on each deck first. It stops early, with ctx's error,
// when ctx is cancelled or its deadline passes; what was settled by then is
// returned with that error (the rest Unknown), so that a later run can
// resume from it. A strategy that cannot be set up is a *TryError.
func SolveCorpus(ctx context.Context, c *corpus.Calculation, job CorpusJob) (*CorpusSolve, error) {
	opts := job.Options
	opts.Start = job.Start
	var ws Witnesses
	defer func() {
		for _, w := range ws {
			_ = w.Close()
		}
	}()
	for i, s := range job.Try {
		w, err := NewStrategyWitness(ctx, s, job.Rules)
		if err != nil {
			return nil, &TryError{Index: i, Err: err}
		}
		ws = append(ws, w)
		if err := w.SetPilot(job.Pilot, job.PilotAssign); err != nil {
			return nil, &TryError{Index: i, Pilot: true, Err: err}
		}
		if job.Handoff != nil {
			w.SetHandoff(*job.Handoff)
		}
	}
	if len(ws) > 0 {
		opts.Witness = ws.Line
	}
	start := time.Now()
	decks := c.Decks()
	if err := c.Err(); err != nil {
		return nil, err
	}
	results, err := SolveAll(ctx, decks, job.Rules, opts, job.Budget, job.Workers, job.Prior, job.Progress)
	if results == nil {
		return nil, err
	}
	s := &CorpusSolve{Results: results, Tally: Count(results), Elapsed: time.Since(start), Handoff: job.Handoff != nil && len(ws) > 0}
	for _, w := range ws {
		s.HandoffNodes += w.HandoffNodes()
	}
	for _, r := range results {
		if r.SAT {
			s.BySAT++
		}
	}
	return s, err
}
