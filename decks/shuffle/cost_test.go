package shuffle

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestRepeat checks docs/shuffles-models.md: T = 60 gives C^30 H^20 F^8 D^2; T = 12 gives
// C^6 H^4 F^1 D^0.
func TestRepeat(t *testing.T) {
	for _, tc := range []struct {
		limit int
		want  string
	}{
		{60, "C^30 H^20 F^8 D^2"},
		{12, "C^6 H^4 F^1 D^0"},
		{0, "C^0 H^0 F^0 D^0"},
	} {
		var got []string
		for _, l := range []byte("CHFD") {
			term, err := Repeat(l, tc.limit)
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, term.String())
		}
		if s := strings.Join(got, " "); s != tc.want {
			t.Errorf("T=%d: %s, want %s", tc.limit, s, tc.want)
		}
	}
	if term, _ := Repeat('R', 60); term.Count != 8 {
		t.Errorf("R is costed as F: Repeat(R, 60) = %v, want R^8", term)
	}
	for _, l := range []byte("OUX") {
		if _, err := Repeat(l, 60); err == nil {
			t.Errorf("Repeat(%c) accepted an uncosted letter", l)
		}
	}
	if _, err := Repeat('C', -1); err == nil {
		t.Error("Repeat accepted a negative limit")
	}
}

