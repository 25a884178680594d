package report

import (
	"bytes"
	"image/color"
	"image/png"
	"io"
	"slices"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"

	"github.com/calcsol/calcsol/tournament"
)

// The chart's layout, in points (72 an inch; the PNG has 96 pixels an inch).
const (
	chartSlot      = 20  // across one strategy's point within a corpus group
	chartGroupMin  = 120 // across one corpus group at the least
	chartSpread    = 0.8 // the share of a group's width its points spread over
	chartPanelH    = 216 // one rule variant's panel, with its title and axes
	chartYAxis     = 48  // the y axis: its ticks and its label
	chartMargin    = 12  // around the whole chart
	chartLegendGap = 16  // between the panels and the legend
	chartLegendPt  = 10  // legend text size
	chartValuePt   = 7   // the size of the value labels
	chartTitlePt   = 11  // the size of a panel's title
)

// chartNote explains the marks, under the legend.
var chartNote = []string{"point: games won (%)", "bar: Wilson 95 % interval", "label: rate %"}

// chartModel is what Chart draws, computed before any drawing: the
// strategies of the legend (each has the hue and glyph of its index), one
// panel per rule variant and the size of the whole image.
type chartModel struct {
	strategies    []string
	panels        []chartPanel
	width, height vg.Length
}

// chartPanel is one rule variant: its title, the corpora along its x axis
// (group k centred at x = k) and its y axis from 0 to yMax per cent, fitted
// to its own intervals so that low rates are not squeezed.
type chartPanel struct {
	rules, title string
	groups       []string
	yMax         float64
	points       []chartPoint
}

// chartPoint is one cell of the report: the legend index of its strategy,
// its x position in its group, the rate and the interval in per cent and
// the label written above the interval.
type chartPoint struct {
	strategy           int
	x, rate, low, high float64
	label              string
}

// yCeilings are the tops a panel's y axis may have, in per cent: the
// first at or above its highest interval end with 5 % to spare.
var yCeilings = []float64{1, 2, 3, 5, 10, 15, 20, 25, 30, 40, 50, 60, 70, 80, 90, 100}

// chartData lays out rep's cells with a game played: the variants and the
// corpora in the order of the rows, the strategies in a group in the order
// of the legend, spread evenly over the group's middle.
func chartData(rep tournament.Report) chartModel {
	var m chartModel
	played := func(r tournament.Row) bool { return r.Applicable && r.Games > 0 }
	var variants []string
	for _, r := range rep.Rows {
		if !played(r) {
			continue
		}
		if !slices.Contains(m.strategies, r.Strategy) {
			m.strategies = append(m.strategies, r.Strategy)
		}
		if !slices.Contains(variants, r.Rules) {
			variants = append(variants, r.Rules)
		}
	}
	widest := 0.0 // points across the widest panel's groups
	for _, v := range variants {
		pn := chartPanel{rules: v, title: RulesTitle(v)}
		cells := map[string][]tournament.Row{}
		for _, r := range rep.Rows {
			if r.Rules != v || !played(r) {
				continue
			}
			if _, ok := cells[r.Corpus]; !ok {
				pn.groups = append(pn.groups, r.Corpus)
			}
			cells[r.Corpus] = append(cells[r.Corpus], r)
		}
		top, most := 0.0, 1
		for g, c := range pn.groups {
			rows := cells[c]
			slices.SortStableFunc(rows, func(a, b tournament.Row) int {
				return slices.Index(m.strategies, a.Strategy) - slices.Index(m.strategies, b.Strategy)
			})
			most = max(most, len(rows))
			for k, r := range rows {
				pt := chartPoint{
					strategy: slices.Index(m.strategies, r.Strategy),
					x:        float64(g) - chartSpread/2 + chartSpread*(float64(k)+0.5)/float64(len(rows)),
					rate:     100 * r.Rate, low: 100 * r.CILow, high: 100 * r.CIHigh,
					label: strconv.FormatFloat(100*r.Rate, 'f', 1, 64),
				}
				pn.points = append(pn.points, pt)
				top = max(top, pt.high)
			}
		}
		pn.yMax = 100
		for _, c := range yCeilings {
			if c >= 1.05*top {
				pn.yMax = c
				break
			}
		}
		group := max(chartGroupMin, chartSlot*float64(most)/chartSpread)
		for _, c := range pn.groups { // room for the corpus names under the groups
			group = max(group, float64(chartFont(chartLegendPt).Width(c))+2*chartMargin)
		}
		widest = max(widest, group*float64(len(pn.groups)), float64(chartFont(chartTitlePt).Width(pn.title))+3*chartMargin-chartYAxis)
		m.panels = append(m.panels, pn)
	}
	leg := chartLegend(m.strategies)
	legW, legH := legendSize(leg)
	m.width = vg.Length(2*chartMargin+chartYAxis+widest+chartLegendGap) + legW
	m.height = max(vg.Length(chartPanelH*max(1, len(m.panels))), legH) + 2*chartMargin
	// Whole pixels at 96 an inch, so that the size is the same everywhere.
	m.width = vg.Length(int(m.width*96/72+0.999)) * 72 / 96
	m.height = vg.Length(int(m.height*96/72+0.999)) * 72 / 96
	return m
}

