package solver

import (
	"fmt"
	"strings"
)

// Deck is a Calculation stock, top card first. Only ranks matter.
type Deck [DeckSize]Rank

// ParseDeck reads a deck in either notation of corpus files (docs/corpora.md):
// 52 rank characters ("603K0443…", spaces ignored) or 52 two-character cards
// rank+suit separated by white space ("AS 0H KC …"). Every rank must occur exactly four times.
func ParseDeck(s string) (Deck, error) {
	var d Deck
	fields := strings.Fields(s)
	n := 0
	if len(fields) > 1 && len(fields[0]) == 2 && isSuit(fields[0][1]) {
		// Rank+suit cards.
		seen := map[string]bool{}
		for i, f := range fields {
			if len(f) != 2 {
				return d, fmt.Errorf("card %d %q: want rank+suit like AS or 0H", i+1, f)
			}
			r, err := ParseRank(f[0])
			if err != nil {
				return d, fmt.Errorf("card %d %q: %w", i+1, f, err)
			}
			if !isSuit(f[1]) {
				return d, fmt.Errorf("card %d %q: unknown suit %q (want S H D C)", i+1, f, f[1])
			}
			key := string([]byte{rankChars[r-1], upper(f[1])})
			if seen[key] {
				return d, fmt.Errorf("card %d: duplicate card %s", i+1, key)
			}
			seen[key] = true
			if n == DeckSize {
				return d, fmt.Errorf("%d cards; want %d", len(fields), DeckSize)
			}
			d[n] = r
			n++
		}
	} else {
		ranks := strings.Join(fields, "")
		if len(ranks) != DeckSize {
			return d, fmt.Errorf("%d cards; want %d", len(ranks), DeckSize)
		}
		for i := 0; i < len(ranks); i++ {
			r, err := ParseRank(ranks[i])
			if err != nil {
				return d, fmt.Errorf("card %d: %w", i+1, err)
			}
			d[i] = r
		}
		n = DeckSize
	}
	if n != DeckSize {
		return d, fmt.Errorf("%d cards; want %d", n, DeckSize)
	}
	return d, d.Validate()
}

func isSuit(c byte) bool { return strings.IndexByte("SHDCshdc", c) >= 0 }

func upper(c byte) byte {
	if c >= 'a' && c <= 'z' {
		return c - 'a' + 'A'
	}
	return c
}

// Validate checks that every rank occurs exactly four times.
func (d *Deck) Validate() error {
	var count [NumRanks + 1]int
	for i, r := range d {
		if !r.Valid() {
			return fmt.Errorf("card %d: invalid rank %d", i+1, r)
		}
		count[r]++
		if count[r] > 4 {
			return fmt.Errorf("card %d: a fifth %s", i+1, r)
		}
	}
	return nil
}

// String writes the deck as 52 rank characters, top first.
func (d *Deck) String() string {
	var b [DeckSize]byte
	for i, r := range d {
		b[i] = r.String()[0]
	}
	return string(b[:])
}
