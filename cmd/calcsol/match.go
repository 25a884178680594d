package main

import (
	"runtime"
	"strings"

	"github.com/spf13/cobra"

	"github.com/calcsol/calcsol/decks/corpora"
	"github.com/calcsol/calcsol/decks/corpus"
	"github.com/calcsol/calcsol/internal/progress"
	"github.com/calcsol/calcsol/solver"
	"github.com/calcsol/calcsol/strategies"
	"github.com/calcsol/calcsol/tournament"
	"github.com/calcsol/calcsol/tournament/report"
	"github.com/calcsol/calcsol/tournament/stats"
)

func newMatchCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "match A B [--stacks N] [--preplaced] [--corpus NAME|FILE] [--max N]",
		Short: "Play two strategies head to head on the same decks until a sequential test decides",
		Long: `Play strategies A and B (any spec, preset or plugin, as --strategy takes
them) on the same decks under one rule variant, the decks in a spread-out
order (a random permutation of the corpus from --order-seed, so that the
decks played by any point are a fair sample), and stop as soon as a
sequential test decides which is stronger, or that neither is stronger by
the odds sought, or after --max decks.

The test looks only at the decks one of the two won and the other lost:
Wald's sequential probability ratio test, two-sided, of "each wins half of
them" against "one wins --odds times as many as the other" (1.5: three of
every five), with a false "stronger" at most --alpha of the time and an
advantage of --odds missed at most --beta of the time. It needs as many
decks as the difference asks: few for a large one, many for a small one.

The verdict gives each side's wins with the Wilson 95 % interval, the decks
only one side won, the paired difference B − A with Newcombe's interval and
McNemar's exact p, and "A is stronger", "B is stronger", "no advantage of
odds … either way" (each with the decks it took), or "no difference shown"
at --max.

--blind, for strategies that are not trusted, plays decks drawn afresh from
the corpus's generator with a secret seed, in an order drawn from it, under
opaque game ids; the seed's SHA-256 is printed on standard error before the
first game, the seed and the command that writes the decks after the last.

Exit status: 0 whatever the verdict; 6 when a side failed more than
--max-failed-share of the decks counted (default 0.5) or all of them (a
plugin missing or never starting: its "losses" say nothing of its play),
after the verdict, with a line naming its first failure's deck and reason;
2 for bad input; 130 when interrupted. See docs/eval.md.`,
		Example: `  calcsol match priority tuned-3 --stacks 3
  calcsol match fast-4p priority:table=tuned-4-preplaced --stacks 4 --preplaced --format json
  calcsol match priority priority:deadlock_check=exact --corpus uniform-1000 --odds 2
  calcsol match priority tuned-4 --stacks 4 --corpus uniform-1000 --blind`,
		Args: cobra.ExactArgs(2),
		RunE: runMatch,
	}
	addRulesFlags(cmd)
	f := cmd.Flags()
	f.String("corpus", corpora.Default, "corpus file, or name of a built-in corpus ("+strings.Join(corpora.Names(), ", ")+")")
	f.Int("max", 0, "play at most this many decks (0: the whole corpus)")
	f.Float64("odds", stats.DefaultSPRT.Odds, "the smallest advantage worth detecting: the stronger wins odds times as many of the decks the two differ on")
	f.Float64("alpha", stats.DefaultSPRT.Alpha, "the chance of a false \"stronger\" when the two are equally strong")
	f.Float64("beta", stats.DefaultSPRT.Beta, "the chance of missing an advantage of --odds")
	f.Uint64("order-seed", 1, "seed of the spread-out order the decks are played in")
	f.Uint64("seed", 1, "run seed: stochastic strategies' game seeds derive from it")
	f.Int("workers", runtime.GOMAXPROCS(0), "games played in parallel")
	f.String("format", "text", "output format: text, json")
	f.Bool("blind", false, "blind play for untrusted strategies: the corpus drawn afresh with a secret seed (and the order of play from it), revealed at the end")
	addMaxFailedFlag(cmd)
	return cmd
}

func init() { rootCmd.AddCommand(newMatchCmd()) }

func runMatch(cmd *cobra.Command, args []string) error {
	f := cmd.Flags()
	format, _ := f.GetString("format")
	if format != "text" && format != "json" {
		return badInput("--format %q: want text or json", format)
	}
	r, err := rulesFromFlags(cmd)
	if err != nil {
		return err
	}
	var opt tournament.MatchOptions
	opt.Rules = r
	opt.Max, _ = f.GetInt("max")
	opt.Test.Odds, _ = f.GetFloat64("odds")
	opt.Test.Alpha, _ = f.GetFloat64("alpha")
	opt.Test.Beta, _ = f.GetFloat64("beta")
	opt.OrderSeed, _ = f.GetUint64("order-seed")
	opt.Seed, _ = f.GetUint64("seed")
	opt.Workers, _ = f.GetInt("workers")
	switch err := opt.Test.Check(); {
	case err != nil:
		return badInput("--odds, --alpha, --beta: %v", err)
	case opt.Max < 0:
		return badInput("--max %d: want 0 (the whole corpus) or more", opt.Max)
	case opt.Workers < 1:
		return badInput("--workers %d: want at least 1", opt.Workers)
	}
	maxFailed, err := maxFailedShare(cmd)
	if err != nil {
		return err
	}
	// The strategies first: a misspelt spec costs no corpus load (nor a
	// blind corpus drawn and announced). Building starts no plugin.
	reg := strategyRegistry()
	var sides [2]solver.Strategy
	for i, spec := range args {
		s, _, err := reg.Build(strategies.CommandLine{Spec: spec}, r)
		if err != nil {
			return badInput("%s %q: %w", "AB"[i:i+1], spec, err)
		}
		sides[i] = s
	}
	corpusArg, _ := f.GetString("corpus")
	blind, _ := f.GetBool("blind")
	var secret *tournament.Blind
	if blind {
		if f.Changed("order-seed") {
			return badInput("--blind: the order of play is drawn from the secret seed; leave out --order-seed")
		}
		if secret, opt.Corpus, err = blindCorpus(cmd.ErrOrStderr(), corpusArg); err != nil {
			return err
		}
		opt.OrderSeed = secret.MatchOrderSeed()
		opt.Seed ^= secret.GameSeedBase()
		opt.GameIDs = secret.GameIDs("match")
	} else if opt.Corpus, err = corpus.OpenCalculation(corpusArg, corpusArg); err != nil {
		return badInput("%v", err)
	}
	for _, s := range sides {
		if b, ok := s.(solver.Batcher); ok {
			opt.Batch = max(opt.Batch, b.BatchSize())
		}
	}
	total := opt.Corpus.Len
	if opt.Max > 0 {
		total = min(total, opt.Max)
	}
	bar := progress.Start(cmd.ErrOrStderr(), "decks", int64(total))
	count := bar.Count(0)
	opt.Progress = count
	m, err := tournament.Match(contextOf(cmd), sides[0], sides[1], [2]string{args[0], args[1]}, opt)
	bar.Stop()
	if err != nil {
		return err
	}
	blindReveal(cmd.ErrOrStderr(), secret, corpusArg)
	if format == "json" {
		err = report.WriteMatchJSON(cmd.OutOrStdout(), m)
	} else {
		err = report.WriteMatch(cmd.OutOrStdout(), m)
	}
	if err != nil {
		return err
	}
	return checkFailures(m.FailedGames(), maxFailed)
}