// TestMaximalOneDeal checks the docs/shuffles-models.md example exactly: methods H, R, D,
// T = 60, exactly one D.
func TestMaximalOneDeal(t *testing.T) {
	combs, err := DefaultCosts().Maximal("HRD", 60, true)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	var counts []int64
	total := 0
	for _, c := range combs {
		names = append(names, c.String())
		counts = append(counts, c.NumOrderings().Int64())
		// Enumerate the orderings and check they are distinct, of the
		// right letters, and as many as NumOrderings says.
		var seqs []string
		c.EachOrdering(func(s string) bool { seqs = append(seqs, s); return true })
		if !slices.IsSorted(seqs) || len(slices.Compact(slices.Clone(seqs))) != len(seqs) {
			t.Errorf("%s: orderings not distinct and sorted", c)
		}
		if int64(len(seqs)) != c.NumOrderings().Int64() {
			t.Errorf("%s: %d orderings enumerated, NumOrderings %v", c, len(seqs), c.NumOrderings())
		}
		for _, s := range seqs {
			if strings.Count(s, "D") != 1 {
				t.Errorf("%s: ordering %s without exactly one D", c, s)
			}
		}
		total += len(seqs)
		if cost := c.Cost(DefaultCosts()); cost > 60 || cost+3 <= 60 {
			t.Errorf("%s: cost %d s is not maximal under 60 s", c, cost)
		}
	}
	want := []string{"D^1R^4", "D^1R^3H^3", "D^1R^2H^5", "D^1R^1H^7", "D^1H^10"}
	if diff := cmp.Diff(want, names); diff != "" {
		t.Errorf("combinations (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]int64{5, 140, 168, 72, 11}, counts); diff != "" {
		t.Errorf("orderings per combination (-want +got):\n%s", diff)
	}
	if total != 396 {
		t.Errorf("%d orderings in all, docs/shuffles-models.md says 396", total)
	}
}

// TestMaximalBrute compares Maximal with a brute force over all count
// vectors, for several method sets and limits.
func TestMaximalBrute(t *testing.T) {
	costs := DefaultCosts()
	for _, methods := range []string{"HRD", "CHFD", "R", "CH", "HD"} {
		for _, oneDeal := range []bool{false, true} {
			for _, limit := range []int{0, 5, 12, 29, 30, 37, 60, 61} {
				got, err := costs.Maximal(methods, limit, oneDeal)
				if err != nil && !(oneDeal && limit < 30 && strings.Contains(err.Error(), "nothing fits")) {
					t.Fatal(err)
				}
				gotSet := map[string]bool{}
				for _, c := range got {
					gotSet[canonicalComb(c)] = true
				}
				want := bruteMaximal(costs, methods, limit, oneDeal)
				if len(got) != len(want) || len(gotSet) != len(got) {
					t.Errorf("%s T=%d oneDeal=%v: %d combinations %v, want %d %v", methods, limit, oneDeal, len(got), got, len(want), want)
					continue
				}
				for _, w := range want {
					if !gotSet[w] {
						t.Errorf("%s T=%d oneDeal=%v: missing %s in %v", methods, limit, oneDeal, w, got)
					}
				}
			}
		}
	}
}

// canonicalComb writes counts in Letters order with zeros, for comparison.
func canonicalComb(c Combination) string {
	counts := map[byte]int{}
	for _, t := range c {
		counts[t.Letter] += t.Count
	}
	var b strings.Builder
	for i := range len(Letters) {
		fmt.Fprintf(&b, "%d,", counts[Letters[i]])
	}
	return b.String()
}

func bruteMaximal(costs Costs, methods string, limit int, oneDeal bool) []string {
	letters := []byte(methods)
	if oneDeal && !slices.Contains(letters, 'D') {
		letters = append(letters, 'D')
	}
	var out []string
	counts := make([]int, len(letters))
	var rec func(k int)
	rec = func(k int) {
		if k == len(letters) {
			var c Combination
			for i, l := range letters {
				c = append(c, Term{l, counts[i]})
			}
			cost := c.Cost(costs)
			if cost > limit {
				return
			}
			maximal := true
			for i, l := range letters {
				if oneDeal && l == 'D' {
					if counts[i] != 1 {
						return
					}
					continue
				}
				if v, _ := costs.Of(l); cost+v <= limit {
					maximal = false
				}
			}
			if maximal {
				out = append(out, canonicalComb(c))
			}
			return
		}
		v, _ := costs.Of(letters[k])
		for n := 0; n*v <= limit; n++ {
			counts[k] = n
			rec(k + 1)
		}
	}
	rec(0)
	return out
}

func TestMaximalErrors(t *testing.T) {
	for _, tc := range []struct {
		methods string
		limit   int
		oneDeal bool
	}{
		{"HRX", 60, false},
		{"HRO", 60, false}, // O has no cost
		{"HU", 60, false},
		{"HH", 60, false},
		{"DD", 60, true},
		{"", 60, false},
		{"HR", -1, false},
		{"HR", MaxCostLimit + 1, false},
		{"CHRFD", 100000, false},
		{"CHRFD", MaxCostLimit, false}, // far more than MaxCombinations
	} {
		if _, err := DefaultCosts().Maximal(tc.methods, tc.limit, tc.oneDeal); err == nil {
			t.Errorf("Maximal(%q, %d, %v) accepted", tc.methods, tc.limit, tc.oneDeal)
		}
	}
	// The largest limit still works: C and H at T = 3600 give 1,201
	// combinations (H^m, m = 0..1200, then as many C as fit).
	if got, err := DefaultCosts().Maximal("CH", MaxCostLimit, false); err != nil || len(got) != 1201 {
		t.Errorf("Maximal(CH, %d) = %d combinations, %v; want 1201", MaxCostLimit, len(got), err)
	}
	// One deal that does not fit: an error that says so (TestMaximalNothingFits).
	if got, err := DefaultCosts().Maximal("HR", 20, true); err == nil || len(got) != 0 {
		t.Errorf("Maximal(HR, 20, one deal) = %v, %v; want none and an error", got, err)
	}
	if got, err := DefaultCosts().Maximal("d", 45, true); err != nil || len(got) != 1 || got[0].String() != "D^1" {
		t.Errorf("Maximal(d, 45, one deal) = %v, %v; want D^1", got, err)
	}
}

func TestEachOrderingStops(t *testing.T) {
	n := 0
	Combination{{'H', 3}, {'R', 3}}.EachOrdering(func(string) bool { n++; return n < 4 })
	if n != 4 {
		t.Errorf("EachOrdering went on after false: %d calls", n)
	}
	if got := (Combination{}).NumOrderings().Int64(); got != 1 {
		t.Errorf("empty combination: %d orderings, want 1", got)
	}
}

func TestCostsSet(t *testing.T) {
	var c Costs
	if err := c.Set('O', 5); err != nil || c.O != 5 {
		t.Errorf("Set(O, 5): %v, %+v", err, c)
	}
	if err := c.Set('Z', 5); err == nil {
		t.Error("Set(Z) accepted")
	}
}

// With one deal and a limit below the deal's cost nothing fits, and Maximal
// says why instead of returning no combination.
func TestMaximalNothingFits(t *testing.T) {
	combs, err := DefaultCosts().Maximal("HRD", 12, true)
	if err == nil || !strings.Contains(err.Error(), "the deal D alone takes 30 s") {
		t.Errorf("Maximal(HRD, 12, one deal) = %v, %v; want an error saying D takes 30 s", combs, err)
	}
}

func TestRepeatAll(t *testing.T) {
	terms, err := DefaultCosts().RepeatAll("", 60)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, term := range terms {
		got = append(got, term.String())
	}
	if want := []string{"C^30", "H^20", "R^8", "F^8", "D^2"}; !slices.Equal(got, want) {
		t.Errorf("RepeatAll(\"\", 60) = %v, want %v", got, want)
	}
	if _, err := DefaultCosts().RepeatAll("hU", 60); err == nil || !strings.Contains(err.Error(), "no time cost") {
		t.Errorf("RepeatAll(hU) error %v, want no time cost for U", err)
	}
	combs, _ := DefaultCosts().Maximal("HRD", 60, true)
	if n := TotalOrderings(combs); n.Int64() != 396 {
		t.Errorf("TotalOrderings = %v, want 396", n)
	}
}
