package main

// The shuffle-analysis subcommands that simulate: shuffle analyze and
// shuffle emax (the models of package shuffle, the measures of package
// analysis), and the flags all the analyses share.

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/calcsol/calcsol/decks/analysis"
	"github.com/calcsol/calcsol/decks/shuffle"
	"github.com/calcsol/calcsol/internal/atomicfile"
	"github.com/calcsol/calcsol/internal/progress"
)

// emaxHelp documents the --emax flag shared by analyze, exact and search.
const emaxHelp = `e_max for the blue/white/red cells and C: a number (e.g. 5.86e-4),
"approx" (default: the 95 % quantile of max|e| for a uniform shuffle of n
cards and s sets, by a normal approximation (docs/shuffles-analysis.md); 5.86e-4
for n=52, s=10^6), or "reference" (Ide & Okuda's published 5.86e-4, only for
n=52 and s=10^6). "calcsol shuffle emax" calibrates it by simulation.`

// resolveEmax reads --emax (see analysis.ResolveEmax).
func resolveEmax(spec string, n int, sets int64) (float64, string, error) {
	v, source, err := analysis.ResolveEmax(spec, n, sets)
	if err != nil {
		return 0, "", badInput("--emax: %w", err)
	}
	return v, source, nil
}

// checkOptions refuses bad sizes before any other work.
func checkOptions(o analysis.Options) error {
	if err := o.Check(); err != nil {
		return badInput("%w", err)
	}
	return nil
}

// checkOut refuses an unusable output prefix before a long run.
func checkOut(flag, prefix string, suffixes ...string) error {
	if prefix == "" {
		return nil
	}
	if err := atomicfile.CheckPrefix(prefix, suffixes...); err != nil {
		return badInput("%s %s: %w", flag, prefix, err)
	}
	return nil
}

// writePictures writes the pictures, all or none, and says which.
func writePictures(cmd *cobra.Command, pics []atomicfile.Output) error {
	if err := atomicfile.WriteAll(cmd.Context(), pics); err != nil {
		return err
	}
	for _, p := range pics {
		fmt.Fprintf(cmd.ErrOrStderr(), "wrote %s\n", p.Path)
	}
	return nil
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
sequence (e.g. HDHRDHH, D^1R^4, R^7) and measures the result: C, Ide & Okuda's
convergence rate (the share of cells of the position matrix within e_max of
1/n, "C = 0.978(2646)"); max|e|; the mean rising sequences, originally adjacent
pairs and guess-the-next-card score, beside their values for a uniform deck;
and a χ² test of the matrix. Set i has its own generator, so the result does
not depend on --workers. docs/shuffles-analysis.md defines each measure.

` + emaxHelp,
		Example: `  calcsol shuffle analyze --seq HDHRDHH --sets 20000
  calcsol shuffle analyze --seq R^7 --sets 20000 --emax 1e-3 --json
  calcsol shuffle analyze --seq H --sets 20000 --png hindu --pgm hindu`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			o := analysis.Options{N: n, Sets: sets, Seed: seed, Workers: workers, Context: cmd.Context()}
			if err := checkOptions(o); err != nil {
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
			emax, source, err := resolveEmax(emaxSpec, n, sets)
			if err != nil {
				return err
			}
			// Refuse an unusable picture path now, not after the measurement.
			if err := checkOut("--pgm", pgm, "-trial.pgm", "-average.pgm"); err != nil {
				return err
			}
			if err := checkOut("--png", pngPrefix, "-grey.png", "-bwr.png"); err != nil {
				return err
			}
			bar := progress.Start(cmd.ErrOrStderr(), "sets", sets)
			o.Progress = bar.Add
			r, err := analysis.Analyze(sh, o, emax, source)
			bar.Stop()
			if err != nil {
				return err
			}
			if err := writePictures(cmd, r.Pictures(pgm, pngPrefix)); err != nil {
				return err
			}
			if asJSON {
				return printJSON(cmd.OutOrStdout(), r)
			}
			return r.WriteText(cmd.OutOrStdout())
		},
	}
	f := cmd.Flags()
	f.StringVar(&spec, "seq", "HDHRDHH", "shuffle sequence, as in docs/shuffles-models.md")
	f.Int64Var(&sets, "sets", 1_000_000, "number of independent sets s")
	f.IntVar(&n, "n", 52, "deck size")
	f.Uint64Var(&seed, "seed", 1, "seed; each set draws from its own stream derived from the seed\nand its number, so results do not depend on --workers")
	f.StringVar(&emaxSpec, "emax", "approx", `e_max: a number, "approx" or "reference"`)
	f.IntVar(&workers, "workers", 0, "goroutines (0: all CPUs); results do not depend on it")
	f.BoolVar(&asJSON, "json", false, "print JSON")
	f.StringVar(&pgm, "pgm", "", "write PREFIX-trial.pgm (set 0, black = card i at j) and\nPREFIX-average.pgm (Nose & Fukagawa): the raw matrices")
	f.StringVar(&pngPrefix, "png", "", "write PREFIX-grey.png (the average) and PREFIX-bwr.png\n(blue/white/red against e_max): pictures of the matrix with\naxes, title and colour scale")
	f.String("shuffle-config", "", "YAML file of shuffle model parameters (default: the built-in defaults)")
	return cmd
}

func newShuffleEmaxCmd() *cobra.Command {
	var (
		n, repeats, workers int
		sets                int64
		seed                uint64
		asJSON              bool
	)
	cmd := &cobra.Command{
		Use:   "emax",
		Short: "Calibrate e_max by Ide & Okuda's procedure (uniform shuffles)",
		Long: `emax runs Ide & Okuda's calibration: shuffle s sets uniformly (U),
take max|e| of the position matrix; repeat R times; drop the top 5 %
(floor(0.05·R) values); the largest remaining value is e_max, an estimate of
the 95 % quantile of max|e|. It also prints the spread of the R values and
the normal approximation used by --emax approx.

The paper used n=52, s=10^6, R=1000 (≈10^9 shuffles) and found 5.86e-4.`,
		Example: `  calcsol shuffle emax --n 52 --sets 10000 --repeats 20 --seed 1
  calcsol shuffle emax --n 52 --sets 10000 --repeats 40 --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			o := analysis.Options{N: n, Sets: sets, Seed: seed, Workers: workers, Context: cmd.Context()}
			if err := checkOptions(o); err != nil {
				return err
			}
			if repeats < 1 || repeats > 1_000_000 {
				return badInput("--repeats %d: want 1..1000000", repeats)
			}
			bar := progress.Start(cmd.ErrOrStderr(), "sets", sets*int64(repeats))
			o.Progress = bar.Add
			r, err := analysis.CalibrateReport(analysis.Fixed(shuffle.Uniform{}), o, repeats)
			bar.Stop()
			if err != nil {
				return err
			}
			if asJSON {
				return printJSON(cmd.OutOrStdout(), r)
			}
			return r.WriteText(cmd.OutOrStdout())
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
