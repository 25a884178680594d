package report

import (
	"bytes"
	"fmt"
	"image/png"
	"strings"
	"testing"

	"github.com/calcsol/calcsol/internal/golden"
	"github.com/calcsol/calcsol/tournament"
)

// chartReport has what Chart must handle: two strategies over three groups
// of corpus and rules, a variant one of them cannot play (not applicable)
// and one with no games.
var chartReport = tournament.Report{Alpha: tournament.Alpha, Rows: []tournament.Row{
	{Strategy: "priority", Corpus: "small", Rules: "3-base", Applicable: true, Wins: 13, Games: 200, Rate: 0.065, CILow: 0.0384, CIHigh: 0.1080},
	{Strategy: "priority", Corpus: "small", Rules: "4-preplaced", Applicable: true, Wins: 118, Games: 200, Rate: 0.59, CILow: 0.5208, CIHigh: 0.6557},
	{Strategy: "priority", Corpus: "small", Rules: "2-base"},
	{Strategy: "greedy", Corpus: "small", Rules: "3-base", Applicable: true, Wins: 1, Games: 200, Rate: 0.005, CILow: 0.0009, CIHigh: 0.0277},
	{Strategy: "greedy", Corpus: "small", Rules: "4-preplaced", Applicable: true, Wins: 6, Games: 200, Rate: 0.03, CILow: 0.0138, CIHigh: 0.0639},
	{Strategy: "greedy", Corpus: "small", Rules: "2-base", Applicable: true},
}}

// The chart is tested through what it plots (the PNG's bytes depend on the
// plotting library's version): the groups and each strategy's points, as
// text, against a golden file.
func TestChartData(t *testing.T) {
	groups, series := chartData(chartReport)
	var b strings.Builder
	fmt.Fprintf(&b, "groups: %q\n", groups)
	for _, s := range series {
		fmt.Fprintf(&b, "%s (colour and glyph %d):\n", s.name, s.index)
		for i, p := range s.pts.XYs {
			e := s.pts.YErrors[i]
			fmt.Fprintf(&b, "  x %.4f  rate %7.3f %%  interval [%7.3f, %7.3f]\n", p.X, p.Y, p.Y-e.Low, p.Y+e.High)
		}
	}
	golden.Check(t, "testdata/chart.golden", []byte(b.String()))
}

// The chart is a PNG of the size its groups call for (6 inches wide at the
// least, 1.6 an x group; 4.5 high; 96 pixels an inch).
func TestChartPNG(t *testing.T) {
	tests := []struct {
		name          string
		rep           tournament.Report
		width, height int
	}{
		{"three groups", chartReport, 576, 432},
		{"five groups", tournament.Report{Rows: []tournament.Row{
			{Strategy: "a", Corpus: "c1", Rules: "3-base", Applicable: true, Games: 10, Wins: 1, Rate: 0.1, CILow: 0.02, CIHigh: 0.4},
			{Strategy: "a", Corpus: "c2", Rules: "3-base"},
			{Strategy: "a", Corpus: "c3", Rules: "3-base"},
			{Strategy: "a", Corpus: "c4", Rules: "3-base"},
			{Strategy: "a", Corpus: "c5", Rules: "3-base"},
		}}, 768, 432},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := Chart(&b, tc.rep); err != nil {
				t.Fatal(err)
			}
			img, err := png.Decode(&b)
			if err != nil {
				t.Fatalf("the chart is not a PNG: %v", err)
			}
			if got := img.Bounds().Size(); got.X != tc.width || got.Y != tc.height {
				t.Errorf("chart %d×%d pixels, want %d×%d", got.X, got.Y, tc.width, tc.height)
			}
		})
	}
}
