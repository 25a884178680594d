package search

import (
	"context"

	"github.com/calcsol/calcsol/solver"
	"github.com/calcsol/calcsol/strategies"
)

// RescueKind is a wrapper kind ("priority:deadlock_check=exact+rescue") for
// a base that resigns too early. The priority table gives a game up when
// its cycle check rejects every operation for the drawn card; but the check
// reads the assignments the table gave its stacked cards, and the rules
// know no assignments: a stack top may go to any table that needs it. A
// position is lost for good only when every assignment of its stacked cards
// has a cycle (Acyclic). Where the base resigns, the wrapper plays the
// deadlock-graph player's move instead (which stacks unassigned and keeps
// some assignment acyclic when it can); and a stack top that no table was
// assigned to goes to a table that needs it as soon as one does, since the
// base moves only assigned tops.
func RescueKind() strategies.Kind {
	return strategies.Kind{
		Name: "rescue",
		Doc:  "wrapper: where the base resigns, play on with the deadlock-graph player's move; unassigned stack tops go to a table that needs them",
		Wrap: func(base solver.Strategy, _ map[string]string) (solver.Strategy, error) {
			return &RescueStrategy{Base: base}, nil
		},
	}
}

// RescueStrategy plays its base, and the deadlock-graph player where the
// base resigns (see RescueKind).
type RescueStrategy struct {
	Base solver.Strategy
}

// Info implements solver.Strategy.
func (s *RescueStrategy) Info() solver.Info {
	bi := s.Base.Info()
	return solver.Info{Name: bi.Name + "+rescue", Stochastic: bi.Stochastic, Params: bi.Params}
}

// Start implements solver.Strategy.
func (s *RescueStrategy) Start(ctx context.Context, r solver.Rules) (solver.Session, error) {
	base, err := s.Base.Start(ctx, r)
	if err != nil {
		return nil, err
	}
	return &rescueSession{base: base, dg: NewDeadlockGraph(DefaultWeights)}, nil
}

type rescueSession struct {
	base solver.Session
	dg   *DeadlockGraph
	b    passOn
}

// Decide implements solver.Session: unassigned tops that a table needs are
// moved at once; the other requests go to the base in one batch, and its
// resignations are replaced by the deadlock-graph player's moves.
func (s *rescueSession) Decide(ctx context.Context, reqs []solver.Request, out []solver.Decision) error {
	err := s.b.decide(ctx, s.base, reqs, out, func(rq *solver.Request) (solver.Decision, bool) {
		m, ok := unassignedTopMove(rq.Position)
		return solver.Decision{Move: m}, ok
	})
	if err != nil {
		return err
	}
	for _, i := range s.b.idx {
		if out[i].Failed || out[i].Move.Kind != solver.Resign {
			continue
		}
		st := reqs[i].Position.State()
		if m, ok := s.dg.choose(&st); ok {
			out[i] = solver.Decision{Move: m}
		}
	}
	return nil
}

// unassignedTopMove finds a stack top without an assigned table that some
// table needs now (the first such stack, the first such table).
func unassignedTopMove(v solver.View) (solver.Move, bool) {
	for s := range v.Stacks() {
		t := v.Top(s)
		if t == 0 || t.Table() != 0 {
			continue
		}
		for x := 1; x <= solver.Tables; x++ {
			if v.Need(x) == t.Rank() {
				return solver.Move{Kind: solver.StackToTable, Rank: t.Rank(), Stack: int8(s), Table: int8(x)}, true
			}
		}
	}
	return solver.Move{}, false
}

// End implements solver.Session.
func (s *rescueSession) End(ctx context.Context, games []solver.GameID) error {
	return s.base.End(ctx, games)
}

// Close implements solver.Session.
func (s *rescueSession) Close() error { return s.base.Close() }
