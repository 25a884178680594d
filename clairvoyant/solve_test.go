package clairvoyant_test

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/calcsol/calcsol/clairvoyant"
	"github.com/calcsol/calcsol/decks/corpus"
	"github.com/calcsol/calcsol/solver"
)

// corpusDecks returns the first n decks of the shipped corpus uniform-1000.
func corpusDecks(t testing.TB, n int) []solver.Deck {
	t.Helper()
	ds, err := corpus.LoadCalculationDecks("uniform-1000")
	if err != nil {
		t.Fatal(err)
	}
	return ds[:n]
}

var variants = []solver.Rules{
	{Stacks: 3}, {Stacks: 3, Preplaced: true}, {Stacks: 4}, {Stacks: 4, Preplaced: true},
}

// TestWinsReplay checks that every win the solver finds is a legal trace that
// ends with all 52 cards on the tables.
func TestWinsReplay(t *testing.T) {
	n := cases(3)
	ds := corpusDecks(t, min(n, 1000))
	sv := clairvoyant.NewSolver(clairvoyant.Options{})
	wins := 0
	for _, rules := range variants {
		for i, d := range ds {
			res, err := sv.Solve(context.Background(), d, rules, clairvoyant.Budget{Nodes: 20_000})
			if err != nil {
				t.Fatal(err)
			}
			if res.Winnable != clairvoyant.Yes {
				if res.Trace != nil {
					t.Errorf("%s, deck %d: %s with a trace", rules, i, res.Winnable)
				}
				continue
			}
			wins++
			g, err := solver.Replay(&d, rules, res.Trace)
			if err != nil {
				t.Fatalf("%s, deck %d: the winning trace does not replay: %v\n%s", rules, i, err, solver.FormatTrace(res.Trace, rules))
			}
			if !g.Won() {
				t.Fatalf("%s, deck %d: the trace replays but does not win:\n%s", rules, i, g.String())
			}
		}
	}
	if wins == 0 {
		t.Fatal("no deck won: the test checks nothing")
	}
}

// randomPrefix plays deck with random legal moves until the stock holds
// left cards, and returns the moves. Stacked cards are sometimes assigned,
// sometimes not: the solver must treat both as free.
func randomPrefix(d solver.Deck, rules solver.Rules, rng *rand.Rand, start []solver.Move, left int) []solver.Move {
	g, err := solver.Replay(&d, rules, start)
	if err != nil {
		panic(err)
	}
	moves := append([]solver.Move(nil), start...)
	for !g.Over() && g.StockLen() > left {
		var cand []solver.Move
		for s := 0; s < rules.Stacks; s++ {
			top := g.Top(s)
			for x := 1; x <= solver.Tables; x++ {
				if top != 0 && g.Need(x) == top.Rank() {
					cand = append(cand, solver.Move{Kind: solver.StackToTable, Rank: top.Rank(), Stack: int8(s), Table: int8(x)})
				}
			}
		}
		if len(cand) > 0 && rng.IntN(10) > 0 {
			m := cand[rng.IntN(len(cand))]
			if err := g.Apply(m); err != nil {
				panic(err)
			}
			moves = append(moves, m)
			continue
		}
		r := g.Drawn()
		cand = cand[:0]
		for x := 1; x <= solver.Tables; x++ {
			if g.Need(x) == r {
				cand = append(cand, solver.Move{Kind: solver.ToTable, Rank: r, Table: int8(x)})
			}
		}
		if len(cand) == 0 || rng.IntN(10) == 0 {
			s := int8(rng.IntN(rules.Stacks))
			x := int8(rng.IntN(solver.Tables + 1))
			if x != 0 && (g.Filled(int(x), r) || g.Reserved(int(x), r)) {
				x = 0
			}
			cand = append(cand[:0], solver.Move{Kind: solver.ToStack, Rank: r, Stack: s, Table: x})
		}
		m := cand[rng.IntN(len(cand))]
		if err := g.Apply(m); err != nil {
			panic(err)
		}
		moves = append(moves, m)
	}
	return moves
}

