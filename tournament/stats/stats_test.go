package stats

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/calcsol/calcsol/internal/longtest"
)

func TestWilson(t *testing.T) {
	// Newcombe (1998), Table I, method 3 (score interval without continuity
	// correction), z = 1.96, given to 4 decimals.
	tests := []struct {
		wins, n int
		lo, hi  float64
	}{
		{81, 263, 0.2553, 0.3662},
		{15, 148, 0.0624, 0.1605},
		{0, 20, 0, 0.1611},
		{1, 29, 0.0061, 0.1718},
	}
	for _, tc := range tests {
		lo, hi := Wilson(tc.wins, tc.n, 1.96)
		if math.Abs(lo-tc.lo) > 5e-5 || math.Abs(hi-tc.hi) > 5e-5 {
			t.Errorf("Wilson(%d, %d) = [%.5f, %.5f], want [%.4f, %.4f]", tc.wins, tc.n, lo, hi, tc.lo, tc.hi)
		}
	}
}

func TestWilsonProperties(t *testing.T) {
	for _, n := range []int{1, 2, 7, 100, 30000} {
		for _, wins := range []int{0, 1, n / 3, n / 2, n - 1, n} {
			if wins < 0 || wins > n {
				continue
			}
			lo, hi := Wilson(wins, n, Z95)
			p := float64(wins) / float64(n)
			if !(0 <= lo && lo <= p && p <= hi && hi <= 1) {
				t.Errorf("Wilson(%d, %d) = [%g, %g] does not hold p = %g inside [0, 1]", wins, n, lo, hi, p)
			}
			// The interval for n−w failures mirrors the one for w wins.
			lo2, hi2 := Wilson(n-wins, n, Z95)
			if math.Abs(lo-(1-hi2)) > 1e-12 || math.Abs(hi-(1-lo2)) > 1e-12 {
				t.Errorf("Wilson(%d, %d) = [%g, %g] is not the mirror of [%g, %g]", wins, n, lo, hi, lo2, hi2)
			}
		}
	}
	if lo, hi := Wilson(0, 0, Z95); lo != 0 || hi != 1 {
		t.Errorf("Wilson(0, 0) = [%g, %g], want [0, 1]", lo, hi)
	}
}

// exactMcNemar computes 2·P[X ≤ min(b,c)], X ~ Bin(b+c, 1/2), in exact
// rational arithmetic: an independent check of the gonum-based McNemarExact.
func exactMcNemar(b, c int) float64 {
	n := int64(b + c)
	sum := new(big.Int)
	for i := int64(0); i <= int64(min(b, c)); i++ {
		sum.Add(sum, new(big.Int).Binomial(n, i))
	}
	p := new(big.Rat).SetFrac(new(big.Int).Mul(sum, big.NewInt(2)), new(big.Int).Lsh(big.NewInt(1), uint(n)))
	f, _ := p.Float64()
	return min(f, 1)
}

func TestMcNemarExact(t *testing.T) {
	tests := []struct {
		b, c int
		want float64 // by hand where short
	}{
		{0, 0, 1},
		{0, 5, 2.0 / 32},
		{1, 4, 12.0 / 32},
		{3, 3, 1},
		{4, 1, 12.0 / 32},
		{121, 59, -1},
		{10, 25, -1},
		{400, 480, -1},
		{2000, 2150, -1}, // the exact reference takes seconds: a long check
	}
	for _, tc := range tests {
		if tc.b >= 2000 && !longtest.Enabled() {
			continue
		}
		want := tc.want
		if want < 0 {
			want = exactMcNemar(tc.b, tc.c)
		}
		got := McNemarExact(tc.b, tc.c)
		if math.Abs(got-want) > 1e-9*want+1e-15 {
			t.Errorf("McNemarExact(%d, %d) = %g, want %g", tc.b, tc.c, got, want)
		}
	}
}

func TestMcNemarChi2(t *testing.T) {
	// (|121 − 59| − 1)² / 180 = 3721/180.
	chi2, p, err := McNemarChi2(121, 59)
	if err != nil || math.Abs(chi2-3721.0/180) > 1e-12 {
		t.Errorf("McNemarChi2(121, 59) = %g, %v; want %g", chi2, err, 3721.0/180)
	}
	// P[χ²₁ > x] = erfc(√(x/2)).
	if want := math.Erfc(math.Sqrt(chi2 / 2)); math.Abs(p-want) > 1e-12 {
		t.Errorf("p = %g, want %g", p, want)
	}
	if _, _, err := McNemarChi2(0, 0); err == nil {
		t.Error("no error without discordant pairs")
	}
}

// DifferenceEstimate: a worked case (the 3-stack contender's first three
// shards against the strength player's 30, computed by hand: m = 193/3000,
// s² = (335 − 3000·m²)/2999, SE = √((1 − 0.1)·s²/3000)); the whole
// population as the sample gives B's rate exactly, with no width; and
// degenerate inputs (an estimate outside [0, 1] is clipped).
func TestDifferenceEstimate(t *testing.T) {
	tests := []struct {
		name         string
		winsA, decks int
		p            Paired
		est, lo, hi  float64
	}{
		{"worked", 20230, 30000, Paired{Games: 3000, Both: 1972, OnlyA: 71, OnlyB: 264, Neither: 693}, 0.738667, 0.727533, 0.749800},
		{"whole population", 60, 100, Paired{Games: 100, Both: 50, OnlyA: 10, OnlyB: 25, Neither: 15}, 0.75, 0.75, 0.75},
		{"no difference", 500, 1000, Paired{Games: 200, Both: 100, Neither: 100}, 0.5, 0.5, 0.5},
		{"clipped", 995, 1000, Paired{Games: 200, Both: 190, OnlyB: 10}, 1, 1, 1},
		{"no sample", 10, 100, Paired{}, 0, 0, 1},
	}
	for _, tt := range tests {
		est, lo, hi := DifferenceEstimate(tt.winsA, tt.decks, tt.p)
		if math.Abs(est-tt.est) > 1e-6 || math.Abs(lo-tt.lo) > 1e-6 || math.Abs(hi-tt.hi) > 1e-6 {
			t.Errorf("%s: %.6f [%.6f, %.6f], want %.6f [%.6f, %.6f]", tt.name, est, lo, hi, tt.est, tt.lo, tt.hi)
		}
	}
}

