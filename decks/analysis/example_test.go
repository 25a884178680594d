package analysis_test

import (
	"fmt"

	"github.com/calcsol/calcsol/decks/analysis"
	"github.com/calcsol/calcsol/decks/shuffle"
)

// Bayer & Diaconis's table: total variation distance to uniform after k
// riffles of 52 cards.
func ExampleRiffleTV() {
	for k := 5; k <= 10; k++ {
		tv, _ := analysis.RiffleTV(52, k)
		f, _ := tv.Float64()
		fmt.Printf("%d:%.3f ", k, f)
	}
	fmt.Println()
	// Output: 5:0.924 6:0.614 7:0.334 8:0.167 9:0.085 10:0.043
}

// The exact single-card chain of one GSR riffle of 3 cards.
func ExampleGSRKernelRat() {
	k := analysis.GSRKernelRat(3)
	for i := range 3 {
		fmt.Println(k[i*3].RatString(), k[i*3+1].RatString(), k[i*3+2].RatString())
	}
	// Output:
	// 5/8 1/4 1/8
	// 1/4 1/2 1/4
	// 1/8 1/4 5/8
}

// A perfect (faro) shuffle is not random at all: every set gives the same
// deck, so only the n cells it hits are far from 1/n and C is 0.
func ExampleMeasure() {
	faro := shuffle.MustParseSequence("F", shuffle.DefaultParams())
	res, err := analysis.Measure(analysis.Fixed(faro), analysis.Options{N: 8, Sets: 1000, Seed: 1, Stats: true})
	if err != nil {
		panic(err)
	}
	fmt.Println(res.First)
	fmt.Println(res.Matrix.Classify(0.01))
	fmt.Printf("rising sequences %.1f, guess score %.1f\n", res.Rising.Mean(), res.Guess.Mean())
	// Output:
	// [0 4 1 5 2 6 3 7]
	// C = 0.000(0)
	// rising sequences 2.0, guess score 2.0
}

func ExampleClassification_String() {
	c := analysis.Classification{N: 52, White: 2646}
	fmt.Println(c)
	// Output: C = 0.978(2646)
}
