package main

// The shuffle-analysis subcommands (SPEC §6): analyze, emax, exact, search.
// The models come from package decks; the measures from decks/analysis.

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/tw"
	"github.com/spf13/cobra"

	"github.com/calcsol/calcsol/decks/analysis"
	"github.com/calcsol/calcsol/decks/shuffle"
	"github.com/calcsol/calcsol/internal/atomicfile"
)

func init() {
	shuffleCmd.AddCommand(newShuffleAnalyzeCmd(), newShuffleEmaxCmd(), newShuffleExactCmd(), newShuffleSearchCmd())
}

// saEmaxHelp documents the --emax flag shared by analyze, exact and search.
const saEmaxHelp = `e_max for the blue/white/red cells and C: a number (e.g. 5.86e-4),
"approx" (default: the 95 % quantile of max|e| for a uniform shuffle of n
cards and s sets, by the normal approximation of analysis.ApproxEmax; 5.86e-4
for n=52, s=10^6), or "reference" (seed 001's published 5.86e-4, only for
n=52 and s=10^6). "calcsol shuffle emax" calibrates it by simulation.`

// saResolveEmax turns the --emax flag into a value and a label saying where
// it comes from.
func saResolveEmax(spec string, n int, sets int64) (float64, string, error) {
	switch strings.ToLower(strings.TrimSpace(spec)) {
	case "", "approx":
		return analysis.ApproxEmax(n, sets, 0.95), fmt.Sprintf("approx: normal approximation of the 95 %% quantile, n=%d s=%d", n, sets), nil
	case "reference", "ref":
		if n != 52 || sets != 1_000_000 {
			return 0, "", badInput("--emax reference: seed 001's 5.86e-4 is for n=52 and s=10^6 only, not n=%d s=%d", n, sets)
		}
		return analysis.ReferenceEmax, "reference: seed 001, n=52 s=10^6", nil
	}
	v, err := strconv.ParseFloat(spec, 64)
	if err != nil || !(v >= 0) || v > 1 {
		return 0, "", badInput("--emax %q: want a number in [0, 1], \"approx\" or \"reference\"", spec)
	}
	return v, "given", nil
}

// saTable is a terminal table whose headers are printed as written
// ("max|e|", not "MAX | E |").
func saTable(w io.Writer) *tablewriter.Table {
	return tablewriter.NewTable(w, tablewriter.WithHeaderAutoFormat(tw.Off))
}

func saPrintJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

func saCheckSize(n int, sets int64) error {
	if n < 2 || n > 4096 {
		return badInput("--n %d: want 2..4096 cards", n)
	}
	if sets < 1 || sets > 1<<31-1 {
		return badInput("--sets %d: want 1..2^31-1", sets)
	}
	return nil
}

// ---- analyze ----

type saAnalyzeJSON struct {
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
}

