package stats_test

import (
	"fmt"

	"github.com/calcsol/calcsol/tournament/stats"
)

func ExampleWilson() {
	// Nanzaki & Shintani's figure: 16,720 wins in 30,000 games.
	lo, hi := stats.Wilson(16720, 30000, stats.Z95)
	fmt.Printf("55.73 %%, 95 %% CI [%.2f %%, %.2f %%]\n", 100*lo, 100*hi)
	// Output:
	// 55.73 %, 95 % CI [55.17 %, 56.29 %]
}

func ExampleMcNemarExact() {
	// Of the decks two players won differently, A won 5 and B none:
	// p = 2·(1/2)⁵.
	fmt.Printf("p = %.4f\n", stats.McNemarExact(5, 0))
	// Output:
	// p = 0.0625
}

func ExampleHolm() {
	// Four comparisons: only the smallest p-value stays below 0.05.
	fmt.Printf("%.3f\n", stats.Holm([]float64{0.04, 0.001, 0.03, 0.5}))
	// Output:
	// [0.090 0.004 0.090 0.500]
}

func ExamplePairedDiff() {
	// 3,000 decks: 1,972 both won, 71 only A, 264 only B, 693 neither.
	d, lo, hi := stats.PairedDiff(1972, 71, 264, 693)
	fmt.Printf("A − B = %+.2f points, 95 %% CI [%+.2f, %+.2f]\n", 100*d, 100*lo, 100*hi)
	// Output:
	// A − B = -6.43 points, 95 % CI [-7.61, -5.26]
}

func ExampleDifferenceEstimate() {
	// A player known on all 30,000 decks (20,230 won), a stronger one played
	// so far on 3,000 of them: 71 decks only the first won, 264 only the
	// second. The second's rate on all 30,000, estimated:
	p := stats.Paired{Games: 3000, Both: 1972, OnlyA: 71, OnlyB: 264, Neither: 693}
	est, lo, hi := stats.DifferenceEstimate(20230, 30000, p)
	fmt.Printf("%.2f %%, 95 %% CI [%.2f %%, %.2f %%]\n", 100*est, 100*lo, 100*hi)
	// Output:
	// 73.87 %, 95 % CI [72.75 %, 74.98 %]
}
