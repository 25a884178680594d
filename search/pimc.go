package search

import (
	"context"
	"fmt"

	"github.com/calcsol/calcsol/clairvoyant"
	"github.com/calcsol/calcsol/solver"
	"github.com/calcsol/calcsol/strategies"
)

// PIMC defaults: the stock length at which it takes over, the orders dealt
// per decision, the solver's node budget per order and candidate.
const (
	DefaultPIMCK      = 20
	DefaultPIMCN      = 16
	DefaultPIMCNodes  = 5000
	DefaultPIMCMargin = 1
)

// PIMCKind is perfect-information Monte Carlo as a wrapper kind
// ("priority:deadlock_check=exact+pimc:k=20,n=16"): with k or fewer cards in
// the stock, for each place the drawn card can go, it deals n orders of the
// unseen cards (the same n for every candidate, so that their comparison is
// paired) and asks the clairvoyant solver whether the game can still be won
// with the stock in that order; it plays the candidate that can win the most
// orders (an order the solver does not settle within its node budget counts
// as not won). Above k cards, and for moves of stack tops, it plays its base.
// The solver does not care to which table a stacked card is meant (it tries
// them all), but a base that reads assignments (priority) does: with assign
// (the default) each assignment is a candidate of its own, and ties go to
// the base's own move, then to the first candidate.
//
// This is M. L. Ginsberg's determinization for bridge ("GIB: Imperfect
// Information in a Computationally Challenging Game", JAIR 14, 2001); J. Long,
// N. Sturtevant, M. Buro and T. Furtak ("Understanding the Success of
// Perfect Information Monte Carlo Sampling in Game Tree Search", AAAI 2010)
// say when it works. Its weakness, strategy fusion, is why it starts late:
// early on almost every order can be won, and the counts say little.
//
// The orders come from a generator seeded by a hash of the position, as the
// sampling player's do: the player is deterministic and never sees the stock.
func PIMCKind() strategies.Kind {
	return strategies.DefineWrapper("pimc",
		"wrapper: with k or fewer cards in the stock, the place for the drawn card that the clairvoyant solver can win on the most of n sampled orders",
		PIMCStrategy{K: DefaultPIMCK, N: DefaultPIMCN, Nodes: DefaultPIMCNodes, Margin: DefaultPIMCMargin, Assign: true},
		func(base solver.Strategy, s PIMCStrategy) (solver.Strategy, error) {
			s.Base = base
			return &s, nil
		})
}

// PIMCStrategy is the perfect-information Monte Carlo player (see
// PIMCKind); its tagged fields are the kind's parameters.
type PIMCStrategy struct {
	Base  solver.Strategy
	K     int `param:"k" min:"1" max:"52" doc:"the search takes over when the stock holds k or fewer cards"`
	N     int `param:"n" min:"1" max:"4096" doc:"orders of the unseen cards dealt per decision"`
	Nodes int `param:"nodes" min:"1" max:"1073741824" doc:"the clairvoyant solver's node budget for each order and candidate"`
	// Margin is how many more orders a candidate must win than the base's
	// own move to replace it (1, or 0: any more).
	Margin int  `param:"margin" min:"1" max:"4096" doc:"how many more orders a place must win than the base's own move to replace it"`
	Assign bool `param:"assign" doc:"try each assignment of a stacked card as a candidate of its own (for a base that reads assignments, like priority)"`
}

// Unwrap implements strategies.Wrapper.
func (s *PIMCStrategy) Unwrap() solver.Strategy { return s.Base }

// Info implements solver.Strategy.
func (s *PIMCStrategy) Info() solver.Info {
	bi := s.Base.Info()
	ps := append(append([]solver.Param(nil), bi.Params...), strategies.Declare(s)...)
	return solver.Info{Name: bi.Name + "+pimc", Stochastic: bi.Stochastic, Params: ps}
}

// Start implements solver.Strategy.
func (s *PIMCStrategy) Start(ctx context.Context, r solver.Rules) (solver.Session, error) {
	base, err := s.Base.Start(ctx, r)
	if err != nil {
		return nil, err
	}
	return &pimcSession{s: s, base: base, sv: clairvoyant.NewSolver(clairvoyant.Options{MemoBits: 16})}, nil
}