func newShuffleAnalyzeCmd() *cobra.Command {
	var (
		spec, emaxSpec, pgm, pngPrefix string
		n, workers                     int
		sets                           int64
		seed                           uint64
		asJSON                         bool
	)
	cmd := &cobra.Command{
		Use:   "analyze",
		Short: "Measure how well a shuffle sequence mixes (position matrix, C, χ², …)",
		Long: `analyze shuffles s independent sets of the unshuffled deck 0..n-1 with a
sequence of SPEC §5 (e.g. HDHRDHH, D^1R^4, R^7) and measures the result
(SPEC §6):

  C         seed 001's convergence rate: the share of white cells |e| ≤ e_max
            of the position matrix, truncated to 3 decimals, "C = 0.978(2646)"
  max|e|    the largest deviation of a cell from 1/n
  rising    mean number of rising sequences (uniform deck: (n+1)/2)
  adjacent  mean number of originally adjacent pairs still adjacent, in order
            (uniform: (n-1)/n)
  guess     mean score of the guess-the-next-card game (uniform: H_n, 4.54 for
            n=52); strategy: see docs/shuffles-analysis.md
  χ²        test of the matrix against 1/n everywhere, (n-1)² degrees of freedom

Set i is shuffled with its own generator shuffle.NewRand(SetSeed(seed, i)), so
the result does not depend on --workers.

` + saEmaxHelp,
		Example: `  calcsol shuffle analyze --seq HDHRDHH --sets 1000000
  calcsol shuffle analyze --seq R^7 --sets 100000 --emax 1e-3 --json
  calcsol shuffle analyze --seq H --sets 100000 --png docs/img/hindu --pgm /tmp/hindu`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := saCheckSize(n, sets); err != nil {
				return err
			}
			params, err := loadShuffleParams(cmd)
			if err != nil {
				return err
			}
			sh, err := shuffle.ParseSequence(spec, params)
			if err != nil {
				return badInput("--seq: %w", err)
			}
			emax, source, err := saResolveEmax(emaxSpec, n, sets)
			if err != nil {
				return err
			}
			// Refuse an unusable picture path now, not after the measurement.
			if pgm != "" {
				if err := saCheckOutDir("--pgm", pgm, "-trial.pgm", "-average.pgm"); err != nil {
					return err
				}
			}
			if pngPrefix != "" {
				if err := saCheckOutDir("--png", pngPrefix, "-grey.png", "-bwr.png"); err != nil {
					return err
				}
			}
			start := time.Now()
			res, err := analysis.Measure(analysis.Fixed(sh), analysis.Options{N: n, Sets: sets, Seed: seed, Workers: workers, Stats: true})
			if err != nil {
				return err
			}
			elapsed := time.Since(start).Seconds()
			m := res.Matrix
			p := m.Probabilities()
			cl := analysis.Classify(p, n, emax)
			chi := m.ChiSquareTest()
			maxE := analysis.MaxAbsE(p)
			var pics []saPicture
			if pgm != "" {
				pics = append(pics,
					saPicture{pgm + "-trial.pgm", func(w io.Writer) error { return analysis.WritePGMTrial(w, res.First) }},
					saPicture{pgm + "-average.pgm", func(w io.Writer) error { return analysis.WritePGMAverage(w, m) }})
			}
			if pngPrefix != "" {
				pics = append(pics,
					saPicture{pngPrefix + "-grey.png", func(w io.Writer) error { return analysis.WritePNG(w, analysis.GreyImage(p, n)) }},
					saPicture{pngPrefix + "-bwr.png", func(w io.Writer) error { return analysis.WritePNG(w, analysis.BWRImage(p, n, emax)) }})
			}
			if err := saWriteAll(pics); err != nil {
				return err
			}
			out := cmd.OutOrStdout()
			if asJSON {
				return saPrintJSON(out, saAnalyzeJSON{
					Seq: sh.String(), N: n, Sets: sets, Seed: seed, Emax: emax, EmaxSource: source,
					C: cl.C(), CText: cl.CText(), White: cl.White, Blue: cl.Blue, Red: cl.Red, MaxAbsE: maxE,
					Rising: res.Rising.Mean(), Adjacent: res.Adjacent.Mean(), Guess: res.Guess.Mean(),
					Chi2: chi.Stat, Chi2DF: chi.DF, Chi2P: chi.P, Seconds: elapsed,
				})
			}
			fmt.Fprintf(out, "%s of n=%d cards, %d sets, seed %d (%.1f s)\n", sh, n, sets, seed, elapsed)
			fmt.Fprintf(out, "e_max = %.3g (%s)\n", emax, source)
			fmt.Fprintf(out, "%s   blue %d, red %d\n", cl, cl.Blue, cl.Red)
			t := saTable(out)
			t.Header("measure", "value", "uniform deck")
			rows := [][]string{
				{"max|e|", fmt.Sprintf("%.3e", maxE), fmt.Sprintf("≈ %.2e (median, approx)", analysis.ApproxEmax(n, sets, 0.5))},
				{"rising sequences", saMeanSE(res.Rising), fmt.Sprintf("%.3f", float64(n+1)/2)},
				{"adjacent pairs", saMeanSE(res.Adjacent), fmt.Sprintf("%.3f", float64(n-1)/float64(n))},
				{"guess score", saMeanSE(res.Guess), fmt.Sprintf("%.3f", analysis.Harmonic(n))},
				{"χ² (df " + strconv.Itoa(chi.DF) + ")", fmt.Sprintf("%.1f, p = %.3g", chi.Stat, chi.P), fmt.Sprintf("≈ %d", chi.DF)},
			}
			if err := t.Bulk(rows); err != nil {
				return err
			}
			return t.Render()
		},
	}
	f := cmd.Flags()
	f.StringVar(&spec, "seq", "HDHRDHH", "shuffle sequence (SPEC §5 notation)")
	f.Int64Var(&sets, "sets", 1_000_000, "number of independent sets s")
	f.IntVar(&n, "n", 52, "deck size")
	f.Uint64Var(&seed, "seed", 1, "seed; set i uses shuffle.NewRand(SetSeed(seed, i))")
	f.StringVar(&emaxSpec, "emax", "approx", `e_max: a number, "approx" or "reference"`)
	f.IntVar(&workers, "workers", 0, "goroutines (0: all CPUs); results do not depend on it")
	f.BoolVar(&asJSON, "json", false, "print JSON")
	f.StringVar(&pgm, "pgm", "", "write PREFIX-trial.pgm (set 0, black = card i at j) and PREFIX-average.pgm (seed 000)")
	f.StringVar(&pngPrefix, "png", "", "write PREFIX-grey.png and PREFIX-bwr.png (blue/white/red against e_max)")
	f.String("shuffle-config", "", "YAML file of shuffle model parameters (default: SPEC §5 defaults)")
	return cmd
}

