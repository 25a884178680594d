package analysis

import (
	"bytes"
	"fmt"
	"image/png"
	"math"
	"math/big"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/calcsol/calcsol/internal/golden"

	"github.com/google/go-cmp/cmp"

	"github.com/calcsol/calcsol/decks/shuffle"
)

func seq(t testing.TB, spec string) NewShuffler {
	t.Helper()
	s, err := shuffle.ParseSequence(spec, shuffle.DefaultParams())
	if err != nil {
		t.Fatal(err)
	}
	return Fixed(s)
}

func TestPCGStreamMatchesNewRand(t *testing.T) {
	w := newWorker(4, 1)
	for _, i := range []int64{0, 1, 99, -5} {
		w.seed(7, i)
		want := shuffle.NewRand(SetSeed(7, i))
		for range 5 {
			if got, exp := w.r.Uint64(), want.Uint64(); got != exp {
				t.Fatalf("set %d: worker generator %x, shuffle.NewRand %x", i, got, exp)
			}
		}
	}
}

func TestClassificationText(t *testing.T) {
	tests := []struct {
		n, white int
		want     string
		c        float64
	}{
		{52, 2646, "C = 0.978(2646)", 0.978},
		{52, 2704, "C = 1.000(2704)", 1},
		{52, 2703, "C = 0.999(2703)", 0.999},
		{52, 76, "C = 0.028(76)", 0.028},
		{52, 0, "C = 0.000(0)", 0},
		{3, 1, "C = 0.111(1)", 0.111},
	}
	for _, tc := range tests {
		c := Classification{N: tc.n, White: tc.white}
		if got := c.String(); got != tc.want {
			t.Errorf("n=%d white=%d: %q, want %q", tc.n, tc.white, got, tc.want)
		}
		if got := c.C(); got != tc.c {
			t.Errorf("n=%d white=%d: C %v, want %v", tc.n, tc.white, got, tc.c)
		}
	}
}

func TestClassify(t *testing.T) {
	// n = 2: 1/n = 0.5; e = +0.1, −0.1, 0, +0.3 against e_max 0.1.
	p := []float64{0.6, 0.4, 0.5, 0.8}
	got := Classify(p, 2, 0.1)
	want := Classification{N: 2, Emax: 0.1, White: 3, Red: 1}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Classify (-want +got):\n%s", diff)
	}
	got = Classify(p, 2, 0.05)
	want = Classification{N: 2, Emax: 0.05, White: 1, Blue: 1, Red: 2}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Classify (-want +got):\n%s", diff)
	}
}

func TestDeckStatistics(t *testing.T) {
	tests := []struct {
		name                    string
		deck                    []int
		rising, adjacent, guess int
	}{
		{"unshuffled", []int{0, 1, 2, 3, 4, 5}, 1, 5, 6},
		{"reversed", []int{5, 4, 3, 2, 1, 0}, 6, 0, 1},
		{"one riffle", []int{0, 3, 1, 4, 2, 5}, 2, 0, 2},
		{"cut", []int{3, 4, 5, 0, 1, 2}, 2, 4, 5},
	}
	for _, tc := range tests {
		if got := RisingSequences(tc.deck); got != tc.rising {
			t.Errorf("%s: rising sequences %d, want %d", tc.name, got, tc.rising)
		}
		if got := AdjacentPairs(tc.deck); got != tc.adjacent {
			t.Errorf("%s: adjacent pairs %d, want %d", tc.name, got, tc.adjacent)
		}
		if got := GuessScore(tc.deck); got != tc.guess {
			t.Errorf("%s: guess score %d, want %d", tc.name, got, tc.guess)
		}
	}
}

