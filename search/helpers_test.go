package search

import (
	"context"
	"testing"

	"github.com/calcsol/calcsol/configs"
	"github.com/calcsol/calcsol/decks/corpus"
	"github.com/calcsol/calcsol/internal/longtest"
	"github.com/calcsol/calcsol/solver"
	"github.com/calcsol/calcsol/strategies"
)

// registry returns the built-in strategy kinds with this package's kinds
// registered beside them, as the calcsol command has them.
func registry() *strategies.Registry {
	reg := configs.Strategies()
	for _, k := range Kinds() {
		reg.MustRegister(k)
	}
	return reg
}

// quick reports whether the tests check their small sizes: by default and
// with -short; CALCSOL_LONG=1 (package longtest) checks the full ones.
func quick() bool { return testing.Short() || !longtest.Enabled() }

// size returns small when the tests check their small sizes, full otherwise.
func size(small, full int) int {
	if quick() {
		return small
	}
	return full
}

// sized is size with a third size, race, for the quick run under the race
// detector (package longtest), whose value is in the concurrent paths a few
// cases exercise.
func sized(race, small, full int) int {
	if quick() && longtest.Race {
		return race
	}
	return size(small, full)
}

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
	return playToWith(t, NewDeadlockGraph(DefaultWeights), d, r, k)
}

// playToWith is playTo with the player c.
func playToWith(t testing.TB, c solver.Chooser, d *solver.Deck, r solver.Rules, k int) (solver.State, bool) {
	t.Helper()
	moves, ok := playUntilWith(t, c, d, r, k)
	if !ok {
		return solver.State{}, false
	}
	g, err := solver.Replay(d, r, moves)
	if err != nil {
		t.Fatal(err)
	}
	return g.State, true
}

// playUntil plays d with the deadlock-graph player until k or fewer cards are
// left in the stock and returns the moves; ok is false if the game ended
// before.
func playUntil(t testing.TB, d *solver.Deck, r solver.Rules, k int) (moves []solver.Move, ok bool) {
	t.Helper()
	return playUntilWith(t, NewDeadlockGraph(DefaultWeights), d, r, k)
}

// playUntilWith is playUntil with the player c.
func playUntilWith(t testing.TB, c solver.Chooser, d *solver.Deck, r solver.Rules, k int) (moves []solver.Move, ok bool) {
	t.Helper()
	g, err := solver.NewGame(d, r)
	if err != nil {
		t.Fatal(err)
	}
	for !g.Over() {
		if g.StockLen() <= k && g.Drawn() != 0 {
			return moves, true
		}
		m, err := c.Choose(g.View())
		if err != nil {
			return nil, false
		}
		if err := g.Apply(m); err != nil {
			t.Fatalf("illegal move %s: %v", m.Format(r), err)
		}
		moves = append(moves, m)
	}
	return nil, false
}

// playResult plays deck d with s and returns the trace and whether the game
// was won; the trace must replay to the same end.
func playResult(t *testing.T, s solver.Strategy, d solver.Deck, r solver.Rules) ([]solver.Move, bool) {
	t.Helper()
	sess, err := s.Start(context.Background(), r)
	if err != nil {
		t.Fatal(err)
	}
	defer sess.Close()
	res, err := solver.Play(context.Background(), &d, r, sess, true)
	if err != nil || res.Failed {
		t.Fatalf("play: %v %s", err, res.Reason)
	}
	if g, err := solver.Replay(&d, r, res.Trace); err != nil || g.Won() != res.Won {
		t.Fatalf("replay: %v", err)
	}
	return res.Trace, res.Won
}
