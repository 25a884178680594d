package tune

import (
	"image/color"
	"io"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/calcsol/calcsol/internal/atomicfile"
)

// WriteChart draws the tuning curve of res as a PNG: against the number of
// evaluations, the training rate of every candidate (grey dots; those dropped
// early are scored on the decks they played), the training and validation
// rates of the current point (steps), and the point the search returns.
func WriteChart(path string, res *Result, title string) error {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = "evaluations (candidates scored on the training decks)"
	p.Y.Label.Text = "win rate %"
	p.Add(plotter.NewGrid())

	var cands, train, val plotter.XYs
	for _, r := range res.Records {
		x := float64(r.Eval)
		if r.Decks > 0 {
			cands = append(cands, plotter.XY{X: x, Y: 100 * float64(r.Wins) / float64(r.Decks)})
		}
		train = append(train, plotter.XY{X: x, Y: 100 * float64(r.CurWins) / float64(res.TrainDecks)})
		val = append(val, plotter.XY{X: x, Y: 100 * float64(r.CurVal) / float64(res.ValDecks)})
	}
	if len(train) == 0 {
		return errNoRecords
	}
	sc, err := plotter.NewScatter(cands)
	if err != nil {
		return err
	}
	sc.GlyphStyle.Color = color.Gray{Y: 170}
	sc.GlyphStyle.Radius = vg.Points(1)
	sc.GlyphStyle.Shape = draw.CircleGlyph{}
	lt, err := stepLine(train, color.RGBA{R: 31, G: 119, B: 180, A: 255})
	if err != nil {
		return err
	}
	lv, err := stepLine(val, color.RGBA{R: 214, G: 39, B: 40, A: 255})
	if err != nil {
		return err
	}
	best, err := plotter.NewScatter(plotter.XYs{{X: float64(res.Best.Eval), Y: 100 * float64(res.Best.ValWins) / float64(res.ValDecks)}})
	if err != nil {
		return err
	}
	best.GlyphStyle.Shape = draw.RingGlyph{}
	best.GlyphStyle.Radius = vg.Points(5)
	best.GlyphStyle.Color = color.Black
	p.Add(sc, lt, lv, best)
	p.Legend.Add("candidates, training", sc)
	p.Legend.Add("current point, training", lt)
	p.Legend.Add("current point, validation", lv)
	p.Legend.Add("result (best validation)", best)
	// Low and right of the middle: the curves climb from the left, below
	// them there are only the candidates' dots, and the last kick may fall
	// at the right edge.
	p.Legend.Top = false
	p.Legend.Left = false
	p.Legend.XOffs = -1.5 * vg.Inch
	p.Legend.YOffs = 0.1 * vg.Inch
	wt, err := p.WriterTo(8*vg.Inch, 5*vg.Inch, "png")
	if err != nil {
		return err
	}
	return atomicfile.WriteFunc(path, func(w io.Writer) error {
		_, err := wt.WriteTo(w)
		return err
	})
}

// stepLine draws a value that holds until the next point.
func stepLine(xys plotter.XYs, c color.Color) (*plotter.Line, error) {
	l, err := plotter.NewLine(xys)
	if err != nil {
		return nil, err
	}
	l.StepStyle = plotter.PostStep
	l.Color = c
	l.Width = vg.Points(1.5)
	return l, nil
}
