package clairvoyant_test

import (
	"bytes"
	"testing"

	"github.com/calcsol/calcsol/internal/longtest"
	"github.com/calcsol/calcsol/solver"
)

type bytesBuffer = bytes.Buffer

// scale multiplies the number of cases the long tests check: 10 with -tags
// slow.
var scale = 1

// quick reports whether the tests check their small sizes: by default and
// with -short; CALCSOL_LONG=1 (package longtest) checks the full ones, and
// -tags slow ten times as many.
func quick() bool { return scale == 1 && (testing.Short() || !longtest.Enabled()) }

// cases returns n cases (scaled) in the long run, a fifth of n otherwise,
// and a tenth under the race detector (package longtest), whose value is in
// the concurrent paths a few cases exercise.
func cases(n int) int {
	if !quick() {
		return n * scale
	}
	if longtest.Race {
		return max(n/10, 1)
	}
	return max(n/5, 1)
}

// pick returns race under the race detector, small in the quick run and
// long in the long one (CALCSOL_LONG=1 or -tags slow).
func pick[T any](race, small, long T) T {
	if !quick() {
		return long
	}
	if longtest.Race {
		return race
	}
	return small
}

// stockCuts maps each number of cards the stock holds, with a card drawn,
// somewhere in game trace on d, to the length of the prefix of trace after
// which that first happens (where handoffs and autopsies search).
func stockCuts(t *testing.T, d *solver.Deck, r solver.Rules, trace []solver.Move) map[int]int {
	t.Helper()
	cut := map[int]int{}
	g, err := solver.NewGame(d, r)
	if err != nil {
		t.Fatal(err)
	}
	for j := 0; ; j++ {
		if _, seen := cut[g.StockLen()]; g.Drawn() != 0 && !seen {
			cut[g.StockLen()] = j
		}
		if j == len(trace) {
			return cut
		}
		if err := g.Apply(trace[j]); err != nil {
			t.Fatalf("move %d of the game does not replay: %v", j, err)
		}
	}
}
