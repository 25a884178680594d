package main

// The shuffle command: its parent, and the apply, costs and params
// subcommands. The analyses are in shuffle_analyze.go and shuffle_search.go.

import (
	"errors"
	"strings"

	"github.com/spf13/cobra"

	"github.com/calcsol/calcsol/configs"
	"github.com/calcsol/calcsol/decks/shuffle"
	"github.com/calcsol/calcsol/internal/texttable"
)

func newShuffleCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "shuffle",
		Short: "Apply, cost and analyse shuffle models (C H R F D O U)",
		Long: `Shuffle models (docs/shuffles-models.md), written as sequences of letters,
each optionally raised to a count: "HDHRDHH", "D^1R^4", "C^30".

  C  cut at a normal position N(n/2, 5), swap the halves          (Nose & Fukagawa)
  H  Hindu: packets of N(10, 5/3) cards off the top, each laid
     on the previous ones                                       (Ide & Okuda)
  R  riffle, Gilbert–Shannon–Reeds
  F  faro, perfect out-shuffle (in-shuffle as an option)
  D  deal onto 10 piles, stack them 1,3,5,7,9,2,4,6,8,10 from the top (Ide & Okuda)
  O  overhand, Pemantle's model: cut each gap with probability 0.1,
     reverse the packets
  U  uniform (Fisher–Yates)

Every parameter can be changed in a YAML file given with --shuffle-config
("calcsol shuffle params" prints the defaults with their sources). See
docs/shuffles-models.md.`,
		Example: `  calcsol shuffle apply --seq HDHRDHH --n 52 --seed 1
  calcsol shuffle costs --limit 60 --methods HRD --one-deal
  calcsol shuffle costs --limit 60 --repeat`,
	}
	cmd.AddCommand(newShuffleApplyCmd(), newShuffleCostsCmd(), newShuffleParamsCmd(),
		newShuffleAnalyzeCmd(), newShuffleEmaxCmd(), newShuffleExactCmd(), newShuffleSearchCmd())
	return cmd
}

func init() { rootCmd.AddCommand(newShuffleCmd()) }

// loadShuffleParams reads --shuffle-config (empty: the built-in defaults).
func loadShuffleParams(cmd *cobra.Command) (shuffle.Params, error) {
	file, _ := cmd.Flags().GetString("shuffle-config")
	p, err := configs.LoadShuffleParams(file)
	if err != nil {
		return p, badInput("--shuffle-config: %w", err)
	}
	return p, nil
}

func newShuffleApplyCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "apply",
		Short: "Shuffle an unshuffled deck with a sequence and print where the cards went",
		Long: `Start from the unshuffled deck (card i at position i, i = 1..n), apply the
sequence --seq with the random generator of --seed, and print one line:

  --show pi    (default) π(1) π(2) … π(n): π(i) is the position where card i
               ended, as in the worked examples of docs/shuffles-models.md;
  --show deck  the deck from the top: the card now at position 1, 2, …, n.

With --sets k, k lines are printed: k independent shuffles, each of a fresh
deck, drawing from one generator seeded with --seed. The same flags give the
same lines on every machine.`,
		Example: `  calcsol shuffle apply --seq HDHRDHH --n 52 --seed 1
  calcsol shuffle apply --seq D --n 10 --show deck
  calcsol shuffle apply --seq 'D^1R^4' --sets 3 --shuffle-config my-shuffles.yaml`,
		Args: cobra.NoArgs,
		RunE: runShuffleApply,
	}
	f := cmd.Flags()
	f.String("seq", "", "shuffle sequence, e.g. HDHRDHH, D^1R^4, C^30 (required)")
	f.Int("n", 52, "number of cards")
	f.Uint64("seed", 1, "seed of the random generator")
	f.Int("sets", 1, "number of independent shuffles to print")
	f.String("show", "pi", "what to print: pi (where each card went) or deck (the new order)")
	f.String("shuffle-config", "", "YAML file of shuffle model parameters (default: the built-in defaults)")
	return cmd
}

func runShuffleApply(cmd *cobra.Command, _ []string) error {
	f := cmd.Flags()
	spec, _ := f.GetString("seq")
	n, _ := f.GetInt("n")
	seed, _ := f.GetUint64("seed")
	sets, _ := f.GetInt("sets")
	show, _ := f.GetString("show")
	if strings.TrimSpace(spec) == "" {
		return badInput("--seq is required (e.g. --seq HDHRDHH)")
	}
	if n < 0 || n > 1_000_000 {
		return badInput("--n %d: want 0..1000000 cards", n)
	}
	if sets < 1 || sets > 1_000_000_000 {
		return badInput("--sets %d: want 1..1000000000", sets)
	}
	if show != "pi" && show != "deck" {
		return badInput("--show %q: want pi or deck", show)
	}
	p, err := loadShuffleParams(cmd)
	if err != nil {
		return err
	}
	seq, err := shuffle.ParseSequence(spec, p)
	if err != nil {
		return badInput("--seq: %w", err)
	}
	return shuffle.WriteApply(cmd.Context(), cmd.OutOrStdout(), seq, n, seed, sets, show == "pi")
}

func newShuffleCostsCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "costs",
		Short: "Shuffle plans that fit a time limit (Nose & Fukagawa's time costs)",
		Long: `Time costs per shuffle (Nose & Fukagawa, Table 1): C 2 s, H 3 s, F 7 s,
D 30 s; R is costed as F; O and U have none unless --shuffle-config gives them one.

With --repeat: each method repeated as often as fits in --limit seconds.
Otherwise: every maximal combination of --methods (default HRD) that fits —
no further shuffle of any method would — with its number of orderings;
--one-deal uses D exactly once, --list prints every ordering, one per line.
Limits (exit status 2 beyond them): --limit at most 3600 s, 100,000
combinations, 1,000,000 listed orderings. See docs/shuffles-models.md.`,
		Example: `  calcsol shuffle costs --limit 60 --methods HRD --one-deal
  calcsol shuffle costs --limit 60 --methods HRD --one-deal --list
  calcsol shuffle costs --limit 12 --repeat --methods CHFD`,
		Args: cobra.NoArgs,
		RunE: runShuffleCosts,
	}
	f := cmd.Flags()
	f.Int("limit", 60, "time limit T in seconds")
	f.String("methods", "", "letters of the methods to combine (default HRD; with --repeat every costed letter)")
	f.Bool("one-deal", false, "use the deal D exactly once")
	f.Bool("repeat", false, "repeat each method alone as often as fits")
	f.Bool("list", false, "print every ordering, one per line, instead of the table")
	f.String("shuffle-config", "", "YAML file of shuffle parameters whose costs: section replaces the time costs")
	return cmd
}

func runShuffleCosts(cmd *cobra.Command, _ []string) error {
	f := cmd.Flags()
	limit, _ := f.GetInt("limit")
	methods, _ := f.GetString("methods")
	oneDeal, _ := f.GetBool("one-deal")
	repeat, _ := f.GetBool("repeat")
	list, _ := f.GetBool("list")
	if limit < 0 || limit > shuffle.MaxCostLimit {
		return badInput("--limit %d: want seconds in 0..%d", limit, shuffle.MaxCostLimit)
	}
	p, err := loadShuffleParams(cmd)
	if err != nil {
		return err
	}
	costs := p.Costs
	w := cmd.OutOrStdout()
	if repeat {
		if oneDeal || list {
			return badInput("--repeat does not combine with --one-deal or --list")
		}
		terms, err := costs.RepeatAll(methods, limit)
		if err != nil {
			return badInput("%w", err)
		}
		return texttable.Write(w, []string{"plan", "s each", "s used"}, costs.RepeatRows(terms))
	}
	if methods == "" {
		methods = "HRD"
	}
	if oneDeal && !strings.ContainsAny(methods, "Dd") {
		return badInput("--one-deal uses the deal D once, but --methods %q has no D (add it: --methods %sD)", methods, methods)
	}
	combs, err := costs.Maximal(methods, limit, oneDeal)
	if err != nil {
		return badInput("--limit %d: %w", limit, err)
	}
	if !list {
		rows, footer := costs.CombinationRows(combs)
		return texttable.Write(w, []string{"combination", "shuffles", "s used", "orderings"}, rows, footer...)
	}
	err = shuffle.WriteOrderings(w, combs)
	if errors.Is(err, shuffle.ErrTooManyOrderings) {
		return badInput("--list: %w; print the table without --list, or use fewer methods or a smaller limit", err)
	}
	return err
}

func newShuffleParamsCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "params",
		Short: "Print the default shuffle parameters as YAML, with their sources",
		Long: `Print configs/shuffles.yaml, the built-in shuffle model parameters and time
costs, each commented with its source (Nose & Fukagawa / Ide & Okuda). Save it, edit it,
and pass it back with --shuffle-config.`,
		Example: `  calcsol shuffle params > my-shuffles.yaml
  calcsol shuffle apply --seq H --shuffle-config my-shuffles.yaml`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			_, err := cmd.OutOrStdout().Write(configs.ShufflesYAML())
			return err
		},
	}
}
