package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/spf13/cobra"

	"github.com/calcsol/calcsol/configs"
	"github.com/calcsol/calcsol/internal/atomicfile"
	"github.com/calcsol/calcsol/internal/exitcode"
	"github.com/calcsol/calcsol/tune"
)

func newTuneCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "tune --out FILE.yaml [--table FILE] [--strategy KIND[:params] --param NAME ...]",
		Short: "Search for a stronger priority table or strategy parameters",
		Long: `Search, by iterated local search (Lourenço, Martin & Stützle), for a priority
table, or values of a strategy's declared parameters, that win more games.
A move changes one rank's operation list (swap two operations, move one,
insert or drop one of T1–T4, N1–N4, S1–S4 for each stack S, and with
--extended-ops F1–F4, E1–E4), one table option
(--options), or one parameter (--param). A candidate is played on the same
training decks as the point it would replace and accepted only when McNemar's
exact test on the decks one of them alone wins says it is better (--alpha),
or when it wins --margin more of them. Every accepted point is scored on the
validation decks; the best there is the result. The start and the result are
then scored on the test decks, which the search never saw.

The corpora are corpus specs (configs/tune/*.yaml, shipped: tune-train,
tune-validate, tune-test; any YAML with deck, shuffle, count, seed), corpus
files, or built-in corpora. They are made on the fly and named by checksum.

Outputs: --out, the best table as a table file (eval and tournament load it
unchanged), with its provenance in comments; --log, the search as JSON lines;
--chart, the tuning curve as a PNG. With --evals the search is deterministic
(same seed, corpora, start: same log and table); --time is not. Interrupted
(Ctrl-C, SIGTERM, SIGHUP: exit 130), it keeps its log: --resume LOG continues
it to the same result as an uninterrupted run. See docs/tuning.md.`,
		Example: `  calcsol tune --table nanzaki-shintani --stacks 3 --evals 30 --seed 4 --out tuned.yaml
  calcsol tune --table nanzaki-shintani --stacks 3 --evals 40 --seed 4 --out tuned.yaml --resume tuned.jsonl
  calcsol tune --table nanzaki-shintani --options deadlock_check,tx_respects_reservation --evals 20 --out t.yaml
  calcsol tune --strategy priority --no-ops --param deadlock_check --evals 5 --out p.yaml`,
		Args: cobra.NoArgs,
		RunE: runTune,
	}
	f := cmd.Flags()
	f.String("train", "tune-train", "training corpus: spec, file or built-in name")
	f.String("validate", "tune-validate", "validation corpus")
	f.String("test", "tune-test", `test corpus, scored once at the end ("" to skip)`)
	f.StringArray("param", nil, "a declared parameter of the strategy to tune (repeatable)")
	f.Bool("no-ops", false, "leave the table's operation lists alone (tune only --options and --param)")
	f.Bool("extended-ops", false, "let inserts choose calcsol's fit (F1–F4) and empty-stack (E1–E4) operations too (docs/priority.md)")
	f.StringSlice("options", nil, "table options the search may change: "+strings.Join(tune.OptionNames(), ", "))
	f.Uint64("seed", 1, "seed of the search's moves")
	f.Int("evals", 2000, "budget: candidates scored on the training decks (0: only --time)")
	f.Duration("time", 0, "budget in wall-clock time, e.g. 10m (not deterministic)")
	f.Float64("alpha", tune.DefaultAccept.Alpha, "accept a candidate when McNemar's exact p is below this")
	f.Int("margin", 0, "instead of the test, accept a candidate that wins this many more decks")
	f.Float64("race", 0.25, "play candidates first on this share of the training decks and drop the clearly worse (0: off)")
	f.Float64("race-alpha", 0.001, "drop a candidate after the first share when it is worse at this level")
	f.Int("patience", 200, "rejected neighbours in a row before a kick")
	f.Int("kick", 3, "random moves in a kick")
	f.Int("workers", runtime.NumCPU(), "games played in parallel")
	f.String("out", "", "write the best table (or parameters) here, YAML (required)")
	f.String("name", "", "name of the tuned table (default: --out's base name)")
	f.String("log", "", "the search log, JSON lines (default: --out with .jsonl)")
	f.String("chart", "", "the tuning curve, PNG (default: --out with .png)")
	f.String("resume", "", "continue the search whose log this is")
	addRulesFlags(cmd)
	addStrategyFlags(cmd)
	return cmd
}

func init() { rootCmd.AddCommand(newTuneCmd()) }