// The uniform means quoted in docs/shuffles-analysis.md, exactly, over all 7! decks of 7.
func TestDeckStatisticsUniformMeans(t *testing.T) {
	const n = 7
	var rising, adjacent, guess, count int64
	shuffle.EachPermutation(n, func(d []int) {
		rising += int64(RisingSequences(d))
		adjacent += int64(AdjacentPairs(d))
		guess += int64(GuessScore(d))
		count++
	})
	check := func(name string, sum int64, want *big.Rat) {
		got := big.NewRat(sum, count)
		if got.Cmp(want) != 0 {
			t.Errorf("%s: uniform mean %s, want %s", name, got.RatString(), want.RatString())
		}
	}
	check("rising sequences", rising, big.NewRat(n+1, 2))
	check("adjacent pairs", adjacent, big.NewRat(n-1, n))
	h := new(big.Rat)
	for k := int64(1); k <= n; k++ {
		h.Add(h, big.NewRat(1, k))
	}
	check("guess score", guess, h)
	if got, want := Harmonic(52), 4.5380; math.Abs(got-want) > 1e-4 {
		t.Errorf("H_52 = %v, want %v", got, want)
	}
}

func TestMeasureIndependentOfWorkers(t *testing.T) {
	o := Options{N: 13, Sets: 3*chunkSize + 17, Seed: 5, Stats: true}
	var first *Result
	for _, w := range []int{1, 2, 3} {
		o.Workers = w
		r, err := Measure(seq(t, "HDR"), o)
		if err != nil {
			t.Fatal(err)
		}
		if first == nil {
			first = r
			continue
		}
		if diff := cmp.Diff(first, r); diff != "" {
			t.Errorf("workers=%d differs from workers=1 (-1 +%d):\n%s", w, w, diff)
		}
	}
	for i := range 13 {
		row := int64(0)
		col := int64(0)
		for j := range 13 {
			row += first.Matrix.Count[i*13+j]
			col += first.Matrix.Count[j*13+i]
		}
		if row != o.Sets || col != o.Sets {
			t.Fatalf("row/column %d sums %d/%d, want %d", i, row, col, o.Sets)
		}
	}
	// Set 0 alone, by hand.
	deck := []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}
	shuffle.MustParseSequence("HDR", shuffle.DefaultParams()).Shuffle(deck, shuffle.NewRand(SetSeed(5, 0)))
	if !slices.Equal(deck, first.First) {
		t.Errorf("first set %v, want %v", first.First, deck)
	}
}

type broken struct{}

func (broken) Shuffle(deck []int, _ *rand.Rand) { deck[0] = deck[1] }
func (broken) String() string                   { return "broken" }

func TestMeasureRejectsNonPermutation(t *testing.T) {
	_, err := Measure(Fixed(broken{}), Options{N: 5, Sets: 10})
	if err == nil {
		t.Fatal("a shuffler that duplicates a card was accepted")
	}
}

func TestMeasureBadOptions(t *testing.T) {
	for _, tc := range []struct {
		name string
		o    Options
		want string // "" when accepted
	}{
		{"smallest", Options{N: 2, Sets: 1}, ""},
		{"largest", Options{N: MaxN, Sets: MaxSets, Workers: MaxWorkers}, ""},
		{"one card", Options{N: 1, Sets: 5}, "deck size 1: want 2..4096 cards"},
		{"too many cards", Options{N: MaxN + 1, Sets: 5}, "deck size 4097: want 2..4096 cards"},
		{"no sets", Options{N: 52, Sets: 0}, "sets 0: want 1..2^31-1"},
		{"too many sets", Options{N: 52, Sets: 1 << 31}, "sets 2147483648: want 1..2^31-1"},
		{"negative workers", Options{N: 52, Sets: 5, Workers: -1}, "workers -1: want 0..4096 (0: all CPUs)"},
		{"too many workers", Options{N: 52, Sets: 5, Workers: MaxWorkers + 1}, "workers 4097: want 0..4096 (0: all CPUs)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.o.Check()
			got := ""
			if err != nil {
				got = err.Error()
			}
			if got != tc.want {
				t.Fatalf("Check() = %q, want %q", got, tc.want)
			}
			if tc.want == "" || tc.o.N > 64 {
				return // Measure runs only what Check refuses, and only small ones
			}
			if _, err := Measure(seq(t, "U"), tc.o); err == nil {
				t.Errorf("Measure accepted %+v", tc.o)
			}
		})
	}
}

