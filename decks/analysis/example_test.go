package analysis_test

import (
	"fmt"
	"strings"

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

// The blue/white/red picture of 2 cards that never move, against
// e_max = 0.01: each card always lands where it started (e = +0.5, red)
// and never elsewhere (e = −0.5, blue); the scale's ticks are multiples of
// e_max. Figure.WritePNG draws it with axes and the scale.
func ExampleBWRFigure() {
	f := analysis.BWRFigure([]float64{1, 0, 0, 1}, 2, 0.01, "no shuffle")
	for i := range 2 {
		var row []string
		for _, c := range f.Cells[2*i : 2*i+2] {
			switch {
			case c == analysis.ColourWhite:
				row = append(row, "white")
			case c.R > c.B:
				row = append(row, "red")
			default:
				row = append(row, "blue")
			}
		}
		fmt.Println(strings.Join(row, " "))
	}
	var ticks []string
	for _, t := range f.Scale.Ticks {
		ticks = append(ticks, t.Label)
	}
	fmt.Println(strings.Join(ticks, " "))
	// Output:
	// red blue
	// blue red
	// -1000 -100 -10 -1 0 +1 +10 +100 +1000
}
