// Package subgame holds the stack game, a simplified Calculation that is
// solved exhaustively, and its table of exact success rates: the evaluation
// function of the subgame player (package search), after T. Tanaka's method
// ("Strategy of Calculation using the analysis of subgames", IPSJ Journal
// 43(10), 2002; "A calculation player program without using heuristic
// rules"): precomputed exact knowledge of a small game in place of per-move
// sampling (docs/subgame.md).
//
// The stack game keeps what makes Calculation hard, the order in which the
// cards are needed against the order in which they come, and drops the rest.
// There are m cards, labelled 0 … m−1 in the order they are needed (one
// counter instead of four tables), and S stacks. The cards not on a stack
// form the stock, in a uniformly random order. A turn draws the next card:
// the card needed now goes out (and then every stack top that is needed
// next, in turn); any other card goes onto a stack. A card put on a card
// needed before it can never leave, so that move loses; the game is won when
// every card is out. A stack is therefore always ordered, the card needed
// first on top, and a position is just which stack (or the stock) each card
// lies in.
//
// Package subgame imports only the standard library.
package subgame

import "fmt"

// MaxCards is the most cards a table can cover: one table of Calculation
// needs 13, and 13! orders still fit the exact integer counts.
const MaxCards = 13

// MaxStacks is the most stacks a table can have (Calculation's engine
// allows 8).
const MaxStacks = 8

// defaultEntries bounds the largest layer of a default table: 4 M entries
// (8 MB of values, a few seconds to build).
const defaultEntries = 1 << 22

// DefaultCards returns the number of cards of the default table for s
// stacks: the most whose largest layer has at most 4 M positions, at most
// MaxCards (13 for 1 or 2 stacks, 12 for 3, 10 for 4).
func DefaultCards(stacks int) int {
	m := 1
	for m < MaxCards && pow(stacks+1, m) <= defaultEntries {
		m++
	}
	return m
}

// Key says which table: its number of stacks and of cards.
type Key struct {
	Stacks int // S, 1..MaxStacks
	Cards  int // M, 1..MaxCards: positions of up to M cards are covered
}

// Validate reports what is wrong with k.
func (k Key) Validate() error {
	if k.Stacks < 1 || k.Stacks > MaxStacks {
		return fmt.Errorf("subgame: %d stacks; want 1..%d", k.Stacks, MaxStacks)
	}
	if k.Cards < 1 || k.Cards > MaxCards {
		return fmt.Errorf("subgame: %d cards; want 1..%d", k.Cards, MaxCards)
	}
	if pow(k.Stacks+1, k.Cards-1) > 1<<28 {
		return fmt.Errorf("subgame: %d cards with %d stacks: %d positions is too many", k.Cards, k.Stacks, pow(k.Stacks+1, k.Cards-1))
	}
	return nil
}

// String names the table, as the cache file does: "s3-m12".
func (k Key) String() string { return fmt.Sprintf("s%d-m%d", k.Stacks, k.Cards) }

// Entries returns the number of positions the table stores.
func (k Key) Entries() int {
	n := 0
	for m := 1; m <= k.Cards; m++ {
		n += pow(k.Stacks+1, m-1)
	}
	return n
}

func pow(b, e int) int {
	n := 1
	for range e {
		n *= b
	}
	return n
}

// Position is a position of the stack game before a draw: m cards left,
// card 0 (the one needed now) in the stock, and Where[l] for each card l in
// 1 … m−1, 0 when it is in the stock and s (1 … S) when it lies on stack s.
// A stack's cards lie in label order, the largest at the bottom, so Where
// says everything.
type Position struct {
	Cards int
	Where [MaxCards]uint8
}

// Index returns p's index in its layer: the digits Where[1 … m−1] in base
// S+1, card 1 the lowest.
func (p *Position) Index(stacks int) int {
	idx := 0
	for l := p.Cards - 1; l >= 1; l-- {
		idx = idx*(stacks+1) + int(p.Where[l])
	}
	return idx
}

// Stock returns the number of cards in the stock (card 0 among them).
func (p *Position) Stock() int {
	n := 1
	for l := 1; l < p.Cards; l++ {
		if p.Where[l] == 0 {
			n++
		}
	}
	return n
}

// Table holds the exact value of every position of the stack game with S
// stacks and up to M cards: the probability that best play wins, rounded to
// 1/65535 (Value), computed from exact integer counts of winning orders.
type Table struct {
	Key
	// vals[m] holds the values of the positions with m cards by Index;
	// vals[0] is unused.
	vals [][]uint16
}

// Scale is the value of a won position: Value returns the probability of
// winning times Scale, rounded.
const Scale = 65535

// Value returns the rounded win probability of p times Scale; p.Cards must
// be 1..t.Cards (0 cards: the game is won, Scale).
func (t *Table) Value(p *Position) uint16 {
	if p.Cards == 0 {
		return Scale
	}
	return t.vals[p.Cards][p.Index(t.Stacks)]
}

// Layer returns the values of the positions with m cards, by Index: the
// table's storage, not a copy.
func (t *Table) Layer(m int) []uint16 { return t.vals[m] }