// DifferenceEstimate's interval covers B's true rate about 95 % of the
// time: 2,000 simple random samples of 400 decks from a population of
// 10,000 paired outcomes (A wins 67 %, B 74 %, correlated as a strategy
// and a stronger one are), seeded.
func TestDifferenceEstimateCoverage(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const decks, n, trials = 10000, 400, 2000
	a, b := make([]bool, decks), make([]bool, decks)
	winsA, winsB := 0, 0
	for i := range decks {
		u := rng.Float64()
		a[i], b[i] = u < 0.67, u < 0.64 || (u >= 0.67 && u < 0.77)
		if a[i] {
			winsA++
		}
		if b[i] {
			winsB++
		}
	}
	truth := float64(winsB) / decks
	covered := 0
	idx := make([]int, decks)
	for i := range idx {
		idx[i] = i
	}
	for range trials {
		rng.Shuffle(decks, func(i, j int) { idx[i], idx[j] = idx[j], idx[i] })
		var p Paired
		for _, i := range idx[:n] {
			switch {
			case a[i] && b[i]:
				p.Both++
			case a[i]:
				p.OnlyA++
			case b[i]:
				p.OnlyB++
			default:
				p.Neither++
			}
		}
		p.Games = n
		if _, lo, hi := DifferenceEstimate(winsA, decks, p); lo <= truth && truth <= hi {
			covered++
		}
	}
	if rate := float64(covered) / trials; rate < 0.93 || rate > 0.97 {
		t.Errorf("the interval covered B's rate in %.1f %% of %d samples, want about 95 %%", 100*rate, trials)
	}
}

func TestHolm(t *testing.T) {
	tests := []struct{ in, want []float64 }{
		{nil, []float64{}},
		{[]float64{0.01}, []float64{0.01}},
		// Holm's own kind of example: m = 4.
		{[]float64{0.04, 0.001, 0.03, 0.5}, []float64{0.09, 0.004, 0.09, 0.5}},
		{[]float64{0.3, 0.3, 0.3}, []float64{0.9, 0.9, 0.9}},
	}
	for _, tc := range tests {
		got := Holm(tc.in)
		if !cmp.Equal(got, tc.want, cmp.Comparer(func(a, b float64) bool { return a-b < 1e-12 && b-a < 1e-12 })) {
			t.Errorf("Holm(%v) = %v, want %v", tc.in, got, tc.want)
		}
	}
}

func TestPairedDiff(t *testing.T) {
	// A small table: the interval holds the difference and stays in [-1, 1].
	d, lo, hi := PairedDiff(8, 5, 4, 3)
	if math.Abs(d-0.05) > 1e-12 || !(lo < 0 && hi > 0) || lo < -0.3 || hi > 0.4 {
		t.Errorf("(8,5,4,3): %g [%g, %g]", d, lo, hi)
	}
	// A large clear difference has an interval above zero that holds it.
	d, lo, hi = PairedDiff(2000, 1500, 200, 26300)
	if !(lo > 0 && lo < d && d < hi) || math.Abs(d-1300.0/30000) > 1e-12 {
		t.Errorf("large: %g [%g, %g]", d, lo, hi)
	}
	// Symmetry: swapping the two runs negates the interval.
	d2, lo2, hi2 := PairedDiff(2000, 200, 1500, 26300)
	if math.Abs(d+d2) > 1e-12 || math.Abs(lo+hi2) > 1e-12 || math.Abs(hi+lo2) > 1e-12 {
		t.Errorf("not symmetric: [%g, %g] and [%g, %g]", lo, hi, lo2, hi2)
	}
	if d, lo, hi := PairedDiff(0, 0, 0, 0); d != 0 || lo != -1 || hi != 1 {
		t.Errorf("empty: %g [%g, %g]", d, lo, hi)
	}
}

// Wilson at the 95 % quantile against figures computed independently (R's
// prop.test(x, n, correct = FALSE)$conf.int, to 5 decimals).
func TestWilsonZ95(t *testing.T) {
	tests := []struct {
		name    string
		wins, n int
		lo, hi  float64
	}{
		{"66 of 1000", 66, 1000, 0.05221, 0.08311},
		{"none of 0", 0, 0, 0, 1},
		{"all of 1", 1, 1, 0.20655, 1},
		{"none of 1", 0, 1, 0, 0.79345},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			lo, hi := Wilson(tc.wins, tc.n, Z95)
			if math.Abs(lo-tc.lo) > 5e-6 || math.Abs(hi-tc.hi) > 5e-6 {
				t.Errorf("Wilson(%d, %d, Z95) = [%.6f, %.6f], want [%.5f, %.5f]", tc.wins, tc.n, lo, hi, tc.lo, tc.hi)
			}
		})
	}
}
