package deal

import (
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/calcsol/calcsol/decks/cards"
	"github.com/calcsol/calcsol/decks/shuffle"
)

func TestParseDealSpec(t *testing.T) {
	tests := []struct {
		in, want string
	}{
		{"", "players=4,adjust=0,target=pairs,gather=hands"},
		{"players=4,adjust=50,target=pairs", "players=4,adjust=50,target=pairs,gather=hands"},
		{" players=3 , adjust=-100 ", "players=3,adjust=-100,target=pairs,gather=hands"},
		{"players=5,adjust=100,target=runs,gather=interleave", "players=5,adjust=100,target=runs,gather=interleave"},
		{"target=both", "players=4,adjust=0,target=pairs+runs,gather=hands"},
		{"target=runs>pairs", "players=4,adjust=0,target=runs>pairs,gather=hands"},
		{"target=suits+runs+pairs", "players=4,adjust=0,target=suits+runs+pairs,gather=hands"},
		{"count=proposals,adjust=5", "players=4,adjust=5,target=pairs,gather=hands"},
		{"count=swaps,adjust=5", "players=4,adjust=5,target=pairs,gather=hands,count=swaps"},
	}
	for _, tt := range tests {
		d, err := ParseSpec(tt.in)
		if err != nil {
			t.Errorf("ParseSpec(%q): %v", tt.in, err)
			continue
		}
		if got := d.String(); got != tt.want {
			t.Errorf("ParseSpec(%q) = %s, want %s", tt.in, got, tt.want)
		}
		// The canonical form reads back to itself, and as a generator spec.
		again, err := ParseSpec(d.String())
		if err != nil || again.String() != d.String() {
			t.Errorf("%s does not read back: %v, %v", d, again, err)
		}
	}
}

func TestParseDealSpecErrors(t *testing.T) {
	tests := []struct {
		in, want string
	}{
		{"players=2", "players=2: want 3..5"},
		{"players=6", "players=6: want 3..5"},
		{"players=four", "players=four: want 3..5"},
		{"adjust=101", "adjust=101: want an integer -100..100"},
		{"adjust=-101", "adjust=-101: want an integer -100..100"},
		{"adjust=1.5", "adjust=1.5: want an integer"},
		{"target=flush", `unknown objective "flush"`},
		{"target=pairs+runs>suits", "use either + (sum) or > (priority)"},
		{"target=pairs+pairs", "pairs named twice"},
		{"target=", `unknown objective ""`},
		{"gather=shuffle", "gather=shuffle: want hands or interleave"},
		{"players=4,players=5", "players given twice"},
		{"players", `item "players" is not key=value`},
		{"players=4,", `item "" is not key=value`},
		{"seats=4", `unknown key "seats"`},
		{"count=all", "count=all: want proposals or swaps"},
	}
	for _, tt := range tests {
		_, err := ParseSpec(tt.in)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("ParseSpec(%q): %v, want an error containing %q", tt.in, err, tt.want)
		}
	}
}

func TestMeasureHand(t *testing.T) {
	tests := []struct {
		hand string
		want HandStats
	}{
		{"AS 2S 3S 5H 5D 5C 9D 9C KC QC JC 0C 4H",
			HandStats{Pairs: 1, Triples: 1, Runs: 2, Links: 2 + 1 + 4, PairScore: 4, SuitSq: 9 + 4 + 4 + 36, TopSuit: 6}},
		// K–A does not wrap: Q K A of spades is one link and no run.
		{"QS KS AS 2H 4H 6H 8H 0H QH 3D 3C 3H 7C",
			HandStats{Pairs: 1, Triples: 1, Runs: 1, Links: 1 + 2, PairScore: 1 + 3, SuitSq: 9 + 49 + 1 + 4, TopSuit: 7}},
		{"AS AH AD AC 2S 2H 2D 2C 3S 3H 3D 3C 4S",
			HandStats{Quads: 3, Runs: 4, Links: 3 + 2 + 2 + 2, PairScore: 18, SuitSq: 16 + 9 + 9 + 9, TopSuit: 4}},
		{"AS 2S 3S 4S 5S 6S 7S 8S 9S 0S JS QS KS",
			HandStats{Runs: 1, Links: 12, SuitSq: 169, TopSuit: 13}},
	}
	for _, tt := range tests {
		var hand []int
		for _, c := range strings.Fields(tt.hand) {
			id, err := cards.Standard52.ParseCard(c)
			if err != nil {
				t.Fatal(err)
			}
			hand = append(hand, id)
		}
		if diff := cmp.Diff(tt.want, MeasureHand(hand)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.hand, diff)
		}
	}
}

