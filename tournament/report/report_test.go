package report

import (
	"bytes"
	"testing"

	"github.com/calcsol/calcsol/internal/golden"
	"github.com/calcsol/calcsol/tournament"
)

// The efficiency view follows the rows and pairs in every format; a report
// without bounds has none.
func TestWriteEfficiency(t *testing.T) {
	rep := tournament.Report{Alpha: tournament.Alpha,
		Rows: []tournament.Row{{Strategy: "p", Corpus: "c", Rules: "4-base", Applicable: true, Wins: 50, Games: 100, Rate: 0.5, CILow: 0.4038, CIHigh: 0.5962}},
		Efficiency: []tournament.Efficiency{{Strategy: "p", Corpus: "c", Rules: "4-base", Bound: "shipped c-s4.json", Games: 100,
			Winnable: 90, Unknown: 10, WinsWinnable: 48, Rate: 48.0 / 90, CILow: 0.4316, CIHigh: 0.6308, WinsUnknown: 2}},
	}
	for _, tc := range []struct {
		name, format string
		opt          Options
	}{{"table", "table", Options{}}, {"table-wide", "table", Options{Wide: true}}, {"markdown", "markdown", Options{}}, {"csv", "csv", Options{}}} {
		format := tc.format
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := Write(&b, rep, format, tc.opt); err != nil {
				t.Fatal(err)
			}
			golden.Check(t, "testdata/efficiency."+tc.name+".golden", b.Bytes())
			var plain bytes.Buffer
			noBound := rep
			noBound.Efficiency = nil
			if err := Write(&plain, noBound, format, Options{}); err != nil {
				t.Fatal(err)
			}
			if bytes.Contains(plain.Bytes(), []byte("winnable")) {
				t.Errorf("a report without bounds shows the efficiency view:\n%s", plain.Bytes())
			}
		})
	}
}
