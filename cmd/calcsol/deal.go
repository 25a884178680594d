package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/calcsol/calcsol/decks/deal"
	"github.com/calcsol/calcsol/internal/textblock"
	"github.com/calcsol/calcsol/internal/texttable"
)

func newDealCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "deal",
		Short: "Deal generators: biased deals of a 52-card deck to 3..5 players",
		Long: `Deal generators (Shimosawa & Arakawa): a uniformly shuffled 52-card deck is
dealt round-robin to 3..5 players, then adjusted by |adjust| exchanges of one
card between two players (adjust -100..100: positive makes hands more biased
toward the target, negative less, 0 leaves the deal as dealt). Targets: pairs
(sets of a rank), runs (same-suit consecutive ranks), suits (concentration),
both (pairs+runs), or a priority like runs>pairs. docs/corpora.md defines an
exchange exactly. "calcsol corpus generate --deal PARAMS" makes a corpus of such
deals, gathered back into stocks.`,
	}
	cmd.AddCommand(newDealStatsCmd(), newDealShowCmd())
	return cmd
}

func init() { rootCmd.AddCommand(newDealCmd()) }

func newDealStatsCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "stats",
		Short: "Mean pairs, triples, quads and runs per hand for a range of adjust values",
		Long: `Deal --deals uniformly shuffled decks (those of "shuffle U" with --seed),
adjust each deal with every value from --from to --to by --step, and print
per-hand means: pairs, triples, quads (ranks held 2, 3, 4 times), runs
(same-suit runs of 3+ ranks), links and pair score (the runs and pairs
objectives), top suit (cards of the most common suit), and per deal the
exchanges that swapped cards and that were proposed. --count says what an
adjust value counts: proposals (default) or swaps (at most 10,000 proposals a
deal). Every value is measured on the same deals; docs/corpora.md defines each
measure.`,
		Example: `  calcsol deal stats --players 4 --target pairs --from -100 --to 100 --step 20 --deals 2000 --seed 1
  calcsol deal stats --target 'runs>pairs' --deals 500`,
		Args: cobra.NoArgs,
		RunE: runDealStats,
	}
	f := cmd.Flags()
	f.Int("players", 4, "players, 3..5")
	f.String("target", "pairs", "target: pairs, runs, suits, both, or a priority like runs>pairs")
	f.Int("from", -100, "first adjust value")
	f.Int("to", 100, "last adjust value")
	f.Int("step", 20, "step between adjust values")
	f.Int("deals", 1000, "number of deals")
	f.Uint64("seed", 1, "seed of the shuffles")
	f.String("count", "proposals", "what adjust counts: proposals or swaps")
	return cmd
}

func newDealShowCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "show --deal PARAMS",
		Short: "Show one deal's hands before and after the adjustment",
		Long: `Deal one uniformly shuffled deck (the first deck of "shuffle U" with --seed)
with the deal spec, and print every hand as dealt and as adjusted, with its
measures, then the gathered stock (the deck "corpus generate --deal" writes).`,
		Example: `  calcsol deal show --deal players=4,adjust=20,target=pairs --seed 1`,
		Args:    cobra.NoArgs,
		RunE:    runDealShow,
	}
	cmd.Flags().String("deal", "players=4,adjust=20,target=pairs", "deal spec (players=…,adjust=…,target=…,gather=…,count=…)")
	cmd.Flags().Uint64("seed", 1, "seed of the shuffle")
	return cmd
}

func runDealStats(cmd *cobra.Command, _ []string) error {
	f := cmd.Flags()
	players, _ := f.GetInt("players")
	target, _ := f.GetString("target")
	from, _ := f.GetInt("from")
	to, _ := f.GetInt("to")
	step, _ := f.GetInt("step")
	deals, _ := f.GetInt("deals")
	seed, _ := f.GetUint64("seed")
	countName, _ := f.GetString("count")
	count, err := deal.ParseCount(countName)
	if err != nil {
		return badInput("--count %s: want proposals or swaps", countName)
	}
	tg, err := deal.ParseTarget(target)
	if err != nil {
		return badInput("--target: %w", err)
	}
	adjusts, err := deal.Adjusts(from, to, step)
	if err != nil {
		return badInput("--from/--to/--step: %w", err)
	}
	rows, err := deal.StatsCount(players, tg, adjusts, count, deals, seed)
	if err != nil {
		return badInput("%w", err)
	}
	w := cmd.OutOrStdout()
	fmt.Fprintf(w, "%s to %d players, target %s, adjust counts %s, seed %d (means per hand)\n", textblock.Plural(deals, "deal"), players, tg, count, seed)
	return texttable.Rows(w, deal.MeansHeader, rows)
}

func runDealShow(cmd *cobra.Command, _ []string) error {
	spec, _ := cmd.Flags().GetString("deal")
	seed, _ := cmd.Flags().GetUint64("seed")
	d, err := deal.ParseSpec(spec)
	if err != nil {
		return badInput("--deal: %w", err)
	}
	return deal.WriteShow(cmd.OutOrStdout(), d, seed)
}