// The χ² statistic of uniform shuffles: Stat should average (n−1)² (and the
// plain Pearson sum n(n−1), which the test would catch if the (n−1)/n factor
// were wrong), with about 5 % of p-values below 0.05.
func TestChiSquareUniform(t *testing.T) {
	const n, repeats = 8, 300
	var stat, pearson float64
	low := 0
	for r := range repeats {
		res, err := Measure(seq(t, "U"), Options{N: n, Sets: 2000, Seed: uint64(r), Workers: 1})
		if err != nil {
			t.Fatal(err)
		}
		c := res.Matrix.ChiSquareTest()
		if c.DF != 49 {
			t.Fatalf("df %d, want 49", c.DF)
		}
		stat += c.Stat
		pearson += c.Pearson
		if c.P < 0.05 {
			low++
		}
	}
	stat /= repeats
	pearson /= repeats
	// sd of χ²(49) is 9.9; of the mean of 300, 0.57.
	if math.Abs(stat-49) > 3 {
		t.Errorf("mean statistic %.2f, want 49 ± 3", stat)
	}
	if math.Abs(pearson-56) > 3.5 {
		t.Errorf("mean Pearson sum %.2f, want n(n−1) = 56 ± 3.5", pearson)
	}
	if low < 4 || low > 30 { // Binomial(300, 0.05): mean 15, sd 3.8
		t.Errorf("%d of %d p-values below 0.05, want about 15", low, repeats)
	}
	// A deck that is not shuffled at all is rejected.
	res, err := Measure(seq(t, "F"), Options{N: n, Sets: 200})
	if err != nil {
		t.Fatal(err)
	}
	if p := res.Matrix.ChiSquareTest().P; p > 1e-10 {
		t.Errorf("faro shuffle: p = %v, want ≈ 0", p)
	}
}

// GSRKernelRat against brute force: every one of the 2^n words (the shuffle models'
// riffle: cut = number of A's, interleaving uniform) applied to the deck.
func TestGSRKernelBruteForce(t *testing.T) {
	for n := 1; n <= 7; n++ {
		want := make([]*big.Rat, n*n)
		for k := range want {
			want[k] = new(big.Rat)
		}
		weight := big.NewRat(1, 1<<n)
		id := make([]int, n)
		for i := range id {
			id[i] = i
		}
		for w := range 1 << n {
			for j, card := range riffleWord(id, w) {
				want[card*n+j].Add(want[card*n+j], weight)
			}
		}
		got := GSRKernelRat(n)
		for k := range got {
			if got[k].Cmp(want[k]) != 0 {
				t.Fatalf("n=%d cell (%d,%d): %s, want %s", n, k/n+1, k%n+1, got[k].RatString(), want[k].RatString())
			}
		}
		fl := GSRKernel(n)
		for k := range fl {
			w, _ := got[k].Float64()
			if math.Abs(fl[k]-w) > 1e-14 {
				t.Fatalf("n=%d cell %d: float %v, exact %v", n, k, fl[k], w)
			}
		}
	}
	// Rows of a large kernel still sum to 1.
	k := RiffleMatrix(52, 3)
	for i := range 52 {
		s := 0.0
		for j := range 52 {
			s += k[i*52+j]
		}
		if math.Abs(s-1) > 1e-12 {
			t.Errorf("row %d of R^3 sums to %v", i, s)
		}
	}
}

// Bayer & Diaconis (1992), Table of §1: the published TV for n = 52.
func TestRiffleTVPublished(t *testing.T) {
	want := []string{"0.924", "0.614", "0.334", "0.167", "0.085", "0.043"}
	for i, w := range want {
		k := 5 + i
		tv, err := RiffleTV(52, k)
		if err != nil {
			t.Fatal(err)
		}
		f, _ := tv.Float64()
		if got := fmt.Sprintf("%.3f", f); got != w {
			t.Errorf("k=%d: TV %s, want %s", k, got, w)
		}
	}
	tv, _ := RiffleTV(52, 0)
	one := new(big.Rat).Sub(big.NewRat(1, 1), new(big.Rat).SetFrac(big.NewInt(1), new(big.Int).MulRange(1, 52)))
	if tv.Cmp(one) != 0 {
		t.Errorf("k=0: TV %s, want 1 − 1/52!", tv.FloatString(6))
	}
	if _, err := RiffleTV(0, 1); err == nil {
		t.Error("n=0 accepted")
	}
}

