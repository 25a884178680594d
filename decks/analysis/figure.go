package analysis

import (
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"math"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	idraw "image/draw"
)

// Figure is a picture of a position matrix for people, as the PNG files
// show it: the colour of each cell (row i from the top is the start
// position i+1, column j from the left the end position j+1, so the
// unshuffled deck is the diagonal from the top left), a title and the
// colour scale drawn under the matrix. Everything drawn is here, computed
// before any drawing (the tests read it, not pixels).
type Figure struct {
	Title string
	N     int
	Cells []color.RGBA
	Scale ColourScale
}

// ColourScale is the bar under a figure's matrix: Colour(v) for v from Min
// to Max, with ticks and a label.
type ColourScale struct {
	Label    string
	Min, Max float64
	Colour   func(v float64) color.RGBA
	Ticks    []ScaleTick
}

// ScaleTick is one labelled value of a colour scale.
type ScaleTick struct {
	Value float64
	Label string
}

// greyColour is the grey of the chance p of a cell of n: white at 0, black
// from 4/n on (four times the uniform 1/n), linear in between, so that a
// uniform cell is light grey (191) and structure shows up.
func greyColour(p float64, n int) color.RGBA {
	y := uint8(math.Round(255 * (1 - min(1, max(0, p*float64(n)/4)))))
	return color.RGBA{R: y, G: y, B: y, A: 0xff}
}

// GreyFigure draws the probability matrix p (row-major n×n) in grey
// (greyColour), titled title.
func GreyFigure(p []float64, n int, title string) Figure {
	f := Figure{Title: title, N: n, Cells: make([]color.RGBA, n*n)}
	for k, x := range p {
		f.Cells[k] = greyColour(x, n)
	}
	u := 1 / float64(n)
	f.Scale = ColourScale{
		Label: fmt.Sprintf("chance p that the card from i ends at j (uniform: 1/n = %.3g)", u),
		Min:   0, Max: 4 * u,
		Colour: func(v float64) color.RGBA { return greyColour(v, n) },
		Ticks:  []ScaleTick{{0, "0"}, {u, "1/n"}, {2 * u, "2/n"}, {3 * u, "3/n"}, {4 * u, "≥ 4/n"}},
	}
	return f
}

// bwrDecades is how many factors of 10 beyond e_max the blue/red shading
// deepens over: full colour from 1000·e_max on.
const bwrDecades = 3

// bwrSteps are the shades a decade.
const bwrSteps = 4

// bwrValue places e on the blue/white/red scale: 0 within ±e_max (white),
// beyond it ±(1 + log10(|e|/e_max)), at most 1 + bwrDecades.
func bwrValue(e, emax float64) float64 {
	switch colour(e, emax) {
	case Blue:
		return -bwrDepth(-e, emax)
	case Red:
		return bwrDepth(e, emax)
	}
	return 0
}

func bwrDepth(a, emax float64) float64 {
	if emax <= 0 {
		return 1 + bwrDecades
	}
	return min(1+bwrDecades, 1+math.Log10(a/emax))
}

// bwrColour is the colour of scale value v (bwrValue): white for |v| < 1,
// beyond a tint of blue (v < 0) or red from 40 % at e_max to full at
// 1000·e_max in steps of a quarter decade, so that every cell outside
// ±e_max stands out from white.
func bwrColour(v float64) color.RGBA {
	if math.Abs(v) < 1 {
		return ColourWhite
	}
	base := ColourRed
	if v < 0 {
		base = ColourBlue
	}
	// In steps of a quarter decade: shades that can be told apart, and told
	// on the scale.
	d := math.Floor((math.Abs(v)-1)*bwrSteps) / bwrSteps
	t := 0.4 + 0.6*d/bwrDecades
	mix := func(c uint8) uint8 { return uint8(math.Round(255 + t*(float64(c)-255))) }
	return color.RGBA{R: mix(base.R), G: mix(base.G), B: mix(base.B), A: 0xff}
}

