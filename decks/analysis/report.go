package analysis

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/calcsol/calcsol/internal/atomicfile"
)

// ResolveEmax reads an e_max choice: a number in [0, 1]; "approx" (or "")
// for ApproxEmax's 95 % quantile for n cards and s sets; or "reference" for
// Ide & Okuda's published ReferenceEmax, which holds only for n = 52 and
// s = 10^6. It returns the value and a label saying where it comes from.
func ResolveEmax(spec string, n int, sets int64) (float64, string, error) {
	switch strings.ToLower(strings.TrimSpace(spec)) {
	case "", "approx":
		return ApproxEmax(n, sets, 0.95), fmt.Sprintf("approx: normal approximation of the 95 %% quantile, n=%d s=%d", n, sets), nil
	case "reference", "ref":
		if n != 52 || sets != 1_000_000 {
			return 0, "", fmt.Errorf("e_max reference: Ide & Okuda's 5.86e-4 is for n=52 and s=10^6 only, not n=%d s=%d", n, sets)
		}
		return ReferenceEmax, "reference: Ide & Okuda, n=52 s=10^6", nil
	}
	v, err := strconv.ParseFloat(spec, 64)
	if err != nil || !(v >= 0) || v > 1 {
		return 0, "", fmt.Errorf("e_max %q: want a number in [0, 1], \"approx\" or \"reference\"", spec)
	}
	return v, "given", nil
}

// Report is what one measurement of a sequence says, against e_max: the
// figures "calcsol shuffle analyze" prints (and writes as JSON).
type Report struct {
	Seq        string  `json:"seq"`
	N          int     `json:"n"`
	Sets       int64   `json:"sets"`
	Seed       uint64  `json:"seed"`
	Emax       float64 `json:"emax"`
	EmaxSource string  `json:"emax_source"`
	C          float64 `json:"C"`
	CText      string  `json:"C_text"`
	White      int     `json:"white"`
	Blue       int     `json:"blue"`
	Red        int     `json:"red"`
	MaxAbsE    float64 `json:"max_abs_e"`
	Rising     float64 `json:"rising_mean"`
	Adjacent   float64 `json:"adjacent_mean"`
	Guess      float64 `json:"guess_mean"`
	Chi2       float64 `json:"chi2"`
	Chi2DF     int     `json:"chi2_df"`
	Chi2P      float64 `json:"chi2_p"`
	Seconds    float64 `json:"seconds"`

	// For the rendering: the classification, the per-deck statistics with
	// their standard errors, and the probabilities of the matrix.
	Class                Classification `json:"-"`
	RisingSE, AdjacentSE float64        `json:"-"`
	GuessSE              float64        `json:"-"`
	Probabilities        []float64      `json:"-"`
	result               *Result
}

// NewReport scores res, a measurement of sequence seq with options o,
// against emax (from source, see ResolveEmax).
func NewReport(seq string, o Options, res *Result, emax float64, source string) *Report {
	p := res.Matrix.Probabilities()
	cl := Classify(p, o.N, emax)
	chi := res.Matrix.ChiSquareTest()
	return &Report{
		Seq: seq, N: o.N, Sets: o.Sets, Seed: o.Seed, Emax: emax, EmaxSource: source,
		C: cl.C(), CText: cl.CText(), White: cl.White, Blue: cl.Blue, Red: cl.Red, MaxAbsE: MaxAbsE(p),
		Rising: res.Rising.Mean(), Adjacent: res.Adjacent.Mean(), Guess: res.Guess.Mean(),
		RisingSE: res.Rising.StdErr(), AdjacentSE: res.Adjacent.StdErr(), GuessSE: res.Guess.StdErr(),
		Chi2: chi.Stat, Chi2DF: chi.DF, Chi2P: chi.P,
		Class: cl, Probabilities: p, result: res,
	}
}

// Pictures lists the picture files of the report: with pgm, PGM-trial.pgm
// (set 0, black = card i at j) and PGM-average.pgm (Nose & Fukagawa); with
// png, PNG-grey.png and PNG-bwr.png (blue/white/red against e_max, Ide &
// Okuda). Write them with atomicfile.WriteAll: all or none.
func (r *Report) Pictures(pgm, png string) []atomicfile.Output {
	var out []atomicfile.Output
	if pgm != "" {
		out = append(out,
			atomicfile.Output{Path: pgm + "-trial.pgm", Write: func(w io.Writer) error { return WritePGMTrial(w, r.result.First) }},
			atomicfile.Output{Path: pgm + "-average.pgm", Write: func(w io.Writer) error { return WritePGMAverage(w, r.result.Matrix) }})
	}
	if png != "" {
		out = append(out,
			atomicfile.Output{Path: png + "-grey.png", Write: r.GreyFigure().WritePNG},
			atomicfile.Output{Path: png + "-bwr.png", Write: r.BWRFigure().WritePNG})
	}
	return out
}

