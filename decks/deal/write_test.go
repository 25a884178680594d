package deal

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/calcsol/calcsol/internal/golden"
)

// TestWriteShow pins what "calcsol deal show" prints for a few deals; the
// stock it shows is the deck Generate makes from the same seed.
func TestWriteShow(t *testing.T) {
	var b bytes.Buffer
	for _, tc := range []struct {
		spec string
		seed uint64
	}{
		{"players=4,adjust=20,target=pairs", 1},
		{"players=5,adjust=-30,target=runs,gather=interleave", 3},
		{"players=3,adjust=0", 2},
	} {
		d, err := ParseSpec(tc.spec)
		if err != nil {
			t.Fatal(err)
		}
		if err := WriteShow(&b, d, tc.seed); err != nil {
			t.Fatal(err)
		}
	}
	golden.Check(t, "testdata/show.golden", b.Bytes())
}

func TestMeansCells(t *testing.T) {
	tests := []struct {
		m    Means
		want []string
	}{
		{Means{}, []string{"0", "0.0", "0.0", "0.000", "0.000", "0.000", "0.000", "0.000", "0.000", "0.000"}},
		{Means{Adjust: -20, Swaps: 3.25, Proposals: 20, Pairs: 1.23456, Triples: 0.5, Quads: 0.0625, Runs: 2, Links: 3, PairScore: 4.0005, TopSuit: 5.5},
			[]string{"-20", "3.2", "20.0", "1.235", "0.500", "0.062", "2.000", "3.000", "4.000", "5.500"}},
	}
	for _, tt := range tests {
		got := tt.m.Cells()
		if len(got) != len(MeansHeader) {
			t.Errorf("%+v: %d cells under %d columns", tt.m, len(got), len(MeansHeader))
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", fmt.Sprint(tt.m), diff)
		}
	}
}