type pimcSession struct {
	s      *PIMCStrategy
	base   solver.Session
	sv     *clairvoyant.Solver
	orders [][]solver.Rank
}

// Decide implements solver.Session: each request's base move, then, where
// the stock is short and the drawn card has a choice of places, the search.
func (ps *pimcSession) Decide(ctx context.Context, reqs []solver.Request, out []solver.Decision) error {
	if err := ps.base.Decide(ctx, reqs, out); err != nil {
		return err
	}
	for i := range reqs {
		v := reqs[i].Position
		d := out[i]
		if d.Failed || d.Move.Kind == solver.StackToTable || v.Drawn() == 0 || v.StockLen() == 0 || v.StockLen() > ps.s.K {
			continue
		}
		m, err := ps.search(ctx, v, d.Move)
		if err != nil {
			return err
		}
		out[i] = solver.Decision{Move: m}
	}
	return nil
}

// search returns the candidate that wins the most sampled orders, the base's
// move (which may be a resignation) on ties.
func (ps *pimcSession) search(ctx context.Context, v solver.View, baseMove solver.Move) (solver.Move, error) {
	st := v.State()
	var buf [solver.MaxLegalMoves]solver.Move
	cands := sampleCandidates(&st, ps.s.Assign, baseMove, buf[:0])
	if len(cands) == 0 || len(cands) == 1 && baseMove.Kind != solver.Resign {
		return baseMove, nil
	}
	ps.orders = dealOrders(&st, ps.s.N, ps.orders)
	// The base's move first: another replaces it only by winning at least
	// margin more orders, and if it wins every order nothing beats it. After
	// a resignation any candidate is better.
	isBase := false
	for i, m := range cands {
		if sameMove(m, baseMove, v.Drawn()) {
			cands[0], cands[i] = cands[i], cands[0]
			isBase = true
			break
		}
	}
	// The solver tries every assignment of stacked cards, so candidates
	// that differ only in the assignment share their count: it is counted
	// once per place (a table, or a stack).
	type place struct {
		kind solver.MoveKind
		n    int8
	}
	var counted [solver.MaxLegalMoves]struct {
		p place
		n int
	}
	ncounted := 0
	best, bestWins := baseMove, -1
	for _, m := range cands {
		p := place{m.Kind, m.Stack}
		if m.Kind == solver.ToTable {
			p.n = m.Table
		}
		wins := -1
		for _, c := range counted[:ncounted] {
			if c.p == p {
				wins = c.n
			}
		}
		if wins < 0 {
			var err error
			if wins, err = ps.count(ctx, &st, m, bestWins); err != nil {
				return baseMove, err
			}
			counted[ncounted].p, counted[ncounted].n = p, wins
			ncounted++
		}
		if wins > bestWins {
			best, bestWins = m, wins
		}
		if isBase {
			// The base's count is in: the others must beat it by the margin.
			isBase = false
			bestWins += max(ps.s.Margin, 1) - 1
		}
		if bestWins >= len(ps.orders) {
			break
		}
	}
	return best, nil
}

// count returns on how many of the session's orders the solver can win after
// m in st; it stops early, with a count of at most beat, once the count
// cannot exceed beat.
func (ps *pimcSession) count(ctx context.Context, st *solver.State, m solver.Move, beat int) (int, error) {
	wins := 0
	for oi, ord := range ps.orders {
		if wins+len(ps.orders)-oi <= beat {
			break
		}
		c := *st
		if err := c.Apply(m); err != nil {
			return 0, fmt.Errorf("pimc: candidate %s refused: %w", m.Format(st.Rules()), err)
		}
		rest := ord
		if c.Drawn() == 0 && c.StockLen() > 0 {
			if err := c.Reveal(ord[0]); err != nil {
				return 0, fmt.Errorf("pimc: %w", err)
			}
			rest = ord[1:]
		}
		verdict, _, err := ps.sv.SolveFrom(ctx, c.View(), rest, clairvoyant.Budget{Nodes: int64(ps.s.Nodes)})
		if err != nil {
			return 0, err
		}
		if verdict == clairvoyant.Yes {
			wins++
		}
	}
	return wins, nil
}

func (ps *pimcSession) End(ctx context.Context, games []solver.GameID) error {
	return ps.base.End(ctx, games)
}

func (ps *pimcSession) Close() error { return ps.base.Close() }
