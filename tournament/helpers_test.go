package tournament

import (
	"context"
	"math/rand/v2"

	"github.com/calcsol/calcsol/solver"
)

// testDecks returns n uniformly shuffled decks from seed (Fisher–Yates on a
// seeded PCG, as shuffle.NewRand makes it), so that the tests depend only on
// solver and not on the deck generators.
func testDecks(n int, seed uint64) []solver.Deck {
	rng := rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
	out := make([]solver.Deck, n)
	var d solver.Deck
	for i := range d {
		d[i] = solver.Rank(i%solver.NumRanks + 1)
	}
	for i := range out {
		rng.Shuffle(len(d), func(a, b int) { d[a], d[b] = d[b], d[a] })
		out[i] = d
	}
	return out
}

// greedy is a trivial deterministic strategy: move a stack top a table needs,
// else put the drawn card on a table that needs it, else on the lowest stack
// (first of the lowest, unassigned). It rarely wins, but the number of cards
// it places varies from deck to deck, which is what the tests compare.
type greedy struct{}

func (greedy) Choose(p solver.View) (solver.Move, error) {
	for s := 0; s < p.Stacks(); s++ {
		if t := p.Top(s); t != 0 {
			for x := 1; x <= solver.Tables; x++ {
				if p.Need(x) == t.Rank() {
					return solver.Move{Kind: solver.StackToTable, Stack: int8(s), Table: int8(x)}, nil
				}
			}
		}
	}
	y := p.Drawn()
	for x := 1; x <= solver.Tables; x++ {
		if p.Need(x) == y {
			return solver.Move{Kind: solver.ToTable, Table: int8(x)}, nil
		}
	}
	best := 0
	for s := 1; s < p.Stacks(); s++ {
		if p.Height(s) < p.Height(best) {
			best = s
		}
	}
	return solver.Move{Kind: solver.ToStack, Stack: int8(best)}, nil
}

func newGreedy() solver.Strategy { return fromChooser(func() solver.Chooser { return greedy{} }) }

// fromChooser makes a strategy whose every session gets a fresh Chooser.
func fromChooser(make func() solver.Chooser) solver.Strategy {
	return solver.FromChooser(solver.Info{Name: "test"}, func(solver.Rules) (solver.Chooser, error) { return make(), nil })
}

// startWith is a strategy whose Start is start.
type startWith func() (solver.Session, error)

func (s startWith) Info() solver.Info { return solver.Info{Name: "test"} }
func (s startWith) Start(context.Context, solver.Rules) (solver.Session, error) {
	return s()
}