// objectiveOf recomputes an objective from scratch.
func objectiveOf(o Objective, hand []int) int {
	m := MeasureHand(hand)
	switch o {
	case Pairs:
		return m.PairScore
	case Runs:
		return m.Links
	}
	return m.SuitSq
}

// TestDelta checks the incremental objective changes against recomputation,
// for every possible swap of a few deals.
func TestDelta(t *testing.T) {
	r := shuffle.NewRand(11)
	for range 3 {
		stock := cards.Standard52.NewDeck()
		shuffle.Uniform{}.Shuffle(stock, r)
		tb := NewTable(stock, 4)
		for _, o := range []Objective{Pairs, Runs, Suits} {
			for xs, x := range tb.Hands[0] {
				for _, y := range tb.Hands[2] {
					h := slices.Clone(tb.Hands[0])
					h[xs] = y
					want := objectiveOf(o, h) - objectiveOf(o, tb.Hands[0])
					if got := tb.delta(o, 0, x, y); got != want {
						t.Fatalf("%s: giving %s for %s: delta %d, want %d", o, cards.Standard52.FormatCard(x), cards.Standard52.FormatCard(y), got, want)
					}
				}
			}
		}
	}
}

func targetSum(tg Target, hands [][]int) []int {
	out := make([]int, len(tg.Objectives))
	for k, o := range tg.Objectives {
		for _, h := range hands {
			out[k] += objectiveOf(o, h)
		}
	}
	if !tg.Priority {
		s := 0
		for _, v := range out {
			s += v
		}
		return []int{s}
	}
	return out
}

// TestExchangeMonotone: every swap moves the target (summed over the hands,
// lexicographically under priority) strictly the wanted way, keeps the deck
// a permutation and the hand sizes.
func TestExchangeMonotone(t *testing.T) {
	targets := []string{"pairs", "runs", "suits", "both", "runs>pairs", "pairs>suits"}
	r := shuffle.NewRand(3)
	for _, ts := range targets {
		tg, err := ParseTarget(ts)
		if err != nil {
			t.Fatal(err)
		}
		for _, players := range []int{3, 4, 5} {
			for _, sign := range []int{1, -1} {
				stock := cards.Standard52.NewDeck()
				shuffle.Uniform{}.Shuffle(stock, r)
				tb := NewTable(stock, players)
				sizes := make([]int, players)
				for p := range sizes {
					sizes[p] = len(tb.Hands[p])
				}
				prev := targetSum(tg, tb.Hands)
				for e := range 60 {
					swapped := tb.Exchange(tg, sign, r)
					cur := targetSum(tg, tb.Hands)
					c := slices.Compare(cur, prev) * sign
					if swapped && c <= 0 || !swapped && c != 0 {
						t.Fatalf("%s, %d players, sign %d, exchange %d: swapped %v, target %v -> %v", ts, players, sign, e, swapped, prev, cur)
					}
					prev = cur
				}
				var all []int
				for p, h := range tb.Hands {
					if len(h) != sizes[p] {
						t.Fatalf("hand %d changed size", p)
					}
					all = append(all, h...)
				}
				slices.Sort(all)
				if !slices.Equal(all, cards.Standard52.NewDeck()) {
					t.Fatal("the hands are not the deck any more")
				}
			}
		}
	}
}