// BWRFigure draws Ide & Okuda's picture of p against e_max: white where
// |e| ≤ e_max (e = p − 1/n; the cells C counts), blue where e < −e_max (the
// card lands there too rarely), red where e > e_max (too often), deeper the
// further beyond e_max, on a log scale (bwrColour).
func BWRFigure(p []float64, n int, emax float64, title string) Figure {
	f := Figure{Title: title, N: n, Cells: make([]color.RGBA, n*n)}
	u := 1 / float64(n)
	for k, x := range p {
		f.Cells[k] = bwrColour(bwrValue(x-u, emax))
	}
	f.Scale = ColourScale{
		Label: fmt.Sprintf("e = p − 1/n in units of e_max = %.3g (white: within ±1; log scale beyond)", emax),
		Min:   -1 - bwrDecades, Max: 1 + bwrDecades,
		Colour: bwrColour,
	}
	// Ticks at 0 and where |e| is 1, 10, 100 and 1000 times e_max.
	for v := -1 - bwrDecades; v <= 1+bwrDecades; v++ {
		label := "0"
		if v != 0 {
			label = fmt.Sprintf("%+g", math.Copysign(math.Pow(10, math.Abs(float64(v))-1), float64(v)))
		}
		f.Scale.Ticks = append(f.Scale.Ticks, ScaleTick{float64(v), label})
	}
	return f
}

// Figure layout, in points (72 an inch; the PNG has 96 pixels an inch).
const (
	figureWidth  = 396 // 528 pixels
	figureHeight = 468 // 624 pixels
	figureMargin = 10
	figureBar    = 64 // the colour scale with its ticks and label
	figureInset  = 16 // the colour scale's ends from the matrix's sides
)

// positionTicks labels positions 1 and the multiples of a round step up to
// n; at(k) is where position k sits on the axis.
func positionTicks(n int, at func(k int) float64) plot.ConstantTicks {
	step := 1
	for _, s := range []int{1, 2, 5, 10, 20, 50, 100, 200, 500} {
		step = s
		if n/s <= 6 {
			break
		}
	}
	ts := plot.ConstantTicks{{Value: at(1), Label: "1"}}
	for k := step; k <= n; k += step {
		if k > 1 {
			ts = append(ts, plot.Tick{Value: at(k), Label: strconv.Itoa(k)})
		}
	}
	return ts
}

// cells draws a grid of coloured unit squares: cell (i, j) of n centred
// at x = j+1, y = n−i (row 0 at the top). paintCells then repaints every
// whole pixel inside; what the drawing leaves are the pixels the data
// area's edges cut.
type cells struct {
	n      int
	colour func(i, j int) color.Color
}

func (c cells) Plot(dc draw.Canvas, p *plot.Plot) {
	tx, ty := p.Transforms(&dc)
	for i := range c.n {
		for j := range c.n {
			x0, x1 := tx(float64(j)+0.5), tx(float64(j)+1.5)
			y0, y1 := ty(float64(c.n-i)-0.5), ty(float64(c.n-i)+0.5)
			dc.SetColor(c.colour(i, j))
			// Half a point over the next cells, which cover it: no seams
			// of background between the cells.
			dc.Fill(vg.Rectangle{Min: vg.Point{X: x0, Y: y0}, Max: vg.Point{X: x1 + 0.5, Y: y1 + 0.5}}.Path())
		}
	}
}

func (c cells) DataRange() (xmin, xmax, ymin, ymax float64) {
	return 0.5, float64(c.n) + 0.5, 0.5, float64(c.n) + 0.5
}