// bruteForce decides the game g by trying every legal move of the rules
// (drawn card to any table that needs it or onto any stack, unassigned; any
// stack top to any table that needs it), with no pruning but a table of the
// positions already seen.
func bruteForce(g solver.Game, seen map[string]bool) bool {
	if g.Won() {
		return true
	}
	if g.Over() {
		return false
	}
	key := g.String()
	if v, ok := seen[key]; ok {
		return v
	}
	try := func(m solver.Move) bool {
		c := g
		if err := c.Apply(m); err != nil {
			panic(err)
		}
		return bruteForce(c, seen)
	}
	win := false
	rules := g.Rules()
	for s := 0; s < rules.Stacks && !win; s++ {
		top := g.Top(s)
		for x := 1; x <= solver.Tables && !win && top != 0; x++ {
			if g.Need(x) == top.Rank() {
				win = try(solver.Move{Kind: solver.StackToTable, Rank: top.Rank(), Stack: int8(s), Table: int8(x)})
			}
		}
	}
	if r := g.Drawn(); r != 0 {
		for x := 1; x <= solver.Tables && !win; x++ {
			if g.Need(x) == r {
				win = try(solver.Move{Kind: solver.ToTable, Rank: r, Table: int8(x)})
			}
		}
		for s := 0; s < rules.Stacks && !win; s++ {
			win = try(solver.Move{Kind: solver.ToStack, Rank: r, Stack: int8(s)})
		}
	}
	seen[key] = win
	return win
}

// TestAgreesWithBruteForce plays random prefixes of real decks and solves
// what is left both ways: the solver with all its prunings, the solver with
// none, and an exhaustive search over the rules' own moves must agree, and
// every win must replay after the prefix.
func TestAgreesWithBruteForce(t *testing.T) {
	positions := cases(30)
	if quick() {
		positions = 10 // a tenth of a second, even under the race detector
	}
	ds := corpusDecks(t, 400)
	rng := rand.New(rand.NewPCG(9, 2002))
	full := clairvoyant.NewSolver(clairvoyant.Options{})
	plain := clairvoyant.NewSolver(clairvoyant.Plain())
	var wins, losses, skipped, plainChecked int
	for i := 0; i < positions; i++ {
		d := ds[i%len(ds)]
		rules := variants[i%len(variants)]
		rules.Stacks = 3 + i%2
		left := 3 + rng.IntN(6)
		prefix, g, stacked := reducedPosition(t, full, d, rules, rng, left, 4, 11)
		if stacked > 11 {
			skipped++
			continue
		}
		want := bruteForce(*g, map[string]bool{})
		solvers := map[string]*clairvoyant.Solver{"full": full}
		if stacked <= 8 {
			solvers["plain"] = plain
			plainChecked++
		}
		for name, sv := range solvers {
			res, err := sv.SolveAfter(context.Background(), d, rules, prefix, clairvoyant.Budget{})
			if err != nil {
				t.Fatal(err)
			}
			if got := res.Winnable == clairvoyant.Yes; got != want || res.Winnable == clairvoyant.Unknown {
				t.Fatalf("position %d (%s, deck %d after %s): %s solver says %s, brute force %v\n%s",
					i, rules, i%len(ds), solver.FormatTrace(prefix, rules), name, res.Winnable, want, g.String())
			}
			if res.Winnable == clairvoyant.Yes {
				all := append(append([]solver.Move(nil), prefix...), res.Trace...)
				end, err := solver.Replay(&d, rules, all)
				if err != nil || !end.Won() {
					t.Fatalf("position %d: %s solver's win does not replay: %v", i, name, err)
				}
			}
		}
		if want {
			wins++
		} else {
			losses++
		}
	}
	t.Logf("%d positions: %d winnable, %d not, %d skipped (too many stacked cards); %d also by the plain solver",
		positions, wins, losses, skipped, plainChecked)
	if wins+losses == 0 || !quick() && (wins == 0 || losses == 0) {
		t.Errorf("the positions should mix wins (%d) and losses (%d)", wins, losses)
	}
}