// TestDealControl: on common deals, the target's measures move monotonically
// with the adjust parameter, and 0 is the random deal. The expected means of
// a random 13-card hand: pair score 13·C(4,2)·(13·12)/(52·51) ≈ 4.59,
// links 4·12·(13·12)/(52·51) ≈ 2.82.
func TestDealControl(t *testing.T) {
	adjusts := []int{-100, -60, -20, 0, 20, 60, 100}
	tests := []struct {
		target  string
		measure func(m Means) float64
		random  float64
	}{
		{"pairs", func(m Means) float64 { return m.PairScore }, 4.59},
		// Cards in sets; the number of ranks held twice or more is not monotone
		// (pairs merge into triples and quads).
		{"pairs", func(m Means) float64 { return 2*m.Pairs + 3*m.Triples + 4*m.Quads }, -1},
		{"runs", func(m Means) float64 { return m.Links }, 2.82},
		{"runs", func(m Means) float64 { return m.Runs }, -1},
		{"suits", func(m Means) float64 { return m.TopSuit }, -1},
	}
	for i, tt := range tests {
		tg, _ := ParseTarget(tt.target)
		rows, err := Stats(4, tg, adjusts, 150, 2002)
		if err != nil {
			t.Fatal(err)
		}
		var got []float64
		for _, row := range rows {
			got = append(got, tt.measure(row))
		}
		for k := 1; k < len(got); k++ {
			if got[k] < got[k-1] {
				t.Errorf("case %d (%s): not monotone in adjust %v: %v", i, tt.target, adjusts, got)
				break
			}
		}
		if got[0] >= got[3] || got[3] >= got[len(got)-1] {
			t.Errorf("case %d (%s): no effect: %v", i, tt.target, got)
		}
		if tt.random > 0 && (got[3] < 0.9*tt.random || got[3] > 1.1*tt.random) {
			t.Errorf("case %d (%s): adjust 0 gives %.3f, a random deal %.2f", i, tt.target, got[3], tt.random)
		}
	}
}

func TestDealStatsErrors(t *testing.T) {
	tg, _ := ParseTarget("pairs")
	for _, c := range []struct {
		players, deals int
		adjusts        []int
	}{{2, 1, []int{0}}, {4, 0, []int{0}}, {4, 1, []int{101}}} {
		if _, err := Stats(c.players, tg, c.adjusts, c.deals, 1); err == nil {
			t.Errorf("Stats(%+v) succeeded", c)
		}
	}
	if _, err := Stats(4, Target{}, []int{0}, 1, 1); err == nil {
		t.Error("an empty target was accepted")
	}
}

// TestAdjustCount: with count=swaps, adjust counts the exchanges that swapped
// cards; with the default count=proposals, every proposal counts, and only
// some of them swap.
func TestAdjustCount(t *testing.T) {
	tg := Target{Objectives: []Objective{Pairs}}
	for seed := range uint64(20) {
		stock := cards.Standard52.NewDeck()
		shuffle.Uniform{}.Shuffle(stock, shuffle.NewRand(seed))
		for _, adjust := range []int{30, -10} {
			props := NewTable(stock, 4)
			props.AdjustCount(adjust, tg, CountProposals, ExchangeRand(stock))
			swaps := NewTable(stock, 4)
			swaps.AdjustCount(adjust, tg, CountSwaps, ExchangeRand(stock))
			n := max(adjust, -adjust)
			if props.Proposals() != n || props.Swaps >= n {
				t.Errorf("seed %d adjust %d, count=proposals: %d proposals, %d swaps", seed, adjust, props.Proposals(), props.Swaps)
			}
			if swaps.Swaps > n || (swaps.Swaps < n && swaps.Proposals() < MaxProposals) || swaps.Proposals() <= n {
				t.Errorf("seed %d adjust %d, count=swaps: %d proposals, %d swaps", seed, adjust, swaps.Proposals(), swaps.Swaps)
			}
		}
	}
	// Statistics: count=swaps makes exactly |adjust| swaps per deal here.
	rows, err := StatsCount(4, tg, []int{-5, 0, 10}, CountSwaps, 30, 7)
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []float64{5, 0, 10} {
		if rows[i].Swaps != want || (want > 0 && rows[i].Proposals <= want) {
			t.Errorf("adjust %d: %.2f swaps, %.2f proposals per deal; want %v swaps", rows[i].Adjust, rows[i].Swaps, rows[i].Proposals, want)
		}
	}
	// The generator follows the spec's count.
	d, _ := ParseSpec("adjust=10,count=swaps")
	deck := cards.Standard52.NewDeck()
	d.Generate(deck, shuffle.NewRand(3))
	d.Count = CountProposals
	deck2 := cards.Standard52.NewDeck()
	d.Generate(deck2, shuffle.NewRand(3))
	if slices.Equal(deck, deck2) {
		t.Error("count=swaps and count=proposals gave the same deal")
	}
}

