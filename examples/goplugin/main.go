// Command goplugin is an example strategy plugin for calcsol, a complete
// program to copy: the "soonest-fit" strategy. It plays a card to a table
// whenever it can; otherwise it stacks the drawn card where it buries the
// least: on a stack whose top is needed later than the drawn card (the
// tightest such stack), else on an empty stack, else on the stack whose top
// is needed last.
//
// Build it and name it in a tournament config (docs/plugins.md):
//
//	go build -o soonest-fit ./examples/goplugin
//	strategies: [{name: soonest-fit, kind: plugin, params: {command: ./soonest-fit}}]
package main

import (
	"github.com/calcsol/calcsol/plugin/sdk"
	"github.com/calcsol/calcsol/solver"
)

func main() {
	sdk.Serve(solver.FromChooser(solver.Info{Name: "soonest-fit"}, newSoonestFit))
}

// soonestFit is the strategy: a solver.Chooser, the simplest kind of player.
type soonestFit struct {
	moves []solver.Move // reused, so that choosing allocates nothing
}

func newSoonestFit(solver.Rules) (solver.Chooser, error) { return &soonestFit{}, nil }

// Choose implements solver.Chooser.
func (c *soonestFit) Choose(v solver.View) (solver.Move, error) {
	c.moves = v.AppendLegalMoves(c.moves[:0])
	for _, m := range c.moves {
		if m.Kind == solver.ToTable || m.Kind == solver.StackToTable {
			return m, nil
		}
	}
	if v.Drawn() == 0 {
		return solver.Move{}, solver.ErrResign // nothing drawn, nothing to move
	}
	d := wait(v, v.Drawn())
	best, bestScore := -1, 0
	for s := range v.Stacks() {
		var score int
		switch top := v.Top(s); {
		case top == 0:
			score = 1000 // an empty stack: second best
		case wait(v, top.Rank()) > d:
			score = 2000 - wait(v, top.Rank()) // fits: the tighter the better
		default:
			score = wait(v, top.Rank()) // buries a sooner card: the least bad
		}
		if best < 0 || score > bestScore {
			best, bestScore = s, score
		}
	}
	return solver.Move{Kind: solver.ToStack, Stack: int8(best)}, nil
}

// wait is how many cards some table must still receive before it takes a
// card of rank r: 0 if a table needs r now. Table x takes x, 2x, 3x, … mod 13.
func wait(v solver.View, r solver.Rank) int {
	least := 1 << 30
	for x := 1; x <= solver.Tables; x++ {
		for k := v.Placed(x); k < solver.NumRanks; k++ {
			if solver.Rank(((k+1)*x-1)%solver.NumRanks+1) == r {
				least = min(least, k-v.Placed(x))
				break
			}
		}
	}
	return least
}