// chartPalette holds one hue a strategy; the glyphs come from plotutil.
// With ten hues and eight glyphs no two of the first forty strategies look
// alike. The hues are Tableau 10's, the yellow darkened to read on white,
// in an order that gives the glyphs alike but for their filling (ring and
// disc, square and box, the triangles) hues far apart.
var chartPalette = []color.Color{
	rgb(0x4e, 0x79, 0xa7), rgb(0xf2, 0x8e, 0x2b), rgb(0xe1, 0x57, 0x59), rgb(0x76, 0xb7, 0xb2),
	rgb(0x59, 0xa1, 0x4f), rgb(0xc9, 0xa8, 0x1a), rgb(0xb0, 0x7a, 0xa1), rgb(0x9c, 0x75, 0x5f),
	rgb(0xff, 0x9d, 0xa7), rgb(0x79, 0x70, 0x6e),
}

func rgb(r, g, b uint8) color.Color { return color.RGBA{R: r, G: g, B: b, A: 0xff} }

// chartGlyph is the hue and glyph of the strategy with legend index i.
func chartGlyph(i int) draw.GlyphStyle {
	return draw.GlyphStyle{Color: chartPalette[i%len(chartPalette)], Radius: vg.Points(3.5), Shape: plotutil.Shape(i)}
}

func chartFont(size vg.Length) text.Style {
	return text.Style{Font: font.From(plot.DefaultFont, size), Handler: plot.DefaultTextHandler}
}

// chartLegend is the legend of the strategies, drawn beside the panels.
func chartLegend(strategies []string) plot.Legend {
	leg := plot.NewLegend()
	leg.TextStyle = chartFont(chartLegendPt)
	leg.Top, leg.Left = true, true
	leg.Padding = 2
	for i, s := range strategies {
		leg.Add(s, glyphThumb(chartGlyph(i)))
	}
	return leg
}

// legendSize is the room the legend and the note under it take.
func legendSize(leg plot.Legend) (w, h vg.Length) {
	r := leg.Rectangle(draw.Canvas{})
	w, h = r.Size().X, r.Size().Y
	note := chartFont(chartLegendPt - 1)
	h += chartLegendPt
	for _, s := range chartNote {
		w = max(w, note.Width(s))
		h += note.Height(s)
	}
	return w, h
}

// glyphThumb draws a glyph as a legend thumbnail.
type glyphThumb draw.GlyphStyle

func (g glyphThumb) Thumbnail(c *draw.Canvas) {
	c.DrawGlyph(draw.GlyphStyle(g), c.Center())
}

// Chart draws the success rates with their Wilson intervals as a PNG: one
// panel per rule variant, each with its own y scale; in a panel one group
// of points per corpus, one point per strategy with a game played, in the
// hue and glyph the legend beside the panels gives it; each point's rate
// written above its interval.
func Chart(w io.Writer, rep tournament.Report) error {
	m := chartData(rep)
	img := vgimg.NewWith(vgimg.UseWH(m.width, m.height), vgimg.UseDPI(96), vgimg.UseBackgroundColor(color.White))
	dc := draw.New(img)
	leg := chartLegend(m.strategies)
	legW, _ := legendSize(leg)
	inner := draw.Crop(dc, chartMargin, -chartMargin, chartMargin, -chartMargin)
	plots := draw.Crop(inner, 0, -(legW + chartLegendGap), 0, 0)
	if len(m.panels) > 0 {
		tiles := draw.Tiles{Rows: len(m.panels), Cols: 1, PadY: 8}
		ps := make([][]*plot.Plot, len(m.panels))
		for i, pn := range m.panels {
			p, err := panelPlot(pn)
			if err != nil {
				return err
			}
			ps[i] = []*plot.Plot{p}
		}
		for i, c := range plot.Align(ps, tiles, plots) {
			ps[i][0].Draw(c[0])
		}
	}
	lc := draw.Crop(inner, inner.Max.X-inner.Min.X-legW, 0, 0, 0)
	leg.Draw(lc)
	note := chartFont(chartLegendPt - 1)
	r := leg.Rectangle(lc)
	y := r.Min.Y - chartLegendPt
	for _, s := range chartNote {
		y -= note.Height(s)
		dc.FillText(note, vg.Point{X: lc.Min.X, Y: y}, s)
	}
	// Fastest compression: the default level costs a tournament run more
	// than its games on a small corpus, for a file a third smaller.
	var b bytes.Buffer
	if err := (&png.Encoder{CompressionLevel: png.BestSpeed}).Encode(&b, img.Image()); err != nil {
		return err
	}
	_, err := w.Write(b.Bytes())
	return err
}

