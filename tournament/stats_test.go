package tournament

import (
	"math"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"

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

func TestCompare(t *testing.T) {
	a := []DeckResult{{0, true, 52, false, ""}, {1, true, 52, false, ""}, {2, false, 30, false, ""}, {3, false, 9, true, "x"}, {4, true, 52, false, ""}}
	b := []DeckResult{{0, true, 52, false, ""}, {1, false, 50, false, ""}, {2, true, 52, false, ""}, {3, false, 20, false, ""}, {4, false, 1, false, ""}}
	got, err := Compare(a, b)
	if err != nil {
		t.Fatal(err)
	}
	want := Paired{Games: 5, Both: 1, OnlyA: 2, OnlyB: 1, Neither: 1, P: McNemarExact(2, 1)}
	if got != want {
		t.Errorf("got %+v, want %+v", got, want)
	}
	onlyA, onlyB, p, err := McNemar(a, b)
	if err != nil || onlyA != 2 || onlyB != 1 || p != want.P {
		t.Errorf("McNemar = %d, %d, %g, %v", onlyA, onlyB, p, err)
	}
	// Swapping the runs swaps the counts and keeps p.
	if onlyB2, onlyA2, p2, _ := McNemar(b, a); onlyA2 != onlyA || onlyB2 != onlyB || p2 != p {
		t.Errorf("McNemar(b, a) = %d, %d, %g", onlyB2, onlyA2, p2)
	}

	for _, tc := range []struct {
		name string
		a, b []DeckResult
		want string
	}{
		{"lengths", a, b[:4], "5 results against 4"},
		{"decks", a[:2], []DeckResult{{Deck: 0}, {Deck: 2}}, "result 1 is deck 1 in one run and deck 2"},
	} {
		if _, err := Compare(tc.a, tc.b); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.want)
		}
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
