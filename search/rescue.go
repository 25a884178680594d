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
// some assignment acyclic when it can), and the game goes on. (The priority
// table moves a top stacked unassigned to the first table that needs it.)
// The deadlock-graph player's weights are the wrapper's parameters, so that
// a tuner can tune the rescue for a base (w_gap, w_bury, …).
func RescueKind() strategies.Kind {
	return strategies.Kind{
		Name:   "rescue",
		Doc:    "wrapper: where the base resigns, play on with the deadlock-graph player's move",
		Params: weightParams(DefaultWeights),
		Wrap: func(base solver.Strategy, params map[string]string) (solver.Strategy, error) {
			w, err := weightsFrom(params)
			if err != nil {
				return nil, err
			}
			return &RescueStrategy{Base: base, W: &w}, nil
		},
	}
}

// RescueStrategy plays its base, and the deadlock-graph player with weights
// W where the base resigns (see RescueKind). A nil W means DefaultWeights.
type RescueStrategy struct {
	Base solver.Strategy
	W    *Weights
}

func (s *RescueStrategy) weights() Weights {
	if s.W == nil {
		return DefaultWeights
	}
	return *s.W
}

// Info implements solver.Strategy.
func (s *RescueStrategy) Info() solver.Info {
	bi := s.Base.Info()
	ps := append(append([]solver.Param(nil), bi.Params...), weightParams(s.weights())...)
	return solver.Info{Name: bi.Name + "+rescue", Stochastic: bi.Stochastic, Params: ps}
}

// Start implements solver.Strategy.
func (s *RescueStrategy) Start(ctx context.Context, r solver.Rules) (solver.Session, error) {
	base, err := s.Base.Start(ctx, r)
	if err != nil {
		return nil, err
	}
	return &rescueSession{base: base, dg: NewDeadlockGraph(s.weights())}, nil
}

type rescueSession struct {
	base solver.Session
	dg   *DeadlockGraph
}

// Decide implements solver.Session: the requests go to the base in one
// batch, and its resignations are replaced by the deadlock-graph player's
// moves.
func (s *rescueSession) Decide(ctx context.Context, reqs []solver.Request, out []solver.Decision) error {
	if err := s.base.Decide(ctx, reqs, out); err != nil {
		return err
	}
	for i := range reqs {
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

// End implements solver.Session.
func (s *rescueSession) End(ctx context.Context, games []solver.GameID) error {
	return s.base.End(ctx, games)
}

// Close implements solver.Session.
func (s *rescueSession) Close() error { return s.base.Close() }
