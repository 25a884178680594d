// Command frontier draws the strength-per-CPU chart of docs/results.md from
// the table it illustrates, so that the two never disagree:
//
//	go run ./internal/frontier            # run from the checkout's root
//
// It reads the rows of the table in the section "Strength per CPU" of
// docs/results.md (rules, player, CPU ms a game, wins, Wilson 95 %
// interval, …) and writes docs/img/frontier.png: win rate against CPU time
// (a log scale), one colour a rule variant, each point with its interval.
package main

import (
	"fmt"
	"image/color"
	"io"
	"os"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

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

// drawChart writes the chart of pts to path as a PNG.
func drawChart(pts []point, path string) error {
	p := plot.New()
	p.Title.Text = "Strength per CPU: every shipped player, per rule variant"
	p.X.Label.Text = "CPU ms a game (log scale)"
	p.Y.Label.Text = "win rate % (Wilson 95 %)"
	p.X.Scale = plot.LogScale{}
	p.X.Tick.Marker = plot.LogTicks{Prec: -1}
	p.Add(plotter.NewGrid())
	var rules []string
	for _, pt := range pts {
		if !contains(rules, pt.rules) {
			rules = append(rules, pt.rules)
		}
	}
	for i, r := range rules {
		var xy plotter.XYs
		var errs plotter.YErrors
		var names []string
		for _, pt := range pts {
			if pt.rules != r {
				continue
			}
			xy = append(xy, plotter.XY{X: pt.ms, Y: pt.rate})
			errs = append(errs, struct{ Low, High float64 }{pt.rate - pt.lo, pt.hi - pt.rate})
			names = append(names, pt.player)
		}
		data := struct {
			plotter.XYs
			plotter.YErrors
		}{xy, errs}
		sc, err := plotter.NewScatter(xy)
		if err != nil {
			return err
		}
		c := colours[i%len(colours)]
		sc.GlyphStyle.Color = c
		sc.GlyphStyle.Radius = vg.Points(3)
		sc.GlyphStyle.Shape = []draw.GlyphDrawer{draw.CircleGlyph{}, draw.SquareGlyph{}, draw.TriangleGlyph{}, draw.PyramidGlyph{}}[i%4]
		eb, err := plotter.NewYErrorBars(data)
		if err != nil {
			return err
		}
		eb.Color = c
		p.Add(sc, eb)
		// Names above their points, those of wrapped players (close to
		// their base's point) below.
		for _, below := range []bool{false, true} {
			var lxy plotter.XYs
			var ln []string
			for j, n := range names {
				if strings.Contains(n, "+") == below {
					lxy, ln = append(lxy, xy[j]), append(ln, n)
				}
			}
			if len(ln) == 0 {
				continue
			}
			lb, err := plotter.NewLabels(plotter.XYLabels{XYs: lxy, Labels: ln})
			if err != nil {
				return err
			}
			for j := range lb.TextStyle {
				lb.TextStyle[j].Color = c
				lb.TextStyle[j].Font.Size = vg.Points(8)
				lb.TextStyle[j].XAlign = draw.XLeft
			}
			lb.Offset = vg.Point{X: vg.Points(6), Y: vg.Points(2)}
			if below {
				lb.Offset.Y = vg.Points(-10)
			}
			p.Add(lb)
		}
		p.Legend.Add(r, sc)
	}
	p.Legend.Top = false
	p.Legend.Left = false
	p.X.Min, p.X.Max = 2, 30000
	p.Y.Min, p.Y.Max = 25, 100
	wt, err := p.WriterTo(9*vg.Inch, 6*vg.Inch, "png")
	if err != nil {
		return err
	}
	return atomicfile.WriteFunc(path, func(w io.Writer) error {
		_, err := wt.WriteTo(w)
		return err
	})
}

func contains(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}
