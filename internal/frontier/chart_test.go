package main

import (
	"testing"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
)

// The chart of the table docs/results.md has: whole decades around the CPU
// times, a y axis from a multiple of 10 under the lowest interval to 100,
// and every label where it covers no point, no interval, no other label
// and stays inside the plot. (What is drawn is tested, not pixels.)
func TestChartOfResults(t *testing.T) {
	pts := resultsPoints(t)
	f := layout(pts)
	for _, pt := range pts {
		if pt.ms < f.xMin || pt.ms > f.xMax || pt.lo < f.yMin+3 || pt.hi > f.yMax {
			t.Errorf("%s, %s outside x %g..%g, y %g..%g", pt.rules, pt.player, f.xMin, f.xMax, f.yMin, f.yMax)
		}
	}
	if len(f.rules) != 4 {
		t.Errorf("legend %q, want the 4 rule variants", f.rules)
	}
	img, labels, err := render(f)
	if err != nil {
		t.Fatal(err)
	}
	if w, h := img.Size(); w != chartW || h != chartH {
		t.Errorf("%v×%v, want %v×%v", w, h, chartW, chartH)
	}
	if len(labels) != len(pts) {
		t.Fatalf("%d labels for %d points", len(labels), len(pts))
	}
	for i, a := range labels {
		if a.text != pts[i].player || a.cover != 0 {
			t.Errorf("label %d %q covers %.0f square points (want 0), is for %q", i, a.text, a.cover, pts[i].player)
		}
		for j, b := range labels[:i] {
			if overlap(a.box, b.box) > 0 {
				t.Errorf("labels %q and %q overlap", a.text, labels[j].text)
			}
		}
	}
}

// placeLabels moves a label off whatever is in its first place, and leaves
// a label with nothing in the way right above its point.
func TestPlaceLabels(t *testing.T) {
	sty := plot.NewLegend().TextStyle
	bounds := vg.Rectangle{Max: vg.Point{X: 500, Y: 500}}
	pts := []point{{player: "a", ms: 100, rate: 100}, {player: "b", ms: 108, rate: 100}, {player: "c", ms: 300, rate: 300}}
	at := func(pt point) vg.Point { return vg.Point{X: vg.Length(pt.ms), Y: vg.Length(pt.rate)} }
	bar := func(pt point) (vg.Length, vg.Length) { return vg.Length(pt.rate) - 20, vg.Length(pt.rate) + 20 }
	got := placeLabels(pts, at, bar, sty, bounds)
	// Right above a is b's interval: a's label goes elsewhere.
	for i, l := range got {
		for j, pt := range pts {
			c := at(pt)
			lo, hi := bar(pt)
			if overlap(l.box, vg.Rectangle{Min: vg.Point{X: c.X - 3, Y: lo}, Max: vg.Point{X: c.X + 3, Y: hi}}) > 0 {
				t.Errorf("label %q covers the interval of %q", l.text, pts[j].player)
			}
		}
		if i == 2 && (l.box.Min.X != 306 || l.box.Min.Y != 302) {
			t.Errorf("a free label goes right above its point, not at %v", l.box.Min)
		}
	}
}
