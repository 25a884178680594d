package deadlock

import (
	"testing"

	"github.com/calcsol/calcsol/decks/shuffle"
	"github.com/calcsol/calcsol/solver"
)

// TestLocateManyStacks checks solver.Position.Locate, which Partial relies on,
// against a scan of the stacks. It once failed with more than 4 stacks (the
// stack was packed into 2 bits, so stack 4 read as stack 0), which made
// Partial look at the wrong card.
func TestLocateManyStacks(t *testing.T) {
	for _, stacks := range []int{3, 4, 5, 8} {
		rules := solver.Rules{Stacks: stacks}
		bad := 0
		for seed := range uint64(10) {
			d := randomDeck(seed)
			pl := &player{rng: shuffle.NewRand(seed), tableFirst: 0.5}
			play(t, &d, rules, pl, func(g *solver.Game, trace []solver.Move) {
				p := g.View()
				for s := range p.Stacks() {
					for i, c := range p.AppendStack(nil, s) {
						x := c.Table()
						if x == 0 {
							continue
						}
						if ls, li := p.Locate(x, solver.TablePos(x, c.Rank())); ls != s || li != i {
							if bad == 0 {
								t.Errorf("%d stacks, deck %s, trace %q: %s for table %d lies at %c[%d], Locate says stack %d index %d",
									stacks, &d, solver.FormatTrace(trace, rules), c.Rank(), x, rules.StackName(s), i, ls, li)
							}
							bad++
						}
					}
				}
			})
		}
		if bad > 0 {
			t.Errorf("%d stacks: Locate wrong %d times", stacks, bad)
		}
	}
}

// TestPartialManyStacks shows the consequence for Partial: with 5 stacks it
// refused moves that closed no cycle.
func TestPartialManyStacks(t *testing.T) {
	rules := solver.Rules{Stacks: 5}
	wrong := 0
	for seed := range uint64(10) {
		d := randomDeck(seed)
		pl := &player{rng: shuffle.NewRand(seed), tableFirst: 0.8, guard: exactCheck}
		var trace []solver.Move
		pl.visit = func(p solver.View, y solver.Rank, x, s int) {
			if Partial(p, y, x, s) && !Closes(p, y, x, s) {
				if wrong == 0 {
					t.Errorf("deck %s, trace %q, stacks %s: Partial refuses %s on %c for %d, which closes no cycle",
						&d, solver.FormatTrace(trace, rules), stacksString(p), y, rules.StackName(s), x)
				}
				wrong++
			}
		}
		play(t, &d, rules, pl, func(g *solver.Game, tr []solver.Move) { trace = tr })
	}
	if wrong > 0 {
		t.Errorf("5 stacks: Partial wrong %d times", wrong)
	}
}
