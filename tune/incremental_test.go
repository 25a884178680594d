package tune

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/calcsol/calcsol/internal/longtest"
	"github.com/calcsol/calcsol/solver"
	"github.com/calcsol/calcsol/strategies"
	"github.com/calcsol/calcsol/tournament"
)

// TestIncrementalExact: scoring a neighbour only on the decks its change can
// affect gives, deck by deck, what the strategy gives when it plays them all:
// 80 steps on 1,500 decks with CALCSOL_LONG=1, fewer by default and under
// the race detector (package longtest).
func TestIncrementalExact(t *testing.T) {
	rules := solver.Rules{Stacks: 3}
	decks := corpus(t, longtest.Size(200, 500, 1500), 11).Decks
	space := &Space{Rules: rules, Ops: true, Extended: true} // every kind of operation
	rng := rand.New(rand.NewPCG(3, 4))
	cur := Candidate{Table: table1(t)}
	full := func(c Candidate) []bool {
		st, err := build(c)
		if err != nil {
			t.Fatal(err)
		}
		_, res, err := tournament.Evaluate(context.Background(), decks, rules, st, tournament.Options{Workers: 2})
		if err != nil {
			t.Fatal(err)
		}
		won := make([]bool, len(res))
		for i, r := range res {
			won[i] = r.Won
		}
		return won
	}
	base, _, err := playIncremental(context.Background(), cur.Table, nil, nil, rules, decks, 2)
	if err != nil {
		t.Fatal(err)
	}
	skipped, total := 0, 0
	for step := range longtest.Size(10, 30, 80) {
		var next Candidate
		var desc string
		if step%10 == 9 {
			next, desc, err = space.Kick(rng, cur, 3)
		} else {
			next, desc, err = space.Neighbour(rng, cur)
		}
		if err != nil {
			t.Fatal(err)
		}
		got, played, err := playIncremental(context.Background(), next.Table, cur.Table, base, rules, decks, 2)
		if err != nil {
			t.Fatal(err)
		}
		want := full(next)
		for i := range want {
			if got.won[i] != want[i] {
				t.Fatalf("step %d (%s): deck %d: incremental %v, full %v", step, desc, i, got.won[i], want[i])
			}
		}
		skipped += len(decks) - played
		total += len(decks)
		// Walk on, through better and worse tables alike.
		if step%3 == 0 {
			cur, base = next, got
		}
	}
	t.Logf("skipped %d of %d games (%.0f %%)", skipped, total, 100*float64(skipped)/float64(total))
	if skipped == 0 {
		t.Error("no game was skipped")
	}
}

// TestSearchIncrementalSameLog: the incremental search writes the same log
// as the one that plays every deck through the strategy contract.
func TestSearchIncrementalSameLog(t *testing.T) {
	opt := testOptions(t, 60, 2)
	opt.Space.Options = nil
	_, plain := search(t, opt)
	opt.Incremental = true
	res, inc := search(t, opt)
	if plain != inc {
		t.Fatal("incremental search wrote another log")
	}
	if res.Skipped == 0 {
		t.Error("incremental search skipped no game")
	}
}

// TestIndexOfMove: a move maps to the latest list index (plus one) of any
// operation that could have made it — Fx and Ex may choose any stack, Nx
// any stack whose top fits — so that a change after that index cannot
// change the decision.
func TestIndexOfMove(t *testing.T) {
	tests := []struct {
		ops  string
		move solver.Move
		want uint8
	}{
		{"Z1 X1 C1 N1 F1 E1", solver.Move{Kind: solver.ToStack, Stack: 0, Table: 1}, 6}, // E1
		{"E1 F1 Z1 X1 C1 N1", solver.Move{Kind: solver.ToStack, Stack: 2, Table: 1}, 6}, // N1
		{"F1 E1 Z1 X1 C1", solver.Move{Kind: solver.ToStack, Stack: 0, Table: 1}, 3},    // Z1
		{"F1 Z1 X1 C1 E2", solver.Move{Kind: solver.ToStack, Stack: 1, Table: 1}, 3},    // X1; E2 is for table 2
		{"Z1 X1 C1 F2", solver.Move{Kind: solver.ToStack, Stack: 1, Table: 2}, 4},       // F2
		{"T1 Z1 X1 C1 F1", solver.Move{Kind: solver.ToTable, Table: 1}, 1},              // T1
		{"Z1 X1 C1", solver.Move{Kind: solver.ToStack, Stack: 0, Table: 2}, exhausted},  // nothing makes it
	}
	for _, tc := range tests {
		tab := &strategies.Table{Name: "t", Stacks: "ZXC", Options: strategies.DefaultOptions()}
		ops, err := strategies.ParseOps(tc.ops, tab.Stacks)
		if err != nil {
			t.Fatal(err)
		}
		for r := solver.Rank(1); r <= solver.NumRanks; r++ {
			tab.Ops[r] = ops
		}
		if got := newIndexes(tab).of(5, tc.move); got != tc.want {
			t.Errorf("%q, move %+v: index bound %d, want %d", tc.ops, tc.move, got, tc.want)
		}
	}
}
