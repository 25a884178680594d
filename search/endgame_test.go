package search

import (
	"math/rand/v2"
	"testing"

	"github.com/calcsol/calcsol/internal/longtest"
	"github.com/calcsol/calcsol/solver"
	"github.com/calcsol/calcsol/strategies"
)

// bruteWins is the endgame value by plain enumeration: no memo, no forced
// moves, no pruning of cyclic positions, every stack tried (equal or not).
// It is the definition the search must agree with.
func bruteWins(st *solver.State) uint64 {
	if st.Won() {
		return 1
	}
	if st.Drawn() == 0 && st.StockLen() > 0 {
		var v uint64
		for r := solver.Rank(1); r <= solver.NumRanks; r++ {
			if st.Remaining(r) == 0 {
				continue
			}
			c := *st
			if err := c.Reveal(r); err != nil {
				panic(err)
			}
			v += bruteWins(&c)
		}
		return v
	}
	best, _ := bruteMoves(st)
	return best
}

// bruteMoves is bruteWins for st with a card drawn, and the enumeration's
// value of every move it tries, so that a test checks the position and its
// moves with one enumeration.
func bruteMoves(st *solver.State) (best uint64, moves map[solver.Move]uint64) {
	moves = make(map[solver.Move]uint64)
	var buf [solver.MaxLegalMoves]solver.Move
	for _, m := range st.AppendLegalMoves(buf[:0]) {
		if m.Kind == solver.ToStack && m.Table != 0 {
			continue // the rules ignore assignments
		}
		c := *st
		if err := c.Apply(m); err != nil {
			panic(err)
		}
		moves[m] = bruteWins(&c)
		best = max(best, moves[m])
	}
	return best, moves
}

// endgamePositions returns want positions with k cards in the stock,
// neither won nor lost for sure, made by endgamePosition from tries first,
// first+1, …. Such positions are rare (one try in 2,000 to 12,000), so the
// tests start at a try known to give one: finding them is not what they
// check.
func endgamePositions(t *testing.T, r solver.Rules, k, first, want int) []solver.State {
	t.Helper()
	var out []solver.State
	for try := first; try < first+50000 && len(out) < want; try++ {
		if st, ok := endgamePosition(t, r, k, try); ok {
			out = append(out, st)
		}
	}
	if len(out) < want {
		t.Fatalf("only %d positions with %d cards left", len(out), k)
	}
	return out
}

// endgamePosition makes the position of one try, with a generator of its
// own: random cards drawn and each played to a table that needs it (mostly)
// or onto a random stack. It reports whether the position is neither won nor
// lost for sure (most are decided: the search of such is trivial).
func endgamePosition(t *testing.T, r solver.Rules, k, try int) (solver.State, bool) {
	t.Helper()
	rng := rand.New(rand.NewPCG(uint64(k)<<8|uint64(r.Stacks), uint64(try)))
	st, err := solver.NewState(r)
	if err != nil {
		t.Fatal(err)
	}
	for st.StockLen() > k {
		var ranks []solver.Rank
		for q := solver.Rank(1); q <= solver.NumRanks; q++ {
			for range st.Remaining(q) {
				ranks = append(ranks, q)
			}
		}
		if err := st.Reveal(ranks[rng.IntN(len(ranks))]); err != nil {
			t.Fatal(err)
		}
		m := solver.Move{Kind: solver.ToStack, Stack: int8(rng.IntN(r.Stacks))}
		for x := 1; x <= solver.Tables; x++ {
			if st.Need(x) == st.Drawn() && rng.IntN(10) < 9 {
				m = solver.Move{Kind: solver.ToTable, Table: int8(x)}
			}
		}
		if err := st.Apply(m); err != nil {
			t.Fatal(err)
		}
		for moved := true; moved; {
			moved = false
			for s := range r.Stacks {
				for x := 1; x <= solver.Tables; x++ {
					if tp := st.Top(s); tp != 0 && st.Need(x) == tp.Rank() {
						if err := st.Apply(solver.Move{Kind: solver.StackToTable, Stack: int8(s), Table: int8(x)}); err != nil {
							t.Fatal(err)
						}
						moved = true
					}
				}
			}
		}
	}
	var q solver.Rank
	for q = 1; st.Remaining(q) == 0; q++ {
	}
	if err := st.Reveal(q); err != nil {
		t.Fatal(err)
	}
	w, o := NewEndgame().Wins(&st)
	return st, w > 0 && w < o
}

