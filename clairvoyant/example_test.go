package clairvoyant_test

import (
	"context"
	"fmt"

	"github.com/calcsol/calcsol/clairvoyant"
	"github.com/calcsol/calcsol/solver"
)

// Solve a deal with the stock order known and replay the winning trace.
func ExampleSolve() {
	deck, _ := solver.ParseDeck("A3474AK0JJ77Q580Q626639695324880KJAK2047A85Q25KJ99Q3")
	rules := solver.Rules{Stacks: 4}
	res, err := clairvoyant.Solve(context.Background(), deck, rules, clairvoyant.Budget{Nodes: 1_000_000})
	if err != nil {
		panic(err)
	}
	g, err := solver.Replay(&deck, rules, res.Trace)
	fmt.Println(res.Winnable, err == nil && g.Won())
	// Output: yes true
}
