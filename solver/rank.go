// Package solver holds the rules of the patience game Calculation: ranks, decks,
// positions, moves, traces, and the loop that lets a Strategy play a deck.
//
// It imports only the standard library; strategies, deck generators and the
// tournament depend on it, never the other way round (docs/design.md).
//
// Numbering used throughout the public API:
//   - ranks are 1..13 (A=1 … K=13), written A 2 3 4 5 6 7 8 9 0 J Q K (T is read as ten);
//   - tables are 1..4, as in the literature (table x is built in steps of x);
//   - stacks are 0-based indices; their names (Z X C V B N M …) are for traces.
package solver

import "fmt"

// Rank is a card rank, 1 (ace) to 13 (king). Suits never matter in Calculation.
// The zero Rank means "no card".
type Rank uint8

// NumRanks is the number of ranks; Tables the number of tables (foundations).
const (
	NumRanks = 13
	Tables   = 4
	// DeckSize is the number of cards in a Calculation deck.
	DeckSize = 52
)

const rankChars = "A234567890JQK"

// String returns the rank's one-character notation, or "?" for an invalid rank.
func (r Rank) String() string {
	if r < 1 || r > NumRanks {
		return "?"
	}
	return rankChars[r-1 : r]
}

// Valid reports whether r is 1..13.
func (r Rank) Valid() bool { return r >= 1 && r <= NumRanks }

// rankOfChar maps a byte to its rank, or 0.
var rankOfChar = func() (m [256]Rank) {
	for i := 0; i < len(rankChars); i++ {
		m[rankChars[i]] = Rank(i + 1)
	}
	m['T'] = 10
	m['t'] = 10
	m['a'], m['j'], m['q'], m['k'] = 1, 11, 12, 13
	return m
}()

// ParseRank reads one rank character (A 2 … 9 0 J Q K, T for ten; letters in either case).
func ParseRank(c byte) (Rank, error) {
	if r := rankOfChar[c]; r != 0 {
		return r, nil
	}
	return 0, fmt.Errorf("unknown rank %q (want one of A23456789 0/T JQK)", c)
}

// order[x-1][k] is the rank at position k (0-based) of table x:
// ((k+1)*x - 1) mod 13 + 1 (docs/rules.md).
var order = func() (o [Tables][NumRanks]Rank) {
	for x := 1; x <= Tables; x++ {
		for k := 0; k < NumRanks; k++ {
			o[x-1][k] = Rank(((k+1)*x-1)%NumRanks + 1)
		}
	}
	return o
}()

// needAt[x-1][k] is the rank table x needs when it holds k cards: order[x-1][k],
// or 0 once the table is complete (k = 13).
var needAt = func() (n [Tables][NumRanks + 1]Rank) {
	for x := range Tables {
		copy(n[x][:], order[x][:])
	}
	return n
}()

// posOf[x-1][r] is the 0-based position of rank r on table x.
var posOf = func() (p [Tables][NumRanks + 1]uint8) {
	for x := 0; x < Tables; x++ {
		for k, r := range order[x] {
			p[x][r] = uint8(k)
		}
	}
	return p
}()

// TableRank returns the rank at 0-based position k of table x (1..4).
func TableRank(x, k int) Rank { return order[x-1][k] }

// TablePos returns the 0-based position of rank r on table x (1..4).
// Every rank occurs exactly once on every table, since 1..4 are prime to 13.
func TablePos(x int, r Rank) int { return int(posOf[x-1][r]) }