// WritePNG draws f as a PNG: the matrix with its axes (start position i
// down, end position j across), the title above, the colour scale under it.
func (f Figure) WritePNG(w io.Writer) error {
	img := vgimg.NewWith(vgimg.UseWH(figureWidth, figureHeight), vgimg.UseDPI(96), vgimg.UseBackgroundColor(color.White))
	dc := draw.Crop(draw.New(img), figureMargin, -figureMargin, figureMargin, -figureMargin)

	m := plot.New()
	m.Title.Text = f.Title
	m.Title.TextStyle.Font.Size = 11
	m.X.Label.Text = "end position j (after the shuffle)"
	m.Y.Label.Text = "start position i (before)"
	m.X.Padding, m.Y.Padding = 0, 0
	n := f.N
	m.Add(cells{n: n, colour: func(i, j int) color.Color { return f.Cells[i*n+j] }})
	m.X.Min, m.X.Max, m.Y.Min, m.Y.Max = 0.5, float64(n)+0.5, 0.5, float64(n)+0.5
	m.X.Tick.Marker = positionTicks(n, func(k int) float64 { return float64(k) })
	m.Y.Tick.Marker = positionTicks(n, func(k int) float64 { return float64(n + 1 - k) })
	top := draw.Crop(dc, 0, 0, figureBar, 0)
	// A square matrix: trim the wider side of its data area.
	da := m.DataCanvas(top)
	if d := da.Size().X - da.Size().Y; d > 0 {
		top = draw.Crop(top, d/2, -d/2, 0, 0)
	} else {
		top = draw.Crop(top, 0, 0, -d, 0)
	}
	m.Draw(top)
	da = m.DataCanvas(top)

	s := plot.New()
	s.HideY()
	s.X.Label.Text = f.Scale.Label
	s.X.Label.TextStyle.Font.Size = 10
	s.X.Padding, s.Y.Padding = 0, 0
	s.X.Min, s.X.Max, s.Y.Min, s.Y.Max = f.Scale.Min, f.Scale.Max, 0, 1
	var ticks plot.ConstantTicks
	for _, t := range f.Scale.Ticks {
		ticks = append(ticks, plot.Tick{Value: t.Value, Label: t.Label})
	}
	s.X.Tick.Marker = ticks
	s.Add(scaleBar{f.Scale})
	// The scale a little narrower than the matrix, so that its end labels fit.
	bar := draw.Crop(dc, da.Min.X-dc.Min.X+figureInset, da.Max.X-dc.Max.X-figureInset, 0, -(dc.Size().Y - figureBar + 14))
	s.Draw(bar)
	pix := img.Image()
	f.paintCells(pix, da.Rectangle)
	return encodePNG(w, pix)
}

// paintCells paints the cells into the data area r of img pixel by pixel,
// each pixel the colour of the cell its centre falls in: flat cells without
// the blended seams of drawn rectangles, and the exact colours.
func (f Figure) paintCells(img idraw.Image, r vg.Rectangle) {
	h := img.Bounds().Dy()
	px := func(l vg.Length) float64 { return float64(l) * 96 / 72 }
	x0, x1 := px(r.Min.X), px(r.Max.X)
	y0, y1 := float64(h)-px(r.Max.Y), float64(h)-px(r.Min.Y) // image y grows downwards
	n := f.N
	for y := int(math.Ceil(y0)); float64(y)+1 <= y1; y++ {
		i := min(n-1, int((float64(y)+0.5-y0)/(y1-y0)*float64(n)))
		for x := int(math.Ceil(x0)); float64(x)+1 <= x1; x++ {
			j := min(n-1, int((float64(x)+0.5-x0)/(x1-x0)*float64(n)))
			img.Set(x, y, f.Cells[i*n+j])
		}
	}
}

// encodePNG writes img as PNG, as an 8-bit grey image when it is all grey
// (a third of the size, the same pixels).
func encodePNG(w io.Writer, img image.Image) error {
	b := img.Bounds()
	grey := image.NewGray(b)
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, a := img.At(x, y).RGBA()
			if r != g || g != bl || a != 0xffff {
				return png.Encode(w, img)
			}
			grey.Pix[grey.PixOffset(x, y)] = uint8(r >> 8)
		}
	}
	return png.Encode(w, grey)
}

// scaleBar draws a colour scale as thin vertical bands.
type scaleBar struct{ s ColourScale }

func (b scaleBar) Plot(dc draw.Canvas, p *plot.Plot) {
	tx, ty := p.Transforms(&dc)
	const bands = 400
	for k := range bands {
		v0 := b.s.Min + (b.s.Max-b.s.Min)*float64(k)/bands
		v1 := b.s.Min + (b.s.Max-b.s.Min)*float64(k+1)/bands
		dc.SetColor(b.s.Colour((v0 + v1) / 2))
		dc.Fill(vg.Rectangle{Min: vg.Point{X: tx(v0), Y: ty(0)}, Max: vg.Point{X: tx(v1) + 0.3, Y: ty(1)}}.Path())
	}
	// A thin frame, so that the white band shows.
	dc.SetLineStyle(draw.LineStyle{Color: color.Gray{Y: 0x80}, Width: vg.Points(0.5)})
	dc.Stroke(vg.Rectangle{Min: vg.Point{X: tx(b.s.Min), Y: ty(0)}, Max: vg.Point{X: tx(b.s.Max), Y: ty(1)}}.Path())
}

func (b scaleBar) DataRange() (xmin, xmax, ymin, ymax float64) {
	return b.s.Min, b.s.Max, 0, 1
}
