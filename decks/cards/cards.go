// Package cards names the cards of the deck kinds corpora are made of
// (standard52, tcg60, set64) and reads and writes them, one card or one deck
// line at a time.
package cards

import (
	"fmt"
	"strings"

	"github.com/calcsol/calcsol/solver"
)

// Kind is a kind of deck: how many cards it has and how they are
// written. A card is an identity 0..Size()-1; a fresh deck holds the
// identities in order, top first. The notations (docs/corpora.md):
//
//   - standard52: identity i is rank (i%13)+1 of suit "SHDC"[i/13], written
//     rank+suit with ranks A234567890JQK ("AS", "0H", "KC"); T for ten and
//     lower-case letters are read too.
//   - tcg60: 60 distinct cards, identity i written as the two decimal digits
//     of i+1 ("01" … "60"), the card's position in the fresh deck.
//   - set64: the 32 subsets of {1,…,5} twice. Identity i is copy i/32 (a or
//     b) of the subset whose bit k-1 is set when k is in it (mask i%32);
//     written as the members in increasing order, "-" for the empty set,
//     then the copy letter: "-a", "1a", "135b", "12345b".
type Kind uint8

// The deck kinds. The zero Kind is not a kind.
const (
	Standard52 Kind = iota + 1
	TCG60
	Set64
)

var kindNames = [...]string{Standard52: "standard52", TCG60: "tcg60", Set64: "set64"}
var kindSizes = [...]int{Standard52: 52, TCG60: 60, Set64: 64}

// Kinds returns every deck kind, in a fixed order.
func Kinds() []Kind { return []Kind{Standard52, TCG60, Set64} }

// ParseKind reads a kind name: standard52, tcg60 or set64.
func ParseKind(name string) (Kind, error) {
	for _, k := range Kinds() {
		if kindNames[k] == name {
			return k, nil
		}
	}
	return 0, fmt.Errorf("unknown deck kind %q (want standard52, tcg60 or set64)", name)
}

// Valid reports whether k is one of the kinds.
func (k Kind) Valid() bool { return k >= Standard52 && k <= Set64 }

// Name is the kind's name as written in corpus headers and flags.
func (k Kind) Name() string {
	if !k.Valid() {
		return fmt.Sprintf("Kind(%d)", uint8(k))
	}
	return kindNames[k]
}

// String is Name.
func (k Kind) String() string { return k.Name() }

// Size is the number of cards in a deck of kind k.
func (k Kind) Size() int {
	if !k.Valid() {
		return 0
	}
	return kindSizes[k]
}

// NewDeck returns a fresh deck of kind k: identities 0..Size()-1, top first.
func (k Kind) NewDeck() []int {
	d := make([]int, k.Size())
	for i := range d {
		d[i] = i
	}
	return d
}

// RankOf returns the Calculation rank of a standard52 identity.
func RankOf(id int) solver.Rank { return solver.Rank(id%13 + 1) }

// SuitOf returns the suit index (0..3 for S H D C, solver.SuitLetters) of a
// standard52 identity.
func SuitOf(id int) int { return id / 13 }

// ID returns the standard52 identity of rank r (1..13) and suit s (0..3).
func ID(r solver.Rank, s int) int { return s*13 + int(r) - 1 }

// FormatCard writes card id of kind k; it panics on an identity out of range,
// which is a programming error.
func (k Kind) FormatCard(id int) string { return string(k.AppendCard(nil, id)) }

// AppendCard appends the notation of card id to b.
func (k Kind) AppendCard(b []byte, id int) []byte {
	if id < 0 || id >= k.Size() {
		panic(fmt.Sprintf("cards: card %d out of range for %s", id, k.Name()))
	}
	switch k {
	case Standard52:
		return append(b, RankOf(id).String()[0], solver.SuitLetters[SuitOf(id)])
	case TCG60:
		n := id + 1
		return append(b, byte('0'+n/10), byte('0'+n%10))
	default: // Set64
		mask := id % 32
		if mask == 0 {
			b = append(b, '-')
		}
		for e := 0; e < 5; e++ {
			if mask&(1<<e) != 0 {
				b = append(b, byte('1'+e))
			}
		}
		return append(b, byte('a'+id/32))
	}
}

// ParseCard reads one card of kind k and returns its identity.
func (k Kind) ParseCard(s string) (int, error) { return k.parseCard([]byte(s)) }

func (k Kind) parseCard(s []byte) (int, error) {
	switch k {
	case Standard52:
		return solver.ParseCard(string(s))
	case TCG60:
		if len(s) != 2 || s[0] < '0' || s[0] > '9' || s[1] < '0' || s[1] > '9' {
			return 0, fmt.Errorf("card %q: want two digits 01..60", s)
		}
		n := int(s[0]-'0')*10 + int(s[1]-'0')
		if n < 1 || n > 60 {
			return 0, fmt.Errorf("card %q: want two digits 01..60", s)
		}
		return n - 1, nil
	case Set64:
		if len(s) < 2 || len(s) > 6 {
			return 0, fmt.Errorf("card %q: want a subset of 12345 in increasing order (or -) and a copy letter a or b", s)
		}
		c := s[len(s)-1]
		if c != 'a' && c != 'b' {
			return 0, fmt.Errorf("card %q: copy letter %q, want a or b", s, c)
		}
		members := s[:len(s)-1]
		mask := 0
		if string(members) != "-" {
			last := byte('0')
			for _, m := range members {
				if m < '1' || m > '5' {
					return 0, fmt.Errorf("card %q: member %q, want 1..5 (or - alone for the empty set)", s, m)
				}
				if m <= last {
					return 0, fmt.Errorf("card %q: members must be distinct and increasing", s)
				}
				last = m
				mask |= 1 << (m - '1')
			}
		}
		return int(c-'a')*32 + mask, nil
	}
	return 0, fmt.Errorf("card %q: invalid deck kind %d", s, uint8(k))
}

// FormatDeck writes a deck of kind k, cards separated by single spaces.
func (k Kind) FormatDeck(deck []int) string { return string(k.AppendDeck(nil, deck)) }

// AppendDeck appends FormatDeck(deck) to b.
func (k Kind) AppendDeck(b []byte, deck []int) []byte {
	for i, id := range deck {
		if i > 0 {
			b = append(b, ' ')
		}
		b = k.AppendCard(b, id)
	}
	return b
}

// ParseDeck reads a whole deck of kind k: Size() distinct cards separated by
// white space.
func (k Kind) ParseDeck(s string) ([]int, error) {
	d := make([]int, k.Size())
	if _, err := k.ParseLine([]byte(strings.TrimSpace(s)), d, false); err != nil {
		return nil, err
	}
	return d, nil
}

// SetMask returns the subset of {1..5} of a set64 identity as a bit mask
// (bit k-1 set when k is a member).
func SetMask(id int) int { return id % 32 }
