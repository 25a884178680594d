package shuffle

import (
	"bytes"
	"context"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestWriteApply(t *testing.T) {
	tests := []struct {
		name    string
		s       Shuffler
		n, sets int
		seed    uint64
		perm    bool
		want    string
	}{
		// docs/shuffles-models.md: the deal onto 10 piles, from the top.
		{"deal deck", DefaultParams().Deal, 10, 1, 1, false, "1 3 5 7 9 2 4 6 8 10\n"},
		{"deal pi", DefaultParams().Deal, 10, 1, 1, true, "1 6 2 7 3 8 4 9 5 10\n"},
		{"uniform sets", Uniform{}, 5, 3, 1, true, "1 2 3 4 5\n2 1 4 5 3\n3 2 1 4 5\n"},
		{"riffle deck", DefaultParams().Riffle, 6, 2, 7, false, "1 5 6 2 3 4\n1 4 5 2 6 3\n"},
		{"no cards", Uniform{}, 0, 2, 1, false, "\n\n"},
	}
	for _, tt := range tests {
		var b bytes.Buffer
		if err := WriteApply(context.Background(), &b, tt.s, tt.n, tt.seed, tt.sets, tt.perm); err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if diff := cmp.Diff(tt.want, b.String()); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.name, diff)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var b bytes.Buffer
	if err := WriteApply(ctx, &b, Uniform{}, 5, 1, 3, false); !errors.Is(err, context.Canceled) || b.String() != "1 2 3 4 5\n" {
		t.Errorf("cancelled: %q, %v; want the first line and context.Canceled", b.String(), err)
	}
}

// TestCostRows checks the tables of docs/shuffles-models.md: T = 12 repeated, and
// HRD with one deal in T = 60 (396 orderings).
func TestCostRows(t *testing.T) {
	c := DefaultCosts()
	terms, err := c.RepeatAll("CHFD", 12)
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{{"C^6", "2", "12"}, {"H^4", "3", "12"}, {"F^1", "7", "7"}, {"D^0", "30", "0"}}
	if diff := cmp.Diff(want, c.RepeatRows(terms)); diff != "" {
		t.Errorf("RepeatRows (-want +got):\n%s", diff)
	}
	combs, err := c.Maximal("HRD", 60, true)
	if err != nil {
		t.Fatal(err)
	}
	rows, footer := c.CombinationRows(combs)
	want = [][]string{
		{"D^1R^4", "5", "58", "5"},
		{"D^1R^3H^3", "7", "60", "140"},
		{"D^1R^2H^5", "8", "59", "168"},
		{"D^1R^1H^7", "9", "58", "72"},
		{"D^1H^10", "11", "60", "11"},
	}
	if diff := cmp.Diff(want, rows); diff != "" {
		t.Errorf("CombinationRows (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"total", "5 combinations", "", "396"}, footer); diff != "" {
		t.Errorf("CombinationRows footer (-want +got):\n%s", diff)
	}
}

func TestWriteOrderings(t *testing.T) {
	tests := []struct {
		name    string
		methods string
		limit   int
		want    string
		tooMany bool
	}{
		{"C and H in 9 s", "CH", 9, "HHH\nCHH\nHCH\nHHC\nCCCH\nCCHC\nCHCC\nHCCC\nCCCC\n", false},
		{"nothing fits", "D", 10, "\n", false},
		{"too many", "CHD", 150, "", true},
	}
	for _, tt := range tests {
		combs, err := DefaultCosts().Maximal(tt.methods, tt.limit, false)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		var b bytes.Buffer
		err = WriteOrderings(&b, combs)
		if tt.tooMany {
			if !errors.Is(err, ErrTooManyOrderings) || b.Len() > 0 {
				t.Errorf("%s: %q, %v; want nothing and ErrTooManyOrderings", tt.name, b.String(), err)
			}
			continue
		}
		if err != nil || b.String() != tt.want {
			t.Errorf("%s: %q, %v; want %q", tt.name, b.String(), err, tt.want)
		}
	}
}
