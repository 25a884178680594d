package strategies

import (
	"fmt"

	"github.com/calcsol/calcsol/deadlock"
	"github.com/calcsol/calcsol/solver"
)

// Priority is the priority-table strategy of Nanzaki & Shintani
// [NanzakiShintani] (see docs/priority.md). For each drawn card it tries the
// operations of the card's rank in order and plays the first legal one that
// passes the deadlock check; after every operation it moves stack tops to
// their assigned tables, scanning the stacks in name order and starting again
// from the first after each move.
//
// It keeps no state between calls, so one Priority may serve many goroutines.
type Priority struct {
	table *Table
	opt   Options
	ops   [solver.NumRanks + 1][]op
	last  int8 // index of the last stack, for ExhaustLastStack
	// The options as they are used, resolved once so that a decision
	// compares no strings: the deadlock check (nil for none), and whether
	// an exhausted list stacks on the last stack.
	closes    func(p solver.View, y solver.Rank, x, s int) bool
	exact     bool // closes is deadlock.Closes: a decision asks a deadlock.Checker instead
	lastStack bool
}

// op is an Op resolved against the rules: the stack as an index.
type op struct {
	kind  OpKind
	table int8
	stack int8
}

// NewPriority returns the strategy playing table t under rules r.
func NewPriority(t *Table, r solver.Rules) (*Priority, error) {
	if err := r.Validate(); err != nil {
		return nil, err
	}
	if err := t.Validate(r); err != nil {
		return nil, err
	}
	p := &Priority{table: t, opt: t.Options, last: int8(r.Stacks - 1)}
	switch t.Options.Check {
	case CheckPartial:
		p.closes = deadlock.Partial
	case CheckExact:
		p.closes = deadlock.Closes
		p.exact = true
	}
	p.lastStack = t.Options.OnExhausted == ExhaustLastStack
	for k := 1; k <= solver.NumRanks; k++ {
		for _, o := range t.Ops[k] {
			ro := op{kind: o.Kind, table: int8(o.Table), stack: -1}
			if o.Kind == OpStack {
				ro.stack = int8(r.StackIndex(o.Stack))
			}
			p.ops[k] = append(p.ops[k], ro)
		}
	}
	return p, nil
}

// Table returns the priority table being played.
func (s *Priority) Table() *Table { return s.table }

// Choose implements solver.Strategy.
func (s *Priority) Choose(p solver.View) (solver.Move, error) {
	if m, ok := s.autoMove(p); ok {
		return m, nil
	}
	y := p.Drawn()
	if y == 0 {
		return solver.Move{}, errStuck
	}
	if s.lastStack && s.dumping(p) {
		return s.dump(p, y), nil
	}
	// One decision asks the check about one position, for up to a dozen
	// stackings: the exact check reads the stacks once.
	var chk deadlock.Checker
	for _, o := range s.ops[y] {
		x := int(o.table)
		switch o.kind {
		case OpTable:
			if p.Need(x) == y && !(s.opt.TxRespectsReservation && p.Reserved(x, y)) {
				return solver.Move{Kind: solver.ToTable, Rank: y, Table: o.table}, nil
			}
		case OpChain:
			if !p.SlotFree(x, y) {
				continue
			}
			k := solver.TablePos(x, y)
			if k+1 >= solver.NumRanks {
				continue // the king ends every table: nothing comes after it
			}
			want := solver.NewCard(solver.TableRank(x, k+1), x)
			for st := 0; st < p.Stacks(); st++ {
				if p.Top(st) == want && s.safe(&chk, p, y, x, st) {
					return solver.Move{Kind: solver.ToStack, Rank: y, Stack: int8(st), Table: o.table}, nil
				}
			}
		case OpStack:
			if p.SlotFree(x, y) && s.safe(&chk, p, y, x, int(o.stack)) {
				return solver.Move{Kind: solver.ToStack, Rank: y, Stack: o.stack, Table: o.table}, nil
			}
		case OpFit:
			if st, ok := s.fit(&chk, p, y, x); ok {
				return solver.Move{Kind: solver.ToStack, Rank: y, Stack: int8(st), Table: o.table}, nil
			}
		case OpEmpty:
			if !p.SlotFree(x, y) {
				continue
			}
			for st := 0; st < p.Stacks(); st++ {
				if p.Height(st) == 0 && s.safe(&chk, p, y, x, st) {
					return solver.Move{Kind: solver.ToStack, Rank: y, Stack: int8(st), Table: o.table}, nil
				}
			}
		}
	}
	if s.lastStack {
		return s.dump(p, y), nil
	}
	return solver.Move{}, errExhausted[y]
}

