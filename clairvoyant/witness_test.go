package clairvoyant_test

import (
	"context"
	"slices"
	"sync/atomic"
	"testing"

	"github.com/calcsol/calcsol/clairvoyant"
	"github.com/calcsol/calcsol/configs"
	"github.com/calcsol/calcsol/solver"
)

// TestWitness: SolveAll takes a witness's line as a proof only when it
// replays to a won game; anything else leaves the deck to the search.
func TestWitness(t *testing.T) {
	rules := solver.Rules{Stacks: 4, Preplaced: true}
	ds := corpusDecks(t, 4)
	budget := clairvoyant.Budget{Nodes: 200_000}
	// The winning lines the search itself finds, to hand back as witnesses.
	lines := make(map[solver.Deck][]solver.Move)
	plain, err := clairvoyant.SolveAll(context.Background(), ds, rules, clairvoyant.Options{}, budget, 1, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range plain {
		if r.Winnable != clairvoyant.Yes {
			t.Fatalf("deck %d is not won within the budget: pick other decks", i)
		}
		lines[ds[i]] = r.Trace
	}
	tests := []struct {
		name     string
		witness  func(*solver.Deck) []solver.Move
		searched bool // the search had to run (nodes > 0)
	}{
		{"a winning line settles the deck", func(d *solver.Deck) []solver.Move { return lines[*d] }, false},
		{"no line", func(*solver.Deck) []solver.Move { return nil }, true},
		{"a line cut short", func(d *solver.Deck) []solver.Move { l := lines[*d]; return l[:len(l)-1] }, true},
		{"an illegal line", func(d *solver.Deck) []solver.Move {
			return append([]solver.Move{{Kind: solver.StackToTable, Stack: 0, Table: 1}}, lines[*d]...)
		}, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			opts := clairvoyant.Options{Witness: func(_ context.Context, d *solver.Deck, _ solver.Rules) []solver.Move { return tc.witness(d) }}
			res, err := clairvoyant.SolveAll(context.Background(), ds, rules, opts, budget, 2, nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			for i, r := range res {
				if r.Winnable != clairvoyant.Yes {
					t.Errorf("deck %d: %s, want winnable", i, r.Winnable)
				}
				if searched := r.Nodes > 0; searched != tc.searched {
					t.Errorf("deck %d: searched %v (%d nodes), want %v", i, searched, r.Nodes, tc.searched)
				}
				if g, err := solver.Replay(&ds[i], rules, r.Trace); err != nil || !g.Won() {
					t.Errorf("deck %d: the trace does not win: %v", i, err)
				}
			}
		})
	}
}

// countStarts counts the sessions a strategy opens.
type countStarts struct {
	solver.Strategy
	n atomic.Int32
}

func (c *countStarts) Start(ctx context.Context, r solver.Rules) (solver.Session, error) {
	c.n.Add(1)
	return c.Strategy.Start(ctx, r)
}

// TestStrategyWitness: the decks a strategy wins are settled by its games
// alone (a search of one node settles nothing), the others stay unknown;
// sessions are reused (at most one per worker); a strategy that cannot
// play the rules is an error at once.
func TestStrategyWitness(t *testing.T) {
	reg := configs.Strategies()
	base, err := reg.BuildSpec("priority:deadlock_check=exact")
	if err != nil {
		t.Fatal(err)
	}
	rules := solver.Rules{Stacks: 4, Preplaced: true}
	ds := corpusDecks(t, 30)
	won := 0
	for _, d := range ds {
		sess, err := base.Start(context.Background(), rules)
		if err != nil {
			t.Fatal(err)
		}
		res, err := solver.Play(context.Background(), &d, rules, sess, false)
		sess.Close()
		if err != nil {
			t.Fatal(err)
		}
		if res.Won {
			won++
		}
	}
	if won == 0 || won == len(ds) {
		t.Fatalf("the strategy wins %d of %d decks: pick decks where it wins some and loses some", won, len(ds))
	}
	cs := &countStarts{Strategy: base}
	w, err := clairvoyant.NewStrategyWitness(context.Background(), cs, rules)
	if err != nil {
		t.Fatal(err)
	}
	const workers = 2
	res, err := clairvoyant.SolveAll(context.Background(), ds, rules, clairvoyant.Options{Witness: w.Line}, clairvoyant.Budget{Nodes: 1}, workers, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	tally := clairvoyant.Count(res)
	if tally.Winnable != won || tally.Unknown != len(ds)-won {
		t.Errorf("winnable %d, unknown %d; the strategy wins %d of %d", tally.Winnable, tally.Unknown, won, len(ds))
	}
	if n := cs.n.Load(); n > workers {
		t.Errorf("%d sessions opened for %d workers", n, workers)
	}
	three, err := reg.BuildSpec("priority:table=tuned-3")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := clairvoyant.NewStrategyWitness(context.Background(), three, rules); err == nil {
		t.Error("a 3-stack table was accepted as a witness for 4 stacks")
	}
}

// TestStrategyWitnessHandoff: with a Handoff, a deck the strategy loses can
// still be settled, by a search from a position of the strategy's own game:
// the line is that game's moves up to where the stock first holds one of the
// handoff sizes, then the search's, and it wins. Decks the strategy wins are
// settled by its games as before, and nothing is settled without a win.
func TestStrategyWitnessHandoff(t *testing.T) {
	base, err := configs.Strategies().BuildSpec("priority:deadlock_check=exact")
	if err != nil {
		t.Fatal(err)
	}
	rules := solver.Rules{Stacks: 3}
	ds := corpusDecks(t, pick(12, 16, 30))
	stocks := []int{16, 8}
	// The strategy's games, and for each handoff size the length of the
	// game's prefix after which the stock first holds that many cards.
	games := make([]solver.Result, len(ds))
	cuts := make([]map[int]int, len(ds))
	for i := range ds {
		sess, err := base.Start(context.Background(), rules)
		if err != nil {
			t.Fatal(err)
		}
		games[i], err = solver.Play(context.Background(), &ds[i], rules, sess, true)
		sess.Close()
		if err != nil {
			t.Fatal(err)
		}
		cuts[i] = stockCuts(t, &ds[i], rules, games[i].Trace)
	}
	w, err := clairvoyant.NewStrategyWitness(context.Background(), base, rules)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	budget := clairvoyant.Budget{Nodes: 20_000}
	w.SetHandoff(clairvoyant.Handoff{Stock: stocks, Budget: budget})
	res, err := clairvoyant.SolveAll(context.Background(), ds, rules, clairvoyant.Options{Witness: w.Line}, clairvoyant.Budget{Nodes: 1}, 2, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	// The witness counts the nodes of every handoff search it ran: on each
	// deck the strategy loses, fewest cards first, up to the first win. With
	// one worker it runs them in deck order on one reused solver (whose memo
	// keeps the size it grew to, which can change a count), as below.
	w1, err := clairvoyant.NewStrategyWitness(context.Background(), base, rules)
	if err != nil {
		t.Fatal(err)
	}
	defer w1.Close()
	w1.SetHandoff(clairvoyant.Handoff{Stock: stocks, Budget: budget})
	if _, err := clairvoyant.SolveAll(context.Background(), ds, rules, clairvoyant.Options{Witness: w1.Line}, clairvoyant.Budget{Nodes: 1}, 1, nil, nil); err != nil {
		t.Fatal(err)
	}
	sv := clairvoyant.NewSolver(clairvoyant.Options{MemoBits: 18})
	var wantNodes int64
	for i := range ds {
		if games[i].Won {
			continue
		}
		for _, size := range []int{8, 16} {
			n, ok := cuts[i][size]
			if !ok {
				continue
			}
			res, err := sv.SolveAfter(context.Background(), ds[i], rules, games[i].Trace[:n], budget)
			if err != nil {
				t.Fatal(err)
			}
			wantNodes += res.Nodes
			if res.Winnable == clairvoyant.Yes {
				break
			}
		}
	}
	if got := w1.HandoffNodes(); got != wantNodes || got == 0 {
		t.Errorf("the witness counts %d nodes in handoff searches, the searches it ran took %d", got, wantNodes)
	}
	handedOff := 0
	for i, r := range res {
		switch {
		case games[i].Won:
			if r.Winnable != clairvoyant.Yes || !slices.Equal(r.Trace, games[i].Trace) {
				t.Errorf("deck %d: the strategy wins it, but the result is %s with another line", i, r.Winnable)
			}
			continue
		case r.Winnable != clairvoyant.Yes:
			continue
		}
		if g, err := solver.Replay(&ds[i], rules, r.Trace); err != nil || !g.Won() {
			t.Errorf("deck %d: the handed-off line does not win: %v", i, err)
			continue
		}
		// The line is the game up to the first handoff position, fewest
		// cards first, from which a search of the budget wins, followed by
		// that search's line.
		var want []solver.Move
		for _, size := range []int{8, 16} {
			n, ok := cuts[i][size]
			if !ok {
				continue
			}
			res, err := clairvoyant.NewSolver(clairvoyant.Options{MemoBits: 18}).SolveAfter(context.Background(), ds[i], rules, games[i].Trace[:n], budget)
			if err != nil {
				t.Fatal(err)
			}
			if res.Winnable == clairvoyant.Yes {
				want = append(slices.Clone(games[i].Trace[:n]), res.Trace...)
				break
			}
		}
		if !slices.Equal(r.Trace, want) {
			t.Errorf("deck %d: the handed-off line is not the game up to the first winning handoff position and that search's line", i)
		}
		handedOff++
	}
	if handedOff == 0 {
		t.Fatal("no deck the strategy loses was settled by a handoff search: pick other decks or a larger budget")
	}
	t.Logf("%d decks settled by handoff searches", handedOff)
}
