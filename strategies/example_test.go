package strategies_test

import (
	"context"
	"fmt"

	"github.com/calcsol/calcsol/configs"
	"github.com/calcsol/calcsol/solver"
	"github.com/calcsol/calcsol/strategies"
)

// Play one deck with Nanzaki & Shintani's Table 1 and print the start of the
// trace.
func ExampleNewPriority() {
	table, err := configs.LoadPriority(configs.DefaultPriority)
	if err != nil {
		fmt.Println(err)
		return
	}
	rules := solver.Rules{Stacks: 3}
	s, err := strategies.NewPriority(table, rules)
	if err != nil {
		fmt.Println(err)
		return
	}
	deck, _ := solver.ParseDeck("A3474AK0JJ77Q580Q626639695324880KJAK2047A85Q25KJ99Q3")
	res, _ := solver.Play(context.Background(), &deck, rules, &solver.ChooserSession{C: s}, true)
	fmt.Println(solver.FormatTrace(res.Trace[:8], rules))
	fmt.Println(res.Won, res.Placed)
	// Output:
	// A1 33 44 7X3 4X3 AX3 KC1 0Z1
	// true 52
}

// Change one reading of the paper and widen the table to four stacks.
func ExampleDerive() {
	table, _ := configs.LoadPriority(configs.DefaultPriority)
	if err := table.Options.SetOption("deadlock_check", "exact"); err != nil {
		fmt.Println(err)
		return
	}
	wide, err := strategies.Derive(table, solver.Rules{Stacks: 4})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(wide.Name, wide.Stacks, wide.Options.Check)
	fmt.Println("A:", strategies.FormatOps(wide.Ops[1]))
	// Output:
	// nanzaki-shintani-4 ZXCV exact
	// A: T1 T2 N4 N3 N2 T3 T4 Z4 Z3 Z2 X4 X3 X2 C4 C3 C2 V4 V3 V2
}
