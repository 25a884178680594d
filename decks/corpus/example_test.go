package corpus_test

import (
	"fmt"
	"os"
	"strings"

	"github.com/calcsol/calcsol/decks/cards"
	"github.com/calcsol/calcsol/decks/corpus"
	"github.com/calcsol/calcsol/decks/shuffle"
)

func ExampleGenerate() {
	seq, err := shuffle.ParseSequence("U", shuffle.DefaultParams())
	if err != nil {
		panic(err)
	}
	c, err := corpus.Generate(cards.Standard52, corpus.ShuffleGenerator{Shuffle: seq}, 20021001, 2)
	if err != nil {
		panic(err)
	}
	if err := corpus.Write(os.Stdout, c); err != nil {
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
	// Rank-only lines, as in Nanzaki & Shintani's deck files, are read too.
	in := "# kind standard52\n" +
		"A3474AK0JJ77Q580Q626639695324880KJAK2047A85Q25KJ99Q3\n" +
		"A234567890JQKA234567890JQKA234567890JQKA234567890JQK\n"
	ds, err := corpus.ReadCalculationDecks(strings.NewReader(in), "in.txt")
	fmt.Println(len(ds), err)
	fmt.Println(ds[0].String())

	_, err = corpus.ReadCalculationDecks(strings.NewReader("# count 2\n"+strings.Repeat("K", 52)+"\n"), "bad.txt")
	fmt.Println(err)
	// Output:
	// 2 <nil>
	// A3474AK0JJ77Q580Q626639695324880KJAK2047A85Q25KJ99Q3
	// bad.txt line 2: rank-only deck, card 5: a fifth K
}
