package search

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/calcsol/calcsol/deadlock"
	"github.com/calcsol/calcsol/solver"
)

// someAssignmentAcyclic tries every assignment of st's stacked cards to
// open slots, rebuilding the position with assigned cards, and reports
// whether one of them has no cycle by deadlock.FindCycle: the definition
// Acyclic must agree with.
func someAssignmentAcyclic(t *testing.T, st *solver.State) bool {
	t.Helper()
	base, err := solver.NewState(st.Rules())
	if err != nil {
		t.Fatal(err)
	}
	for x := 1; x <= solver.Tables; x++ {
		for base.Placed(x) < st.Placed(x) {
			if err := base.Reveal(solver.TableRank(x, base.Placed(x))); err != nil {
				t.Fatal(err)
			}
			if err := base.Apply(solver.Move{Kind: solver.ToTable, Table: int8(x)}); err != nil {
				t.Fatal(err)
			}
		}
	}
	type slot struct{ s, i int }
	var cards []slot
	for s := range st.Stacks() {
		for i := range st.Height(s) {
			cards = append(cards, slot{s, i})
		}
	}
	var try func(cur solver.State, n int) bool
	try = func(cur solver.State, n int) bool {
		if n == len(cards) {
			return deadlock.FindCycle(cur.View()) == nil
		}
		c := cards[n]
		r := st.StackCard(c.s, c.i).Rank()
		for x := 1; x <= solver.Tables; x++ {
			next := cur
			if err := next.Reveal(r); err != nil {
				t.Fatal(err)
			}
			if next.Apply(solver.Move{Kind: solver.ToStack, Stack: int8(c.s), Table: int8(x)}) != nil {
				continue // slot filled or taken
			}
			if try(next, n+1) {
				return true
			}
		}
		return false
	}
	return try(base, 0)
}

// randomStacked draws random cards, playing each to a table that needs it
// (mostly) or onto a random stack, until n cards are stacked.
func randomStacked(rng *rand.Rand, r solver.Rules, n int) solver.State {
	st, _ := solver.NewState(r)
	stacked := 0
	for stacked < n && st.StockLen() > 0 {
		var ranks []solver.Rank
		for q := solver.Rank(1); q <= solver.NumRanks; q++ {
			for range st.Remaining(q) {
				ranks = append(ranks, q)
			}
		}
		_ = st.Reveal(ranks[rng.IntN(len(ranks))])
		m := solver.Move{Kind: solver.ToStack, Stack: int8(rng.IntN(r.Stacks))}
		for x := 1; x <= solver.Tables; x++ {
			if st.Need(x) == st.Drawn() && rng.IntN(4) > 0 {
				m = solver.Move{Kind: solver.ToTable, Table: int8(x)}
			}
		}
		if m.Kind == solver.ToStack {
			stacked++
		}
		_ = st.Apply(m)
	}
	return st
}

func TestAcyclicMatchesEveryAssignment(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(7, 11))
	seen := map[bool]int{}
	n := size(30, 250) // 30: every stack count, variant and stack size together
	for i := range n {
		r := solver.Rules{Stacks: 1 + i%3, Preplaced: i%2 == 0}
		st := randomStacked(rng, r, 6+i%5)
		got, want := Acyclic(&st), someAssignmentAcyclic(t, &st)
		if got != want {
			t.Fatalf("case %d: Acyclic = %v, every assignment tried: %v\n%v", i, got, want, st.View())
		}
		seen[got]++
	}
	if seen[true] == 0 || seen[false] == 0 {
		t.Fatalf("only one outcome seen: %v", seen)
	}
	t.Logf("acyclic %d, cyclic %d", seen[true], seen[false])
}

