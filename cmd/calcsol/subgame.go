package main

import (
	"fmt"
	"path/filepath"
	"runtime"
	"time"

	"github.com/spf13/cobra"

	"github.com/calcsol/calcsol/internal/textblock"
	"github.com/calcsol/calcsol/subgame"
)

func newSubgameCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "subgame",
		Short: "The stack game: a simplified Calculation solved exhaustively into a table",
		Long: `The stack game keeps the order in which cards are needed against the order
in which they come, and drops the rest: m cards needed one after another,
S stacks, a card put on a card needed before it lost. Every position is
solved exactly; the table of their win probabilities is what the subgame
player reads (--strategy …+subgame). See docs/subgame.md.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
	}
	cmd.AddCommand(newSubgameBuildCmd())
	return cmd
}

func newSubgameBuildCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "build [--stacks N] [--cards M] [--out FILE]",
		Short: "Solve the stack game and write its table",
		Long: `Solve every position of the stack game with --stacks stacks and up to
--cards cards, and write the table: to --out, or to the cache the players
read it from (` + "$" + subgame.CacheEnv + `, or calcsol under the user's cache directory),
where a player otherwise builds it on first use. The table is the same,
byte for byte, on every machine: its SHA-256 is printed, and for the
default tables checked against the sum the solver is known to give.

It prints the positions and bytes, the build time and the memory
allocated, and each layer's value with every card in the stock: the
probability that best play wins m cards dealt in a random order.`,
		Example: `  calcsol subgame build --stacks 2
  calcsol subgame build --stacks 2 --cards 8 --out s2.bin`,
		Args: cobra.NoArgs,
		RunE: runSubgameBuild,
	}
	cmd.Flags().Int("stacks", 3, fmt.Sprintf("number of stacks, 1..%d", subgame.MaxStacks))
	cmd.Flags().Int("cards", 0, fmt.Sprintf("cards the table covers, 1..%d (0: the default, 12 with 3 stacks, 10 with 4)", subgame.MaxCards))
	cmd.Flags().String("out", "", "write the table to this file instead of the cache")
	return cmd
}

func init() { rootCmd.AddCommand(newSubgameCmd()) }

func runSubgameBuild(cmd *cobra.Command, _ []string) error {
	stacks, _ := cmd.Flags().GetInt("stacks")
	cards, _ := cmd.Flags().GetInt("cards")
	out, _ := cmd.Flags().GetString("out")
	if cards == 0 && stacks >= 1 && stacks <= subgame.MaxStacks {
		cards = subgame.DefaultCards(stacks)
	}
	k := subgame.Key{Stacks: stacks, Cards: cards}
	if err := k.Validate(); err != nil {
		return badInput("--stacks, --cards: %v", err)
	}
	if out == "" {
		dir := subgame.DefaultDir()
		if dir == "" {
			return badInput("no cache directory (set $%s, or give --out)", subgame.CacheEnv)
		}
		out = filepath.Join(dir, subgame.FileName(k))
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	start := time.Now()
	t, err := subgame.Build(cmd.Context(), k)
	if err != nil {
		return err
	}
	took := time.Since(start)
	runtime.ReadMemStats(&after)
	if err := t.WriteFile(out); err != nil {
		return err
	}
	w := cmd.OutOrStdout()
	fmt.Fprintf(w, "stack game, %d stacks, up to %d cards: %s positions, %s bytes\n",
		k.Stacks, k.Cards, textblock.Group(int64(k.Entries())), textblock.Group(int64(2*k.Entries())))
	fmt.Fprintf(w, "built in %v, %s KB allocated\n", took.Round(time.Millisecond),
		textblock.Group(int64((after.TotalAlloc-before.TotalAlloc)>>10)))
	sum := t.Sum()
	known := "no sum pinned"
	if want, ok := subgame.KnownSums[k]; ok {
		known = "the known sum"
		if want != sum {
			known = "NOT the known sum"
		}
	}
	fmt.Fprintf(w, "sha256 %s (%s)\n", sum, known)
	fmt.Fprintf(w, "written to %s\n", out)
	fmt.Fprintln(w, "cards  win probability with every card in the stock")
	for m := 1; m <= k.Cards; m++ {
		v := t.Value(&subgame.Position{Cards: m})
		fmt.Fprintf(w, "%5d  %6.2f %%\n", m, 100*float64(v)/subgame.Scale)
	}
	if want, ok := subgame.KnownSums[k]; ok && want != sum {
		return fmt.Errorf("the table's sum %s is not the known %s: the solver changed", sum, want)
	}
	return nil
}
