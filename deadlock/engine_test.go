package deadlock

import (
	"flag"
	"testing"

	"github.com/calcsol/calcsol/decks"
	"github.com/calcsol/calcsol/solver"
)

var engineBugs = flag.Bool("enginebugs", false, "run the tests that show known bugs of package solver")

// TestLocateManyStacks checks solver.Position.Locate, which Partial relies on,
// against a scan of the stacks. With more than 4 stacks it fails: Position
// packs the stack into the top 2 bits of a uint8 (where[x][k] = s<<6 | index),
// so stack 4 reads as stack 0, 5 as 1, and so on; Partial then looks at the
// wrong card and reports deadlocks that do not exist (and may miss its own
// two shapes). Reported to the lead; skipped unless -enginebugs is given, so
// that the suite stays green until solver is fixed. Remove the skip then.
func TestLocateManyStacks(t *testing.T) {
	if !*engineBugs {
		t.Skip("known solver bug (Locate with more than 4 stacks); run with -enginebugs")
	}
	for _, stacks := range []int{3, 4, 5, 8} {
		rules := solver.Rules{Stacks: stacks}
		bad := 0
		for seed := range uint64(10) {
			d := randomDeck(seed)
			pl := &player{rng: decks.NewRand(seed), tableFirst: 0.5}
			play(t, &d, rules, pl, func(g *solver.Game, trace []solver.Move) {
				p := &g.Position
				for s := range p.Stacks() {
					for i, c := range p.Stack(s) {
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
// refuses moves that close no cycle. Skipped unless -enginebugs is given.
func TestPartialManyStacks(t *testing.T) {
	if !*engineBugs {
		t.Skip("known solver bug (Locate with more than 4 stacks); run with -enginebugs")
	}
	rules := solver.Rules{Stacks: 5}
	wrong := 0
	for seed := range uint64(10) {
		d := randomDeck(seed)
		pl := &player{rng: decks.NewRand(seed), tableFirst: 0.8, guard: exactCheck}
		var trace []solver.Move
		pl.visit = func(p *solver.Position, y solver.Rank, x, s int) {
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
