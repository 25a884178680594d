package main

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/spf13/cobra"

	"github.com/calcsol/calcsol/configs"
	"github.com/calcsol/calcsol/decks/corpora"
	"github.com/calcsol/calcsol/decks/corpus"
	"github.com/calcsol/calcsol/internal/atomicfile"
	"github.com/calcsol/calcsol/internal/progress"
	"github.com/calcsol/calcsol/solver"
	"github.com/calcsol/calcsol/tournament"
	"github.com/calcsol/calcsol/tournament/report"
)

func newEvalCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "eval [--corpus FILE|NAME] [--strategy NAME] [--table FILE] [--stacks N] [--preplaced] [--format table|json]",
		Short: "Score a strategy on a deck corpus",
		Long: `Play every deck of a corpus with a strategy and report the wins, the success
rate with its Wilson 95 % confidence interval, the mean number of cards placed
on the tables, the strategy's failures (errors, illegal moves, panics; counted
as losses) and the speed in games per second.

With neither --stacks nor --preplaced the strategy is scored on the four
variants {3, 4 stacks} × {base, preplaced} and one table compares them; the
3-stack base row is followed by the figure Nanzaki & Shintani report for
their Table 1: 16,720 of 30,000 decks, 55.73 % (with --wide also as a column
beside it). That is the literature's figure on the authors' own decks, not a
result of this run. The summary fits 100 columns ($COLUMNS when set); where
the corpus has a clairvoyant bound, its table shows only the variants where
some deck is unknown or unwinnable (--wide: all).
With --stacks or --preplaced only that variant is played (3 stacks unless
--stacks says otherwise).

--corpus is a corpus file (one deck per line, cards like "AS 0H KC …"
or 52 rank characters like "603K0443…", '#' metadata lines) or the name of a
corpus built into calcsol (` + strings.Join(corpora.Names(), ", ") + `); an existing file wins
over a name.

--jsonl writes one record per deck, in corpus order (0-based deck index), in
the tournament's record format (docs/tournament.md): the strategy, the corpus
and its checksum, the rules, the outcome and how the game ended:
  {"v":1,"strategy":"priority/nanzaki-shintani","corpus":"uniform-1000","corpus_sha256":"36cb…","rules":"3-base","deck":0,"won":false,"placed":17,"end":"…"}
The records go to standard
output and the summary to standard error, or, with --out FILE, the records to
FILE (written to a temporary file and renamed; the path is checked before
any game is played) and the summary to standard output. --jsonl and --out
play one variant. Compare two such runs deck by deck
with 'calcsol eval compare' (McNemar's test).

--blind, for a strategy that is not trusted, plays decks drawn afresh from
the corpus's generator (its '# generator' line) with a secret seed, in a
secret order, under opaque game ids; the seed's SHA-256 is printed on
standard error before the first game, the seed and the command that writes
the decks after the last.

Exit status: 0; 6 when, under a variant, the strategy failed more than
--max-failed-share of the games (default 0.5) or all of them (a plugin
missing or never starting), after the summary and records are written,
with a line naming the first failure's deck and reason; 1 for a win on a
deck the clairvoyant bound calls unwinnable; 2 for bad input; 130 when
interrupted (nothing written). See docs/eval.md.`,
		Example: `  calcsol eval
  calcsol eval --corpus uniform-1000 --stacks 4
  calcsol eval --corpus my-decks.txt --table my-table.yaml --stacks 3
  calcsol eval --corpus uniform-1000 --out base.jsonl && calcsol eval --corpus uniform-1000 --option deadlock_check=exact --out exact.jsonl
  calcsol eval compare base.jsonl exact.jsonl
  calcsol eval --corpus uniform-1000 --stacks 4 --blind
  calcsol eval --corpus uniform-1000 --stacks 4 --preplaced --format json`,
		Args: cobra.NoArgs,
		RunE: runEval,
	}
	f := cmd.Flags()
	f.String("corpus", corpora.Default, "corpus file, or name of a built-in corpus ("+strings.Join(corpora.Names(), ", ")+")")
	f.Int("workers", runtime.NumCPU(), "games played in parallel")
	f.Bool("reasons", false, "also print, per variant, how the games ended (won, which card exhausted the list, stuck, …)")
	f.Bool("jsonl", false, "print one JSON record per deck (summary to standard error); plays one variant")
	f.String("out", "", "write the JSONL records to this file instead (summary to standard output); plays one variant")
	f.Bool("blind", false, "blind play for an untrusted strategy: the corpus drawn afresh from its generator with a secret seed, revealed at the end")
	f.Bool("wide", false, "the literature's figure as a column and the whole bound table, at any width (the summary fits 100 columns, or $COLUMNS, otherwise)")
	f.String("format", "table", "summary format: table, or json (one object: the corpus and each variant's score)")
	// The games/s column depends on the machine: the golden tests turn it off.
	f.Bool("timing", true, "show the games/s column")
	_ = f.MarkHidden("timing")
	addMaxFailedFlag(cmd)
	addRulesFlags(cmd)
	addStrategyFlags(cmd)
	cmd.AddCommand(newEvalCompareCmd())
	return cmd
}

