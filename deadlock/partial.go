// Package deadlock finds the cycles that make a Calculation position lost
// (Nanzaki & Shintani, "A Program to Solve Calculation", §3): once every
// stacked card is assigned to a table, a card must reach its table before
// the card it lies on, and before the cards after it on the
// same table. A directed cycle in that "before" relation can never be undone.
package deadlock

import (
	"math/bits"

	"github.com/calcsol/calcsol/solver"
)

// Partial is seed 003's cheap check (Nanzaki & Shintani, SPEC §3) before
// stacking card y, meant for table x, on stack s. It reports true when either
//
//  1. stack s already holds a card assigned to table x that comes before y
//     on table x; or
//  2. a card w assigned to table x before y lies in another stack s′, u is the
//     card directly on top of w there, and stack s already holds a card
//     assigned to u's table that comes before u on that table.
//
// It sees only cycles of those two shapes; Exact sees them all.
func Partial(p *solver.Position, y solver.Rank, x, s int) bool {
	before := uint16(1)<<solver.TablePos(x, y) - 1 // positions of table x before y
	// Check 1.
	if p.StackMask(s, x)&before != 0 {
		return true
	}
	// Check 2: every stacked card w of table x before y, in another stack.
	for m := p.ReservedMask(x) &^ p.StackMask(s, x) & before; m != 0; m &= m - 1 {
		k := bits.TrailingZeros16(m)
		ws, wi := p.Locate(x, k)
		if wi+1 >= p.Height(ws) {
			continue // w is on top: nothing lies on it
		}
		u := p.Stack(ws)[wi+1]
		ux := u.Table()
		if ux == 0 {
			continue
		}
		beforeU := uint16(1)<<solver.TablePos(ux, u.Rank()) - 1
		if p.StackMask(s, ux)&beforeU != 0 {
			return true
		}
	}
	return false
}
