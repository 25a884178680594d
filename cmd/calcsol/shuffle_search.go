package main

// The exhaustive and exact shuffle analyses: shuffle exact and shuffle
// search (the measures of package analysis).

import (
	"strings"

	"github.com/spf13/cobra"

	"github.com/calcsol/calcsol/decks/analysis"
	"github.com/calcsol/calcsol/decks/shuffle"
	"github.com/calcsol/calcsol/internal/progress"
)

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
       positions, see docs/shuffles-analysis.md), its max|e| and C against e_max.
       Since the matrix has no sampling noise, its C measures bias only;
       e_max is still the one for s sets (--sets) so C compares with analyze.

` + emaxHelp,
		Example: `  calcsol shuffle exact --n 52 --k 5..10
  calcsol shuffle exact --n 52 --k 7 --json
  calcsol shuffle exact --n 52 --k 4..10 --matrix --emax reference`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if n < 1 || n > 1000 {
				return badInput("--n %d: want 1..1000", n)
			}
			lo, hi, err := analysis.ParseRange(ks, 0, 40)
			if err != nil {
				return badInput("--k: %w", err)
			}
			var emax float64
			var source string
			if withMatrix {
				if n < 2 {
					return badInput("--matrix needs n ≥ 2")
				}
				if emax, source, err = resolveEmax(emaxSpec, n, sets); err != nil {
					return err
				}
				if err := checkOut("--png", pngPrefix); err != nil {
					return err
				}
			}
			rows, err := analysis.ExactRiffles(n, lo, hi, emax, withMatrix)
			if err != nil {
				return badInput("%w", err)
			}
			if err := writePictures(cmd, analysis.Pictures(rows, pngPrefix)); err != nil {
				return err
			}
			out := cmd.OutOrStdout()
			if asJSON {
				if lo == hi {
					return printJSON(out, rows[0])
				}
				return printJSON(out, rows)
			}
			return analysis.WriteExact(out, rows, source)
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
		Short: "Rank every sequence of the given methods by C (Ide & Okuda, Fig. 7)",
		Long: `search measures every sequence of length m over the given methods (k methods
give k^m sequences), for each m in --m, and prints the best --top of each
length by C (ties: smaller max|e|, then name). It walks the tree of shared
prefixes once, so each sequence costs one shuffle step per set, and every
sequence's matrix is exactly what "analyze --seq" gives with the same seed.

With one method it gives the convergence curve: --methods H --m 1..100.
Ide & Okuda's figures are for --sets 1000000 (--m 1..7 then takes minutes).

` + emaxHelp,
		Example: `  calcsol shuffle search --methods HRD --m 1..4 --sets 2000
  calcsol shuffle search --methods R --m 1..12 --sets 10000 --top 1
  calcsol shuffle search --methods HRD --m 2..4 --sets 2000 --top 3 --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			o := analysis.Options{N: n, Sets: sets, Seed: seed, Workers: workers, Context: cmd.Context()}
			if err := checkOptions(o); err != nil {
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
			names, err := shuffle.ParseMethods(methods)
			if err != nil {
				return badInput("--methods: %w", err)
			}
			emax, source, err := resolveEmax(emaxSpec, n, sets)
			if err != nil {
				return err
			}
			newSteps := func() ([]shuffle.Shuffler, error) { return p.Models(strings.Join(names, "")) }
			bar := progress.Start(cmd.ErrOrStderr(), "sets", sets)
			o.Progress = bar.Add
			r, err := analysis.Rank(newSteps, names, analysis.SearchOptions{Options: o, MinLen: lo, MaxLen: hi}, emax, source, top)
			bar.Stop()
			if err != nil {
				return badInput("%w", err)
			}
			if asJSON {
				return printJSON(cmd.OutOrStdout(), r)
			}
			return r.WriteText(cmd.OutOrStdout())
		},
	}
	f := cmd.Flags()
	f.StringVar(&methods, "methods", "HRD", "method letters to combine")
	f.StringVar(&lengths, "m", "1..7", "sequence lengths: m or m1..m2")
	f.Int64Var(&sets, "sets", 1_000_000, "number of independent sets s")
	f.IntVar(&n, "n", 52, "deck size")
	f.Uint64Var(&seed, "seed", 1, "seed (the same sets as analyze with this seed)")
	f.StringVar(&emaxSpec, "emax", "approx", `e_max: a number, "approx" or "reference"`)
	f.IntVar(&top, "top", 5, "sequences to print per length")
	f.String("shuffle-config", "", "YAML file of shuffle model parameters (default: the built-in defaults)")
	f.IntVar(&workers, "workers", 0, "goroutines (0: all CPUs); results do not depend on it")
	f.BoolVar(&asJSON, "json", false, "print JSON")
	return cmd
}
