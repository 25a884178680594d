package tune

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/calcsol/calcsol/solver"
	"github.com/calcsol/calcsol/tournament"
)

// TestIncrementalExact: scoring a neighbour only on the decks its change can
// affect gives, deck by deck, what the strategy gives when it plays them all.
func TestIncrementalExact(t *testing.T) {
	rules := solver.Rules{Stacks: 3}
	decks := corpus(t, 1500, 11).Decks
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
	for step := range 80 {
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
