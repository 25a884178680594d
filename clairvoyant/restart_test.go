package clairvoyant_test

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/calcsol/calcsol/clairvoyant"
	"github.com/calcsol/calcsol/solver"
)

func TestLuby(t *testing.T) {
	want := []int64{1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8, 1}
	for i, w := range want {
		if got := clairvoyant.Luby(i + 1); got != w {
			t.Errorf("luby(%d) = %d, want %d", i+1, got, w)
		}
	}
}

// TestRestartsAgree: restarts change the order of the search, never its
// answer. With the schedule shortened so that the restarts run on small
// positions, every position both solvers settle gets the same verdict, and
// the wins (replayed by SolveAfter itself) and the losses proved after
// restarts both occur. A cut run that left its refutations in the memo, or a
// run whose "no" is taken although it was cut, would make the restarted
// solver call winnable positions unwinnable.
func TestRestartsAgree(t *testing.T) {
	defer clairvoyant.SetRestartSchedule(50, 5)()
	want := pick(4, 8, cases(80)) // 4 positions under the race detector
	ds := corpusDecks(t, 400)
	rng := rand.New(rand.NewPCG(9, 1993))
	full := clairvoyant.NewSolver(clairvoyant.Options{})
	restarted := clairvoyant.NewSolver(clairvoyant.Options{Restarts: 1_000})
	budget := clairvoyant.Budget{Nodes: 40_000}
	var settled, yesAfterRuns, noAfterRuns int
	// Whole deals first (no stacked cards to assign at the root, so the
	// restarts' verdict is the answer), then positions near the end.
	for i := 0; settled < want && i < 400*scale; i++ {
		d := ds[i%len(ds)]
		rules := solver.Rules{Stacks: 3 + i%2, Preplaced: i%4 >= 2}
		var prefix []solver.Move
		if i >= 8 {
			prefix, _, _ = reducedPosition(t, full, d, rules, rng, 14+rng.IntN(10), 8, 12)
		}
		a, err := full.SolveAfter(context.Background(), d, rules, prefix, budget)
		if err != nil {
			t.Fatal(err)
		}
		b, err := restarted.SolveAfter(context.Background(), d, rules, prefix, budget)
		if err != nil {
			t.Fatal(err)
		}
		if a.Winnable == clairvoyant.Unknown || b.Winnable == clairvoyant.Unknown {
			continue
		}
		settled++
		if a.Winnable != b.Winnable {
			t.Fatalf("%s, deck %d after %s: %s without restarts, %s with them", rules, i%len(ds),
				solver.FormatTrace(prefix, rules), a.Winnable, b.Winnable)
		}
		if clairvoyant.RestartRuns(restarted) > 0 {
			if b.Winnable == clairvoyant.Yes {
				yesAfterRuns++
			} else {
				noAfterRuns++
			}
		}
	}
	t.Logf("%d positions settled by both; after restart runs %d won, %d proved lost", settled, yesAfterRuns, noAfterRuns)
	if settled < want || yesAfterRuns == 0 || !quick() && noAfterRuns == 0 {
		t.Errorf("settled %d positions (want %d), %d won and %d lost after restart runs (want some of each)",
			settled, want, yesAfterRuns, noAfterRuns)
	}
}
