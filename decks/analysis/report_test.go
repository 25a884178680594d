package analysis

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/calcsol/calcsol/decks/shuffle"
	"github.com/google/go-cmp/cmp"
)

func TestResolveEmax(t *testing.T) {
	tests := []struct {
		spec   string
		n      int
		sets   int64
		want   float64
		source string
		err    string
	}{
		{spec: "approx", n: 52, sets: 1_000_000, want: ApproxEmax(52, 1_000_000, 0.95), source: "approx"},
		{spec: "", n: 10, sets: 1000, want: ApproxEmax(10, 1000, 0.95), source: "approx"},
		{spec: "reference", n: 52, sets: 1_000_000, want: ReferenceEmax, source: "reference: Ide & Okuda"},
		{spec: "REF", n: 52, sets: 1_000_000, want: ReferenceEmax, source: "reference"},
		{spec: "reference", n: 52, sets: 1000, err: "for n=52 and s=10^6 only"},
		{spec: "1e-3", n: 52, sets: 1000, want: 1e-3, source: "given"},
		{spec: "2", n: 52, sets: 1000, err: "want a number in [0, 1]"},
		{spec: "NaN", n: 52, sets: 1000, err: "want a number in [0, 1]"},
	}
	for _, tc := range tests {
		v, source, err := ResolveEmax(tc.spec, tc.n, tc.sets)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("ResolveEmax(%q) error %v, want %q", tc.spec, err, tc.err)
			}
			continue
		}
		if err != nil || v != tc.want || !strings.HasPrefix(source, tc.source) {
			t.Errorf("ResolveEmax(%q) = %g, %q, %v; want %g, %q…", tc.spec, v, source, err, tc.want, tc.source)
		}
	}
}

func TestParseRange(t *testing.T) {
	tests := []struct {
		in       string
		min, max int
		lo, hi   int
		err      bool
	}{
		{"7", 0, 40, 7, 7, false},
		{"0..40", 0, 40, 0, 40, false},
		{"5..10", 1, 40, 5, 10, false},
		{"0", 1, 40, 0, 0, true},
		{"41", 0, 40, 0, 0, true},
		{"3..2", 0, 40, 0, 0, true},
		{"x..2", 0, 40, 0, 0, true},
	}
	for _, tc := range tests {
		lo, hi, err := ParseRange(tc.in, tc.min, tc.max)
		if (err != nil) != tc.err || !tc.err && (lo != tc.lo || hi != tc.hi) {
			t.Errorf("ParseRange(%q, %d, %d) = %d, %d, %v", tc.in, tc.min, tc.max, lo, hi, err)
		}
	}
}

func TestTopAndSpread(t *testing.T) {
	ranked := []Ranked{
		{Scored: Scored{Steps: []int{0}, Name: "H"}, Class: Classification{N: 2, White: 4}},
		{Scored: Scored{Steps: []int{1}, Name: "R"}, Class: Classification{N: 2, White: 2}},
		{Scored: Scored{Steps: []int{0, 1}, Name: "HR"}, Class: Classification{N: 2, White: 3}},
	}
	want := []Placed{
		{M: 1, Rank: 1, Seq: "H", C: 1, White: 4},
		{M: 2, Rank: 1, Seq: "HR", C: 0.75, White: 3},
	}
	if diff := cmp.Diff(want, Top(ranked, 1)); diff != "" {
		t.Errorf("Top (-want +got):\n%s", diff)
	}
	c := &Calibration{Values: []float64{1, 2, 3, 10}}
	if got, want := c.Spread(), (Spread{Min: 1, Median: 3, Mean: 4, Max: 10}); got != want {
		t.Errorf("Spread = %+v, want %+v", got, want)
	}
}

// Measure and Search report every set to Progress and stop on a cancelled
// context.
func TestProgressAndCancel(t *testing.T) {
	var done atomic.Int64
	o := Options{N: 8, Sets: 10_000, Seed: 1, Workers: 2, Progress: func(n int64) { done.Add(n) }}
	if _, err := Measure(Fixed(shuffle.Riffle{}), o); err != nil {
		t.Fatal(err)
	}
	if done.Load() != 10_000 {
		t.Errorf("Measure reported %d sets, want 10000", done.Load())
	}
	done.Store(0)
	steps := func() ([]shuffle.Shuffler, error) { return []shuffle.Shuffler{shuffle.Riffle{}}, nil }
	if _, err := Search(steps, []string{"R"}, SearchOptions{Options: o, MinLen: 1, MaxLen: 2}); err != nil {
		t.Fatal(err)
	}
	if done.Load() != 10_000 {
		t.Errorf("Search reported %d sets, want 10000", done.Load())
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	o.Context = ctx
	if _, err := Measure(Fixed(shuffle.Riffle{}), o); !errors.Is(err, context.Canceled) {
		t.Errorf("Measure on a cancelled context: %v", err)
	}
	if _, err := Search(steps, []string{"R"}, SearchOptions{Options: o, MinLen: 1, MaxLen: 2}); !errors.Is(err, context.Canceled) {
		t.Errorf("Search on a cancelled context: %v", err)
	}
}