// GreyFigure is the report's matrix in grey, for PREFIX-grey.png.
func (r *Report) GreyFigure() Figure {
	return GreyFigure(r.Probabilities, r.N, fmt.Sprintf("%s, n = %d, %s sets: where each card ends", r.Seq, r.N, setsText(r.Sets)))
}

// BWRFigure is the report's matrix against e_max, for PREFIX-bwr.png.
func (r *Report) BWRFigure() Figure {
	return BWRFigure(r.Probabilities, r.N, r.Emax, fmt.Sprintf("%s, n = %d, %s sets: against e_max, C = %.3f", r.Seq, r.N, setsText(r.Sets), r.C))
}

// setsText writes a power of ten as 10^k, other counts in digits.
func setsText(s int64) string {
	k, v := 0, s
	for v >= 10 && v%10 == 0 {
		v, k = v/10, k+1
	}
	if v == 1 && k >= 3 {
		return fmt.Sprintf("10^%d", k)
	}
	return strconv.FormatInt(s, 10)
}

// Spread summarises the repeats of a calibration.
type Spread struct {
	Min, Median, Mean, Max float64
}

// Spread returns the spread of the max|e| values over the repeats.
func (c *Calibration) Spread() Spread {
	v := c.Values
	mean := 0.0
	for _, x := range v {
		mean += x
	}
	mean /= float64(len(v))
	return Spread{Min: v[0], Median: v[len(v)/2], Mean: mean, Max: v[len(v)-1]}
}

// Placed is a search result with its place among the sequences of its length.
type Placed struct {
	M       int     `json:"m"`
	Rank    int     `json:"rank"`
	Seq     string  `json:"seq"`
	C       float64 `json:"C"`
	White   int     `json:"white"`
	MaxAbsE float64 `json:"max_abs_e"`
}

// Top returns the best top sequences of each length of ranked (as SortByC
// orders them), with their places 1..top.
func Top(ranked []Ranked, top int) []Placed {
	var out []Placed
	place := 0
	for i, r := range ranked {
		if i == 0 || len(r.Steps) != len(ranked[i-1].Steps) {
			place = 0
		}
		place++
		if place > top {
			continue
		}
		out = append(out, Placed{M: len(r.Steps), Rank: place, Seq: r.Name, C: r.Class.C(), White: r.Class.White, MaxAbsE: r.MaxAbsE})
	}
	return out
}

// Exact is the exact result for k GSR riffles of n cards: the total
// variation distance to uniform (Bayer & Diaconis) and, when asked for, the
// single-card position matrix scored against e_max.
type Exact struct {
	N  int     `json:"n"`
	K  int     `json:"k"`
	TV float64 `json:"tv"`
	// With the matrix: the exact single-card position matrix after k riffles.
	MaxAbsE *float64 `json:"max_abs_e,omitempty"`
	Emax    *float64 `json:"emax,omitempty"`
	C       *float64 `json:"C,omitempty"`
	White   *int     `json:"white,omitempty"`

	// Probabilities are the matrix's, for pictures (with the matrix only).
	Probabilities []float64 `json:"-"`
}

// ExactRiffles computes Exact for k = lo..hi; with matrix also the
// position matrix, scored against emax.
func ExactRiffles(n, lo, hi int, emax float64, matrix bool) ([]Exact, error) {
	var rows []Exact
	for k := lo; k <= hi; k++ {
		tv, err := RiffleTV(n, k)
		if err != nil {
			return nil, err
		}
		f, _ := tv.Float64()
		row := Exact{N: n, K: k, TV: f}
		if matrix {
			p := RiffleMatrix(n, k)
			cl := Classify(p, n, emax)
			me, c, w, e := MaxAbsE(p), cl.C(), cl.White, emax
			row.MaxAbsE, row.Emax, row.C, row.White, row.Probabilities = &me, &e, &c, &w, p
		}
		rows = append(rows, row)
	}
	return rows, nil
}

// Pictures lists, for rows with the matrix, PREFIX-k<K>-bwr.png: the
// blue/white/red picture against e_max.
func Pictures(rows []Exact, prefix string) []atomicfile.Output {
	var out []atomicfile.Output
	for _, r := range rows {
		if prefix == "" || r.Probabilities == nil {
			continue
		}
		f := BWRFigure(r.Probabilities, r.N, *r.Emax, fmt.Sprintf("%d riffles (exact), n = %d: against e_max, C = %.3f", r.K, r.N, *r.C))
		out = append(out, atomicfile.Output{Path: fmt.Sprintf("%s-k%d-bwr.png", prefix, r.K), Write: f.WritePNG})
	}
	return out
}
