package decks_test

import (
	"fmt"
	"os"
	"strings"

	"github.com/calcsol/calcsol/decks"
)

func ExampleGenerateCorpus() {
	seq, err := decks.ParseSequence("U", decks.DefaultParams())
	if err != nil {
		panic(err)
	}
	c, err := decks.GenerateCorpus(decks.Standard52, decks.ShuffleGenerator{Shuffle: seq}, 20021001, 2)
	if err != nil {
		panic(err)
	}
	if err := decks.WriteCorpus(os.Stdout, c); err != nil {
		panic(err)
	}
	// Output:
	// # format calcsol-corpus 1
	// # kind standard52
	// # generator shuffle U
	// # seed 20021001
	// # count 2
	// # sha256 0ebdbfcf8decc125dc322ed438b41c765435cf7f5d17915bcb0962d14945edce
	// 5H 2D 6H 9D QD 3D 4D JD 4H 8C 9S 8S 0S 0H 2C 8H 7S 8D AS 5S 7D 2S AH JH 4C 9H 3C 7C AD 7H 0D 9C KH QC KS KD 5D QS 3H AC QH 5C 0C 4S KC 3S 2H 6C JC 6S 6D JS
	// KD 3D 0H 7D 6H KS AH 6C 4S 8C 3C QC QD 9C KH 4D 6S 3S 5D 9H JC 2D 7S AD 5H AS JD QS 0S QH 9S 3H 5C 7H 4C 7C JH 8H AC 8D 5S 9D 2C 4H JS KC 8S 0C 2S 6D 2H 0D
}

func ExampleReadCalculationDecks() {
	// Rank-only lines, as in seed 003's deck files, are read too.
	in := "# kind standard52\n" +
		"A3474AK0JJ77Q580Q626639695324880KJAK2047A85Q25KJ99Q3\n" +
		"A234567890JQKA234567890JQKA234567890JQKA234567890JQK\n"
	ds, err := decks.ReadCalculationDecks(strings.NewReader(in), "in.txt")
	fmt.Println(len(ds), err)
	fmt.Println(ds[0].String())

	_, err = decks.ReadCalculationDecks(strings.NewReader("# count 2\n"+strings.Repeat("K", 52)+"\n"), "bad.txt")
	fmt.Println(err)
	// Output:
	// 2 <nil>
	// A3474AK0JJ77Q580Q626639695324880KJAK2047A85Q25KJ99Q3
	// bad.txt line 2: rank-only deck, card 5: a fifth K
}

func ExampleKind_FormatCard() {
	for _, k := range decks.Kinds() {
		fmt.Printf("%-10s %2d cards: %s %s … %s\n", k.Name(), k.Size(), k.FormatCard(0), k.FormatCard(1), k.FormatCard(k.Size()-1))
	}
	// Output:
	// standard52 52 cards: AS 2S … KC
	// tcg60      60 cards: 01 02 … 60
	// set64      64 cards: -a 1a … 12345b
}

func ExampleParseDealSpec() {
	d, err := decks.ParseDealSpec("players=4,adjust=50,target=pairs")
	fmt.Println(d.Spec(), err)
	_, err = decks.ParseDealSpec("players=6")
	fmt.Println(err)
	// Output:
	// deal players=4,adjust=50,target=pairs,gather=hands <nil>
	// deal spec "players=6": players=6: want 3..5
}

func ExampleMeasureHand() {
	var hand []int
	for _, c := range strings.Fields("AS 2S 3S 5H 5D 5C 9D 9C KC QC JC 0C 4H") {
		id, _ := decks.Standard52.ParseCard(c)
		hand = append(hand, id)
	}
	m := decks.MeasureHand(hand)
	fmt.Printf("pairs %d triples %d quads %d runs %d\n", m.Pairs, m.Triples, m.Quads, m.Runs)
	// Output: pairs 1 triples 1 quads 0 runs 2
}