// saPicture is one picture file analyze or exact writes.
type saPicture struct {
	path  string
	write func(w io.Writer) error
}

// saCheckOutDir refuses (exit 2) an output prefix whose directory does not
// exist, is not a directory or cannot be written to. It is called before
// the measurement, so a typo does not cost a long run.
func saCheckOutDir(flag, prefix string, suffixes ...string) error {
	dir := filepath.Dir(prefix)
	st, err := os.Stat(dir)
	switch {
	case err != nil:
		return badInput("%s %s: directory %s does not exist or cannot be read", flag, prefix, dir)
	case !st.IsDir():
		return badInput("%s %s: %s is not a directory", flag, prefix, dir)
	}
	f, err := os.CreateTemp(dir, ".calcsol-write-check-*")
	if err != nil {
		return badInput("%s %s: directory %s is not writable", flag, prefix, dir)
	}
	f.Close()
	os.Remove(f.Name())
	for _, suf := range suffixes {
		if st, err := os.Stat(prefix + suf); err == nil && st.IsDir() {
			return badInput("%s %s: %s is a directory", flag, prefix, prefix+suf)
		}
	}
	return nil
}

// saWriteAll writes all the pictures or none: each is written (through
// atomicfile) to a staging file beside its target, and the staging files are
// renamed onto the targets only once every picture was written. On a failure
// the staging files are removed and no target is touched. (A rename failing
// half-way, in a directory just written to, could still leave some renamed.)
func saWriteAll(pics []saPicture) error {
	var staged []string
	cleanup := func() {
		for _, s := range staged {
			os.Remove(s)
		}
	}
	for _, p := range pics {
		f, err := os.CreateTemp(filepath.Dir(p.path), "."+filepath.Base(p.path)+".stage-*")
		if err != nil {
			cleanup()
			return fmt.Errorf("write %s: %w", p.path, err)
		}
		name := f.Name()
		f.Close()
		staged = append(staged, name)
		if err := atomicfile.WriteFunc(name, p.write); err != nil {
			cleanup()
			return fmt.Errorf("write %s: %w", p.path, err)
		}
	}
	for _, p := range pics {
		if st, err := os.Stat(p.path); err == nil && st.IsDir() {
			cleanup()
			return fmt.Errorf("write %s: is a directory", p.path)
		}
	}
	for i, p := range pics {
		if err := os.Rename(staged[i], p.path); err != nil {
			cleanup()
			return fmt.Errorf("write %s: %w", p.path, err)
		}
	}
	return nil
}

func saMeanSE(d analysis.DeckStats) string {
	return fmt.Sprintf("%.3f ± %.3f", d.Mean(), d.StdErr())
}

// ---- emax ----