// RiffleTV against the distribution of k riffles of 5 cards, enumerated.
func TestRiffleTVBruteForce(t *testing.T) {
	const n = 5
	key := func(d []int) int {
		k := 0
		for _, c := range d {
			k = k*n + c
		}
		return k
	}
	dist := map[int]*big.Rat{}
	decksOf := map[int][]int{}
	id := []int{0, 1, 2, 3, 4}
	dist[key(id)] = big.NewRat(1, 1)
	decksOf[key(id)] = id
	for k := 1; k <= 4; k++ {
		next := map[int]*big.Rat{}
		for kk, p := range dist {
			d := decksOf[kk]
			for w := range 1 << n {
				out := riffleWord(d, w)
				q := new(big.Rat).Mul(p, big.NewRat(1, 1<<n))
				ok := key(out)
				if next[ok] == nil {
					next[ok] = new(big.Rat)
					decksOf[ok] = out
				}
				next[ok].Add(next[ok], q)
			}
		}
		dist = next
		// TV = Σ over permutations of max(0, 1/n! − P).
		u := big.NewRat(1, 120)
		want := new(big.Rat)
		shuffle.EachPermutation(n, func(d []int) {
			p := dist[key(d)]
			if p == nil {
				p = new(big.Rat)
			}
			if p.Cmp(u) < 0 {
				want.Add(want, new(big.Rat).Sub(u, p))
			}
		})
		got, err := RiffleTV(n, k)
		if err != nil {
			t.Fatal(err)
		}
		if got.Cmp(want) != 0 {
			t.Errorf("n=%d k=%d: TV %s, enumeration %s", n, k, got.RatString(), want.RatString())
		}
	}
}

// The simulated riffle (package decks' R) against the exact Markov chain.
// Tolerance: every cell within 5 standard errors sqrt(p(1−p)/s) (cells with
// p = 0 must be empty), and Σ z² over the n² cells, whose expectation is
// exactly n², within [0.7, 1.4]·n².
func TestRiffleMatchesExact(t *testing.T) {
	const n, sets = 10, 40000
	for _, k := range []int{1, 2, 4} {
		spec := "R"
		if k > 1 {
			spec = fmt.Sprintf("R^%d", k)
		}
		res, err := Measure(seq(t, spec), Options{N: n, Sets: sets, Seed: 3})
		if err != nil {
			t.Fatal(err)
		}
		exact := RiffleMatrix(n, k)
		z2 := 0.0
		for c, p := range exact {
			got := res.Matrix.P(c/n, c%n)
			if p == 0 {
				if got != 0 {
					t.Errorf("%s cell (%d,%d): exact 0, simulated %v", spec, c/n+1, c%n+1, got)
				}
				continue
			}
			se := math.Sqrt(p * (1 - p) / sets)
			z := (got - p) / se
			if math.Abs(z) > 5 {
				t.Errorf("%s cell (%d,%d): simulated %.5f, exact %.5f (%.1f se)", spec, c/n+1, c%n+1, got, p, z)
			}
			z2 += z * z
		}
		if r := z2 / (n * n); r < 0.7 || r > 1.4 {
			t.Errorf("%s: Σz²/n² = %.3f, want ≈ 1", spec, r)
		}
	}
}