// TestOpenAssignmentAvoidsCycle is a worked position where only keeping an
// assignment open avoids a cycle. Tables start empty, 2 stacks: Z holds 6
// under 3, X holds 3, and a 6 is stacked on X. A player that fixes each
// card's table when it stacks it may well have given X's 3 table 1 (where 3
// is the third card) and give the new 6 table 1 as well: the 6 then lies on
// the 3 that must reach table 1 before it — a cycle, the game lost. With
// assignments open the 6 can still be meant for table 2 or 3, and the
// player sees that the move is safe.
func TestOpenAssignmentAvoidsCycle(t *testing.T) {
	r := solver.Rules{Stacks: 2}
	st, _ := solver.NewState(r)
	play := func(rank solver.Rank, s int) {
		t.Helper()
		if err := st.Reveal(rank); err != nil {
			t.Fatal(err)
		}
		if err := st.Apply(solver.Move{Kind: solver.ToStack, Stack: int8(s)}); err != nil {
			t.Fatal(err)
		}
	}
	play(6, 0)
	play(3, 0)
	play(3, 1)
	st2 := st
	if err := st2.Reveal(6); err != nil {
		t.Fatal(err)
	}
	if err := st2.Apply(solver.Move{Kind: solver.ToStack, Stack: 1}); err != nil {
		t.Fatal(err)
	}
	if !Acyclic(&st2) {
		t.Fatalf("6 on X should leave an acyclic assignment:\n%v", st2.View())
	}
	// The fixed choice: Z's 6 → table 2, Z's 3 → table 3, X's 3 and the new
	// 6 → table 1.
	fixed, _ := solver.NewState(r)
	for _, m := range []struct {
		rank     solver.Rank
		stack, x int
	}{{6, 0, 2}, {3, 0, 3}, {3, 1, 1}, {6, 1, 1}} {
		if err := fixed.Reveal(m.rank); err != nil {
			t.Fatal(err)
		}
		if err := fixed.Apply(solver.Move{Kind: solver.ToStack, Stack: int8(m.stack), Table: int8(m.x)}); err != nil {
			t.Fatal(err)
		}
	}
	if c := deadlock.FindCycle(fixed.View()); c == nil {
		t.Fatal("the fixed assignment should have a cycle")
	} else {
		t.Log(c)
	}
}

// TestStrategiesPlayLegalMoves plays decks with each search strategy and
// replays the traces: every move must be legal, and the results equal. The
// sampler's game with 4 stacks costs six times all the others together: it
// is a long check (package longtest).
func TestStrategiesPlayLegalMoves(t *testing.T) {
	t.Parallel()
	ds := loadCorpus(t)
	prio := NewDeadlockGraphStrategy(DefaultWeights)
	specs := map[string]solver.Strategy{
		"deadlock-graph":         prio,
		"deadlock-graph+endgame": NewEndgameStrategy(prio, 4),
		"deadlock-graph+sample":  &SampleStrategy{Base: prio, N: 2, Win: 100},
	}
	n := 1
	for name, s := range specs {
		for _, r := range []solver.Rules{{Stacks: 3}, {Stacks: 4, Preplaced: true}} {
			if quick() && name == "deadlock-graph+sample" && r.Stacks == 4 {
				continue
			}
			for i := range n {
				sess, err := s.Start(context.Background(), r)
				if err != nil {
					t.Fatal(err)
				}
				res, err := solver.Play(context.Background(), &ds[i], r, sess, true)
				sess.Close()
				if err != nil {
					t.Fatal(err)
				}
				if res.Failed {
					t.Fatalf("%s, %v, deck %d failed: %s", name, r, i, res.Reason)
				}
				g, err := solver.Replay(&ds[i], r, res.Trace)
				if err != nil {
					t.Fatalf("%s, %v, deck %d: %v", name, r, i, err)
				}
				if g.Won() != res.Won {
					t.Fatalf("%s, deck %d: replay won %v, play %v", name, i, g.Won(), res.Won)
				}
			}
		}
	}
}

// TestKeySet: the cycle check's memory of failed states holds what was
// added, across growth (keys 0 and ones that collide included), and a
// reset empties it, also when the generation counter wraps.
func TestKeySet(t *testing.T) {
	keys := []uint64{0, 1, 1 << 32, 1<<63 | 5}
	for i := 1; i <= 1000; i++ {
		keys = append(keys, uint64(i)*0x100000001)
	}
	const other = 2 // never among keys
	fill := func(k *keySet) {
		t.Helper()
		for i, key := range keys {
			k.add(key)
			k.add(key)
			if k.count != i+1 {
				t.Fatalf("%d keys counted after adding %d", k.count, i+1)
			}
		}
		for _, key := range keys {
			if !k.has(key) {
				t.Fatalf("%#x lost", key)
			}
		}
		if k.has(other) {
			t.Fatal("a key never added is present")
		}
	}
	// absent checks that a reset emptied k: one other key added, so that
	// has really probes the slots the old keys left stamped.
	absent := func(k *keySet, when string) {
		t.Helper()
		k.add(other)
		for _, key := range keys {
			if k.has(key) {
				t.Fatalf("%s: %#x present after a reset", when, key)
			}
		}
	}
	var k keySet
	k.reset()
	fill(&k)
	k.reset()
	absent(&k, "after a reset")
	k.reset()
	fill(&k)
	// Filled under generation 1, then the counter wraps back to 1.
	var w keySet
	w.reset()
	fill(&w)
	if w.gen != 1 {
		t.Fatalf("generation %d, want 1", w.gen)
	}
	w.gen = ^uint32(0)
	w.reset()
	absent(&w, "after the generation wrapped")
}