func newShuffleEmaxCmd() *cobra.Command {
	var (
		n, repeats, workers int
		sets                int64
		seed                uint64
		asJSON              bool
	)
	cmd := &cobra.Command{
		Use:   "emax",
		Short: "Calibrate e_max by seed 001's procedure (uniform shuffles)",
		Long: `emax runs seed 001's calibration (SPEC §6): shuffle s sets uniformly (U),
take max|e| of the position matrix; repeat R times; drop the top 5 %
(floor(0.05·R) values); the largest remaining value is e_max, an estimate of
the 95 % quantile of max|e|. It also prints the spread of the R values and
the normal approximation used by --emax approx.

The paper used n=52, s=10^6, R=1000 (≈10^9 shuffles) and found 5.86e-4.`,
		Example: `  calcsol shuffle emax --n 52 --sets 1000000 --repeats 100 --seed 1
  calcsol shuffle emax --n 52 --sets 100000 --repeats 200 --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := saCheckSize(n, sets); err != nil {
				return err
			}
			if repeats < 1 {
				return badInput("--repeats %d: need at least 1", repeats)
			}
			u, err := shuffle.ParseSequence("U", shuffle.DefaultParams())
			if err != nil {
				return err
			}
			start := time.Now()
			c, err := analysis.Calibrate(analysis.Fixed(u), analysis.Options{N: n, Sets: sets, Seed: seed, Workers: workers}, repeats)
			if err != nil {
				return err
			}
			elapsed := time.Since(start).Seconds()
			v := c.Values
			mean := 0.0
			for _, x := range v {
				mean += x
			}
			mean /= float64(len(v))
			approx := analysis.ApproxEmax(n, sets, 0.95)
			out := cmd.OutOrStdout()
			if asJSON {
				return saPrintJSON(out, map[string]any{
					"n": n, "sets": sets, "repeats": repeats, "seed": seed, "dropped": c.Dropped,
					"emax": c.Emax, "min": v[0], "median": v[len(v)/2], "mean": mean, "max": v[len(v)-1],
					"approx": approx, "seconds": elapsed, "values": v,
				})
			}
			fmt.Fprintf(out, "e_max = %.4g  (n=%d, s=%d, R=%d, top %d dropped, seed %d, %.1f s)\n", c.Emax, n, sets, repeats, c.Dropped, seed, elapsed)
			fmt.Fprintf(out, "max|e| over the R repeats: min %.4g, median %.4g, mean %.4g, max %.4g\n", v[0], v[len(v)/2], mean, v[len(v)-1])
			fmt.Fprintf(out, "normal approximation of the 95 %% quantile: %.4g\n", approx)
			if n == 52 && sets == 1_000_000 {
				fmt.Fprintf(out, "reference (seed 001, R=1000): %.4g\n", analysis.ReferenceEmax)
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.IntVar(&n, "n", 52, "deck size")
	f.Int64Var(&sets, "sets", 1_000_000, "sets s per repeat")
	f.IntVar(&repeats, "repeats", 100, "repeats R (the paper: 1000)")
	f.Uint64Var(&seed, "seed", 1, "seed")
	f.IntVar(&workers, "workers", 0, "goroutines (0: all CPUs)")
	f.BoolVar(&asJSON, "json", false, "print JSON")
	return cmd
}

// ---- exact ----

type saExactJSON struct {
	N  int     `json:"n"`
	K  int     `json:"k"`
	TV float64 `json:"tv"`
	// With --matrix: the exact single-card position matrix after k riffles.
	MaxAbsE *float64 `json:"max_abs_e,omitempty"`
	Emax    *float64 `json:"emax,omitempty"`
	C       *float64 `json:"C,omitempty"`
	White   *int     `json:"white,omitempty"`
}

// saParseKs reads "7" or "5..10" (k ≥ 0).
func saParseKs(s string) (lo, hi int, err error) {
	a, b, isRange := strings.Cut(s, "..")
	lo, err = strconv.Atoi(a)
	hi = lo
	if err == nil && isRange {
		hi, err = strconv.Atoi(b)
	}
	if err != nil || lo < 0 || hi < lo || hi > 40 {
		return 0, 0, badInput("--k %q: want k or k1..k2 with 0 ≤ k1 ≤ k2 ≤ 40", s)
	}
	return lo, hi, nil
}

func newShuffleExactCmd() *cobra.Command {
	var (
		n                       int
		ks, emaxSpec, pngPrefix string
		sets                    int64
		asJSON, withMatrix      bool
	)
	cmd := &cobra.Command{
		Use:   "exact",
		Short: "Exact results for k GSR riffles: total variation distance, position matrix",
		Long: `exact computes, without simulation, for k Gilbert–Shannon–Reeds riffles of n
cards:

  TV   the total variation distance to the uniform deck, exactly (math/big),
       by Bayer & Diaconis (1992): k riffles are one 2^k-shuffle, which gives a
       permutation with r rising sequences probability C(n+2^k-r, n)/2^(kn),
       and A(n, r-1) (Eulerian) permutations have r rising sequences.
  with --matrix: the exact single-card position matrix (a Markov chain on
       positions, see analysis.GSRKernel), its max|e| and C against e_max.
       Since the matrix has no sampling noise, its C measures bias only;
       e_max is still the one for s sets (--sets) so C compares with analyze.

` + saEmaxHelp,
		Example: `  calcsol shuffle exact --n 52 --k 5..10
  calcsol shuffle exact --n 52 --k 7 --json
  calcsol shuffle exact --n 52 --k 4..10 --matrix --emax reference`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if n < 1 || n > 1000 {
				return badInput("--n %d: want 1..1000", n)
			}
			lo, hi, err := saParseKs(ks)
			if err != nil {
				return err
			}
			var emax float64
			var source string
			if withMatrix {
				if n < 2 {
					return badInput("--matrix needs n ≥ 2")
				}
				if emax, source, err = saResolveEmax(emaxSpec, n, sets); err != nil {
					return err
				}
			}
			if withMatrix && pngPrefix != "" {
				if err := saCheckOutDir("--png", pngPrefix); err != nil {
					return err
				}
			}
			var rows []saExactJSON
			var pics []saPicture
			for k := lo; k <= hi; k++ {
				tv, err := analysis.RiffleTV(n, k)
				if err != nil {
					return badInput("%w", err)
				}
				f, _ := tv.Float64()
				row := saExactJSON{N: n, K: k, TV: f}
				if withMatrix {
					p := analysis.RiffleMatrix(n, k)
					cl := analysis.Classify(p, n, emax)
					me, c, w := analysis.MaxAbsE(p), cl.C(), cl.White
					row.MaxAbsE, row.Emax, row.C, row.White = &me, &emax, &c, &w
					if pngPrefix != "" {
						path := fmt.Sprintf("%s-k%d-bwr.png", pngPrefix, k)
						img := analysis.BWRImage(p, n, emax)
						pics = append(pics, saPicture{path, func(w io.Writer) error { return analysis.WritePNG(w, img) }})
					}
				}
				rows = append(rows, row)
			}
			if err := saWriteAll(pics); err != nil {
				return err
			}
			out := cmd.OutOrStdout()
			if asJSON {
				if lo == hi {
					return saPrintJSON(out, rows[0])
				}
				return saPrintJSON(out, rows)
			}
			if withMatrix {
				fmt.Fprintf(out, "e_max = %.3g (%s)\n", emax, source)
			}
			t := saTable(out)
			if withMatrix {
				t.Header("k", "riffles TV", "exact max|e|", "exact C")
			} else {
				t.Header("k", "riffles TV")
			}
			for _, r := range rows {
				line := []string{strconv.Itoa(r.K), saTV(r.TV)}
				if withMatrix {
					cl := analysis.Classification{N: n, White: *r.White}
					line = append(line, fmt.Sprintf("%.3e", *r.MaxAbsE), cl.CText())
				}
				if err := t.Append(line); err != nil {
					return err
				}
			}
			return t.Render()
		},
	}
	f := cmd.Flags()
	f.IntVar(&n, "n", 52, "deck size")
	f.StringVar(&ks, "k", "5..10", "number of riffles k, or a range k1..k2")
	f.BoolVar(&asJSON, "json", false, `print JSON: {"n","k","tv"} (a list for a range of k)`)
	f.BoolVar(&withMatrix, "matrix", false, "also the exact single-card position matrix: max|e| and C")
	f.StringVar(&emaxSpec, "emax", "approx", `e_max for --matrix: a number, "approx" or "reference"`)
	f.Int64Var(&sets, "sets", 1_000_000, "s that e_max is meant for (--emax approx/reference)")
	f.StringVar(&pngPrefix, "png", "", "with --matrix: write PREFIX-k<K>-bwr.png for each k")
	return cmd
}

// saTV prints a TV distance with 3 decimals, or in scientific notation
// when it is too small for that.
func saTV(x float64) string {
	if x >= 0.0005 {
		return fmt.Sprintf("%.3f", x)
	}
	return fmt.Sprintf("%.3e", x)
}

// ---- search ----

type saSearchJSON struct {
	M       int     `json:"m"`
	Rank    int     `json:"rank"`
	Seq     string  `json:"seq"`
	C       float64 `json:"C"`
	White   int     `json:"white"`
	MaxAbsE float64 `json:"max_abs_e"`
}

func newShuffleSearchCmd() *cobra.Command {
	var (
		methods, lengths, emaxSpec string
		n, workers, top            int
		sets                       int64
		seed                       uint64
		asJSON                     bool
	)
	cmd := &cobra.Command{
		Use:   "search",
		Short: "Rank every sequence of the given methods by C (seed 001, Fig. 7)",
		Long: `search measures every sequence of length m over the given methods (k methods
give k^m sequences), for each m in --m, and prints the best --top of each
length by C (ties: smaller max|e|, then name). It walks the tree of shared
prefixes once, so each sequence costs one shuffle step per set, and every
sequence's matrix is exactly what "analyze --seq" gives with the same seed.

With one method it gives the convergence curve: --methods H --m 1..100.

` + saEmaxHelp,
		Example: `  calcsol shuffle search --methods HRD --m 1..7 --sets 1000000
  calcsol shuffle search --methods R --m 1..12 --sets 1000000 --top 1
  calcsol shuffle search --methods HRD --m 2..4 --sets 100000 --top 3 --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := saCheckSize(n, sets); err != nil {
				return err
			}
			lo, hi, err := analysis.ParseLengths(lengths)
			if err != nil {
				return badInput("--m: %w", err)
			}
			if top < 1 {
				return badInput("--top %d: need at least 1", top)
			}
			p, err := loadShuffleParams(cmd)
			if err != nil {
				return err
			}
			var names []string
			for _, c := range strings.ToUpper(methods) {
				l := string(c)
				if _, err := p.Model(byte(c)); err != nil || c > 'Z' {
					return badInput("--methods %q: %q is not a shuffle letter of %s", methods, l, shuffle.Letters)
				}
				for _, x := range names {
					if x == l {
						return badInput("--methods %q: %s twice", methods, l)
					}
				}
				names = append(names, l)
			}
			if len(names) == 0 {
				return badInput("--methods: empty")
			}
			emax, source, err := saResolveEmax(emaxSpec, n, sets)
			if err != nil {
				return err
			}
			newSteps := func() ([]shuffle.Shuffler, error) { return p.Models(strings.Join(names, "")) }
			start := time.Now()
			all, err := analysis.Search(newSteps, names, analysis.SearchOptions{
				Options: analysis.Options{N: n, Sets: sets, Seed: seed, Workers: workers},
				MinLen:  lo, MaxLen: hi,
			})
			if err != nil {
				return badInput("%w", err)
			}
			elapsed := time.Since(start).Seconds()
			ranked := analysis.SortByC(all, emax)
			var rows []saSearchJSON
			rank := 0
			for i, r := range ranked {
				if i == 0 || len(r.Steps) != len(ranked[i-1].Steps) {
					rank = 0
				}
				rank++
				if rank > top {
					continue
				}
				rows = append(rows, saSearchJSON{M: len(r.Steps), Rank: rank, Seq: r.Name, C: r.Class.C(), White: r.Class.White, MaxAbsE: r.MaxAbsE})
			}
			out := cmd.OutOrStdout()
			if asJSON {
				return saPrintJSON(out, map[string]any{
					"methods": strings.Join(names, ""), "n": n, "sets": sets, "seed": seed,
					"emax": emax, "emax_source": source, "sequences": len(all), "seconds": elapsed, "top": rows,
				})
			}
			fmt.Fprintf(out, "%d sequences of %s, m = %s, n=%d, %d sets, seed %d (%.1f s)\n", len(all), strings.Join(names, ""), analysis.FormatLengths(lo, hi), n, sets, seed, elapsed)
			fmt.Fprintf(out, "e_max = %.3g (%s)\n", emax, source)
			t := saTable(out)
			t.Header("m", "rank", "sequence", "C", "max|e|")
			for _, r := range rows {
				cl := analysis.Classification{N: n, White: r.White}
				if err := t.Append([]string{strconv.Itoa(r.M), strconv.Itoa(r.Rank), r.Seq, cl.CText(), fmt.Sprintf("%.3e", r.MaxAbsE)}); err != nil {
					return err
				}
			}
			return t.Render()
		},
	}
	f := cmd.Flags()
	f.StringVar(&methods, "methods", "HRD", "method letters to combine (SPEC §5)")
	f.StringVar(&lengths, "m", "1..7", "sequence lengths: m or m1..m2")
	f.Int64Var(&sets, "sets", 1_000_000, "number of independent sets s")
	f.IntVar(&n, "n", 52, "deck size")
	f.Uint64Var(&seed, "seed", 1, "seed (the same sets as analyze with this seed)")
	f.StringVar(&emaxSpec, "emax", "approx", `e_max: a number, "approx" or "reference"`)
	f.IntVar(&top, "top", 5, "sequences to print per length")
	f.String("shuffle-config", "", "YAML file of shuffle model parameters (default: SPEC §5 defaults)")
	f.IntVar(&workers, "workers", 0, "goroutines (0: all CPUs); results do not depend on it")
	f.BoolVar(&asJSON, "json", false, "print JSON")
	return cmd
}
