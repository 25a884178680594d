package tournament_test

import (
	"context"
	"slices"
	"testing"

	"github.com/calcsol/calcsol/configs"
	"github.com/calcsol/calcsol/decks/corpus"
	"github.com/calcsol/calcsol/solver"
	"github.com/calcsol/calcsol/tournament"
	"github.com/calcsol/calcsol/tournament/stats"
)

// A match counts exactly what each side wins on the decks it took, in its
// order; stops at the first deck where the test decides; and finds no
// difference between a strategy and itself.
func TestMatch(t *testing.T) {
	c, err := corpus.OpenCalculation("uniform-1000", "uniform-1000")
	if err != nil {
		t.Fatal(err)
	}
	reg := configs.Strategies()
	build := func(spec string) solver.Strategy {
		s, err := reg.BuildSpec(spec)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	r := solver.Rules{Stacks: 3}
	tests := []struct {
		a, b    string
		max     int
		verdict stats.Verdict
	}{
		{"greedy", "tuned-3", 0, stats.BStronger},
		{"tuned-3", "greedy", 0, stats.AStronger},
		{"priority", "priority", 300, stats.Undecided},
	}
	for _, tc := range tests {
		opt := tournament.MatchOptions{Rules: r, Corpus: c, Test: stats.DefaultSPRT, Max: tc.max, OrderSeed: 1, Workers: 2}
		m, err := tournament.Match(context.Background(), build(tc.a), build(tc.b), [2]string{tc.a, tc.b}, opt)
		if err != nil {
			t.Fatal(err)
		}
		if m.Verdict != tc.verdict {
			t.Errorf("%s vs %s: %v after %d decks, want %v", tc.a, tc.b, m.Verdict, m.Decks, tc.verdict)
		}
		if got, want := m.Order, tournament.MatchOrder(c.Len, 1)[:m.Decks]; !slices.Equal(got, want) {
			t.Errorf("%s vs %s: decks counted are not the order's first %d", tc.a, tc.b, m.Decks)
		}
		// The counts, replayed deck by deck in the order of play.
		decks := make([]solver.Deck, m.Decks)
		for i, d := range m.Order {
			decks[i] = c.Decks()[d]
		}
		_, ra, _ := tournament.Evaluate(context.Background(), decks, r, build(tc.a), tournament.Options{})
		_, rb, _ := tournament.Evaluate(context.Background(), decks, r, build(tc.b), tournament.Options{})
		winsA, winsB, onlyA, onlyB := 0, 0, 0, 0
		for i := range decks {
			winsA, winsB = winsA+b2i(ra[i].Won), winsB+b2i(rb[i].Won)
			onlyA, onlyB = onlyA+b2i(ra[i].Won && !rb[i].Won), onlyB+b2i(rb[i].Won && !ra[i].Won)
			decided := stats.DefaultSPRT.Decide(onlyA, onlyB) != stats.Undecided
			if decided != (i == m.Decks-1 && m.Verdict != stats.Undecided) {
				t.Fatalf("%s vs %s: the test decides at deck %d of %d counted", tc.a, tc.b, i+1, m.Decks)
			}
		}
		if winsA != m.A.Wins || winsB != m.B.Wins || onlyA != m.OnlyA || onlyB != m.OnlyB {
			t.Errorf("%s vs %s: counted %d, %d, only %d, %d; replayed %d, %d, only %d, %d",
				tc.a, tc.b, m.A.Wins, m.B.Wins, m.OnlyA, m.OnlyB, winsA, winsB, onlyA, onlyB)
		}
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
