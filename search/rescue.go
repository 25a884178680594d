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
// a tuner can tune the rescue for a base (w_gap, w_bury, …). With
// give_up=true it leaves the resignation standing once the position is
// lost (every assignment has a cycle) instead of playing the lost game out:
// the same wins, at a fraction of the cost where games are played out by
// the thousand (the sampling player's playouts, "base+rescue:give_up=true+sample").
func RescueKind() strategies.Kind {
	return strategies.DefineWrapper("rescue", "wrapper: where the base resigns, play on with the deadlock-graph player's move",
		RescueStrategy{Weights: DefaultWeights}, func(base solver.Strategy, s RescueStrategy) (solver.Strategy, error) {
			s.Base = base
			return &s, nil
		})
}

// RescueStrategy plays its base, and the deadlock-graph player with its
// Weights where the base resigns (see RescueKind).
type RescueStrategy struct {
	Base solver.Strategy
	Weights
	// GiveUp leaves the base's resignation standing where the position is
	// lost already (no assignment of the stacked cards is acyclic).
	GiveUp bool `param:"give_up" doc:"resign once every assignment of the stacked cards has a cycle (the game is lost) instead of playing it out"`
	// Nodes, when positive, is the search states each cycle check may
	// visit; a check that needs more counts as finding a cycle (a move
	// thought unsafe, a position thought lost). Cheaper, no longer exact.
	Nodes int `param:"nodes" min:"0" max:"1073741824" doc:"search states a cycle check may visit; one that needs more counts as finding a cycle (0: no limit)"`
}

// Unwrap implements strategies.Wrapper.
func (s *RescueStrategy) Unwrap() solver.Strategy { return s.Base }

// Info implements solver.Strategy.
func (s *RescueStrategy) Info() solver.Info {
	bi := s.Base.Info()
	ps := append(append([]solver.Param(nil), bi.Params...), strategies.Declare(s)...)
	return solver.Info{Name: bi.Name + "+rescue", Stochastic: bi.Stochastic, Params: ps}
}

// WithTable returns the rescue over the base with the priority table
// nameOrPath instead (see TableChanger).
func (s *RescueStrategy) WithTable(nameOrPath string) (solver.Strategy, error) {
	b, err := withTable(s.Base, nameOrPath)
	if err != nil {
		return nil, err
	}
	c := *s
	c.Base = b
	return &c, nil
}

// Start implements solver.Strategy.
func (s *RescueStrategy) Start(ctx context.Context, r solver.Rules) (solver.Session, error) {
	base, err := s.Base.Start(ctx, r)
	if err != nil {
		return nil, err
	}
	dg := NewDeadlockGraph(s.Weights)
	dg.a.limit = max(s.Nodes, 0)
	return &rescueSession{base: base, dg: dg, giveUp: s.GiveUp}, nil
}

type rescueSession struct {
	base   solver.Session
	dg     *DeadlockGraph
	giveUp bool
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
		if m, ok := s.dg.choose(&st, s.giveUp); ok {
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