func init() { rootCmd.AddCommand(newEvalCmd()) }

func runEval(cmd *cobra.Command, _ []string) error {
	f := cmd.Flags()
	corpusArg, _ := f.GetString("corpus")
	workers, _ := f.GetInt("workers")
	jsonl, _ := f.GetBool("jsonl")
	out, _ := f.GetString("out")
	format, _ := f.GetString("format")
	if workers < 1 {
		return badInput("--workers %d: want at least 1", workers)
	}
	if format != "table" && format != "json" {
		return badInput("--format %q: want table or json", format)
	}
	if reasons, _ := f.GetBool("reasons"); reasons && format == "json" {
		return badInput("--reasons prints a table: not with --format json")
	}
	maxFailed, err := maxFailedShare(cmd)
	if err != nil {
		return err
	}
	if out != "" {
		if err := atomicfile.CheckFile(out); err != nil {
			return badInput("--out: %v", err)
		}
	}
	blind, _ := f.GetBool("blind")
	var secret *tournament.Blind
	var cs *corpus.Calculation
	if blind {
		secret, cs, err = blindCorpus(cmd.ErrOrStderr(), corpusArg)
	} else if cs, err = corpus.OpenCalculation(corpusArg, corpusArg); err != nil {
		err = badInput("%v", err)
	}
	if err != nil {
		return err
	}
	variants := []solver.Rules{{Stacks: 3}, {Stacks: 3, Preplaced: true}, {Stacks: 4}, {Stacks: 4, Preplaced: true}}
	if f.Changed("stacks") || f.Changed("preplaced") || jsonl || out != "" {
		r, err := rulesFromFlags(cmd)
		if err != nil {
			return err
		}
		variants = []solver.Rules{r}
	}
	// The summary goes where the records do not.
	summaryOut := cmd.OutOrStdout()
	if jsonl && out == "" {
		summaryOut = cmd.ErrOrStderr()
	}
	ctx := contextOf(cmd)
	// The shared progress line over all variants, drawn only on a terminal.
	bar := progress.Start(cmd.ErrOrStderr(), "games", int64(cs.Len*len(variants)))
	count := bar.Count(0)
	opt := tournament.RunOptions{Workers: workers, Progress: func(done, _ int) { count(done) }, Blind: secret}
	rows, skipped, err := tournament.Variants(ctx, cs, variants, func(r solver.Rules) (solver.Strategy, string, error) { return newStrategy(cmd, r) }, opt)
	bar.Stop()
	if err != nil {
		return err
	}
	// --jsonl and --out play one variant, the last.
	write := func(w io.Writer) error { return rows[len(rows)-1].WriteJSONL(w, cs) }
	if out != "" {
		if err := atomicfile.WriteFunc(out, write); err != nil {
			return err
		}
	} else if jsonl {
		if err := write(cmd.OutOrStdout()); err != nil {
			return err
		}
	}
	label := corpusArg
	if blind {
		label = cs.Name
	}
	wide, _ := f.GetBool("wide")
	timing, _ := f.GetBool("timing")
	ropt := report.Options{Timing: timing, Wide: wide, Width: terminalWidth()}
	bounds, err := configs.ShippedBounds(cs)
	if err != nil {
		return err
	}
	var efficiency []tournament.Efficiency
	if format == "json" {
		// The JSON object alone on its stream; the rest, for people, on
		// standard error.
		if err := report.WriteEvalJSON(summaryOut, cs, rows, ropt); err != nil {
			return err
		}
		for _, msg := range skipped {
			fmt.Fprintln(cmd.ErrOrStderr(), msg)
		}
		efficiency = report.EvalEfficiencies(rows, bounds)
		blindReveal(cmd.ErrOrStderr(), secret, corpusArg)
	} else {
		fmt.Fprintf(summaryOut, "corpus %s: %d decks; workers: %d\n", label, cs.Len, workers)
		fmt.Fprint(summaryOut, report.Wrap("strategy "+report.StrategyLabels(rows), ropt.Width, 2))
		if err := report.WriteEval(summaryOut, rows, ropt); err != nil {
			return err
		}
		for _, msg := range skipped {
			fmt.Fprintln(summaryOut, msg)
		}
		if efficiency, err = report.WriteEvalBounds(summaryOut, rows, bounds, ropt); err != nil {
			return err
		}
		if reasons, _ := f.GetBool("reasons"); reasons {
			if err := report.WriteEndings(summaryOut, rows); err != nil {
				return err
			}
		}
		if out != "" {
			fmt.Fprintf(summaryOut, "per-deck records: %s\n", out)
		}
		blindReveal(summaryOut, secret, corpusArg)
	}
	if err := tournament.CheckPossible(efficiency); err != nil {
		return err
	}
	var failed []tournament.FailedGames
	for _, row := range rows {
		failed = append(failed, row.FailedGames(corpusArg))
	}
	return checkFailures(failed, maxFailed)
}

func newEvalCompareCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "compare A B [--common] [--format table|json]",
		Short: "Compare two runs on the same corpus deck by deck (McNemar's test)",
		Long: `Read the per-deck records of two runs on the same corpus under the same
rules and compare them deck by deck (runs on different corpora or rules are
refused, with the reason): the wins of each, the decks both won, only A won,
only B won, neither won, the difference of the two rates with its paired 95 %
interval (Newcombe's), and the two-sided p-value of McNemar's exact test that
A and B win equally often. Only the decks on which they differ carry
information about which is better; a small p (below 0.05, say) means the
difference in wins is unlikely to be luck of this corpus.

A and B are each a file written by 'calcsol eval --out' (or --jsonl), a
tournament report directory whose config enters one strategy (its
results.jsonl.gz, or an older report's results.jsonl), or several of these
separated by commas: the shards of a sharded tournament, finished or still
running. A quoted glob pattern ('s3p-*') stands for the files or
directories it matches.

The two runs must cover the same decks; --common compares them on the decks
both recorded instead (one run's shards against another's, some of them not
played yet) and says how many decks each had that the other did not. When
one run's decks are a sample of the other's (at least 200 of them), it also
estimates that run's rate on all the other's decks: the other's rate there
plus the mean paired difference, with a 95 % interval (a difference
estimate, valid for a random sample of the decks, as shards are).
See docs/eval.md.`,
		Example: `  calcsol eval --corpus uniform-1000 --out a.jsonl
  calcsol eval --corpus uniform-1000 --table my-table.yaml --out b.jsonl
  calcsol eval compare a.jsonl b.jsonl
  calcsol eval compare --format json a.jsonl b.jsonl
  calcsol tournament base.yaml --shard 1/3 --out base-1     # base.yaml, exact.yaml: one strategy each
  calcsol tournament exact.yaml --shard 1/3 --out exact-1
  calcsol eval compare base-1 exact-1
  calcsol eval compare --common 'base-*' 'exact-*'          # the decks both have recorded so far`,
		Args: cobra.ExactArgs(2),
		RunE: runEvalCompare,
	}
	cmd.Flags().Bool("common", false, "compare the runs on the decks both recorded, leaving out the others")
	cmd.Flags().String("format", "table", "output format: table, json")
	return cmd
}

func runEvalCompare(cmd *cobra.Command, args []string) error {
	common, _ := cmd.Flags().GetBool("common")
	format, _ := cmd.Flags().GetString("format")
	if format != "table" && format != "json" {
		return badInput("--format %q: want table or json", format)
	}
	var sides [2][]string
	for i, arg := range args {
		paths, err := recordPaths(arg)
		if err != nil {
			return badInput("%w", err)
		}
		sides[i] = paths
	}
	c, err := tournament.CompareRuns(sides[0], sides[1], common)
	if mis := (*tournament.DeckMismatchError)(nil); errors.As(err, &mis) && !common && mis.Both > 0 {
		return badInput("compare %s %s: %w; --common compares them on the %d decks both recorded", args[0], args[1], err, mis.Both)
	}
	if err != nil {
		return badInput("%w", err)
	}
	names := [2]string{args[0], args[1]}
	if format == "json" {
		return report.WriteCompareJSON(cmd.OutOrStdout(), names, c)
	}
	return report.WriteCompare(cmd.OutOrStdout(), names, c)
}

// recordPaths splits a compare argument into the files and directories it
// names: comma-separated, each a path or a glob pattern (which must match).
func recordPaths(arg string) ([]string, error) {
	var paths []string
	for _, p := range strings.Split(arg, ",") {
		if p == "" {
			return nil, fmt.Errorf("%q: an empty name in the list", arg)
		}
		if !strings.ContainsAny(p, "*?[") {
			paths = append(paths, p)
			continue
		}
		m, err := filepath.Glob(p)
		if err != nil {
			return nil, fmt.Errorf("%q: %w", p, err)
		}
		if len(m) == 0 {
			return nil, fmt.Errorf("%q: no file or directory matches", p)
		}
		paths = append(paths, m...)
	}
	return paths, nil
}
