// Command frontier draws the strength-per-CPU chart of docs/results.md from
// the table it illustrates, so that the two never disagree:
//
//	go run ./internal/frontier            # run from the checkout's root
//
// It reads the rows of the table in the section "Strength per CPU" of
// docs/results.md (rules, player, CPU ms a game, wins, Wilson 95 %
// interval, …) and writes docs/img/frontier.png: win rate against CPU time
// (a log scale), one hue and glyph a rule variant named in a legend beside
// the plot, each point with its interval and its player's name.
package main

import (
	"cmp"
	"fmt"
	"image/color"
	"io"
	"math"
	"os"
	"slices"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"

	"github.com/calcsol/calcsol/internal/atomicfile"
)

func main() {
	if err := run("docs/results.md", "docs/img/frontier.png"); err != nil {
		fmt.Fprintln(os.Stderr, "frontier:", err)
		os.Exit(1)
	}
}

func run(src, dst string) error {
	b, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	pts, err := parse(string(b), src)
	if err != nil {
		return err
	}
	return drawChart(pts, dst)
}

var colours = []color.Color{
	color.RGBA{R: 31, G: 119, B: 180, A: 255},
	color.RGBA{R: 214, G: 39, B: 40, A: 255},
	color.RGBA{R: 44, G: 160, B: 44, A: 255},
	color.RGBA{R: 148, G: 103, B: 189, A: 255},
}

var glyphs = []draw.GlyphDrawer{draw.CircleGlyph{}, draw.SquareGlyph{}, draw.TriangleGlyph{}, draw.PyramidGlyph{}}

// The chart's layout, in points (72 an inch; the PNG has 96 pixels an inch).
const (
	chartW, chartH = 10 * vg.Inch, 6 * vg.Inch
	margin         = 12
	legendGap      = 16
	labelPt        = 8
	markerPt       = 3.5
)

// frontier is what the chart draws, before any drawing: the rule variants
// in the legend's order (one hue and glyph each), the axes' ranges (x: CPU
// ms a game, whole decades of a log scale; y: win rate %, from a multiple
// of 10 below the lowest interval to 100) and the points.
type frontier struct {
	rules                  []string
	xMin, xMax, yMin, yMax float64
	pts                    []point
}

func layout(pts []point) frontier {
	f := frontier{pts: pts, xMin: math.Inf(1), yMin: 100, yMax: 100}
	lo := 100.0
	for _, pt := range pts {
		if !slices.Contains(f.rules, pt.rules) {
			f.rules = append(f.rules, pt.rules)
		}
		f.xMin, f.xMax = min(f.xMin, pt.ms), max(f.xMax, pt.ms)
		lo = min(lo, pt.lo)
	}
	f.xMin = math.Pow(10, math.Floor(math.Log10(f.xMin)))
	f.xMax = math.Pow(10, math.Ceil(math.Log10(f.xMax)))
	if f.xMax <= f.xMin {
		f.xMax = 10 * f.xMin
	}
	// Room under the lowest interval for a label below it.
	f.yMin = max(0, 10*math.Floor((lo-3)/10))
	return f
}

// placed is a point's label: its text, where it is written (the text's
// left end, on its baseline), the box it takes, all in points, and the
// area of that box over points, intervals, other labels or out of bounds
// (0 where placeLabels found a free place).
type placed struct {
	text  string
	at    vg.Point
	box   vg.Rectangle
	cover vg.Length
}

// placeLabels puts each point's name beside it where it covers no point,
// no interval and no label put before: right of the point above, right
// below, left above, left below, or further out, nearest first (the first
// that is free; else the one that covers least). at is a point's
// position, bars its interval's ends, bounds the room the labels must stay
// in.
func placeLabels(pts []point, at func(point) vg.Point, bar func(point) (lo, hi vg.Length), sty text.Style, bounds vg.Rectangle) []placed {
	var obstacles []vg.Rectangle
	for _, pt := range pts {
		c := at(pt)
		lo, hi := bar(pt)
		obstacles = append(obstacles,
			vg.Rectangle{Min: vg.Point{X: c.X - markerPt - 1, Y: c.Y - markerPt - 1}, Max: vg.Point{X: c.X + markerPt + 1, Y: c.Y + markerPt + 1}},
			vg.Rectangle{Min: vg.Point{X: c.X - 3, Y: lo}, Max: vg.Point{X: c.X + 3, Y: hi}})
	}
	var out []placed
	for _, pt := range pts {
		c := at(pt)
		w, h := sty.Width(pt.player), sty.Height(pt.player)
		d := sty.FontExtents().Descent
		var best placed
		bestCover := vg.Length(math.Inf(1))
		// The four places beside the point first, then further out by a
		// line or a sixth of the text's width, nearest first.
		var places []vg.Point
		for ring := range 4 {
			for shift := range 3 {
				dx, dy := vg.Length(shift)*w/6, vg.Length(ring)*h
				places = append(places, vg.Point{X: 6 + dx, Y: 2 + dy}, vg.Point{X: 6 + dx, Y: -2 - h - dy},
					vg.Point{X: -6 - w - dx, Y: 2 + dy}, vg.Point{X: -6 - w - dx, Y: -2 - h - dy})
			}
		}
		dist := func(o vg.Point) vg.Length {
			return max(o.X-6, -6-w-o.X) + max(o.Y-2, -2-h-o.Y)
		}
		slices.SortStableFunc(places, func(a, b vg.Point) int { return cmp.Compare(dist(a), dist(b)) })
		for _, o := range places {
			box := vg.Rectangle{Min: vg.Point{X: c.X + o.X, Y: c.Y + o.Y}, Max: vg.Point{X: c.X + o.X + w, Y: c.Y + o.Y + h}}
			var cover vg.Length
			for _, r := range obstacles {
				cover += overlap(box, r)
			}
			for _, l := range out {
				cover += overlap(box, l.box)
			}
			if box.Min.X < bounds.Min.X || box.Max.X > bounds.Max.X || box.Min.Y < bounds.Min.Y || box.Max.Y > bounds.Max.Y {
				cover += w * h
			}
			if cover < bestCover {
				best, bestCover = placed{text: pt.player, at: vg.Point{X: box.Min.X, Y: box.Min.Y + d}, box: box, cover: cover}, cover
			}
			if cover == 0 {
				break
			}
		}
		out = append(out, best)
	}
	return out
}