func TestEndgameMatchesBruteForce(t *testing.T) {
	t.Parallel()
	// The enumeration is exponential: a position with four cards left and 3
	// stacks, or three and 4 stacks, takes seconds (minutes under the race
	// detector), so those are long checks (package longtest); the quick run
	// checks one position with three cards left and 3 stacks, which the
	// enumeration takes half a second for, and one with 5 stacks.
	cases := []struct {
		name  string
		rules solver.Rules
		k, n  int
		first int // a try that gives a position the enumeration takes seconds for, not minutes
		long  bool
	}{
		{"3 stacks, preplaced, 3 left", solver.Rules{Stacks: 3, Preplaced: true}, 3, 2, 23248, false},
		{"3 stacks, base, 4 left", solver.Rules{Stacks: 3}, 4, 2, 34350, true},
		{"4 stacks, base, 3 left", solver.Rules{Stacks: 4}, 3, 3, 14988, true},
		// More stacks than the deadlock checks' shared memory names: the
		// search checks each stacking on its own (acyclicSearch.again).
		{"5 stacks, base, 3 left", solver.Rules{Stacks: 5}, 3, 2, 1246, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.long {
				longtest.Skip(t)
			}
			for i, st := range endgamePositions(t, c.rules, c.k, c.first, size(1, c.n)) {
				e := NewEndgame()
				moves, orders := e.Moves(&st)
				w, o := e.Wins(&st)
				if o != orders {
					t.Fatalf("position %d: orders %d and %d", i, o, orders)
				}
				// The positions have a card drawn: their value is the best
				// of their moves'.
				best, byMove := bruteMoves(&st)
				if w != best {
					t.Fatalf("position %d:\n%v\nsearch wins %d of %d orders, enumeration %d", i, st.View(), w, o, best)
				}
				for _, mv := range moves {
					// A forced move stands for the whole position.
					want, ok := byMove[mv.Move]
					if !ok {
						c := st
						if err := c.Apply(mv.Move); err != nil {
							t.Fatal(err)
						}
						want = bruteWins(&c)
					}
					if mv.Wins != want {
						t.Errorf("position %d, move %s: search %d, enumeration %d", i, mv.Move.Format(st.Rules()), mv.Wins, want)
					}
				}
			}
		})
	}
}

func TestOrders(t *testing.T) {
	st, err := solver.NewState(solver.Rules{Stacks: 3})
	if err != nil {
		t.Fatal(err)
	}
	// 52 cards: too many for a uint64; reveal down to 2, 2, 1 of three ranks.
	for r := solver.Rank(1); r <= solver.NumRanks; r++ {
		keep := map[solver.Rank]int{1: 2, 2: 2, 3: 1}[r]
		for st.Remaining(r) > keep {
			if err := st.Reveal(r); err != nil {
				t.Fatal(err)
			}
			// Put it anywhere: on a stack, unassigned.
			if err := st.Apply(solver.Move{Kind: solver.ToStack, Stack: 0}); err != nil {
				t.Fatal(err)
			}
		}
	}
	if got, want := Orders(&st), uint64(30); got != want { // 5!/(2!·2!·1!)
		t.Fatalf("Orders = %d, want %d", got, want)
	}
}

