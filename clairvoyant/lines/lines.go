// Package lines stores one winning line of play per winnable deck compactly,
// so that a bound file (calcsol solve --corpus --out) carries the proof of
// every "winnable" it claims, and anyone can check that proof with the rules
// alone (calcsol verify-bound), without trusting the search that found it.
//
// A line is stored as the place of each card of the stock, in the order it
// is drawn: a table it goes to directly, or a stack together with the table
// it will go to from there. The stack tops are then played onto their
// tables as soon as those need them. Decode expands that into the moves of
// the game, and solver.Replay is the check. Each card's place is one of the
// places the rules allow it at that moment (see Choices), so a place costs
// log2 of their number in bits: the places of a deck are one mixed-radix
// number, about 20 bytes for a 52-card deal.
//
// The package depends on the rules engine (package solver) alone.
package lines

import (
	"errors"
	"fmt"
	"math/big"

	"github.com/calcsol/calcsol/solver"
)

// Choices appends to dst the places the rules allow the card drawn in g, in
// a fixed order: directly to each table that needs it (table order), then
// onto each stack (stack order) assigned to each table whose slot for it is
// free (table order). It is the alphabet of one card of an encoded line.
func Choices(dst []solver.Move, g *solver.Game) []solver.Move {
	var all [solver.MaxLegalMoves]solver.Move
	for _, m := range g.AppendLegalMoves(all[:0]) {
		if m.Kind == solver.ToTable || (m.Kind == solver.ToStack && m.Table != 0) {
			dst = append(dst, m)
		}
	}
	return dst
}

// settle plays stack tops onto the tables they are assigned to as long as
// one is needed there: the stacks are scanned in order, the first top that
// can go goes, and the scan starts over. The moves are appended to trace.
func settle(g *solver.Game, trace []solver.Move) ([]solver.Move, error) {
	for {
		moved := false
		for s := 0; s < g.Stacks(); s++ {
			t := g.Top(s)
			if t == 0 || t.Table() == 0 || g.Need(t.Table()) != t.Rank() {
				continue
			}
			m := solver.Move{Kind: solver.StackToTable, Rank: t.Rank(), Stack: int8(s), Table: int8(t.Table())}
			if err := g.Apply(m); err != nil {
				return trace, err
			}
			trace = append(trace, m)
			moved = true
			break
		}
		if !moved {
			return trace, nil
		}
	}
}

// Encode returns the compact form of trace, a line that wins deck d under
// rules r. Each card placed keeps its table (a stacked card: the table its
// stack top went to, whatever it was assigned); stack tops leave as soon as
// their tables need them, which never stops a line from winning. It fails
// when trace does not replay to a win.
func Encode(d *solver.Deck, r solver.Rules, trace []solver.Move) ([]byte, error) {
	places, err := placesOf(d, r, trace)
	if err != nil {
		return nil, err
	}
	g, err := solver.NewGame(d, r)
	if err != nil {
		return nil, err
	}
	var moves []solver.Move
	digits := make([]int, 0, len(places))
	radix := make([]int, 0, len(places))
	var buf [solver.MaxLegalMoves]solver.Move
	for i, want := range places {
		if moves, err = settle(g, moves); err != nil {
			return nil, err
		}
		cs := Choices(buf[:0], g)
		k := indexOf(cs, want)
		if k < 0 {
			return nil, fmt.Errorf("card %d (%s): place %s is not open after the stack tops moved", i+1, want.Rank, want.Format(r))
		}
		digits, radix = append(digits, k), append(radix, len(cs))
		if err := g.Apply(want); err != nil {
			return nil, err
		}
		moves = append(moves, want)
	}
	if _, err := settle(g, moves); err != nil {
		return nil, err
	}
	if !g.Won() {
		return nil, errors.New("the line with stack tops played at once does not win")
	}
	// The first card is the least significant digit.
	n, tmp := new(big.Int), new(big.Int)
	for i := len(digits) - 1; i >= 0; i-- {
		n.Mul(n, tmp.SetInt64(int64(radix[i])))
		n.Add(n, tmp.SetInt64(int64(digits[i])))
	}
	return n.Bytes(), nil
}

func indexOf(cs []solver.Move, m solver.Move) int {
	for k, c := range cs {
		if c == m {
			return k
		}
	}
	return -1
}

// placesOf replays trace on d and returns, for each card drawn in order,
// the move that placed it, with a stacked card assigned to the table it
// left its stack for. It fails unless trace wins.
func placesOf(d *solver.Deck, r solver.Rules, trace []solver.Move) ([]solver.Move, error) {
	g, err := solver.NewGame(d, r)
	if err != nil {
		return nil, err
	}
	var places []solver.Move
	stacks := make([][]int, r.Stacks) // the cards of each stack, as indices in places
	for i, m := range trace {
		if m.Rank == 0 {
			return nil, &solver.ReplayError{Index: i, Token: m.Format(r), Err: errors.New("move names no card")}
		}
		if err := g.Apply(m); err != nil {
			return nil, &solver.ReplayError{Index: i, Token: m.Format(r), Err: err}
		}
		switch m.Kind {
		case solver.ToTable:
			places = append(places, m)
		case solver.ToStack:
			stacks[m.Stack] = append(stacks[m.Stack], len(places))
			places = append(places, m)
		case solver.StackToTable:
			s := stacks[m.Stack]
			places[s[len(s)-1]].Table = m.Table
			stacks[m.Stack] = s[:len(s)-1]
		}
	}
	if !g.Won() {
		return nil, fmt.Errorf("the line does not win: %d cards on the tables", g.TotalPlaced())
	}
	return places, nil
}

// Decode expands an encoded line into the moves of the game on deck d under
// rules r: each card drawn to its place, the stack tops played onto their
// tables as soon as those need them. It fails when data names a place that
// does not exist (or has data left over, or is not in its shortest form);
// it does not check that the line wins — solver.Replay of the moves does.
func Decode(d *solver.Deck, r solver.Rules, data []byte) ([]solver.Move, error) {
	if len(data) > 0 && data[0] == 0 {
		return nil, errors.New("encoded line starts with a zero byte")
	}
	g, err := solver.NewGame(d, r)
	if err != nil {
		return nil, err
	}
	n := new(big.Int).SetBytes(data)
	q, k, radix := new(big.Int), new(big.Int), new(big.Int)
	var moves []solver.Move
	var buf [solver.MaxLegalMoves]solver.Move
	for card := 1; g.Drawn() != 0; card++ {
		if moves, err = settle(g, moves); err != nil {
			return moves, err
		}
		cs := Choices(buf[:0], g)
		if len(cs) == 0 {
			return moves, fmt.Errorf("card %d (%s): no place is open", card, g.Drawn())
		}
		q.QuoRem(n, radix.SetInt64(int64(len(cs))), k)
		n, q = q, n
		m := cs[k.Int64()]
		if err := g.Apply(m); err != nil {
			return moves, err
		}
		moves = append(moves, m)
	}
	if n.Sign() != 0 {
		return moves, errors.New("encoded line has data left after the last card")
	}
	return settle(g, moves)
}
