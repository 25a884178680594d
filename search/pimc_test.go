package search

import (
	"slices"
	"testing"

	"github.com/calcsol/calcsol/configs"
	"github.com/calcsol/calcsol/solver"
)

// TestPIMCFair: the pimc player sees only what a player sees. Two decks that
// deal the same cards until some point and differ after it get the same
// moves until the first card that differs is drawn; and the player is
// deterministic (the same deck twice, the same game).
func TestPIMCFair(t *testing.T) {
	t.Parallel()
	base, err := configs.Strategies().BuildSpec("priority:deadlock_check=exact")
	if err != nil {
		t.Fatal(err)
	}
	// Fewer samples under the race detector: the property holds for any.
	p := &PIMCStrategy{Base: base, K: 24, N: sized(2, 3, 6), Nodes: 2000}
	ds := loadCorpus(t)[:size(1, 3)]
	rules := solver.Rules{Stacks: 4, Preplaced: true}
	searched := 0
	for i, a := range ds {
		// b: a with its last 12 cards reversed.
		b := a
		for j := 0; j < 6; j++ {
			b[40+j], b[51-j] = b[51-j], b[40+j]
		}
		ta, tb, ta2 := play(t, p, a, rules), play(t, p, b, rules), play(t, p, a, rules)
		if !slices.Equal(ta, ta2) {
			t.Errorf("deck %d: two games of the same deck differ", i)
		}
		// The moves agree while the cards drawn agree: replay both traces
		// side by side and stop at the first differing drawn card.
		ga, _ := solver.NewGame(&a, rules)
		gb, _ := solver.NewGame(&b, rules)
		for k := 0; k < min(len(ta), len(tb)); k++ {
			if ga.Drawn() != gb.Drawn() {
				break
			}
			if ta[k] != tb[k] {
				t.Fatalf("deck %d, move %d: %s on one deck, %s on the other, with the same cards seen", i, k, ta[k].Format(rules), tb[k].Format(rules))
			}
			if ga.StockLen() <= p.K {
				searched++
			}
			if ga.Apply(ta[k]) != nil || gb.Apply(tb[k]) != nil {
				t.Fatalf("deck %d, move %d: illegal", i, k)
			}
		}
	}
	if searched == 0 {
		t.Fatal("no move was made by the search: the test checks nothing")
	}
}

// play plays deck d with s and returns the trace, which must replay.
func play(t *testing.T, s solver.Strategy, d solver.Deck, r solver.Rules) []solver.Move {
	t.Helper()
	tr, _ := playResult(t, s, d, r)
	return tr
}