// TestAcyclicVersionsAgree: the cycle check gives the first version's
// answer (mapAcyclic, in bench_test.go) on positions with random cards
// stacked, from few to many, lost and not, one search's memory reused
// across them as the players do.
func TestAcyclicVersionsAgree(t *testing.T) {
	var a acyclicSearch
	var m mapAcyclic
	counts := map[bool]int{}
	for _, stacks := range []int{2, 3, 4} {
		rng := rand.New(rand.NewPCG(uint64(stacks), 11))
		for i := range sized(60, 100, 300) {
			st := randomStacked(rng, solver.Rules{Stacks: stacks}, 4+i%30)
			got, want := a.acyclic(&st), m.acyclic(&st)
			if got != want {
				t.Fatalf("%d stacks, position %d: acyclic %v, the first version %v", stacks, i, got, want)
			}
			counts[got]++
		}
	}
	if counts[true] == 0 || counts[false] == 0 {
		t.Fatalf("positions acyclic / not: %d / %d: the test needs both", counts[true], counts[false])
	}
	t.Logf("%d positions acyclic, %d not", counts[true], counts[false])
}

// TestAcyclicAgainAgrees: the checks of the positions one move away, made
// with the failures of the first position's check kept (again, as the
// deadlock-graph player checks its candidates), answer as fresh checks do;
// and with a budget, a check that is not cut answers exactly and one that
// answers true is right (a cut answer counts as a cycle).
func TestAcyclicAgainAgrees(t *testing.T) {
	t.Parallel()
	var shared, fresh, budget acyclicSearch
	budget.limit = 40
	counts := map[string]int{}
	for _, stacks := range []int{2, 3, 4} {
		rng := rand.New(rand.NewPCG(uint64(stacks), 12))
		for i := range sized(15, 25, 150) {
			st := randomStacked(rng, solver.Rules{Stacks: stacks}, 4+i%30)
			var ranks []solver.Rank
			for q := solver.Rank(1); q <= solver.NumRanks; q++ {
				for range st.Remaining(q) {
					ranks = append(ranks, q)
				}
			}
			if len(ranks) == 0 {
				continue
			}
			_ = st.Reveal(ranks[rng.IntN(len(ranks))])
			shared.acyclic(&st)
			var buf [solver.MaxLegalMoves]solver.Move
			for _, m := range st.AppendLegalMoves(buf[:0]) {
				next := st
				if err := next.Apply(m); err != nil {
					t.Fatal(err)
				}
				got, want := shared.again(&next), fresh.acyclic(&next)
				if got != want {
					t.Fatalf("%d stacks, position %d, move %s: %v with the parent's failures kept, %v fresh",
						stacks, i, m.Format(next.Rules()), got, want)
				}
				counts[fmt.Sprint(want)]++
				b := budget.acyclic(&next)
				switch {
				case budget.cut && b:
					t.Fatalf("%d stacks, position %d: a cut check answered true", stacks, i)
				case budget.cut:
					counts["cut"]++
				case b != want:
					t.Fatalf("%d stacks, position %d, move %s: %v within the budget (not cut), %v without",
						stacks, i, m.Format(next.Rules()), b, want)
				}
			}
		}
	}
	if counts["true"] == 0 || counts["false"] == 0 || counts["cut"] == 0 {
		t.Fatalf("positions acyclic / not / cut by the budget: %v: the test needs each", counts)
	}
	t.Logf("children acyclic / not / cut by a budget of %d states: %v", budget.limit, counts)
}

// TestShortAgrees checks the cycle check's word-at-a-time shortage test
// against the same test counted rank by rank (mapAcyclic.shortByCount), on
// random pointers and stacked-card counts and on the extremes.
func TestShortAgrees(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	var a acyclicSearch
	var ref mapAcyclic
	short := 0
	for i := range 20000 {
		a.count, a.need = [solver.NumRanks + 1]int{}, [5]uint16{}
		var p [solver.Tables]int
		for x := range p {
			p[x] = rng.IntN(solver.NumRanks + 1)
			if i < 2 {
				p[x] = i * solver.NumRanks // all slots open; none
			}
		}
		for r := solver.Rank(1); r <= solver.NumRanks; r++ {
			for range rng.IntN(5) {
				a.give(r)
			}
			// take and give again: the masks must come back
			if a.count[r] > 0 && rng.IntN(2) == 0 {
				a.take(r)
				a.give(r)
			}
		}
		ref.count = a.count
		want := ref.shortByCount(p)
		if got := a.short(p); got != want {
			t.Fatalf("pointers %v, counts %v: short %v, counted %v", p, a.count[1:], got, want)
		}
		if want {
			short++
		}
	}
	if short == 0 || short == 20000 {
		t.Fatalf("%d of 20000 cases short: the test compares one answer only", short)
	}
}
