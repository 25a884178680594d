package deal_test

import (
	"fmt"
	"strings"

	"github.com/calcsol/calcsol/decks/cards"
	"github.com/calcsol/calcsol/decks/deal"
)

func ExampleParseSpec() {
	d, err := deal.ParseSpec("players=4,adjust=50,target=pairs")
	fmt.Println(d.Spec(), err)
	_, err = deal.ParseSpec("players=6")
	fmt.Println(err)
	// Output:
	// deal players=4,adjust=50,target=pairs,gather=hands <nil>
	// deal spec "players=6": players=6: want 3..5
}

func ExampleMeasureHand() {
	var hand []int
	for _, c := range strings.Fields("AS 2S 3S 5H 5D 5C 9D 9C KC QC JC 0C 4H") {
		id, _ := cards.Standard52.ParseCard(c)
		hand = append(hand, id)
	}
	m := deal.MeasureHand(hand)
	fmt.Printf("pairs %d triples %d quads %d runs %d\n", m.Pairs, m.Triples, m.Quads, m.Runs)
	// Output: pairs 1 triples 1 quads 0 runs 2
}
