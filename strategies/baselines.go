package strategies

import (
	"context"
	"math/rand/v2"

	"github.com/calcsol/calcsol/solver"
)

// The baselines anchor every comparison: a strategy that does not beat
// random play, or a one-move greedy rule, has learnt nothing.

// RandomKind is the random baseline: every decision is a uniform choice
// among the legal moves, stacking counted once per stack (the rules ignore
// assignments, so a card stacked "for table 2" is the same move as one
// stacked unassigned). Each game draws from its own generator, seeded from
// the game's seed, so a game replays identically wherever it is played.
func RandomKind() Kind {
	k := Define("random", "baseline: a uniformly random legal move (stacking unassigned)", struct{}{},
		func(struct{}) (solver.Strategy, error) { return randomStrategy{}, nil })
	k.Stochastic = true
	return k
}

type randomStrategy struct{}

func (randomStrategy) Info() solver.Info {
	return solver.Info{Name: "random", Stochastic: true}
}

func (randomStrategy) Start(_ context.Context, r solver.Rules) (solver.Session, error) {
	if err := r.Validate(); err != nil {
		return nil, err
	}
	return &randomSession{games: map[solver.GameID]*rand.Rand{}}, nil
}

// randomSession keeps one generator per game in play.
type randomSession struct {
	games map[solver.GameID]*rand.Rand
	legal []solver.Move
}

func (s *randomSession) Decide(_ context.Context, reqs []solver.Request, out []solver.Decision) error {
	for i := range reqs {
		rq := &reqs[i]
		rng, ok := s.games[rq.Game]
		if !ok {
			rng = rand.New(rand.NewPCG(rq.Seed, uint64(rq.Game)))
			s.games[rq.Game] = rng
		}
		// Filter in place: the kept moves overwrite the ones already read.
		all := rq.Position.AppendLegalMoves(s.legal[:0])
		s.legal = all[:0]
		for _, m := range all {
			if m.Kind != solver.ToStack || m.Table == 0 {
				s.legal = append(s.legal, m)
			}
		}
		if len(s.legal) == 0 {
			out[i] = solver.Decision{Move: solver.Move{Kind: solver.Resign}, Reason: "no legal move"}
			continue
		}
		out[i] = solver.Decision{Move: s.legal[rng.IntN(len(s.legal))]}
	}
	return nil
}

func (s *randomSession) End(_ context.Context, games []solver.GameID) error {
	for _, g := range games {
		delete(s.games, g)
	}
	return nil
}

func (s *randomSession) Close() error { return nil }

// GreedyKind is the greedy baseline: it moves a stack top to a table whenever
// one can go (first stack first), plays the drawn card to a table when it
// can, and otherwise stacks it where it blocks least: on a stack whose top
// is needed after the drawn card (the closest such), else on an empty stack,
// else on the stack whose top is needed last. "Needed after" counts the
// cards a table still needs before it reaches that rank (the nearest table).
func GreedyKind() Kind {
	return Define("greedy", "baseline: play to a table when possible, else stack where the card blocks least", struct{}{},
		func(struct{}) (solver.Strategy, error) {
			return solver.FromChooser(solver.Info{Name: "greedy"}, func(solver.Rules) (solver.Chooser, error) {
				return Greedy{}, nil
			}), nil
		})
}

// Greedy is the greedy baseline's Chooser (see GreedyKind).
type Greedy struct{}

// Choose implements solver.Chooser.
func (Greedy) Choose(p solver.View) (solver.Move, error) {
	var buf [solver.MaxLegalMoves]solver.Move
	legal := p.AppendLegalMoves(buf[:0])
	best, bestScore := -1, 1<<30
	for i, m := range legal {
		var score int
		switch m.Kind {
		case solver.StackToTable:
			score = -2
		case solver.ToTable:
			score = -1
		case solver.ToStack:
			if m.Table != 0 {
				continue
			}
			score = stackScore(p, p.Drawn(), int(m.Stack))
		}
		if score < bestScore {
			best, bestScore = i, score
		}
	}
	if best < 0 {
		return solver.Move{}, solver.ErrResign // nothing drawn and no top can move
	}
	return legal[best], nil
}

// stackScore rates stacking y on stack s, lower is better.
func stackScore(p solver.View, y solver.Rank, s int) int {
	t := p.Top(s)
	if t == 0 {
		return 20
	}
	dy, dt := wait(p, y), wait(p, t.Rank())
	if dt >= dy {
		return dt - dy
	}
	return 40 + dy - dt
}

// wait is how many cards the nearest table that still needs rank r must get
// before r.
func wait(p solver.View, r solver.Rank) int {
	w := solver.NumRanks
	for x := 1; x <= solver.Tables; x++ {
		if p.Filled(x, r) {
			continue
		}
		w = min(w, solver.TablePos(x, r)-p.Placed(x))
	}
	return w
}