// errExhausted[y] is the resignation when every operation for rank y is
// rejected; made once, so that a lost game allocates nothing.
var errExhausted = func() (e [solver.NumRanks + 1]error) {
	for r := solver.Rank(1); r <= solver.NumRanks; r++ {
		e[r] = fmt.Errorf("%w: every operation for %s is rejected", solver.ErrResign, r)
	}
	return e
}()

var errStuck = fmt.Errorf("%w: the stock is empty and no stack top can go to the table it is assigned to", solver.ErrResign)

// autoMove finds the first stack top, in name order, that its assigned table
// needs next. Unassigned tops (only ExhaustLastStack makes them) go to the
// first table that needs them.
func (s *Priority) autoMove(p solver.View) (solver.Move, bool) {
	for st := 0; st < p.Stacks(); st++ {
		t := p.Top(st)
		if t == 0 {
			continue
		}
		r := t.Rank()
		if x := t.Table(); x != 0 {
			if p.Need(x) == r {
				return solver.Move{Kind: solver.StackToTable, Rank: r, Stack: int8(st), Table: int8(x)}, true
			}
			continue
		}
		for x := 1; x <= solver.Tables; x++ {
			if p.Need(x) == r {
				return solver.Move{Kind: solver.StackToTable, Rank: r, Stack: int8(st), Table: int8(x)}, true
			}
		}
	}
	if !s.opt.ReassignTops {
		return solver.Move{}, false
	}
	// No top goes where it is meant to: one may go to another table that
	// needs its rank now, if no stacked card holds that slot.
	for st := 0; st < p.Stacks(); st++ {
		t := p.Top(st)
		if t == 0 {
			continue
		}
		r := t.Rank()
		for x := 1; x <= solver.Tables; x++ {
			if p.Need(x) == r && !p.Reserved(x, r) {
				return solver.Move{Kind: solver.StackToTable, Rank: r, Stack: int8(st), Table: int8(x)}, true
			}
		}
	}
	return solver.Move{}, false
}

// dumping reports whether the list has been exhausted earlier in this game:
// Priority itself never stacks a card unassigned otherwise.
func (s *Priority) dumping(p solver.View) bool {
	for i := range p.Height(int(s.last)) {
		c := p.StackCard(int(s.last), i)
		if c.Table() == 0 {
			return true
		}
	}
	return false
}

// dump plays y to a table that needs it, else unassigned onto the last stack.
func (s *Priority) dump(p solver.View, y solver.Rank) solver.Move {
	for x := 1; x <= solver.Tables; x++ {
		if p.Need(x) == y && !(s.opt.TxRespectsReservation && p.Reserved(x, y)) {
			return solver.Move{Kind: solver.ToTable, Rank: y, Table: int8(x)}
		}
	}
	return solver.Move{Kind: solver.ToStack, Rank: y, Stack: s.last}
}

// safe runs the configured deadlock check for stacking y (for table x) on
// stack st; the exact check asks chk, which has read (or will read) p.
func (s *Priority) safe(chk *deadlock.Checker, p solver.View, y solver.Rank, x, st int) bool {
	if s.exact {
		return !chk.Closes(p, y, x, st)
	}
	return s.closes == nil || !s.closes(p, y, x, st)
}

// fit finds the stack for OpFit: y, meant for table x, goes on the
// non-empty stack whose top waits least among the tops that wait longer
// than y, and that passes the check (the first in name order on a tie).
func (s *Priority) fit(chk *deadlock.Checker, p solver.View, y solver.Rank, x int) (int, bool) {
	if !p.SlotFree(x, y) {
		return 0, false
	}
	wy := solver.TablePos(x, y) - p.Placed(x)
	best, bestWait := -1, 0
	for st := 0; st < p.Stacks(); st++ {
		t := p.Top(st)
		if t == 0 {
			continue
		}
		w := stackedWait(p, t)
		if w > wy && (best < 0 || w < bestWait) && s.safe(chk, p, y, x, st) {
			best, bestWait = st, w
		}
	}
	return best, best >= 0
}

// stackedWait is how many cards the table of stacked card c must still get
// before c: for a card stacked unassigned, the least over the tables that
// lack its rank (wait).
func stackedWait(p solver.View, c solver.Card) int {
	if x := c.Table(); x != 0 {
		return solver.TablePos(x, c.Rank()) - p.Placed(x)
	}
	return wait(p, c.Rank())
}
