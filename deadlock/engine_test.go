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
