package solver

import (
	"fmt"
	"strings"
)

// MoveKind says where a card goes.
type MoveKind uint8

// The three kinds of move (docs/rules.md), with their trace notation (after
// Nanzaki & Shintani [NanzakiShintani]).
const (
	_            MoveKind = iota
	ToTable               // drawn card y to table x: "yx"
	ToStack               // drawn card y onto stack S, meant for table x: "ySx" ("yS" unassigned)
	StackToTable          // top card y of stack S to table x: "Syx"
	// Resign is not a move of the game: a strategy returns it to give the
	// game up. It never appears in a trace.
	Resign
)

// Move is one move. Rank may be 0 in a move a strategy returns (the card is
// then whatever is drawn or on top); traces always carry it.
type Move struct {
	Kind  MoveKind
	Rank  Rank
	Stack int8 // 0-based stack index (ToStack, StackToTable)
	Table int8 // 1..4; for ToStack the assignment, 0 for none
}

// Format writes m in trace notation, naming stacks as r does.
func (m Move) Format(r Rules) string {
	switch m.Kind {
	case ToTable:
		return fmt.Sprintf("%s%d", m.Rank, m.Table)
	case ToStack:
		if m.Table == 0 {
			return fmt.Sprintf("%s%c", m.Rank, r.StackName(int(m.Stack)))
		}
		return fmt.Sprintf("%s%c%d", m.Rank, r.StackName(int(m.Stack)), m.Table)
	case StackToTable:
		return fmt.Sprintf("%c%s%d", r.StackName(int(m.Stack)), m.Rank, m.Table)
	case Resign:
		return "resign"
	}
	return "?"
}

// ParseMove reads one trace token ("6Z4", "33", "Z93", "6Z") with r's stack names.
func ParseMove(tok string, r Rules) (Move, error) {
	table := func(c byte) (int8, error) {
		if c < '1' || c > '4' {
			return 0, fmt.Errorf("move %q: table %q is not 1..4", tok, c)
		}
		return int8(c - '0'), nil
	}
	stack := func(c byte) (int8, error) {
		s := r.StackIndex(c)
		if s < 0 {
			return 0, fmt.Errorf("move %q: no stack %q with %d stacks", tok, c, r.Stacks)
		}
		return int8(s), nil
	}
	var m Move
	var err error
	switch {
	case len(tok) == 2 && tok[1] >= '0' && tok[1] <= '9':
		m.Kind = ToTable
		if m.Rank, err = ParseRank(tok[0]); err != nil {
			return m, fmt.Errorf("move %q: %w", tok, err)
		}
		m.Table, err = table(tok[1])
	case len(tok) == 2:
		m.Kind = ToStack
		if m.Rank, err = ParseRank(tok[0]); err != nil {
			return m, fmt.Errorf("move %q: %w", tok, err)
		}
		m.Stack, err = stack(tok[1])
	case len(tok) == 3 && rankOfChar[tok[0]] == 0:
		m.Kind = StackToTable
		if m.Stack, err = stack(tok[0]); err != nil {
			return m, err
		}
		if m.Rank, err = ParseRank(tok[1]); err != nil {
			return m, fmt.Errorf("move %q: %w", tok, err)
		}
		m.Table, err = table(tok[2])
	case len(tok) == 3:
		m.Kind = ToStack
		if m.Rank, err = ParseRank(tok[0]); err != nil {
			return m, fmt.Errorf("move %q: %w", tok, err)
		}
		if m.Stack, err = stack(tok[1]); err != nil {
			return m, err
		}
		m.Table, err = table(tok[2])
	default:
		return m, fmt.Errorf("move %q: want yx, ySx, yS or Syx", tok)
	}
	return m, err
}

// FormatTrace writes moves as space-separated trace tokens.
func FormatTrace(moves []Move, r Rules) string {
	var b strings.Builder
	for i, m := range moves {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(m.Format(r))
	}
	return b.String()
}

// ParseTrace reads space-separated trace tokens.
func ParseTrace(s string, r Rules) ([]Move, error) {
	var moves []Move
	for i, tok := range strings.Fields(s) {
		m, err := ParseMove(tok, r)
		if err != nil {
			return moves, fmt.Errorf("trace token %d: %w", i+1, err)
		}
		moves = append(moves, m)
	}
	return moves, nil
}

// Complete returns m with its card filled in where a strategy left it 0, as
// a Decision may: the drawn card for a move of it, the stack's top for a
// move of a stack top (a stack that does not exist is left to Check).
func (p *Position) Complete(m Move) Move {
	if m.Rank != 0 {
		return m
	}
	switch m.Kind {
	case ToTable, ToStack:
		m.Rank = p.drawn
	case StackToTable:
		if m.Stack >= 0 && int(m.Stack) < p.rules.Stacks {
			m.Rank = p.Top(int(m.Stack)).Rank()
		}
	}
	return m
}
