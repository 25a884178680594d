package shuffle

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/calcsol/calcsol/internal/golden"
)

// piOneBased returns π of docs/shuffles-models.md (1-based: π(i) = where card i ends).
func piOneBased(deck []int) []int {
	pi := Permutation(deck)
	for i := range pi {
		pi[i]++
	}
	return pi
}

// TestWorkedExamples checks the two worked examples of docs/shuffles-models.md exactly.
func TestWorkedExamples(t *testing.T) {
	tests := []struct {
		name    string
		shuffle func(deck []int)
		want    []int
	}{
		{
			name:    "hindu packets of 3",
			shuffle: func(deck []int) { HinduPackets(deck, []int{3, 3, 3, 3}) },
			want:    []int{8, 9, 10, 5, 6, 7, 2, 3, 4, 1},
		},
		{
			name: "hindu model with sd 0 and mean 3",
			shuffle: func(deck []int) {
				Hindu{Mean: 3, SD: 0, Min: 1}.Shuffle(deck, NewRand(1))
			},
			want: []int{8, 9, 10, 5, 6, 7, 2, 3, 4, 1},
		},
		{
			name:    "deal 3 piles stacked 1,2,3",
			shuffle: func(deck []int) { Deal{Piles: 3, Order: PilesNatural}.Shuffle(deck, nil) },
			want:    []int{4, 7, 10, 3, 6, 9, 2, 5, 8, 1},
		},
		{
			name: "deal 3 piles custom order 1,2,3",
			shuffle: func(deck []int) {
				Deal{Piles: 3, Order: PilesCustom, Custom: []int{1, 2, 3}}.Shuffle(deck, nil)
			},
			want: []int{4, 7, 10, 3, 6, 9, 2, 5, 8, 1},
		},
		{
			// Piles 1 (10 7 4 1), 3 (9 6 3), 2 (8 5 2) from the top.
			name:    "deal 3 piles odd-even",
			shuffle: func(deck []int) { Deal{Piles: 3, Order: PilesOddEven}.Shuffle(deck, nil) },
			want:    []int{4, 10, 7, 3, 9, 6, 2, 8, 5, 1},
		},
		{
			// Face up: pile 1 is 1 4 7 10 from its top, 2 is 2 5 8, 3 is 3 6 9.
			name:    "deal 3 piles stacked 1,2,3 face up",
			shuffle: func(deck []int) { Deal{Piles: 3, Order: PilesNatural, FaceUp: true}.Shuffle(deck, nil) },
			want:    []int{1, 5, 8, 2, 6, 9, 3, 7, 10, 4},
		},
		{
			// More piles than cards: each card on its own pile; piles 1, 3,
			// 5, 7, 9, then 2, 4, 6, 8, 10 (the empty piles add nothing).
			name:    "deal 1000 piles odd-even",
			shuffle: func(deck []int) { Deal{Piles: MaxPiles, Order: PilesOddEven}.Shuffle(deck, nil) },
			want:    []int{1, 6, 2, 7, 3, 8, 4, 9, 5, 10},
		},
		{
			name:    "faro out",
			shuffle: func(deck []int) { Faro{}.Shuffle(deck, nil) },
			want:    []int{1, 3, 5, 7, 9, 2, 4, 6, 8, 10},
		},
		{
			name:    "faro in",
			shuffle: func(deck []int) { Faro{In: true}.Shuffle(deck, nil) },
			want:    []int{2, 4, 6, 8, 10, 1, 3, 5, 7, 9},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			deck := Unshuffled(10)
			tc.shuffle(deck)
			if diff := cmp.Diff(tc.want, piOneBased(deck)); diff != "" {
				t.Errorf("π mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestFaroOdd(t *testing.T) {
	tests := []struct {
		in   bool
		want []int // resulting deck, 1-based cards from the top
	}{
		{false, []int{1, 5, 2, 6, 3, 7, 4}},
		{true, []int{4, 1, 5, 2, 6, 3, 7}},
	}
	for _, tc := range tests {
		deck := Unshuffled(7)
		Faro{In: tc.in}.Shuffle(deck, nil)
		for i := range deck {
			deck[i]++
		}
		if diff := cmp.Diff(tc.want, deck); diff != "" {
			t.Errorf("faro in=%v n=7 (-want +got):\n%s", tc.in, diff)
		}
	}
}

// TestFaroOrder checks the known orders of perfect shuffles on 52 cards:
// 8 out-shuffles and 52 in-shuffles restore the deck (Diaconis, Graham &
// Kantor 1983).
func TestFaroOrder(t *testing.T) {
	for _, tc := range []struct {
		in    bool
		order int
	}{{false, 8}, {true, 52}} {
		deck := Unshuffled(52)
		for k := 1; k <= tc.order; k++ {
			Faro{In: tc.in}.Shuffle(deck, nil)
			if back := slices.Equal(deck, Unshuffled(52)); back != (k == tc.order) {
				t.Fatalf("faro in=%v: deck back in order after %d shuffles: %v; want order %d", tc.in, k, back, tc.order)
			}
		}
	}
}

func TestCutIsRotation(t *testing.T) {
	for seed := range uint64(50) {
		deck := Unshuffled(52)
		DefaultParams().Cut.Shuffle(deck, NewRand(seed))
		k := deck[0] // the cut moved cards 0..k-1 to the bottom
		if k < 1 {
			t.Fatalf("seed %d: cut moved nothing: %v", seed, deck)
		}
		for j, c := range deck {
			if c != (j+k)%52 {
				t.Fatalf("seed %d: not a rotation by %d: %v", seed, k, deck)
			}
		}
	}
}

func TestOverhandExtremes(t *testing.T) {
	// p = 0: one packet, nothing moves; p = 1: every card its own packet,
	// the deck is reversed.
	deck := Unshuffled(9)
	Overhand{P: 0}.Shuffle(deck, NewRand(3))
	if !slices.Equal(deck, Unshuffled(9)) {
		t.Errorf("p=0: got %v", deck)
	}
	Overhand{P: 1}.Shuffle(deck, NewRand(3))
	want := Unshuffled(9)
	slices.Reverse(want)
	if !slices.Equal(deck, want) {
		t.Errorf("p=1: got %v, want %v", deck, want)
	}
}

func TestHinduPacketRounding(t *testing.T) {
	// Mean 2.5, sd 0: nearest rounds half away from zero (3), floor 2, ceil 3.
	tests := []struct {
		r    Rounding
		want []int
	}{
		{RoundNearest, []int{7, 8, 9, 4, 5, 6, 1, 2, 3}},
		{RoundFloor, []int{8, 9, 6, 7, 4, 5, 2, 3, 1}},
		{RoundCeil, []int{7, 8, 9, 4, 5, 6, 1, 2, 3}},
	}
	for _, tc := range tests {
		deck := Unshuffled(9)
		Hindu{Mean: 2.5, SD: 0, Rounding: tc.r, Min: 1}.Shuffle(deck, NewRand(1))
		if diff := cmp.Diff(tc.want, piOneBased(deck)); diff != "" {
			t.Errorf("%v (-want +got):\n%s", tc.r, diff)
		}
	}
	// Min raises small packets: mean 0 with min 4 gives packets 4, 4, 1.
	deck := Unshuffled(9)
	Hindu{Mean: 0, SD: 0, Min: 4}.Shuffle(deck, NewRand(1))
	if diff := cmp.Diff([]int{6, 7, 8, 9, 2, 3, 4, 5, 1}, piOneBased(deck)); diff != "" {
		t.Errorf("min 4 (-want +got):\n%s", diff)
	}
}

func allModels() []Shuffler {
	p := DefaultParams()
	return []Shuffler{
		p.Cut, p.Hindu, p.Riffle, Riffle{Packets: 3}, Riffle{Packets: 7}, Riffle{Packets: 2, Drop: true}, Riffle{Packets: 5, Drop: true}, p.Faro, Faro{In: true},
		p.Deal, Deal{Piles: 3, Order: PilesNatural}, Deal{Piles: 4, Order: PilesCustom, Custom: []int{4, 2, 1, 3}},
		Deal{Piles: 10, FaceUp: true}, Deal{Piles: 200, Order: PilesNatural}, Deal{Piles: MaxPiles},
		Deal{Piles: 5, Order: PilesCustom, Custom: []int{5, 3, 1, 2, 4}, FaceUp: true},
		p.Overhand, Uniform{},
		MustParseSequence("HDHRDHH", p), MustParseSequence("C^3O^2U", p),
		Cut{Centre: 0, SD: 50, Rounding: RoundCeil}, Hindu{Mean: -3, SD: 40, Rounding: RoundFloor, Min: 2},
	}
}

// TestModelsPermute: every model yields a permutation for many n and seeds
// (n beyond scratchSize exercises the heap path), and the same seed gives
// the same deck.
func TestModelsPermute(t *testing.T) {
	sizes := []int{0, 1, 2, 3, 5, 10, 31, 52, 60, 64, 127, 128, 129, 300}
	for _, m := range allModels() {
		for _, n := range sizes {
			for seed := range uint64(8) {
				a := Unshuffled(n)
				m.Shuffle(a, NewRand(seed))
				seen := make([]bool, n)
				for _, c := range a {
					if c < 0 || c >= n || seen[c] {
						t.Fatalf("%v (%#v) n=%d seed=%d: not a permutation: %v", m, m, n, seed, a)
					}
					seen[c] = true
				}
				b := Unshuffled(n)
				m.Shuffle(b, NewRand(seed))
				if !slices.Equal(a, b) {
					t.Fatalf("%v n=%d seed=%d: not deterministic", m, n, seed)
				}
			}
		}
	}
}

// TestGolden pins the output of every default model for fixed seeds, so a
// change of any model's use of randomness is seen (cross-machine determinism).
func TestShuffleGolden(t *testing.T) {
	p := DefaultParams()
	var got []byte
	for _, spec := range []string{"C", "H", "R", "F", "D", "O", "U", "HDHRDHH"} {
		s := MustParseSequence(spec, p)
		for seed := range uint64(2) {
			deck := Unshuffled(52)
			s.Shuffle(deck, NewRand(seed))
			got = fmt.Appendf(got, "%s seed %d: %v\n", spec, seed, deck)
		}
	}
	for _, f := range []Riffle{{Packets: 2, Drop: true}, {Packets: 4}, {Packets: 4, Drop: true}} {
		deck := Unshuffled(20)
		f.Shuffle(deck, NewRand(5))
		got = fmt.Appendf(got, "R a=%d drop=%v n=20 seed 5: %v\n", f.Packets, f.Drop, deck)
	}
	golden.Check(t, "testdata/models.golden", got)
}

// TestUniformPositions: under U each card is at each position with
// probability 1/n; checked with a χ² bound on the position of card 0.
func TestUniformPositions(t *testing.T) {
	const n, sets = 8, 16000
	counts := make([]float64, n)
	r := NewRand(42)
	deck := make([]int, n)
	for range sets {
		copy(deck, Unshuffled(n))
		Uniform{}.Shuffle(deck, r)
		counts[slices.Index(deck, 0)]++
	}
	chi2 := 0.0
	for _, c := range counts {
		e := float64(sets) / n
		chi2 += (c - e) * (c - e) / e
	}
	// 7 degrees of freedom: P(χ² > 24.3) ≈ 0.001.
	if chi2 > 24.3 {
		t.Errorf("card 0 positions %v: χ² = %.1f > 24.3", counts, chi2)
	}
}

// risingSequences counts the rising sequences of a permutation given as a
// deck (Bayer & Diaconis 1992): maximal runs of consecutive card values
// c, c+1, … appearing in increasing positions.
func risingSequences(deck []int) int {
	pos := Permutation(deck)
	r := 1
	for c := 1; c < len(deck); c++ {
		if pos[c] < pos[c-1] {
			r++
		}
	}
	return r
}

// TestRiffleMatchesBayerDiaconis: an a-shuffle gives a permutation with r
// rising sequences with probability C(n+a−r, n)/aⁿ. Checked by χ² over all
// permutations of n = 4 for both simulations (digits and the shuffle models'
// dropping rule) with a = 2 and 3, and for two riffles (= one 4-shuffle).
func TestRiffleMatchesBayerDiaconis(t *testing.T) {
	const n, sets = 4, 40000
	tests := []struct {
		name string
		s    Shuffler
		a    int
	}{
		{"R", Riffle{Packets: 2}, 2},
		{"R drop", Riffle{Packets: 2, Drop: true}, 2},
		{"a=3", Riffle{Packets: 3}, 3},
		{"a=3 drop", Riffle{Packets: 3, Drop: true}, 3},
		{"RR", MustParseSequence("RR", DefaultParams()), 4},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			counts := map[[n]int]float64{}
			r := NewRand(7)
			for range sets {
				deck := Unshuffled(n)
				tc.s.Shuffle(deck, r)
				counts[[n]int(deck)]++
			}
			chi2, cells := 0.0, 0
			EachPermutation(n, func(perm []int) {
				p := binomF(n+tc.a-risingSequences(perm), n) / math.Pow(float64(tc.a), n)
				e := p * sets
				c := counts[[n]int(perm)]
				if e == 0 {
					if c != 0 {
						t.Errorf("%v: impossible permutation seen %v times", perm, c)
					}
					return
				}
				chi2 += (c - e) * (c - e) / e
				cells++
			})
			// ≤ 23 degrees of freedom: P(χ² > 49.7) ≈ 0.001.
			if chi2 > 49.7 {
				t.Errorf("χ² = %.1f over %d cells, want ≤ 49.7", chi2, cells)
			}
		})
	}
}

func binomF(n, k int) float64 {
	if k < 0 || k > n {
		return 0
	}
	v := 1.0
	for i := 1; i <= k; i++ {
		v = v * float64(n-k+i) / float64(i)
	}
	return v
}

func TestBinomialHalf(t *testing.T) {
	// Mean n/2 and variance n/4, for n crossing the 64-bit word boundary.
	for _, n := range []int{1, 52, 64, 100} {
		r := NewRand(uint64(n))
		const k = 20000
		var s, s2 float64
		for range k {
			x := float64(binomialHalf(n, r))
			s += x
			s2 += x * x
		}
		mean := s / k
		v := s2/k - mean*mean
		if math.Abs(mean-float64(n)/2) > 4*math.Sqrt(float64(n)/4/k) {
			t.Errorf("n=%d: mean %.3f, want %.1f", n, mean, float64(n)/2)
		}
		if math.Abs(v/(float64(n)/4)-1) > 0.05 {
			t.Errorf("n=%d: variance %.3f, want %.2f", n, v, float64(n)/4)
		}
	}
}

func TestShuffleValidate(t *testing.T) {
	if err := DefaultParams().Validate(); err != nil {
		t.Fatalf("defaults invalid: %v", err)
	}
	tests := []struct {
		name string
		edit func(p *Params)
	}{
		{"cut centre", func(p *Params) { p.Cut.Centre = 1.5 }},
		{"cut sd", func(p *Params) { p.Cut.SD = -1 }},
		{"hindu min", func(p *Params) { p.Hindu.Min = 0 }},
		{"hindu sd NaN", func(p *Params) { p.Hindu.SD = math.NaN() }},
		{"riffle packets", func(p *Params) { p.Riffle.Packets = 1 }},
		{"deal piles", func(p *Params) { p.Deal.Piles = 0 }},
		{"deal too many piles", func(p *Params) { p.Deal.Piles = MaxPiles + 1 }},
		{"deal custom short", func(p *Params) { p.Deal.Order = PilesCustom; p.Deal.Custom = []int{1, 2} }},
		{"deal custom twice", func(p *Params) {
			p.Deal = Deal{Piles: 3, Order: PilesCustom, Custom: []int{1, 2, 2}}
		}},
		{"overhand p", func(p *Params) { p.Overhand.P = 2 }},
		{"rounding", func(p *Params) { p.Hindu.Rounding = 9 }},
		{"cost", func(p *Params) { p.Costs.H = -3 }},
	}
	for _, tc := range tests {
		p := DefaultParams()
		tc.edit(&p)
		if err := p.Validate(); err == nil {
			t.Errorf("%s: Validate accepted %+v", tc.name, p)
		}
	}
}

func TestShuffleParseNames(t *testing.T) {
	for _, m := range []Rounding{RoundNearest, RoundFloor, RoundCeil} {
		if got, err := ParseRounding(m.String()); err != nil || got != m {
			t.Errorf("ParseRounding(%q) = %v, %v", m.String(), got, err)
		}
	}
	for _, o := range []PileOrder{PilesOddEven, PilesNatural, PilesCustom} {
		if got, err := ParsePileOrder(o.String()); err != nil || got != o {
			t.Errorf("ParsePileOrder(%q) = %v, %v", o.String(), got, err)
		}
	}
	if _, err := ParseRounding("up"); err == nil {
		t.Error("ParseRounding(up) accepted")
	}
	if _, err := ParsePileOrder("random"); err == nil {
		t.Error("ParsePileOrder(random) accepted")
	}
	if got := (Deal{Piles: 10}).Stacking(); !slices.Equal(got, []int{1, 3, 5, 7, 9, 2, 4, 6, 8, 10}) {
		t.Errorf("default stacking %v", got)
	}
}

// TestRiffleLargeDecks checks both riffle simulations across the 64-card
// word boundary of the digit form: a riffle leaves at most two rising
// sequences, the top packet's size k is Binomial(n, 1/2), and the bottom
// card comes from either packet with probability 1/2.
func TestRiffleLargeDecks(t *testing.T) {
	const sets = 4000
	for _, f := range []Riffle{{Packets: 2}, {Packets: 2, Drop: true}} {
		for _, n := range []int{63, 64, 65, 100, 129, 200} {
			r := NewRand(uint64(n))
			var sk, sk2, bottomB float64
			for range sets {
				deck := Unshuffled(n)
				f.Shuffle(deck, r)
				if rs := risingSequences(deck); rs > 2 {
					t.Fatalf("drop=%v n=%d: %d rising sequences", f.Drop, n, rs)
				}
				pos := Permutation(deck)
				k := n
				for c := 1; c < n; c++ {
					if pos[c] < pos[c-1] {
						k = c
						break
					}
				}
				sk += float64(k)
				sk2 += float64(k) * float64(k)
				if deck[n-1] != k-1 {
					bottomB++
				}
			}
			mean := sk / sets
			sd := math.Sqrt(float64(n) / 4)
			if math.Abs(mean-float64(n)/2) > 4*sd/math.Sqrt(sets) {
				t.Errorf("drop=%v n=%d: mean top packet %.2f, want %.1f", f.Drop, n, mean, float64(n)/2)
			}
			if v := sk2/sets - mean*mean; math.Abs(v/(sd*sd)-1) > 0.15 {
				t.Errorf("drop=%v n=%d: top packet variance %.2f, want %.2f", f.Drop, n, v, sd*sd)
			}
			if p := bottomB / sets; math.Abs(p-0.5) > 4*0.5/math.Sqrt(sets) {
				t.Errorf("drop=%v n=%d: bottom card from B in %.3f of sets, want 1/2", f.Drop, n, p)
			}
		}
	}
}

// TestOverhandCuts: a fresh deck after one overhand shuffle is its packets
// in reverse order, so the breaks deck[j+1] ≠ deck[j]+1 are exactly the
// cuts, Binomial(n−1, p) in Pemantle's model.
func TestOverhandCuts(t *testing.T) {
	const n, sets = 52, 4000
	for _, p := range []float64{0.1, 0.5} {
		r := NewRand(11)
		var s float64
		for range sets {
			deck := Unshuffled(n)
			Overhand{P: p}.Shuffle(deck, r)
			for j := 0; j+1 < n; j++ {
				if deck[j+1] != deck[j]+1 {
					s++
				}
			}
		}
		mean, want := s/sets, float64(n-1)*p
		if se := math.Sqrt(want * (1 - p) / sets); math.Abs(mean-want) > 4*se {
			t.Errorf("p=%v: %.3f cuts per shuffle, want %.2f", p, mean, want)
		}
	}
}

// TestCutPosition: the default cut moves N(n/2, 5) cards (rounded) from the
// top to the bottom.
func TestCutPosition(t *testing.T) {
	const sets = 4000
	for _, n := range []int{52, 60} {
		r := NewRand(13)
		var s, s2 float64
		for range sets {
			deck := Unshuffled(n)
			DefaultParams().Cut.Shuffle(deck, r)
			k := float64(deck[0])
			s += k
			s2 += k * k
		}
		mean := s / sets
		sd := math.Sqrt(s2/sets - mean*mean)
		if math.Abs(mean-float64(n)/2) > 4*5/math.Sqrt(sets) {
			t.Errorf("n=%d: mean cut %.2f, want %d", n, mean, n/2)
		}
		// Rounding adds variance 1/12: sd ≈ √(25 + 1/12) ≈ 5.008.
		if math.Abs(sd-5) > 0.3 {
			t.Errorf("n=%d: cut sd %.2f, want about 5", n, sd)
		}
	}
}

// TestHinduPacketSizes: with the Ide & Okuda default N(10, 5/3) the packets of
// a fresh deck (runs of consecutive cards) average about 10 cards, except
// the last, which takes what is left.
func TestHinduPacketSizes(t *testing.T) {
	const n, sets = 1000, 200
	r := NewRand(17)
	var packets, cards float64
	for range sets {
		deck := Unshuffled(n)
		DefaultParams().Hindu.Shuffle(deck, r)
		// The first run of the shuffled deck is the last (partial) packet.
		j := 1
		for j < n && deck[j] == deck[j-1]+1 {
			j++
		}
		run := 1
		for j++; j <= n; j++ {
			if j == n || deck[j] != deck[j-1]+1 {
				packets++
				cards += float64(run)
				run = 1
			} else {
				run++
			}
		}
	}
	if mean := cards / packets; math.Abs(mean-10) > 0.1 {
		t.Errorf("mean packet %.3f cards, want 10 ± 0.1", mean)
	}
}

// TestDealManyPiles: piles beyond n are empty, so d > n piles deal like n
// piles (odd-even and natural orders), for every n.
func TestDealManyPiles(t *testing.T) {
	for _, order := range []PileOrder{PilesOddEven, PilesNatural} {
		for _, n := range []int{1, 2, 7, 52, 300} {
			want := Unshuffled(n)
			Deal{Piles: n, Order: order}.Shuffle(want, nil)
			for _, d := range []int{n + 1, 2*n + 3, MaxPiles} {
				got := Unshuffled(n)
				Deal{Piles: d, Order: order}.Shuffle(got, nil)
				if !slices.Equal(got, want) {
					t.Errorf("%v n=%d: %d piles give %v, %d piles %v", order, n, d, got, n, want)
				}
			}
		}
	}
}

func TestParseMethods(t *testing.T) {
	tests := []struct {
		in   string
		want []string
		err  string
	}{
		{"HRD", []string{"H", "R", "D"}, ""},
		{"hr", []string{"H", "R"}, ""},
		{"HXD", nil, `"X" is not a shuffle letter`},
		{"HRH", nil, "H twice"},
		{"", nil, "empty"},
		{"Hé", nil, "is not a shuffle letter"},
	}
	for _, tc := range tests {
		got, err := ParseMethods(tc.in)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("ParseMethods(%q) error %v, want %q", tc.in, err, tc.err)
			}
			continue
		}
		if err != nil || !slices.Equal(got, tc.want) {
			t.Errorf("ParseMethods(%q) = %v, %v; want %v", tc.in, got, err, tc.want)
		}
	}
}

// Apply draws all sets from one generator: the second set continues the
// first one's numbers, and perm gives the permutation of the deck.
func TestApply(t *testing.T) {
	var decks, perms [][]int
	Apply(Uniform{}, 10, 3, 2, false, func(d []int) error { decks = append(decks, slices.Clone(d)); return nil })
	Apply(Uniform{}, 10, 3, 2, true, func(p []int) error { perms = append(perms, slices.Clone(p)); return nil })
	r := NewRand(3)
	for i := range 2 {
		want := Unshuffled(10)
		Uniform{}.Shuffle(want, r)
		if !slices.Equal(decks[i], want) || !slices.Equal(perms[i], Permutation(want)) {
			t.Errorf("set %d: deck %v perm %v, want %v", i, decks[i], perms[i], want)
		}
	}
}

func TestEachPermutation(t *testing.T) {
	seen := map[[4]int]bool{}
	EachPermutation(4, func(p []int) { seen[[4]int(p)] = true })
	if len(seen) != 24 {
		t.Errorf("%d distinct permutations of 4, want 24", len(seen))
	}
}
