package cards_test

import (
	"fmt"

	"github.com/calcsol/calcsol/decks/cards"
)

func ExampleKind_FormatCard() {
	for _, k := range cards.Kinds() {
		fmt.Printf("%-10s %2d cards: %s %s … %s\n", k.Name(), k.Size(), k.FormatCard(0), k.FormatCard(1), k.FormatCard(k.Size()-1))
	}
	// Output:
	// standard52 52 cards: AS 2S … KC
	// tcg60      60 cards: 01 02 … 60
	// set64      64 cards: -a 1a … 12345b
}
