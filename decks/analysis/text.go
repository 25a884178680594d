package analysis

// The reports of "calcsol shuffle analyze", "emax", "search" and "exact":
// each run timed, as text (a table) and as JSON.

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/calcsol/calcsol/decks/shuffle"
	"github.com/calcsol/calcsol/internal/texttable"
)

// Analyze measures the fixed sequence sh with o and scores it against emax
// (from source, see ResolveEmax): "calcsol shuffle analyze".
func Analyze(sh shuffle.Shuffler, o Options, emax float64, source string) (*Report, error) {
	start := time.Now()
	o.Stats = true
	res, err := Measure(Fixed(sh), o)
	if err != nil {
		return nil, err
	}
	r := NewReport(sh.String(), o, res, emax, source)
	r.Seconds = time.Since(start).Seconds()
	return r, nil
}

// WriteText writes the report as "calcsol shuffle analyze" prints it: the
// run, e_max, C with the blue and red cells, and a table of the measures
// beside their values for a uniform deck.
func (r *Report) WriteText(w io.Writer) error {
	n := r.N
	fmt.Fprintf(w, "%s of n=%d cards, %d sets, seed %d (%.1f s)\n", r.Seq, n, r.Sets, r.Seed, r.Seconds)
	fmt.Fprintf(w, "e_max = %.3g (%s)\n", r.Emax, r.EmaxSource)
	fmt.Fprintf(w, "%s   blue %d, red %d\n", r.Class, r.Blue, r.Red)
	return texttable.Write(w, []string{"measure", "value", "uniform deck"}, [][]string{
		{"max|e|", fmt.Sprintf("%.3e", r.MaxAbsE), fmt.Sprintf("≈ %.2e (median, approx)", ApproxEmax(n, r.Sets, 0.5))},
		{"rising sequences", fmt.Sprintf("%.3f ± %.3f", r.Rising, r.RisingSE), fmt.Sprintf("%.3f", float64(n+1)/2)},
		{"adjacent pairs", fmt.Sprintf("%.3f ± %.3f", r.Adjacent, r.AdjacentSE), fmt.Sprintf("%.3f", float64(n-1)/float64(n))},
		{"guess score", fmt.Sprintf("%.3f ± %.3f", r.Guess, r.GuessSE), fmt.Sprintf("%.3f", Harmonic(n))},
		{"χ² (df " + strconv.Itoa(r.Chi2DF) + ")", fmt.Sprintf("%.1f, p = %.3g", r.Chi2, r.Chi2P), fmt.Sprintf("≈ %d", r.Chi2DF)},
	})
}

// CalibrationReport is what "calcsol shuffle emax" reports of a
// calibration; its JSON keys are in alphabetical order.
type CalibrationReport struct {
	Approx  float64   `json:"approx"` // ApproxEmax's 95 % quantile
	Dropped int       `json:"dropped"`
	Emax    float64   `json:"emax"`
	Max     float64   `json:"max"`
	Mean    float64   `json:"mean"`
	Median  float64   `json:"median"`
	Min     float64   `json:"min"`
	N       int       `json:"n"`
	Repeats int       `json:"repeats"`
	Seconds float64   `json:"seconds"`
	Seed    uint64    `json:"seed"`
	Sets    int64     `json:"sets"`
	Values  []float64 `json:"values"`
}

// CalibrateReport runs Calibrate and reports it with its spread and the
// normal approximation beside it.
func CalibrateReport(uniform NewShuffler, o Options, repeats int) (*CalibrationReport, error) {
	start := time.Now()
	c, err := Calibrate(uniform, o, repeats)
	if err != nil {
		return nil, err
	}
	sp := c.Spread()
	return &CalibrationReport{
		Approx: ApproxEmax(o.N, o.Sets, 0.95), Dropped: c.Dropped, Emax: c.Emax,
		Max: sp.Max, Mean: sp.Mean, Median: sp.Median, Min: sp.Min,
		N: o.N, Repeats: repeats, Seconds: time.Since(start).Seconds(), Seed: o.Seed, Sets: o.Sets, Values: c.Values,
	}, nil
}

