package search

import (
	"context"

	"github.com/calcsol/calcsol/solver"
	"github.com/calcsol/calcsol/strategies"
)

// DefaultEndgameK is the stock length at which the endgame kind takes over
// by default: the cost grows about sevenfold a card (docs/strategies.md).
const DefaultEndgameK = 4

// EndgameKind is the exhaustive endgame search as a wrapper kind:
// "priority+endgame:k=8" plays the priority table until k or fewer cards
// are left in the stock, then the move with the highest exact probability
// of winning.
func EndgameKind() strategies.Kind {
	return strategies.DefineWrapper("endgame",
		"wrapper: with k or fewer cards in the stock, the move that wins the most orders of the unseen cards (exact)",
		EndgameStrategy{K: DefaultEndgameK}, func(base solver.Strategy, s EndgameStrategy) (solver.Strategy, error) {
			s.Base = base // K is in bounds: its declaration checked it
			return &s, nil
		})
}

// EndgameStrategy plays its base strategy until the stock holds K or fewer
// cards, then the best move of the exact endgame search.
type EndgameStrategy struct {
	Base solver.Strategy
	K    int `param:"k" min:"0" max:"20" doc:"the search takes over when the stock holds k or fewer cards"`
}

// NewEndgameStrategy wraps base with the endgame search for the last k cards.
func NewEndgameStrategy(base solver.Strategy, k int) *EndgameStrategy {
	return &EndgameStrategy{Base: base, K: min(max(k, 0), MaxEndgameCards)}
}

// Unwrap implements strategies.Wrapper.
func (s *EndgameStrategy) Unwrap() solver.Strategy { return s.Base }

// Info implements solver.Strategy.
func (s *EndgameStrategy) Info() solver.Info {
	bi := s.Base.Info()
	ps := append(append([]solver.Param(nil), bi.Params...), strategies.Declare(s)...)
	return solver.Info{Name: bi.Name + "+endgame", Stochastic: bi.Stochastic, Params: ps}
}

// Start implements solver.Strategy.
func (s *EndgameStrategy) Start(ctx context.Context, r solver.Rules) (solver.Session, error) {
	base, err := s.Base.Start(ctx, r)
	if err != nil {
		return nil, err
	}
	return &endgameSession{base: base, k: s.K, e: NewEndgame()}, nil
}

type endgameSession struct {
	base solver.Session
	k    int
	e    *Endgame
	reqs []solver.Request
	out  []solver.Decision
	idx  []int
}

// Decide implements solver.Session: the requests with a short stock are
// searched, the others go to the base session in one batch.
func (s *endgameSession) Decide(ctx context.Context, reqs []solver.Request, out []solver.Decision) error {
	s.reqs, s.idx = s.reqs[:0], s.idx[:0]
	for i := range reqs {
		v := reqs[i].Position
		if v.StockLen() > s.k {
			s.reqs = append(s.reqs, reqs[i])
			s.idx = append(s.idx, i)
			continue
		}
		st := v.State()
		m, _, _, ok := s.e.Best(&st)
		if !ok {
			out[i] = solver.Decision{Move: solver.Move{Kind: solver.Resign}, Reason: "no legal move"}
			continue
		}
		out[i] = solver.Decision{Move: m}
	}
	if len(s.reqs) == 0 {
		return nil
	}
	if cap(s.out) < len(s.reqs) {
		s.out = make([]solver.Decision, len(s.reqs))
	}
	bo := s.out[:len(s.reqs)]
	clear(bo)
	if err := s.base.Decide(ctx, s.reqs, bo); err != nil {
		return err
	}
	for j, i := range s.idx {
		out[i] = bo[j]
	}
	return nil
}

func (s *endgameSession) End(ctx context.Context, games []solver.GameID) error {
	s.e.Forget()
	return s.base.End(ctx, games)
}

func (s *endgameSession) Close() error { return s.base.Close() }

// Kinds are the strategy kinds of this package, to register beside the
// built-ins: the deadlock-graph and subgame players and the endgame,
// sampling, pimc and rescue wrappers.
func Kinds() []strategies.Kind {
	return []strategies.Kind{EndgameKind(), DeadlockGraphKind(), SampleKind(), PIMCKind(), RescueKind(), SubgameKind()}
}