func TestSearchMatchesMeasure(t *testing.T) {
	p := shuffle.DefaultParams()
	names := []string{"H", "R", "D"}
	newSteps := func() ([]shuffle.Shuffler, error) { return p.Models(strings.Join(names, "")) }
	o := SearchOptions{Options: Options{N: 13, Sets: 700, Seed: 11, Workers: 2}, MinLen: 2, MaxLen: 3}
	all, err := Search(newSteps, names, o)
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != 9+27 {
		t.Fatalf("%d sequences, want 36", len(all))
	}
	for _, s := range all {
		res, err := Measure(seq(t, s.Name), o.Options)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(res.Matrix, s.Matrix); diff != "" {
			t.Errorf("%s: search and measure differ (-measure +search):\n%s", s.Name, diff)
		}
	}
	ranked := SortByC(all, 0.02)
	for i := 1; i < len(ranked); i++ {
		a, b := ranked[i-1], ranked[i]
		if len(a.Steps) == len(b.Steps) && a.Class.White < b.Class.White {
			t.Errorf("rank %d (%s, %d white) before %s (%d white)", i, a.Name, a.Class.White, b.Name, b.Class.White)
		}
	}
}

func TestSequenceName(t *testing.T) {
	names := []string{"H", "R", "D"}
	tests := []struct {
		steps []int
		want  string
	}{
		{[]int{0, 2, 0, 1, 2, 0, 0}, "HDHRDHH"},
		{slices.Repeat([]int{0}, 86), "H^86"},
		{append(slices.Repeat([]int{1}, 12), 2), "R^12D"},
	}
	for _, tc := range tests {
		if got := SequenceName(names, tc.steps); got != tc.want {
			t.Errorf("%v: %q, want %q", tc.steps, got, tc.want)
		}
	}
}

func TestCalibrate(t *testing.T) {
	o := Options{N: 8, Sets: 4000, Seed: 1}
	c, err := Calibrate(seq(t, "U"), o, 40)
	if err != nil {
		t.Fatal(err)
	}
	if c.Dropped != 2 || c.Emax != c.Values[37] || !slices.IsSorted(c.Values) {
		t.Errorf("dropped %d, e_max %v, values %v", c.Dropped, c.Emax, c.Values)
	}
	// The median max|e| against the normal approximation's median.
	med := c.Values[20]
	approx := ApproxEmax(8, 4000, 0.5)
	if r := med / approx; r < 0.8 || r > 1.2 {
		t.Errorf("median max|e| %.5f, normal approximation %.5f", med, approx)
	}
	if got := ApproxEmax(52, 1e6, 0.95); math.Abs(got-5.862e-4) > 0.001e-4 {
		t.Errorf("ApproxEmax(52, 10^6) = %.4g, want 5.862e-4", got)
	}
}

func checkGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	golden.Check(t, "testdata/"+name, got)
}

func TestPictures(t *testing.T) {
	m := &Matrix{N: 3, Sets: 4, Count: []int64{4, 0, 0, 0, 2, 2, 0, 2, 2}}
	var b bytes.Buffer
	if err := WritePGMAverage(&b, m); err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "average.pgm", b.Bytes())
	b.Reset()
	if err := WritePGMTrial(&b, []int{2, 0, 1}); err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "trial.pgm", b.Bytes())
}

