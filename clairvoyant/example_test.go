package clairvoyant_test

import (
	"context"
	"fmt"

	"github.com/calcsol/calcsol/clairvoyant"
	"github.com/calcsol/calcsol/configs"
	"github.com/calcsol/calcsol/decks/corpus"
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

// Settle decks by the pilot of a priority table's games, the stock order
// known: each game that wins, replayed, proves its deck winnable; the
// search (here 1 node) gets the rest.
func ExampleStrategyWitness_SetPilot() {
	ctx := context.Background()
	decks, err := corpus.LoadCalculationDecks("uniform-1000")
	if err != nil {
		panic(err)
	}
	rules := solver.Rules{Stacks: 3}
	table, err := configs.Strategies().BuildSpec("priority:table=tuned-3-exact")
	if err != nil {
		panic(err)
	}
	w, err := clairvoyant.NewStrategyWitness(ctx, table, rules)
	if err != nil {
		panic(err)
	}
	defer w.Close()
	if err := w.SetPilot(2, true); err != nil { // levels 1 and 2, stacked cards assigned
		panic(err)
	}
	res, err := clairvoyant.SolveAll(ctx, decks[:60], rules, clairvoyant.Options{Witness: w.Line}, clairvoyant.Budget{Nodes: 1}, 2, nil, nil)
	if err != nil {
		panic(err)
	}
	t := clairvoyant.Count(res)
	fmt.Println("winnable", t.Winnable, "unknown", t.Unknown)
	// Output: winnable 59 unknown 1
}