// definition is the value the endgame search computes, by its definition
// and nothing else: the sum over the next rank at a chance node, the largest
// value of any candidate move at a decision node, and with the stock empty
// whether the stacks can be taken apart. No cycle checks before stacking,
// no early exit: what the search prunes, this one plays out.
func definition(e *Endgame, st *solver.State, memo map[string]uint64) uint64 {
	if st.Won() {
		return 1
	}
	if st.StockLen() == 0 && st.Drawn() == 0 {
		return e.cleared(st)
	}
	k := string(e.keyOf(st))
	if v, ok := memo[k]; ok {
		return v
	}
	var v uint64
	if st.Drawn() == 0 {
		for r := solver.Rank(1); r <= solver.NumRanks; r++ {
			if st.Remaining(r) > 0 {
				c := *st
				if err := c.Reveal(r); err != nil {
					panic(err)
				}
				v += definition(e, &c, memo)
			}
		}
	} else {
		var buf [solver.MaxLegalMoves]solver.Move
		for _, m := range candidates(st, buf[:0]) {
			c := applied(st, m)
			v = max(v, definition(e, &c, memo))
		}
	}
	memo[k] = v
	return v
}

// TestEndgameMatchesDefinition checks the search's pruning (the cycle
// check of each stacking, the moves to a table tried first, the exit when
// a move wins every order) against the definition, on the open positions
// (won in some orders, not all) that the greedy player reaches with 4 cards
// left: up to 12 a variant, 2 with 4 stacks in the quick run (the
// definition takes a tenth of a second for one of those). The enumeration
// of TestEndgameMatchesBruteForce checks the definition.
func TestEndgameMatchesDefinition(t *testing.T) {
	t.Parallel()
	ds := loadCorpus(t)
	open := 0
	for _, r := range []solver.Rules{{Stacks: 3}, {Stacks: 3, Preplaced: true}, {Stacks: 4}, {Stacks: 4, Preplaced: true}} {
		e, ref := NewEndgame(), NewEndgame()
		limit := 12
		if r.Stacks == 4 {
			limit = size(2, 12)
		}
		for i, n := 0, 0; i < len(ds) && n < limit; i++ {
			st, ok := playToWith(t, strategies.Greedy{}, &ds[i], r, 4)
			if !ok {
				continue
			}
			if w, o := e.Wins(&st); w == 0 || w == o {
				continue
			}
			n++
			open++
			moves, orders := e.Moves(&st)
			for _, mv := range moves {
				c := applied(&st, mv.Move)
				if d := definition(ref, &c, map[string]uint64{}); mv.Wins != d {
					t.Errorf("%s, deck %d, move %s: search %d of %d orders, definition %d\n%v", r, i, mv.Move.Format(r), mv.Wins, orders, d, st.View())
				}
			}
		}
	}
	// 3 stacks: 1 and 10 open positions in the corpus.
	if open < size(15, 33) {
		t.Fatalf("%d open positions checked", open)
	}
}

// TestEndgameBestAgreesWithMoves checks Best, which stops at the first move
// that wins every order and values no move whose stacks are cyclic, against
// the first best move of Moves, on the positions the deadlock-graph player
// reaches with 4 cards left (decided or not), with one search that forgets
// between decks.
func TestEndgameBestAgreesWithMoves(t *testing.T) {
	t.Parallel()
	ds := loadCorpus(t)
	decided, open := 0, 0
	for _, r := range []solver.Rules{{Stacks: 3}, {Stacks: 3, Preplaced: true}, {Stacks: 4}, {Stacks: 4, Preplaced: true}} {
		e := NewEndgame()
		for i, n := 0, 0; i < len(ds) && n < size(40, 400); i++ {
			st, ok := playTo(t, &ds[i], r, 4)
			if !ok {
				continue
			}
			n++
			moves, orders := NewEndgame().Moves(&st)
			var want MoveValue
			for j, mv := range moves {
				if j == 0 || mv.Wins > want.Wins {
					want = mv
				}
			}
			m, wins, o, ok := e.Best(&st)
			if !ok || m != want.Move || wins != want.Wins || o != orders {
				t.Errorf("%s, deck %d: Best %s, %d of %d orders; Moves' best %s, %d of %d\n%v",
					r, i, m.Format(r), wins, o, want.Move.Format(r), want.Wins, orders, st.View())
			}
			if wins == 0 || wins == orders {
				decided++
			} else {
				open++
			}
			e.Forget()
		}
	}
	// Both kinds: a decided position is where Best stops early.
	if decided == 0 || open < size(5, 50) {
		t.Fatalf("%d decided and %d open positions checked", decided, open)
	}
}
