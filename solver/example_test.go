package solver_test

import (
	"fmt"

	"github.com/calcsol/calcsol/solver"
)

// Replay a trace in Nanzaki & Shintani's notation against a deck, and see where
// it stops.
func ExampleReplay() {
	deck, err := solver.ParseDeck("603K9AAAA22223334444555566677778888999000JJJJQQQQKKK")
	if err != nil {
		fmt.Println(err)
		return
	}
	rules := solver.DefaultRules()
	trace, err := solver.ParseTrace("6Z4 0X3 33 KC1 Z62", rules)
	if err != nil {
		fmt.Println(err)
		return
	}
	g, err := solver.Replay(&deck, rules, trace)
	fmt.Println(err)
	fmt.Println("drawn:", g.Drawn(), "table 3 holds", g.Placed(3), "card; stacks Z X C hold", g.Height(0), g.Height(1), g.Height(2))
	// Output:
	// move 5 (Z62): table 2 needs 2, not 6
	// drawn: 9 table 3 holds 1 card; stacks Z X C hold 1 1 1
}
