package cards

import (
	"fmt"

	"github.com/calcsol/calcsol/solver"
)

// ParseLine reads one deck line of kind k into out (len k.Size()): cards
// separated by white space, each card once. A standard52 line is read by
// solver.ParseCards, the reader of the game's own notation; with rankOK it
// may be rank-only ("603K0443…", suits given by occurrence), and ParseLine
// reports whether it was. Errors name the card by its 1-based position.
func (k Kind) ParseLine(line []byte, out []int, rankOK bool) (rankOnly bool, err error) {
	if n := k.Size(); len(out) != n {
		return false, fmt.Errorf("cards: ParseLine wants room for %d cards, has %d", n, len(out))
	}
	if k == Standard52 {
		rankOnly, err := solver.ParseCards(line, (*[solver.DeckSize]int)(out))
		if err == nil && rankOnly && !rankOK {
			return false, fmt.Errorf("rank-only deck: want cards rank+suit like AS or 0H")
		}
		return rankOnly, err
	}
	return false, solver.ReadCardLine(line, out, k.parseCard, k.FormatCard)
}
