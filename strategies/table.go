// Package strategies holds the registry of strategy kinds and the built-in
// strategies that play Calculation: the priority-table strategy of Nanzaki &
// Shintani [NanzakiShintani] and the greedy and random baselines (the
// searching players are in package search). Each implements solver.Strategy
// and sees only a solver.View.
package strategies

import (
	"fmt"
	"strings"

	"github.com/calcsol/calcsol/solver"
)

// OpKind is the kind of a priority-table operation (docs/priority.md).
type OpKind uint8

// The operations of Nanzaki & Shintani's priority table.
const (
	_ OpKind = iota
	// OpTable (Tx) puts the drawn card on table x.
	OpTable
	// OpChain (Nx, 並べ積み) puts the card, meant for table x, on a stack
	// whose top is meant for table x and comes right after it there.
	OpChain
	// OpStack (Sx) puts the card on stack S, meant for table x.
	OpStack
	// OpFit (Fx, calcsol's) puts the card, meant for table x, on the
	// stack whose top is needed soonest after it: of the non-empty stacks
	// whose top waits for more cards of its table than the card waits for
	// of table x, the one whose top waits least (the first such in name
	// order on a tie; docs/priority.md).
	OpFit
	// OpEmpty (Ex, calcsol's) puts the card, meant for table x, on the
	// first empty stack.
	OpEmpty
)

// Op is one operation of a priority table.
type Op struct {
	Kind  OpKind
	Table int  // 1..4
	Stack byte // stack name, for OpStack
}

// String writes the operation as in the table: "T1", "N4", "Z3".
func (o Op) String() string {
	switch o.Kind {
	case OpTable:
		return fmt.Sprintf("T%d", o.Table)
	case OpChain:
		return fmt.Sprintf("N%d", o.Table)
	case OpFit:
		return fmt.Sprintf("F%d", o.Table)
	case OpEmpty:
		return fmt.Sprintf("E%d", o.Table)
	case OpStack:
		if strings.IndexByte(opLetters, o.Stack) >= 0 {
			// The sixth default stack is N: spell it SN4, not N4 (chain stacking).
			return fmt.Sprintf("S%c%d", o.Stack, o.Table)
		}
		return fmt.Sprintf("%c%d", o.Stack, o.Table)
	}
	return "?"
}

// opLetters are the letters of operations that are not a stack's name: a
// stack named by one of them is written with an S before it.
const opLetters = "TNSFE"

// ParseOp reads one operation: Tx, Nx, Fx, Ex, or Sx with S a stack named in
// stacks. T, N, F and E are the table, chain, fit and empty-stack
// operations, so "N4" is always chain stacking; a stack named N (the sixth
// default name), T, S, F or E is written with an S before it: "SN4" puts the
// card on stack N for table 4. Any stack may be written that way ("SZ4" =
// "Z4").
func ParseOp(s string, stacks string) (Op, error) {
	if len(s) == 3 && s[0] == 'S' {
		x := int(s[2]) - '0'
		if x < 1 || x > solver.Tables {
			return Op{}, fmt.Errorf("operation %q: table %q is not 1..4", s, s[2])
		}
		if strings.IndexByte(stacks, s[1]) < 0 {
			return Op{}, fmt.Errorf("operation %q: %q is not a stack of this table (%s)", s, s[1], stacks)
		}
		return Op{Kind: OpStack, Table: x, Stack: s[1]}, nil
	}
	if len(s) != 2 {
		return Op{}, fmt.Errorf("operation %q: want T1, N4, F2, E3, Z3 or SZ3", s)
	}
	x := int(s[1]) - '0'
	if x < 1 || x > solver.Tables {
		return Op{}, fmt.Errorf("operation %q: table %q is not 1..4", s, s[1])
	}
	switch c := s[0]; {
	case c == 'T':
		return Op{Kind: OpTable, Table: x}, nil
	case c == 'N':
		return Op{Kind: OpChain, Table: x}, nil
	case c == 'F':
		return Op{Kind: OpFit, Table: x}, nil
	case c == 'E':
		return Op{Kind: OpEmpty, Table: x}, nil
	case strings.IndexByte(stacks, c) >= 0:
		return Op{Kind: OpStack, Table: x, Stack: c}, nil
	default:
		return Op{}, fmt.Errorf("operation %q: %q is not T, N, F, E or a stack of this table (%s)", s, c, stacks)
	}
}

// ParseOps reads a space-separated list of operations and refuses duplicates.
func ParseOps(s string, stacks string) ([]Op, error) {
	var ops []Op
	seen := map[Op]bool{}
	for _, f := range strings.Fields(s) {
		op, err := ParseOp(f, stacks)
		if err != nil {
			return nil, err
		}
		if seen[op] {
			return nil, fmt.Errorf("operation %s appears twice", op)
		}
		seen[op] = true
		ops = append(ops, op)
	}
	if len(ops) == 0 {
		return nil, fmt.Errorf("no operations")
	}
	return ops, nil
}

// FormatOps writes operations as ParseOps reads them.
func FormatOps(ops []Op) string {
	parts := make([]string, len(ops))
	for i, o := range ops {
		parts[i] = o.String()
	}
	return strings.Join(parts, " ")
}

// CheckMode selects the deadlock check run before every stacking operation.
type CheckMode string