// FuzzParseDealSpec: a spec that parses has a canonical form that parses to
// the same spec.
func FuzzParseSpec(f *testing.F) {
	for _, s := range []string{"", "players=4,adjust=50,target=pairs", "target=runs>pairs,gather=interleave", "adjust=-7,target=both", "count=swaps,adjust=3"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d, err := ParseSpec(s)
		if err != nil {
			return
		}
		if err := d.Validate(); err != nil {
			t.Fatalf("%q parsed to an invalid spec: %v", s, err)
		}
		d2, err := ParseSpec(d.String())
		if err != nil || !cmp.Equal(d, d2) {
			t.Fatalf("%q -> %s -> %v, %v", s, d, d2, err)
		}
	})
}

func BenchmarkDealGenerate(b *testing.B) {
	d, err := ParseSpec("players=4,adjust=100,target=both")
	if err != nil {
		b.Fatal(err)
	}
	r := shuffle.NewRand(1)
	deck := make([]int, 52)
	b.ReportAllocs()
	for b.Loop() {
		for i := range deck {
			deck[i] = i
		}
		d.Generate(deck, r)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "decks/s")
}

// deal show and corpus generate --deal make the same deal: Deal, then
// Gather, is Generate.
func TestDealIsGenerate(t *testing.T) {
	for _, spec := range []string{"players=4,adjust=20,target=pairs", "players=3,adjust=0,target=runs", "players=5,adjust=-30,target=runs>pairs,gather=interleave,count=swaps"} {
		d, err := ParseSpec(spec)
		if err != nil {
			t.Fatal(err)
		}
		want := cards.Standard52.NewDeck()
		d.Generate(want, shuffle.NewRand(9))
		got := cards.Standard52.NewDeck()
		d.Deal(got, shuffle.NewRand(9)).Gather(got, d.Gather)
		if !slices.Equal(got, want) {
			t.Errorf("%s: Deal+Gather %v, Generate %v", spec, got, want)
		}
	}
}

func TestFormatHand(t *testing.T) {
	var hand []int
	for _, c := range strings.Fields("KC 5S AS 0C 3S 9D") {
		id, _ := cards.Standard52.ParseCard(c)
		hand = append(hand, id)
	}
	if got, want := FormatHand(hand), "A35S 9D 0KC"; got != want {
		t.Errorf("FormatHand = %q, want %q", got, want)
	}
}

func TestAdjusts(t *testing.T) {
	got, err := Adjusts(-100, 100, 50)
	if err != nil || !slices.Equal(got, []int{-100, -50, 0, 50, 100}) {
		t.Errorf("Adjusts(-100, 100, 50) = %v, %v", got, err)
	}
	for _, bad := range [][3]int{{0, 10, 0}, {10, 0, 1}, {-101, 0, 1}, {0, 101, 1}} {
		if _, err := Adjusts(bad[0], bad[1], bad[2]); err == nil {
			t.Errorf("Adjusts%v: no error", bad)
		}
	}
	if _, err := Stats(4, Target{Objectives: []Objective{Pairs}}, []int{0}, MaxDeals+1, 1); err == nil {
		t.Error("Stats with MaxDeals+1 deals: no error")
	}
}
