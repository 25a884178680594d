package search

import (
	"context"
	"testing"

	"github.com/calcsol/calcsol/decks/corpus"
	"github.com/calcsol/calcsol/solver"
)

// loadCorpus reads the shipped 1,000-deck corpus.
func loadCorpus(t testing.TB) []solver.Deck {
	t.Helper()
	ds, err := corpus.LoadCalculationDecks("uniform-1000")
	if err != nil {
		t.Fatal(err)
	}
	return ds
}

// playTo plays deck d with the deadlock-graph player until k or fewer cards
// are left in the stock, and returns that position; ok is false when the
// game ended before.
func playTo(t testing.TB, d *solver.Deck, r solver.Rules, k int) (solver.State, bool) {
	t.Helper()
	g, err := solver.NewGame(d, r)
	if err != nil {
		t.Fatal(err)
	}
	c := NewDeadlockGraph(DefaultWeights)
	for !g.Over() {
		if g.StockLen() <= k && g.Drawn() != 0 {
			return g.State, true
		}
		m, err := c.Choose(g.View())
		if err != nil {
			return solver.State{}, false
		}
		if err := g.Apply(m); err != nil {
			t.Fatalf("illegal move %s: %v", m.Format(r), err)
		}
	}
	return solver.State{}, false
}

var _ = context.Background