// The deadlock checks.
const (
	CheckPartial CheckMode = "partial" // Nanzaki & Shintani's checks 1 and 2 (deadlock.Partial)
	CheckExact   CheckMode = "exact"   // a full cycle search of the dependency graph (deadlock.Closes)
	CheckNone    CheckMode = "none"    // no check
)

// ExhaustedMode says what happens when every operation of the drawn card is rejected.
type ExhaustedMode string

// The readings of "the list is exhausted".
const (
	// ExhaustLose ends the game as lost at once (the default reading).
	ExhaustLose ExhaustedMode = "lose"
	// ExhaustLastStack keeps dealing, as the paper's program did to draw its
	// figures: the card goes unassigned onto the last stack, and while an
	// unassigned card lies there every drawn card that no table needs follows
	// it. (Priority keeps no per-game state: the unassigned cards on the last
	// stack are the record that the list was exhausted.) The game is scored
	// by how it really ends.
	ExhaustLastStack ExhaustedMode = "last-stack"
)

// Options are the readings of Nanzaki & Shintani [NanzakiShintani] that the
// paper leaves open. The zero value is not the default: use DefaultOptions.
type Options struct {
	// TxRespectsReservation forbids Tx when a stacked card is already
	// assigned to (reserves) that slot. DefaultOptions sets it.
	TxRespectsReservation bool `param:"tx_respects_reservation"`
	// Check is the deadlock check before stacking.
	Check CheckMode `param:"deadlock_check" choices:"partial,exact,none"`
	// OnExhausted is what happens when no operation is legal.
	OnExhausted ExhaustedMode `param:"on_exhausted" choices:"lose,last-stack"`
	// ReassignTops lets a stack top that its assigned table does not need
	// go to another table that needs its rank now, when no stacked card
	// reserves that slot; the card's reservation moves with it. The rules
	// allow it (a top may go to any table that needs it); the paper's
	// assignments never change, so DefaultOptions leaves it off.
	ReassignTops bool `param:"reassign_tops"`
}

// DefaultOptions are calcsol's faithful reading of the paper (docs/priority.md).
func DefaultOptions() Options {
	return Options{TxRespectsReservation: true, Check: CheckPartial, OnExhausted: ExhaustLose}
}

// SetOption sets one option by its config name ("tx_respects_reservation",
// "deadlock_check", "on_exhausted", "reassign_tops"), as PriorityParams
// declare them.
func (o *Options) SetOption(key, value string) error {
	return Decode(o, map[string]string{key: value})
}

// String writes the options as key=value pairs (reassign_tops only when
// set, so that the text of a table without it is what it was before the
// option existed: tuning logs key their candidates by it).
func (o Options) String() string {
	s := fmt.Sprintf("tx_respects_reservation=%t deadlock_check=%s on_exhausted=%s",
		o.TxRespectsReservation, o.Check, o.OnExhausted)
	if o.ReassignTops {
		s += " reassign_tops=true"
	}
	return s
}

// Diff lists, as key=value pairs, the options of o that differ from base.
func (o Options) Diff(base Options) string {
	mine, theirs := Values(o), Values(base)
	var parts []string
	for _, p := range Declare(o) {
		if mine[p.Name] != theirs[p.Name] {
			parts = append(parts, p.Name+"="+mine[p.Name])
		}
	}
	return strings.Join(parts, " ")
}

// Table is a priority table: for each rank, the operations in order of preference.
type Table struct {
	Name    string
	Source  string // where it comes from, or how it was derived
	Stacks  string // the stack names it uses, left to right ("ZXC")
	Ops     [solver.NumRanks + 1][]Op
	Options Options
}

// Validate checks that every rank has operations and that the stacks the
// table names are exactly the stacks of rules r, so that no stack the player
// has is silently left unused and no operation names a stack it lacks.
func (t *Table) Validate(r solver.Rules) error {
	for k := solver.Rank(1); k <= solver.NumRanks; k++ {
		if len(t.Ops[k]) == 0 {
			return fmt.Errorf("table %s: no operations for rank %s", t.Name, k)
		}
	}
	if len(t.Stacks) != r.Stacks {
		return fmt.Errorf("table %s is for %d stacks (%s), the game has %d; give a table for %d stacks (--table)",
			t.Name, len(t.Stacks), t.Stacks, r.Stacks, r.Stacks)
	}
	for i := 0; i < len(t.Stacks); i++ {
		if r.StackIndex(t.Stacks[i]) != i {
			return fmt.Errorf("table %s: stack %c is not stack %d of the game (%s)", t.Name, t.Stacks[i], i+1, stackNames(r))
		}
	}
	used := map[byte]bool{}
	for k := 1; k <= solver.NumRanks; k++ {
		for _, op := range t.Ops[k] {
			if op.Kind == OpStack {
				used[op.Stack] = true
			}
		}
	}
	for i := 0; i < len(t.Stacks); i++ {
		if !used[t.Stacks[i]] {
			return fmt.Errorf("table %s: stack %c is never used", t.Name, t.Stacks[i])
		}
	}
	return nil
}

func stackNames(r solver.Rules) string {
	b := make([]byte, r.Stacks)
	for i := range b {
		b[i] = r.StackName(i)
	}
	return string(b)
}
