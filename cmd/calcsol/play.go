package main

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/calcsol/calcsol/decks/corpus"
	"github.com/calcsol/calcsol/internal/textblock"
	"github.com/calcsol/calcsol/solver"
)

func newPlayCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "play --deck DECK",
		Short: "Play one deck and print the trace and the result",
		Long: `Play one deck with a strategy and print its trace in the notation of Nanzaki & Shintani
(yx: drawn card y to table x; ySx: y onto stack S, meant for table x;
Syx: top card y of stack S to table x) and how the game ended.

The deck is 52 ranks top first (A 2 … 9 0 J Q K, T also read as ten), like
603K0443…, or 52 two-character cards rank+suit separated by spaces (AS 0H KC …).
--deck - reads it from standard input.`,
		Example: `  calcsol play --deck A3474AK0JJ77Q580Q626639695324880KJAK2047A85Q25KJ99Q3
  calcsol play --deck A3474AK0JJ77Q580Q626639695324880KJAK2047A85Q25KJ99Q3 --stacks 4 --json
  calcsol play --deck A3474AK0JJ77Q580Q626639695324880KJAK2047A85Q25KJ99Q3 --option deadlock_check=exact`,
		Args: cobra.NoArgs,
		RunE: runPlay,
	}
	cmd.Flags().String("deck", "", "the deck to play (required; - for standard input)")
	cmd.Flags().Bool("json", false, `print {"won":bool,"trace":[…],"placed":N,"reason":"…"}`)
	addRulesFlags(cmd)
	addStrategyFlags(cmd)
	return cmd
}

func init() { rootCmd.AddCommand(newPlayCmd()) }

// playJSON is the --json output of calcsol play.
type playJSON struct {
	Won    bool     `json:"won"`
	Trace  []string `json:"trace"`
	Placed int      `json:"placed"`
	Reason string   `json:"reason"`
}

func runPlay(cmd *cobra.Command, _ []string) error {
	deck, err := deckFromFlag(cmd)
	if err != nil {
		return err
	}
	rules, err := rulesFromFlags(cmd)
	if err != nil {
		return err
	}
	strategy, label, err := newStrategy(cmd, rules)
	if err != nil {
		return err
	}
	res, err := playOne(cmd.Context(), strategy, &deck, rules)
	if err != nil {
		return err
	}
	out := cmd.OutOrStdout()
	if asJSON, _ := cmd.Flags().GetBool("json"); asJSON {
		j := playJSON{Won: res.Won, Trace: make([]string, len(res.Trace)), Placed: res.Placed, Reason: res.Reason}
		for i, m := range res.Trace {
			j.Trace[i] = m.Format(rules)
		}
		enc := json.NewEncoder(out)
		return enc.Encode(j)
	}
	fmt.Fprintf(out, "deck:     %s\n", deck.String())
	fmt.Fprintf(out, "rules:    %s\n", rules)
	fmt.Fprintf(out, "strategy: %s\n", label)
	fmt.Fprintf(out, "trace:\n%s\n", textblock.Wrap(solver.FormatTrace(res.Trace, rules), 78))
	result := "lost"
	if res.Won {
		result = "won"
	}
	fmt.Fprintf(out, "result:   %s, %d of 52 cards on the tables (%s)\n", result, res.Placed, res.Reason)
	if !res.Won {
		// The trace replays to the final position (the engine checked it).
		if g, err := solver.Replay(&deck, rules, res.Trace); err == nil {
			fmt.Fprintf(out, "final position:\n%s", textblock.Indent(g.String(), "  "))
		}
	}
	if res.Failed {
		return fmt.Errorf("the strategy failed: %s", res.Reason)
	}
	return nil
}

// readStdin reads standard input whole, a deck or a trace (what names the
// flag): at most corpus.MaxLine bytes, so that /dev/zero or a corpus given
// by mistake is refused at once rather than read to the end of memory.
func readStdin(cmd *cobra.Command, what string) (string, error) {
	b, err := io.ReadAll(io.LimitReader(cmd.InOrStdin(), corpus.MaxLine+1))
	if err != nil {
		return "", err
	}
	if len(b) > corpus.MaxLine {
		return "", badInput("%s: standard input holds more than %d bytes: not one deck or trace", what, corpus.MaxLine)
	}
	return string(b), nil
}

// deckFromFlag reads the deck given by --deck (- for standard input).
func deckFromFlag(cmd *cobra.Command) (solver.Deck, error) {
	arg, _ := cmd.Flags().GetString("deck")
	if arg == "" {
		return solver.Deck{}, badInput("--deck is required (52 ranks like 603K0443… or 52 cards like AS 0H …)")
	}
	if arg == "-" {
		var err error
		if arg, err = readStdin(cmd, "--deck -"); err != nil {
			return solver.Deck{}, err
		}
	}
	deck, err := solver.ParseDeck(arg)
	if err != nil {
		return deck, badInput("deck: %v", err)
	}
	return deck, nil
}