// WriteText writes the report as "calcsol shuffle emax" prints it, with
// Ide & Okuda's reference value where it applies (n = 52, s = 10^6).
func (r *CalibrationReport) WriteText(w io.Writer) error {
	fmt.Fprintf(w, "e_max = %.4g  (n=%d, s=%d, R=%d, top %d dropped, seed %d, %.1f s)\n", r.Emax, r.N, r.Sets, r.Repeats, r.Dropped, r.Seed, r.Seconds)
	fmt.Fprintf(w, "max|e| over the R repeats: min %.4g, median %.4g, mean %.4g, max %.4g\n", r.Min, r.Median, r.Mean, r.Max)
	_, err := fmt.Fprintf(w, "normal approximation of the 95 %% quantile: %.4g\n", r.Approx)
	if r.N == 52 && r.Sets == 1_000_000 {
		_, err = fmt.Fprintf(w, "reference (Ide & Okuda, R=1000): %.4g\n", ReferenceEmax)
	}
	return err
}

// SearchReport is what "calcsol shuffle search" reports: the best
// sequences of each length; its JSON keys are in alphabetical order.
type SearchReport struct {
	Emax       float64  `json:"emax"`
	EmaxSource string   `json:"emax_source"`
	Methods    string   `json:"methods"`
	N          int      `json:"n"`
	Seconds    float64  `json:"seconds"`
	Seed       uint64   `json:"seed"`
	Sequences  int      `json:"sequences"`
	Sets       int64    `json:"sets"`
	Top        []Placed `json:"top"`

	MinLen, MaxLen int `json:"-"`
}

// Rank runs Search over the sequences of names and reports the best top of
// each length against emax (from source, see ResolveEmax).
func Rank(newSteps NewSteps, names []string, o SearchOptions, emax float64, source string, top int) (*SearchReport, error) {
	start := time.Now()
	all, err := Search(newSteps, names, o)
	if err != nil {
		return nil, err
	}
	return &SearchReport{
		Emax: emax, EmaxSource: source, Methods: strings.Join(names, ""), N: o.N, Seconds: time.Since(start).Seconds(),
		Seed: o.Seed, Sequences: len(all), Sets: o.Sets, Top: Top(SortByC(all, emax), top), MinLen: o.MinLen, MaxLen: o.MaxLen,
	}, nil
}

// WriteText writes the report as "calcsol shuffle search" prints it: the
// run, e_max, and a table of the best sequences of each length.
func (r *SearchReport) WriteText(w io.Writer) error {
	fmt.Fprintf(w, "%d sequences of %s, m = %s, n=%d, %d sets, seed %d (%.1f s)\n", r.Sequences, r.Methods, FormatLengths(r.MinLen, r.MaxLen), r.N, r.Sets, r.Seed, r.Seconds)
	fmt.Fprintf(w, "e_max = %.3g (%s)\n", r.Emax, r.EmaxSource)
	var rows [][]string
	for _, p := range r.Top {
		cl := Classification{N: r.N, White: p.White}
		rows = append(rows, []string{strconv.Itoa(p.M), strconv.Itoa(p.Rank), p.Seq, cl.CText(), fmt.Sprintf("%.3e", p.MaxAbsE)})
	}
	return texttable.Write(w, []string{"m", "rank", "sequence", "C", "max|e|"}, rows)
}

// WriteExact writes rows as "calcsol shuffle exact" prints them: k and the
// total variation distance, and for rows with the matrix its max|e| and C
// against e_max (from source, see ResolveEmax), which is printed first.
func WriteExact(w io.Writer, rows []Exact, source string) error {
	matrix := len(rows) > 0 && rows[0].Emax != nil
	header := []string{"k", "riffles TV"}
	if matrix {
		fmt.Fprintf(w, "e_max = %.3g (%s)\n", *rows[0].Emax, source)
		header = append(header, "exact max|e|", "exact C")
	}
	var cells [][]string
	for _, r := range rows {
		tv := fmt.Sprintf("%.3f", r.TV)
		if r.TV < 0.0005 {
			tv = fmt.Sprintf("%.3e", r.TV)
		}
		line := []string{strconv.Itoa(r.K), tv}
		if matrix {
			cl := Classification{N: r.N, White: *r.White}
			line = append(line, fmt.Sprintf("%.3e", *r.MaxAbsE), cl.CText())
		}
		cells = append(cells, line)
	}
	return texttable.Write(w, header, cells)
}
