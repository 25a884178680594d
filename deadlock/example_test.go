package deadlock_test

import (
	"fmt"

	"github.com/calcsol/calcsol/deadlock"
	"github.com/calcsol/calcsol/solver"
)

// position replays a trace on a deck (the trace in the notation of
// docs/rules.md, the deck in that of docs/corpora.md).
func position(deck, trace string, r solver.Rules) solver.View {
	d, err := solver.ParseDeck(deck)
	if err != nil {
		panic(err)
	}
	moves, err := solver.ParseTrace(trace, r)
	if err != nil {
		panic(err)
	}
	g, err := solver.Replay(&d, r, moves)
	if err != nil {
		panic(err)
	}
	return g.View()
}

// printStacks shows each stack bottom first, each card as rank/table.
func printStacks(p solver.View) {
	for s := range p.Stacks() {
		fmt.Printf("%c:", p.Rules().StackName(s))
		for _, c := range p.AppendStack(nil, s) {
			fmt.Printf(" %s/%d", c.Rank(), c.Table())
		}
		fmt.Println()
	}
}

// A deadlock that Nanzaki & Shintani's partial check does not see, from a real
// game (3 stacks): stacking the drawn Q on X for table 2. The Q would lie on the 3
// for table 4, which comes before the 9 on table 4; the 9 lies above the 0
// for table 2 (with the 7 between), and the 0 comes before the Q on table 2.
// Check 2 looks only at the card directly on the 0 — the 7, for table 3 — so
// it lets the move through.
func ExampleExact_missedByPartial() {
	r := solver.DefaultRules()
	p := position("07393Q9893Q627520448647A865J32JQAK7Q48K5A09J0K6JA5K2", "0Z2 7Z3 33 9Z4 3X4", r)
	printStacks(p)
	x, s := 2, r.StackIndex('X')
	fmt.Printf("drawn %s, stack it on X for table %d?\n", p.Drawn(), x)
	fmt.Println("partial check:", deadlock.Partial(p, p.Drawn(), x, s))
	fmt.Println("exact check:  ", deadlock.Exact(p, p.Drawn(), x, s))
	// Output:
	// Z: 0/2 7/3 9/4
	// X: 3/4
	// C:
	// drawn Q, stack it on X for table 2?
	// partial check: false
	// exact check:   deadlock: Q (to go on stack X, for table 2) lies on 3 (stack X, for table 4), which comes before 9 on table 4; 9 (stack Z, for table 4) lies above 0 (stack Z, for table 2), which comes before Q on table 2
}

// FindCycle looks at a whole position. Here the Q of the example above has
// been stacked: the position is lost, whatever comes next.
func ExampleFindCycle() {
	r := solver.DefaultRules()
	p := position("07393Q9893Q627520448647A865J32JQAK7Q48K5A09J0K6JA5K2", "0Z2 7Z3 33 9Z4 3X4 QX2", r)
	c := deadlock.FindCycle(p)
	for i, card := range c.Cards {
		fmt.Printf("%s for table %d, stack %c index %d, %s\n", card.Rank, card.Table, card.Name, card.Index, c.Links[i])
	}
	// Output:
	// 9 for table 4, stack Z index 2, lies above
	// 0 for table 2, stack Z index 0, comes before
	// Q for table 2, stack X index 1, lies on
	// 3 for table 4, stack X index 0, comes before
}

// Closes is Exact without the explanation, with Partial's signature: a
// strategy can hold either check in one func value. On Z the Q would lie on
// the 0 of its own table (check 1, both see it); on X only Closes sees the
// cycle.
func ExampleCloses() {
	r := solver.DefaultRules()
	p := position("07393Q9893Q627520448647A865J32JQAK7Q48K5A09J0K6JA5K2", "0Z2 7Z3 33 9Z4 3X4", r)
	checks := []struct {
		name  string
		check func(solver.View, solver.Rank, int, int) bool
	}{{"partial", deadlock.Partial}, {"exact", deadlock.Closes}}
	for _, c := range checks {
		for s := range p.Stacks() {
			fmt.Printf("%s: Q on %c for table 2 deadlocks: %v\n", c.name, r.StackName(s), c.check(p, p.Drawn(), 2, s))
		}
	}
	// Output:
	// partial: Q on Z for table 2 deadlocks: true
	// partial: Q on X for table 2 deadlocks: false
	// partial: Q on C for table 2 deadlocks: false
	// exact: Q on Z for table 2 deadlocks: true
	// exact: Q on X for table 2 deadlocks: true
	// exact: Q on C for table 2 deadlocks: false
}

// A Checker answers the exact check for every stacking of one position
// (here the queen drawn, for table 2, on each stack: the position of
// ExampleCloses), reading the stacks once.
func ExampleChecker() {
	r := solver.DefaultRules()
	p := position("07393Q9893Q627520448647A865J32JQAK7Q48K5A09J0K6JA5K2", "0Z2 7Z3 33 9Z4 3X4", r)
	var chk deadlock.Checker
	for s := range p.Stacks() {
		fmt.Printf("Q on %c for table 2 deadlocks: %v\n", r.StackName(s), chk.Closes(p, p.Drawn(), 2, s))
	}
	chk.Reset() // before asking about another position
	// Output:
	// Q on Z for table 2 deadlocks: true
	// Q on X for table 2 deadlocks: true
	// Q on C for table 2 deadlocks: false
}