// panelPlot is the plot of one rule variant.
func panelPlot(pn chartPanel) (*plot.Plot, error) {
	p := plot.New()
	p.BackgroundColor = color.Transparent
	p.Title.Text = pn.title
	p.Title.TextStyle.Font.Size = chartTitlePt
	p.Y.Label.Text = "games won (%)"
	p.Y.Label.TextStyle.Font.Size = chartLegendPt
	p.Y.Min, p.Y.Max = 0, pn.yMax
	p.Y.Tick.Marker = yTicks(pn.yMax)
	grid := plotter.NewGrid()
	grid.Vertical.Color = nil
	p.Add(grid)
	// Thin lines between the corpus groups.
	for k := 1; k < len(pn.groups); k++ {
		l, err := plotter.NewLine(plotter.XYs{{X: float64(k) - 0.5, Y: 0}, {X: float64(k) - 0.5, Y: pn.yMax}})
		if err != nil {
			return nil, err
		}
		l.Color = color.Gray{Y: 0xc8}
		l.Width = vg.Points(0.5)
		p.Add(l)
	}
	var labels plotter.XYLabels
	var styles []text.Style
	for _, pt := range pn.points {
		g := chartGlyph(pt.strategy)
		xy := plotter.XYs{{X: pt.x, Y: pt.rate}}
		eb, err := plotter.NewYErrorBars(errPoints{xy, plotter.YErrors{{Low: pt.rate - pt.low, High: pt.high - pt.rate}}})
		if err != nil {
			return nil, err
		}
		eb.Color = g.Color
		eb.Width = vg.Points(1)
		eb.CapWidth = vg.Points(6)
		sc, err := plotter.NewScatter(xy)
		if err != nil {
			return nil, err
		}
		sc.GlyphStyle = g
		p.Add(eb, sc)
		labels.XYs = append(labels.XYs, plotter.XY{X: pt.x, Y: pt.high})
		labels.Labels = append(labels.Labels, pt.label)
		st := chartFont(chartValuePt)
		st.XAlign, st.YAlign = draw.XCenter, draw.YBottom
		st.Color = color.Gray{Y: 0x30}
		styles = append(styles, st)
	}
	if len(labels.Labels) > 0 {
		lb, err := plotter.NewLabels(labels)
		if err != nil {
			return nil, err
		}
		lb.TextStyle = styles
		lb.Offset = vg.Point{Y: vg.Points(2)}
		p.Add(lb)
	}
	p.NominalX(pn.groups...)
	p.X.Tick.Label.Font.Size = chartLegendPt
	p.Y.Padding = 0 // NominalX pads for the first name; the groups leave it room

	p.X.Min, p.X.Max = -0.5, float64(len(pn.groups))-0.5
	return p, nil
}

// yTicks labels 0 to yMax in at most five steps of a round size.
func yTicks(yMax float64) plot.ConstantTicks {
	step := 20.0
	for _, s := range []float64{0.2, 0.5, 1, 2, 5, 10, 20} {
		if yMax/s <= 5+1e-9 {
			step = s
			break
		}
	}
	var ts plot.ConstantTicks
	for k := 0; float64(k)*step <= yMax+1e-9; k++ {
		v := float64(k) * step
		ts = append(ts, plot.Tick{Value: v, Label: strconv.FormatFloat(v, 'f', -1, 64)})
	}
	return ts
}

type errPoints struct {
	plotter.XYs
	plotter.YErrors
}
