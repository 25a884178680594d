package stats

import (
	"math"
	"math/rand/v2"
	"testing"
)

// The SPRT's error rates, by simulation of the decks on which two players
// differ: equally strong players get a false "stronger" with probability at
// most α, and a player stronger by the odds sought is found with probability
// at least 1 − β, each within three standard errors of the simulation.
func TestSPRTErrorRates(t *testing.T) {
	const runs = 4000
	tests := []struct {
		name  string
		test  SPRT
		theta float64 // the share of the differing decks B wins
		want  Verdict
		// rate is the bound on how often the verdict is NOT want (α for
		// equal players, β for a stronger one)
		rate float64
	}{
		{"equal players, defaults", DefaultSPRT, 0.5, NoAdvantage, DefaultSPRT.Alpha},
		{"B stronger by the odds", DefaultSPRT, 0.6, BStronger, DefaultSPRT.Beta},
		{"A stronger by the odds", DefaultSPRT, 0.4, AStronger, DefaultSPRT.Beta},
		{"equal players, strict", SPRT{Odds: 2, Alpha: 0.01, Beta: 0.1}, 0.5, NoAdvantage, 0.01},
		{"B stronger, strict", SPRT{Odds: 2, Alpha: 0.01, Beta: 0.1}, 2.0 / 3, BStronger, 0.1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(1, uint64(tc.theta*1000)))
			wrong := 0
			for range runs {
				onlyA, onlyB := 0, 0
				v := Undecided
				for v == Undecided {
					if rng.Float64() < tc.theta {
						onlyB++
					} else {
						onlyA++
					}
					v = tc.test.Decide(onlyA, onlyB)
				}
				// For equal players only a false "stronger" is an error.
				if tc.want == NoAdvantage && v != NoAdvantage || tc.want != NoAdvantage && v != tc.want {
					wrong++
				}
			}
			got := float64(wrong) / runs
			se := math.Sqrt(tc.rate * (1 - tc.rate) / runs)
			if got > tc.rate+3*se {
				t.Errorf("%d of %d runs wrong (%.4f), want at most %.4f + 3 SE (%.4f)", wrong, runs, got, tc.rate, 3*se)
			}
			t.Logf("%d of %d runs wrong (%.4f), bound %.4f", wrong, runs, got, tc.rate)
		})
	}
}

func TestSPRTDecide(t *testing.T) {
	tests := []struct {
		onlyA, onlyB int
		want         Verdict
	}{
		{0, 0, Undecided},
		{0, 10, Undecided},
		{0, 20, BStronger}, // 20·ln 1.2 = 3.65 ≥ ln(0.95/0.025) = 3.64
		{20, 0, AStronger},
		{19, 0, Undecided},
		{80, 80, NoAdvantage}, // 160·ln √(1.2·0.8) = −3.27 ≤ ln(0.05/0.975) = −2.97
		{60, 60, Undecided},
		{50, 85, BStronger},
		{50, 80, Undecided},
	}
	for _, tc := range tests {
		if got := DefaultSPRT.Decide(tc.onlyA, tc.onlyB); got != tc.want {
			llrA, llrB := DefaultSPRT.LLR(tc.onlyA, tc.onlyB)
			lo, hi := DefaultSPRT.Bounds()
			t.Errorf("%d only A, %d only B: %v, want %v (LLRs %.3f, %.3f; bounds %.3f, %.3f)", tc.onlyA, tc.onlyB, got, tc.want, llrA, llrB, lo, hi)
		}
	}
	for _, bad := range []SPRT{{Odds: 1, Alpha: 0.05, Beta: 0.05}, {Odds: 2, Alpha: 0, Beta: 0.05}, {Odds: 2, Alpha: 0.05, Beta: 1}, {Odds: math.NaN(), Alpha: 0.05, Beta: 0.05}} {
		if bad.Check() == nil {
			t.Errorf("%+v: accepted", bad)
		}
	}
}
