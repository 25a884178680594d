package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/calcsol/calcsol/internal/textblock"
	"github.com/calcsol/calcsol/solver"
)

func newReplayCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "replay --deck DECK --trace TRACE",
		Short: "Check a trace against a deck and show where it leads",
		Long: `Replay a trace in Nanzaki & Shintani's notation (yx, ySx, yS, Syx; space separated)
against a deck under the given rules. Every move must match the deck (the
drawn card, the stack top) and be legal; the first that is not is reported
with its number and the reason, and calcsol exits with status 2. Otherwise the
position reached is printed. --trace - reads the trace from standard input, so
that a trace from 'calcsol play --json' or a paper can be checked.`,
		Example: `  calcsol replay --deck A3474AK0JJ77Q580Q626639695324880KJAK2047A85Q25KJ99Q3 --trace 'A1 33 44 7X3'
  calcsol replay --deck A3474AK0JJ77Q580Q626639695324880KJAK2047A85Q25KJ99Q3 --trace - < trace.txt`,
		Args: cobra.NoArgs,
		RunE: runReplay,
	}
	cmd.Flags().String("deck", "", "the deck (52 ranks like 603K0443… or 52 cards like AS 0H …; - for standard input, then --trace may not be -)")
	cmd.Flags().String("trace", "", "the moves, space separated (required; - for standard input)")
	addRulesFlags(cmd)
	return cmd
}

func init() { rootCmd.AddCommand(newReplayCmd()) }

func runReplay(cmd *cobra.Command, _ []string) error {
	traceArg, _ := cmd.Flags().GetString("trace")
	if traceArg == "" {
		return badInput("--trace is required (the moves, space separated, like \"A1 33 44 7X3\"; - for standard input)")
	}
	if deckArg, _ := cmd.Flags().GetString("deck"); deckArg == "-" && traceArg == "-" {
		return badInput("--deck and --trace cannot both read standard input")
	}
	deck, err := deckFromFlag(cmd)
	if err != nil {
		return err
	}
	if traceArg == "-" {
		if traceArg, err = readStdin(cmd, "--trace -"); err != nil {
			return err
		}
	}
	rules, err := rulesFromFlags(cmd)
	if err != nil {
		return err
	}
	moves, err := solver.ParseTrace(strings.TrimSpace(traceArg), rules)
	if err != nil {
		return badInput("%v", err)
	}
	g, err := solver.Replay(&deck, rules, moves)
	if err != nil {
		var re *solver.ReplayError
		if errors.As(err, &re) {
			return badInput("trace: %v", err)
		}
		return err
	}
	out := cmd.OutOrStdout()
	state := "in progress"
	switch {
	case g.Won():
		state = "won"
	case g.Over():
		state = "lost: the stock is empty and no stack top can move"
	}
	fmt.Fprintf(out, "%s, all legal; %d of 52 cards on the tables; %s\n", textblock.Plural(len(moves), "move"), g.TotalPlaced(), state)
	fmt.Fprint(out, textblock.Indent(g.String(), "  "))
	return nil
}