// withExt replaces path's extension.
func withExt(path, ext string) string {
	return strings.TrimSuffix(path, filepath.Ext(path)) + ext
}

func runTune(cmd *cobra.Command, _ []string) error {
	f := cmd.Flags()
	out, _ := f.GetString("out")
	if out == "" {
		return badInput("--out FILE.yaml is required")
	}
	logPath, _ := f.GetString("log")
	if logPath == "" {
		logPath = withExt(out, ".jsonl")
	}
	chartPath, _ := f.GetString("chart")
	if chartPath == "" {
		chartPath = withExt(out, ".png")
	}
	for _, p := range []string{out, logPath, chartPath} {
		if err := atomicfile.CheckFile(p); err != nil {
			return badInput("--out: %w", err)
		}
	}
	r, err := rulesFromFlags(cmd)
	if err != nil {
		return err
	}
	var in tune.SetupInput
	in.Spec, _ = f.GetString("strategy")
	in.Table, _ = f.GetString("table")
	in.Options, _ = f.GetStringArray("option")
	in.Params, _ = f.GetStringArray("param")
	in.NoOps, _ = f.GetBool("no-ops")
	in.Extended, _ = f.GetBool("extended-ops")
	in.Tune, _ = f.GetStringSlice("options")
	setup, err := tune.NewSetup(strategyRegistry(), in, r, configs.LoadPriorityFor)
	if err != nil {
		return badInput("%w", err)
	}
	job := tune.Job{Setup: setup, Specs: configs.TuneCorpusSpec, Out: out, Log: logPath, Chart: chartPath,
		Name: outName(cmd, out), Args: os.Args[1:], FormatTable: configs.FormatPriority}
	job.Train, _ = f.GetString("train")
	job.Validate, _ = f.GetString("validate")
	job.Test, _ = f.GetString("test")
	job.Resume, _ = f.GetString("resume")
	opt := &job.Options
	opt.Rules = r
	opt.Seed, _ = f.GetUint64("seed")
	opt.Evals, _ = f.GetInt("evals")
	opt.Time, _ = f.GetDuration("time")
	opt.Accept.Alpha, _ = f.GetFloat64("alpha")
	opt.Accept.Margin, _ = f.GetInt("margin")
	opt.Race, _ = f.GetFloat64("race")
	opt.RaceAlpha, _ = f.GetFloat64("race-alpha")
	opt.Patience, _ = f.GetInt("patience")
	opt.Kick, _ = f.GetInt("kick")
	opt.Workers, _ = f.GetInt("workers")
	if opt.Evals < 0 || (opt.Evals == 0 && opt.Time <= 0) {
		return badInput("give --evals N (N > 0) or --time D")
	}
	if opt.Accept.Margin == 0 && (opt.Accept.Alpha <= 0 || opt.Accept.Alpha >= 1) {
		return badInput("--alpha %g: want a level between 0 and 1", opt.Accept.Alpha)
	}
	opt.Progress = tune.ProgressLine(cmd.ErrOrStderr())
	job.Text = cmd.OutOrStdout()
	searched := false
	job.Searched = func() {
		searched = true
		fmt.Fprintln(cmd.ErrOrStderr()) // the end of the progress line
	}
	ctx, stop := signalContext(cmd)
	defer stop()
	o, err := tune.Run(ctx, job)
	if o != nil && !searched {
		fmt.Fprintln(cmd.ErrOrStderr())
	}
	var ie *tune.InputError
	switch {
	case errors.As(err, &ie) && errors.Is(ie.Err, tune.ErrNoCorpus):
		return badInput("--train and --validate are required")
	case errors.As(err, &ie) && ie.What == "":
		return badInput("%w", ie.Err)
	case errors.As(err, &ie):
		return badInput("--%s: %v", ie.What, ie.Err)
	case err != nil && o != nil && !searched && ctx.Err() != nil:
		return exitcode.Error{Code: exitcode.Interrupted, Err: fmt.Errorf("interrupted after %d evaluations; continue with --resume %s", o.Result.Evals, logPath)}
	case err != nil:
		return err
	}
	fmt.Fprintf(job.Text, "wrote %s, %s, %s\n", out, logPath, chartPath)
	return nil
}

func outName(cmd *cobra.Command, out string) string {
	if name, _ := cmd.Flags().GetString("name"); name != "" {
		return name
	}
	return strings.TrimSuffix(filepath.Base(out), filepath.Ext(out))
}
