package corpus_test

import (
	"context"
	"errors"
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

// A command that takes "FILE or NAME" reads it through Resolve: an existing
// file wins over a shipped corpus of the same name.
func ExampleLoadCalculationDecks() {
	ds, err := corpus.LoadCalculationDecks("uniform-1000")
	fmt.Println(len(ds), err)
	_, err = corpus.LoadCalculationDecks("no-such-corpus")
	fmt.Println(errors.Is(err, corpus.ErrNotFound))
	// Output:
	// 1000 <nil>
	// true
}

// WriteGenerated writes a corpus of any size deck by deck; the bytes are
// those of Write(Generate(…)).
func ExampleWriteGenerated() {
	seq, _ := shuffle.ParseSequence("U", shuffle.DefaultParams())
	spec := corpus.Spec{Kind: cards.Standard52, Generator: corpus.ShuffleGenerator{Shuffle: seq}, Seed: 1, Count: 2, RankOnly: true}
	sum, err := corpus.WriteGenerated(context.Background(), os.Stdout, spec)
	fmt.Println(len(sum), err)
	// Output:
	// # format calcsol-corpus 1
	// # kind standard52
	// # generator shuffle U
	// # seed 1
	// # count 2
	// # sha256 d975c609f54d48184764f7e1cdc890c956fd28e17c7603dbdf372aeb05d12612
	// 29KJ4678396JJ794053Q49K572J086QAA3A32K260A8Q5K4857Q0
	// 50A27Q80JJ36638479KK920QAA0K224A3JK6553J9878449Q675Q
	// 64 <nil>
}