// overlap is the area two rectangles share.
func overlap(a, b vg.Rectangle) vg.Length {
	w := min(a.Max.X, b.Max.X) - max(a.Min.X, b.Min.X)
	h := min(a.Max.Y, b.Max.Y) - max(a.Min.Y, b.Min.Y)
	if w <= 0 || h <= 0 {
		return 0
	}
	return w * h
}

// drawChart writes the chart of pts to path as a PNG.
func drawChart(pts []point, path string) error {
	img, _, err := render(layout(pts))
	if err != nil {
		return err
	}
	return atomicfile.WriteFunc(path, func(w io.Writer) error {
		_, err := vgimg.PngCanvas{Canvas: img}.WriteTo(w)
		return err
	})
}

// render draws f: the plot, the labels placeLabels puts, the legend beside
// the plot; it returns the image and the labels' places.
func render(f frontier) (*vgimg.Canvas, []placed, error) {
	img := vgimg.NewWith(vgimg.UseWH(chartW, chartH), vgimg.UseDPI(96), vgimg.UseBackgroundColor(color.White))
	dc := draw.Crop(draw.New(img), margin, -margin, margin, -margin)

	leg := plot.NewLegend()
	leg.Top, leg.Left = true, true
	leg.Padding = 2
	for i, r := range f.rules {
		leg.Add(r, glyphThumb{Color: colours[i%len(colours)], Radius: markerPt, Shape: glyphs[i%len(glyphs)]})
	}
	const note = "bar: Wilson 95 % interval"
	noteSty := leg.TextStyle
	noteSty.Font.Size = 9
	legW := max(leg.Rectangle(dc).Size().X, noteSty.Width(note))

	p := plot.New()
	p.Title.Text = "Strength per CPU, per rule variant: the presets and the priority tables"
	p.Title.Padding = 6
	p.X.Label.Text = "CPU ms a game (log scale)"
	p.Y.Label.Text = "games won (%)"
	p.X.Scale = plot.LogScale{}
	p.X.Tick.Marker = plot.LogTicks{Prec: -1}
	p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = f.xMin, f.xMax, f.yMin, f.yMax
	var yt plot.ConstantTicks
	for v := f.yMin; v <= f.yMax+1e-9; v += 10 {
		yt = append(yt, plot.Tick{Value: v, Label: strconv.FormatFloat(v, 'f', -1, 64)})
	}
	p.Y.Tick.Marker = yt
	p.Add(plotter.NewGrid())
	for i, r := range f.rules {
		var xy plotter.XYs
		var errs plotter.YErrors
		for _, pt := range f.pts {
			if pt.rules == r {
				xy = append(xy, plotter.XY{X: pt.ms, Y: pt.rate})
				errs = append(errs, struct{ Low, High float64 }{pt.rate - pt.lo, pt.hi - pt.rate})
			}
		}
		c := colours[i%len(colours)]
		eb, err := plotter.NewYErrorBars(struct {
			plotter.XYs
			plotter.YErrors
		}{xy, errs})
		if err != nil {
			return nil, nil, err
		}
		eb.Color, eb.CapWidth = c, 6
		sc, err := plotter.NewScatter(xy)
		if err != nil {
			return nil, nil, err
		}
		sc.GlyphStyle = draw.GlyphStyle{Color: c, Radius: markerPt, Shape: glyphs[i%len(glyphs)]}
		p.Add(eb, sc)
	}
	pc := draw.Crop(dc, 0, -(legW + legendGap), 0, 0)
	p.Draw(pc)

	da := p.DataCanvas(pc)
	tx, ty := p.Transforms(&da)
	sty := leg.TextStyle
	sty.Font.Size = labelPt
	labels := placeLabels(f.pts,
		func(pt point) vg.Point { return vg.Point{X: tx(pt.ms), Y: ty(pt.rate)} },
		func(pt point) (vg.Length, vg.Length) { return ty(pt.lo), ty(pt.hi) },
		sty, da.Rectangle)
	for k, l := range labels {
		s := sty
		s.Color = colours[slices.Index(f.rules, f.pts[k].rules)%len(colours)]
		dc.FillText(s, l.at, l.text)
	}

	lc := draw.Crop(dc, dc.Size().X-legW, 0, 0, 0)
	leg.Draw(lc)
	r := leg.Rectangle(lc)
	dc.FillText(noteSty, vg.Point{X: lc.Min.X, Y: r.Min.Y - 12 - noteSty.Height(note)}, note)
	return img, labels, nil
}

// glyphThumb draws a glyph as a legend thumbnail.
type glyphThumb draw.GlyphStyle

func (g glyphThumb) Thumbnail(c *draw.Canvas) { c.DrawGlyph(draw.GlyphStyle(g), c.Center()) }
