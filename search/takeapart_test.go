package search

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/calcsol/calcsol/solver"
)

// TestAcyclicSharedAgrees: checks that keep what every earlier check
// learned (sharedStates, as the endgame search checks), over a run of
// positions, their children and grandchildren, answer as fresh checks do;
// with a memory so small that it is dropped again and again, too, and with
// more stacks than a shared state names (checked on their own).
func TestAcyclicSharedAgrees(t *testing.T) {
	t.Parallel()
	var fresh acyclicSearch
	kept := acyclicSearch{shared: &sharedStates{}}
	small := acyclicSearch{shared: &sharedStates{limit: 64}}
	counts := map[string]int{}
	check := func(what string, st *solver.State) {
		t.Helper()
		want := fresh.acyclic(st)
		for name, a := range map[string]*acyclicSearch{"kept": &kept, "small": &small} {
			if got := a.acyclic(st); got != want {
				t.Fatalf("%s: %v with the %s memory, %v fresh\n%v", what, got, name, want, st.View())
			}
		}
		counts[fmt.Sprint(want)]++
	}
	for _, stacks := range []int{2, 3, 4, 5} {
		rng := rand.New(rand.NewPCG(uint64(stacks), 13))
		for i := range sized(8, 12, 60) {
			st := randomStacked(rng, solver.Rules{Stacks: stacks}, 4+i%30)
			check(fmt.Sprintf("%d stacks, position %d", stacks, i), &st)
			for j, next := range drawnChildren(rng, &st) {
				check(fmt.Sprintf("%d stacks, position %d, child %d", stacks, i, j), &next)
				for k, last := range drawnChildren(rng, &next) {
					check(fmt.Sprintf("%d stacks, position %d, child %d.%d", stacks, i, j, k), &last)
				}
			}
		}
	}
	if counts["true"] == 0 || counts["false"] == 0 {
		t.Fatalf("positions acyclic / not: %v: the test needs both", counts)
	}
	if kept.shared.states.count == 0 {
		t.Fatal("the kept memory holds no state: nothing was shared")
	}
	t.Logf("positions acyclic / not: %v; states kept at the end: %d", counts, kept.shared.states.count)
}

// drawnChildren draws one of st's unseen ranks and returns the positions
// after up to three of the legal moves with it, at random.
func drawnChildren(rng *rand.Rand, st *solver.State) []solver.State {
	var ranks []solver.Rank
	for q := solver.Rank(1); q <= solver.NumRanks; q++ {
		for range st.Remaining(q) {
			ranks = append(ranks, q)
		}
	}
	if len(ranks) == 0 || st.Drawn() != 0 {
		return nil
	}
	drawn := *st
	if err := drawn.Reveal(ranks[rng.IntN(len(ranks))]); err != nil {
		panic(err)
	}
	var out []solver.State
	var buf [solver.MaxLegalMoves]solver.Move
	for _, m := range drawn.AppendLegalMoves(buf[:0]) {
		next := drawn
		if err := next.Apply(m); err != nil {
			panic(err)
		}
		out = append(out, next)
	}
	rng.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out[:min(len(out), 3)]
}
