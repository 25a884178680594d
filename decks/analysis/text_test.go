package analysis

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"testing"

	"github.com/calcsol/calcsol/decks/shuffle"
	"github.com/calcsol/calcsol/internal/golden"
)

// TestReportsText pins the text of the four shuffle-analysis reports on
// small runs, with the timings zeroed (they differ between runs).
func TestReportsText(t *testing.T) {
	o := Options{N: 8, Sets: 2000, Seed: 1, Workers: 2}
	var b bytes.Buffer

	r, err := Analyze(shuffle.Riffle{}, o, 0.02, "given")
	if err != nil {
		t.Fatal(err)
	}
	r.Seconds = 0
	b.WriteString("--- analyze R\n")
	if err := r.WriteText(&b); err != nil {
		t.Fatal(err)
	}

	c, err := CalibrateReport(Fixed(shuffle.Uniform{}), o, 20)
	if err != nil {
		t.Fatal(err)
	}
	c.Seconds = 0
	b.WriteString("--- emax\n")
	if err := c.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	// Ide & Okuda's value is printed for n = 52 and s = 10^6 only.
	ref := &CalibrationReport{N: 52, Sets: 1_000_000, Repeats: 1000, Emax: ReferenceEmax}
	b.WriteString("--- emax reference\n")
	if err := ref.WriteText(&b); err != nil {
		t.Fatal(err)
	}

	steps := func() ([]shuffle.Shuffler, error) {
		return []shuffle.Shuffler{shuffle.Riffle{}, shuffle.Cut{Centre: 0.5, SD: 1}}, nil
	}
	s, err := Rank(steps, []string{"R", "C"}, SearchOptions{Options: o, MinLen: 1, MaxLen: 2}, 0.02, "given", 2)
	if err != nil {
		t.Fatal(err)
	}
	s.Seconds = 0
	b.WriteString("--- search RC\n")
	if err := s.WriteText(&b); err != nil {
		t.Fatal(err)
	}

	for _, matrix := range []bool{false, true} {
		rows, err := ExactRiffles(8, 1, 4, 0.02, matrix)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "--- exact matrix=%v\n", matrix)
		if err := WriteExact(&b, rows, "given"); err != nil {
			t.Fatal(err)
		}
	}
	golden.Check(t, "testdata/reports.golden", b.Bytes())
}

// The JSON reports keep their keys in alphabetical order, as the maps they
// replaced wrote them.
func TestReportsJSONKeysSorted(t *testing.T) {
	for _, v := range []any{CalibrationReport{}, SearchReport{}} {
		data, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		var keys []string
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.Token() // {
		for dec.More() {
			k, _ := dec.Token()
			keys = append(keys, k.(string))
			var skip json.RawMessage
			if err := dec.Decode(&skip); err != nil {
				t.Fatal(err)
			}
		}
		if !slices.IsSorted(keys) {
			t.Errorf("%T: keys %v not in alphabetical order", v, keys)
		}
	}
}

// Rank's top sequences are those Top picks from SortByC, and Analyze's
// report is NewReport's of the same measurement.
func TestRankAndAnalyzeAgree(t *testing.T) {
	o := Options{N: 6, Sets: 500, Seed: 3, Workers: 1}
	steps := func() ([]shuffle.Shuffler, error) { return []shuffle.Shuffler{shuffle.Riffle{}}, nil }
	so := SearchOptions{Options: o, MinLen: 1, MaxLen: 3}
	s, err := Rank(steps, []string{"R"}, so, 0.05, "given", 1)
	if err != nil {
		t.Fatal(err)
	}
	all, err := Search(steps, []string{"R"}, so)
	if err != nil {
		t.Fatal(err)
	}
	want := Top(SortByC(all, 0.05), 1)
	if !slices.Equal(s.Top, want) || s.Sequences != len(all) || s.Methods != "R" {
		t.Errorf("Rank = %+v, want top %+v of %d sequences", s, want, len(all))
	}
	r, err := Analyze(shuffle.Riffle{}, o, 0.05, "given")
	if err != nil {
		t.Fatal(err)
	}
	o.Stats = true
	res, err := Measure(Fixed(shuffle.Riffle{}), o)
	if err != nil {
		t.Fatal(err)
	}
	if w := NewReport("R", o, res, 0.05, "given"); r.White != w.White || r.MaxAbsE != w.MaxAbsE || r.Rising != w.Rising {
		t.Errorf("Analyze = %+v, want %+v", r, w)
	}
}
