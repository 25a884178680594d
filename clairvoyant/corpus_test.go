package clairvoyant_test

import (
	"context"
	"slices"
	"testing"

	"github.com/calcsol/calcsol/clairvoyant"
	"github.com/calcsol/calcsol/solver"
)

// TestSolveAllStart checks that Options.Start changes the order SolveAll
// searches the decks in, never an answer, and that NotReached names where a
// stopped run can go on: the first deck after start it did not search
// (with a smaller budget under the race detector: the answers it compares
// are those of the budget).
func TestSolveAllStart(t *testing.T) {
	ds := corpusDecks(t, 8)
	rules := solver.Rules{Stacks: 4, Preplaced: true}
	budget := clairvoyant.Budget{Nodes: pick[int64](20_000, 200_000, 200_000)}
	ctx := context.Background()
	want, err := clairvoyant.SolveAll(ctx, ds, rules, clairvoyant.Options{}, budget, 1, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if k := clairvoyant.NotReached(want, 0); k != -1 {
		t.Errorf("a finished run: NotReached = %d, want -1", k)
	}
	// Decks 1 and 6 settled by an earlier run: they are skipped, not searched.
	prior := make([]clairvoyant.Result, len(ds))
	prior[1] = clairvoyant.Result{Winnable: want[1].Winnable}
	prior[6] = clairvoyant.Result{Winnable: want[6].Winnable}
	for _, tc := range []struct {
		start, stopAfter int
		searched         []int
		notReached       int
	}{
		{start: 0, stopAfter: 3, searched: []int{0, 2, 3}, notReached: 4},
		{start: 5, stopAfter: 2, searched: []int{5, 7}, notReached: 0},
		{start: 7, stopAfter: 4, searched: []int{7, 0, 2, 3}, notReached: 4},
		{start: 3, stopAfter: 6, searched: []int{3, 4, 5, 7, 0, 2}, notReached: -1},
	} {
		all, err := clairvoyant.SolveAll(ctx, ds, rules, clairvoyant.Options{Start: tc.start}, budget, 2, prior, nil)
		if err != nil {
			t.Fatal(err)
		}
		for i := range all {
			if all[i].Winnable != want[i].Winnable {
				t.Errorf("start %d: deck %d %v, want %v", tc.start, i, all[i].Winnable, want[i].Winnable)
			}
		}
		// One worker, stopped after stopAfter decks: those searched are the
		// first stopAfter of the order, the rest are not reached.
		stop, cancel := context.WithCancel(ctx)
		var searched []int
		got, err := clairvoyant.SolveAll(stop, ds, rules, clairvoyant.Options{Start: tc.start}, budget, 1, prior, func(done int) {
			if done == tc.stopAfter {
				cancel()
			}
		})
		cancel()
		if tc.notReached >= 0 && err == nil {
			t.Errorf("start %d, stopped after %d: no error", tc.start, tc.stopAfter)
		}
		for i, r := range got {
			if prior[i].Winnable == clairvoyant.Unknown && (r.Nodes > 0 || r.Winnable != clairvoyant.Unknown) {
				searched = append(searched, i)
			}
		}
		if !slices.Equal(searched, slices.Sorted(slices.Values(tc.searched))) {
			t.Errorf("start %d, stopped after %d: searched %v, want %v", tc.start, tc.stopAfter, searched, tc.searched)
		}
		if k := clairvoyant.NotReached(got, tc.start); k != tc.notReached {
			t.Errorf("start %d, stopped after %d: NotReached = %d, want %d", tc.start, tc.stopAfter, k, tc.notReached)
		}
	}
	for _, start := range []int{-1, len(ds)} {
		if _, err := clairvoyant.SolveAll(ctx, ds, rules, clairvoyant.Options{Start: start}, budget, 1, nil, nil); err == nil {
			t.Errorf("start %d of %d decks: no error", start, len(ds))
		}
	}
}

// TestSolverHistory checks that a Solver's answers do not depend on what it
// searched before: each deck gets the verdict and the node count a new
// Solver gives it, whether the reused one meets it first, last, or after
// searches that grew its memo. (A memo that kept its size between searches
// made the reused solver find these wins after other node counts, and
// decks near the budget won or not by the order they came in.)
func TestSolverHistory(t *testing.T) {
	all := corpusDecks(t, 28)
	var ds []solver.Deck
	// 4 stacks: won after 8,000 to 29,000 nodes; two of them by default,
	// each met once after the other's search grew the memo.
	for _, i := range pick([]int{13, 25}, []int{13, 25}, []int{13, 17, 25, 27}) {
		ds = append(ds, all[i])
	}
	ctx := context.Background()
	rules := solver.Rules{Stacks: 4}
	budget := clairvoyant.Budget{Nodes: 100_000}
	for _, opts := range []clairvoyant.Options{{}, {MemoBits: 13}} {
		want := make([]clairvoyant.Result, len(ds))
		for i := range ds {
			r, err := clairvoyant.NewSolver(opts).Solve(ctx, ds[i], rules, budget)
			if err != nil {
				t.Fatal(err)
			}
			want[i] = r
		}
		// The reused solver meets the decks forwards, then backwards.
		sv := clairvoyant.NewSolver(opts)
		for k := range 2 * len(ds) {
			i := k
			if k >= len(ds) {
				i = 2*len(ds) - 1 - k
			}
			got, err := sv.Solve(ctx, ds[i], rules, budget)
			if err != nil {
				t.Fatal(err)
			}
			if got.Winnable != want[i].Winnable || got.Nodes != want[i].Nodes {
				t.Errorf("memo bits %d, deck %d, search %d of the solver: %v after %d nodes, a new solver %v after %d",
					opts.MemoBits, i, k+1, got.Winnable, got.Nodes, want[i].Winnable, want[i].Nodes)
			}
		}
	}
}
