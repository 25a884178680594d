package report

import (
	"bytes"
	"fmt"
	"image/png"
	"math"
	"strconv"
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
// plotting library's version): the legend, each panel's title, groups, y
// range and points, and the image's size, as text, against a golden file.
func TestChartData(t *testing.T) {
	golden.Check(t, "testdata/chart.golden", []byte(chartText(chartData(chartReport))))
}

func chartText(m chartModel) string {
	var b strings.Builder
	fmt.Fprintf(&b, "size %.0f×%.0f pixels\n", m.width*96/72, m.height*96/72)
	for i, s := range m.strategies {
		fmt.Fprintf(&b, "legend %d: %s\n", i, s)
	}
	for _, pn := range m.panels {
		fmt.Fprintf(&b, "panel %q, y 0..%g %%, groups %q:\n", pn.title, pn.yMax, pn.groups)
		for _, p := range pn.points {
			fmt.Fprintf(&b, "  strategy %d  x %7.4f  rate %7.3f %%  interval [%7.3f, %7.3f]  label %q\n",
				p.strategy, p.x, p.rate, p.low, p.high, p.label)
		}
	}
	return b.String()
}

// Whatever the report, each panel's y axis holds its intervals with their
// labels, its groups hold their points left to right in legend order, and
// a strategy keeps its legend index (its hue and glyph) in every panel.
func TestChartLayout(t *testing.T) {
	tests := []struct {
		name         string
		rep          tournament.Report
		legend       int
		panels       []string
		yMax         []float64
		widthAtLeast float64 // pixels
	}{
		{"two variants", chartReport, 2, []string{"3-base", "4-preplaced"}, []float64{15, 70}, 0},
		{"one cell", tournament.Report{Rows: chartReport.Rows[:1]}, 1, []string{"3-base"}, []float64{15}, 0},
		{"fifteen strategies", manyStrategies(15), 15, []string{"3-base", "4-preplaced"}, []float64{20, 100}, 15 * 3 * chartSlot / chartSpread * 96 / 72},
		{"nothing played", tournament.Report{Rows: chartReport.Rows[2:3]}, 0, nil, nil, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := chartData(tc.rep)
			if len(m.strategies) != tc.legend {
				t.Errorf("legend %q, want %d strategies", m.strategies, tc.legend)
			}
			var rules []string
			var yMax []float64
			for _, pn := range m.panels {
				rules = append(rules, pn.rules)
				yMax = append(yMax, pn.yMax)
			}
			if fmt.Sprint(rules) != fmt.Sprint(tc.panels) || fmt.Sprint(yMax) != fmt.Sprint(tc.yMax) {
				t.Errorf("panels %q with y up to %v, want %q up to %v", rules, yMax, tc.panels, tc.yMax)
			}
			if w := float64(m.width * 96 / 72); w < tc.widthAtLeast {
				t.Errorf("%.0f pixels wide, want at least %.0f", w, tc.widthAtLeast)
			}
			index := map[string]int{}
			for _, pn := range m.panels {
				last := map[int]chartPoint{}
				for _, p := range pn.points {
					if p.low < 0 || p.low > p.rate || p.rate > p.high || p.high > pn.yMax {
						t.Errorf("%s: point %+v outside 0..%g", pn.rules, p, pn.yMax)
					}
					if p.label != strconv.FormatFloat(p.rate, 'f', 1, 64) {
						t.Errorf("%s: label %q for rate %g", pn.rules, p.label, p.rate)
					}
					g := int(math.Round(p.x))
					if math.Abs(p.x-float64(g)) > chartSpread/2 {
						t.Errorf("%s: x %g outside group %d", pn.rules, p.x, g)
					}
					if q, ok := last[g]; ok && (q.x >= p.x || q.strategy >= p.strategy) {
						t.Errorf("%s: group %d: %+v before %+v", pn.rules, g, q, p)
					}
					last[g] = p
					name := m.strategies[p.strategy]
					if i, ok := index[name]; ok && i != p.strategy {
						t.Errorf("%s has legend index %d and %d", name, i, p.strategy)
					}
					index[name] = p.strategy
				}
			}
		})
	}
}

// manyStrategies is a report of n strategies that play both variants on
// three corpora, with rates from 1 % to 15 % (3-base) and 10 % to 95 %.
func manyStrategies(n int) tournament.Report {
	var rep tournament.Report
	for s := range n {
		for _, c := range []string{"c1", "c2", "c3"} {
			for v, rules := range []string{"3-base", "4-preplaced"} {
				rate := (1 + 14*float64(s)/float64(n-1)) / 100
				if v == 1 {
					rate = (10 + 85*float64(s)/float64(n-1)) / 100
				}
				rep.Rows = append(rep.Rows, tournament.Row{Strategy: fmt.Sprintf("strategy-%d", s), Corpus: c, Rules: rules,
					Applicable: true, Games: 1000, Wins: int(1000 * rate), Rate: rate, CILow: rate * 0.9, CIHigh: min(1, rate*1.1)})
			}
		}
	}
	return rep
}

// The chart is a PNG of the size chartData computes, the same bytes each
// time (one check of what is drawn; the rest is tested through chartData).
func TestChartPNG(t *testing.T) {
	tests := []struct {
		name string
		rep  tournament.Report
	}{
		{"two variants", chartReport},
		{"one cell", tournament.Report{Rows: chartReport.Rows[:1]}},
		{"nothing played", tournament.Report{Rows: chartReport.Rows[2:3]}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := Chart(&b, tc.rep); err != nil {
				t.Fatal(err)
			}
			var again bytes.Buffer
			if err := Chart(&again, tc.rep); err != nil || !bytes.Equal(again.Bytes(), b.Bytes()) {
				t.Errorf("a second chart of the same report differs (error %v)", err)
			}
			img, err := png.Decode(&b)
			if err != nil {
				t.Fatalf("the chart is not a PNG: %v", err)
			}
			m := chartData(tc.rep)
			w, h := int(math.Round(float64(m.width*96/72))), int(math.Round(float64(m.height*96/72)))
			if got := img.Bounds().Size(); got.X != w || got.Y != h {
				t.Errorf("chart %d×%d pixels, want %d×%d", got.X, got.Y, w, h)
			}
		})
	}
}