// reducedPosition follows a winning line of the deck (if the solver finds
// one quickly), cuts it when the stock holds some cards more than left, and
// plays randomly from there until it holds left: positions near the end,
// some still winnable and some not. Of a few such positions it returns the
// first with at most maxStacked stacked cards, or the last.
func reducedPosition(t *testing.T, full *clairvoyant.Solver, d solver.Deck, rules solver.Rules, rng *rand.Rand, left, random, maxStacked int) ([]solver.Move, *solver.Game, int) {
	t.Helper()
	res, err := full.Solve(context.Background(), d, rules, clairvoyant.Budget{Nodes: 5_000})
	if err != nil {
		t.Fatal(err)
	}
	var prefix []solver.Move
	var g *solver.Game
	stacked := 0
	for try := 0; try < 8; try++ {
		var start []solver.Move
		if res.Winnable == clairvoyant.Yes {
			g, _ := solver.NewGame(&d, rules)
			cut := left + rng.IntN(random)
			for _, m := range res.Trace {
				if g.StockLen() <= cut {
					break
				}
				if g.Apply(m) != nil {
					t.Fatal("the winning trace does not replay")
				}
				start = append(start, m)
			}
		}
		prefix = randomPrefix(d, rules, rng, start, left)
		if g, err = solver.Replay(&d, rules, prefix); err != nil {
			t.Fatal(err)
		}
		stacked = 0
		for s := 0; s < rules.Stacks; s++ {
			stacked += g.Height(s)
		}
		if stacked <= maxStacked {
			break
		}
	}
	return prefix, g, stacked
}

// TestSolveFromAgreesWithSolveAfter: deciding a position from what a player
// sees plus the true order of the rest of the stock gives the verdict of
// deciding it from the deck and the moves that led there; orders with the
// wrong cards are refused.
func TestSolveFromAgreesWithSolveAfter(t *testing.T) {
	ds := corpusDecks(t, cases(10)*4)
	rng := rand.New(rand.NewPCG(7, 8))
	sv, from := clairvoyant.NewSolver(clairvoyant.Options{}), clairvoyant.NewSolver(clairvoyant.Options{})
	seen := map[clairvoyant.Verdict]int{}
	for i, d := range ds {
		rules := variants[i%len(variants)]
		left := 8 + rng.IntN(20)
		prefix := randomPrefix(d, rules, rng, nil, left)
		g, err := solver.Replay(&d, rules, prefix)
		if err != nil {
			t.Fatal(err)
		}
		if g.Over() || g.Drawn() == 0 {
			continue
		}
		// The stock after the drawn card, from the deck less the pre-placed cards.
		var cards []solver.Rank
		took := map[solver.Rank]bool{}
		for _, c := range d {
			if rules.Preplaced && c <= solver.Tables && !took[c] {
				took[c] = true
				continue
			}
			cards = append(cards, c)
		}
		rest := cards[len(cards)-g.StockLen():]
		budget := clairvoyant.Budget{Nodes: pick[int64](20_000, 20_000, 200_000)}
		want, err := sv.SolveAfter(context.Background(), d, rules, prefix, budget)
		if err != nil {
			t.Fatal(err)
		}
		got, _, err := from.SolveFrom(context.Background(), g.View(), rest, budget)
		if err != nil {
			t.Fatal(err)
		}
		if want.Winnable != clairvoyant.Unknown && got != clairvoyant.Unknown && got != want.Winnable {
			t.Errorf("deck %d, %s, %d cards left: SolveFrom says %s, SolveAfter %s", i, rules, left, got, want.Winnable)
		}
		seen[got]++
		if len(rest) > 1 {
			bad := append([]solver.Rank(nil), rest...)
			bad[0] = bad[0]%solver.NumRanks + 1
			if bad[0] != rest[0] {
				if _, _, err := from.SolveFrom(context.Background(), g.View(), bad, budget); err == nil {
					t.Errorf("deck %d: an order with the wrong cards was accepted", i)
				}
			}
		}
	}
	t.Logf("verdicts: %v", seen)
	if seen[clairvoyant.Yes] == 0 || seen[clairvoyant.No] == 0 {
		t.Fatalf("verdicts %v: the test needs both yes and no", seen)
	}
}
