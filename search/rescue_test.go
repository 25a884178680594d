package search

import (
	"slices"
	"testing"

	"github.com/calcsol/calcsol/configs"
	"github.com/calcsol/calcsol/solver"
)

// TestRescuePlaysOnWhereBaseResigns: the rescue wrapper changes nothing in a
// game its base wins; where the base resigns, the wrapped game begins with
// the base's moves and goes on (its trace replays), and some of those games
// are won — games the priority table gives up that were not lost.
func TestRescuePlaysOnWhereBaseResigns(t *testing.T) {
	base, err := configs.Strategies().BuildSpec("priority:deadlock_check=exact")
	if err != nil {
		t.Fatal(err)
	}
	rescue := &RescueStrategy{Base: base}
	ds := loadCorpus(t)[:60]
	for _, rules := range []solver.Rules{{Stacks: 4}, {Stacks: 4, Preplaced: true}, {Stacks: 3}} {
		t.Run(rules.String(), func(t *testing.T) {
			saved, resigned := 0, 0
			for i, d := range ds {
				bt, bwon := playResult(t, base, d, rules)
				rt, rwon := playResult(t, rescue, d, rules)
				if bwon {
					if !rwon || !slices.Equal(bt, rt) {
						t.Errorf("deck %d: the base wins; the rescue wrapper plays another game", i)
					}
					continue
				}
				resigned++
				if len(rt) <= len(bt) || !slices.Equal(bt, rt[:len(bt)]) {
					t.Errorf("deck %d: the wrapped game does not go on from the base's %d moves", i, len(bt))
				}
				if rwon {
					saved++
				}
			}
			t.Logf("%s: base lost %d of %d decks; the rescue won %d of them", rules, resigned, len(ds), saved)
			if rules.Stacks == 4 && saved == 0 {
				t.Errorf("no game the base gave up was won on: the wrapper does nothing")
			}
		})
	}
}