// The PNG pictures are tested through what they draw (Figure): the cells'
// colours and the colour scale; one check that the PNG decodes at its size.
func TestFigures(t *testing.T) {
	m := &Matrix{N: 3, Sets: 4, Count: []int64{4, 0, 0, 0, 2, 2, 0, 2, 2}}
	p := m.Probabilities()
	// Blue/white/red: 1/3 ± 0.2 → cell 0 red (e = 2/3), zeros blue, 0.5 white.
	bwr := BWRFigure(p, 3, 0.2, "test")
	var got []string
	for _, c := range bwr.Cells {
		switch {
		case c == ColourWhite:
			got = append(got, "W")
		case c.R > c.B:
			got = append(got, "R")
		default:
			got = append(got, "B")
		}
	}
	want := []string{"R", "B", "B", "B", "W", "W", "B", "W", "W"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("BWR cells (-want +got):\n%s", diff)
	}
	g := GreyFigure(p, 3, "test")
	// p = 1 is 1·n/4 = 0.75 of the way to black (black needs p ≥ 4/n > 1 here).
	if y, want := g.Cells[0].R, uint8(math.Round(255*(1-0.75))); y != want {
		t.Errorf("grey p=1: %d, want %d", y, want)
	}
	// p = 0.5 is 0.5·n/4 = 0.375 of the way to black.
	if y, want := g.Cells[4].R, uint8(math.Round(255*(1-0.375))); y != want {
		t.Errorf("grey p=0.5: %d, want %d", y, want)
	}

	// The scales: their ticks, and colours that match the cells'.
	var ticks []string
	for _, tk := range append(g.Scale.Ticks, bwr.Scale.Ticks...) {
		ticks = append(ticks, fmt.Sprintf("%.4g %s", tk.Value, tk.Label))
	}
	wantTicks := []string{"0 0", "0.3333 1/n", "0.6667 2/n", "1 3/n", "1.333 ≥ 4/n",
		"-4 -1000", "-3 -100", "-2 -10", "-1 -1", "0 0", "1 +1", "2 +10", "3 +100", "4 +1000"}
	if diff := cmp.Diff(wantTicks, ticks); diff != "" {
		t.Errorf("scale ticks (-want +got):\n%s", diff)
	}
	if c := g.Scale.Colour(p[4]); c != g.Cells[4] {
		t.Errorf("grey scale at p=0.5 is %v, the cell %v", c, g.Cells[4])
	}
	if g.Scale.Min != 0 || g.Scale.Max != 4.0/3 || bwr.Scale.Min != -4 || bwr.Scale.Max != 4 {
		t.Errorf("scales %g..%g and %g..%g", g.Scale.Min, g.Scale.Max, bwr.Scale.Min, bwr.Scale.Max)
	}

	// One PNG: it decodes, at its size.
	var b bytes.Buffer
	if err := bwr.WritePNG(&b); err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(&b)
	if err != nil {
		t.Fatal(err)
	}
	if size := img.Bounds().Size(); size.X != 528 || size.Y != 624 {
		t.Errorf("PNG %d×%d pixels, want 528×624", size.X, size.Y)
	}
}

// Beyond ±e_max the blue/white/red colour deepens with |e| on a log scale,
// in quarter decades, full at 1000·e_max; within it, and only there, it is
// white.
func TestBWRColour(t *testing.T) {
	const emax = 1e-3
	tests := []struct {
		e     float64
		white bool
		tint  float64 // share of the way from white to the full colour
		red   bool
	}{
		{0, true, 0, false},
		{emax, true, 0, false},
		{-emax, true, 0, false},
		{1.0001 * emax, false, 0.4, true},
		{-1.0001 * emax, false, 0.4, false},
		{3 * emax, false, 0.45, true}, // log10 3 = 0.48: the second quarter decade
		{10 * emax, false, 0.6, true},
		{-100 * emax, false, 0.8, false},
		{1000 * emax, false, 1, true},
		{0.9, false, 0.95, true}, // 900 e_max: the last quarter decade short of full
	}
	for _, tc := range tests {
		c := bwrColour(bwrValue(tc.e, emax))
		if (c == ColourWhite) != tc.white {
			t.Errorf("e = %g: %v, white %v", tc.e, c, tc.white)
			continue
		}
		if tc.white {
			continue
		}
		full := ColourBlue
		if tc.red {
			full = ColourRed
		}
		// The green channel goes from 255 (white) to full.G.
		tint := (255 - float64(c.G)) / (255 - float64(full.G))
		if math.Abs(tint-tc.tint) > 0.01 || (c.R > c.B) != tc.red {
			t.Errorf("e = %g: %v, tint %.3f, want %.2f of %v", tc.e, c, tint, tc.tint, full)
		}
	}
}

// riffleWord applies the riffle with label word w to deck d (the shuffle models' GSR
// riffle, enumerated): bit j of w says whether position j of the result comes
// from packet A (0: the top c cards, c = number of 0 bits) or B (1: the rest),
// each packet keeping its order. The 2^n words are equally likely.
func riffleWord(d []int, w int) []int {
	n := len(d)
	c := 0
	for j := range n {
		if w>>j&1 == 0 {
			c++
		}
	}
	out := make([]int, n)
	ia, ib := 0, c
	for j := range n {
		if w>>j&1 == 0 {
			out[j], ia = d[ia], ia+1
		} else {
			out[j], ib = d[ib], ib+1
		}
	}
	return out
}
