package main

import (
	"encoding/json"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/calcsol/calcsol/internal/textblock"
	"github.com/calcsol/calcsol/search"
	"github.com/calcsol/calcsol/solver"
)

func newAnalyzeCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "analyze --deck DECK --after N",
		Short: "Exact win probability of a position and of each move in it",
		Long: `Play the first N moves of a deck with a strategy, then print the exact
probability of winning from the position reached, with best play against
every order of the cards still in the stock (which ranks are left is known,
their order is not), and the same for each legal move there. A probability
is a count: the orders won out of all orders of the unseen ranks.

The search is exhaustive (docs/strategies.md): it is meant for endgames.
Positions with more than --max cards in the stock are refused.`,
		Example: `  calcsol analyze --deck A3474AK0JJ77Q580Q626639695324880KJAK2047A85Q25KJ99Q3 --after 60 --stacks 4 --strategy deadlock-graph
  calcsol analyze --deck A3474AK0JJ77Q580Q626639695324880KJAK2047A85Q25KJ99Q3 --after 55 --stacks 4 --preplaced --json`,
		Args: cobra.NoArgs,
		RunE: runAnalyze,
	}
	cmd.Flags().String("deck", "", "the deck (required; - for standard input)")
	cmd.Flags().Int("after", 0, "moves played by the strategy before the analysis")
	cmd.Flags().Int("max", 12, "refuse positions with more cards than this in the stock (at most 20)")
	cmd.Flags().Bool("json", false, "print the analysis as JSON")
	addRulesFlags(cmd)
	addStrategyFlags(cmd)
	return cmd
}

func init() { rootCmd.AddCommand(newAnalyzeCmd()) }

// analyzeJSON is the --json output of calcsol analyze.
type analyzeJSON struct {
	After       int               `json:"after"`
	Stock       int               `json:"stock"`
	Drawn       string            `json:"drawn"`
	Wins        uint64            `json:"wins"`
	Orders      uint64            `json:"orders"`
	Probability float64           `json:"probability"`
	Moves       []analyzeMoveJSON `json:"moves"`
}

type analyzeMoveJSON struct {
	Move        string  `json:"move"`
	Wins        uint64  `json:"wins"`
	Probability float64 `json:"probability"`
}

func runAnalyze(cmd *cobra.Command, _ []string) error {
	deck, err := deckFromFlag(cmd)
	if err != nil {
		return err
	}
	rules, err := rulesFromFlags(cmd)
	if err != nil {
		return err
	}
	after, _ := cmd.Flags().GetInt("after")
	maxStock, _ := cmd.Flags().GetInt("max")
	if after < 0 || maxStock < 0 || maxStock > search.MaxEndgameCards {
		return badInput("--after must be ≥ 0 and --max 0..%d", search.MaxEndgameCards)
	}
	strategy, label, err := newStrategy(cmd, rules)
	if err != nil {
		return err
	}
	res, err := playOne(cmd.Context(), strategy, &deck, rules)
	if err != nil {
		return err
	}
	if after > len(res.Trace) {
		return badInput("--after %d: the game (%s) ended after %d moves", after, res.Reason, len(res.Trace))
	}
	g, err := solver.Replay(&deck, rules, res.Trace[:after])
	if err != nil {
		return err
	}
	st := g.State
	if st.StockLen() > maxStock {
		return badInput("after %d moves the stock holds %d cards; the exact search takes at most --max %d: analyze a later move", after, st.StockLen(), maxStock)
	}
	moves, orders := search.NewEndgame().Moves(&st)
	wins, _ := search.NewEndgame().Wins(&st)
	prob := func(w uint64) float64 { return float64(w) / float64(orders) }
	drawn := "none"
	if st.Drawn() != 0 {
		drawn = st.Drawn().String()
	}
	out := cmd.OutOrStdout()
	if asJSON, _ := cmd.Flags().GetBool("json"); asJSON {
		j := analyzeJSON{After: after, Stock: st.StockLen(), Drawn: drawn, Wins: wins, Orders: orders, Probability: prob(wins), Moves: []analyzeMoveJSON{}}
		for _, mv := range moves {
			j.Moves = append(j.Moves, analyzeMoveJSON{Move: mv.Move.Format(rules), Wins: mv.Wins, Probability: prob(mv.Wins)})
		}
		return json.NewEncoder(out).Encode(j)
	}
	fmt.Fprintf(out, "rules:    %s\n", rules)
	fmt.Fprintf(out, "strategy: %s, %d moves played\n", label, after)
	fmt.Fprintf(out, "position:\n%s", textblock.Indent(st.String(), "  "))
	fmt.Fprintf(out, "win probability: %d of %d orders = %.6f\n", wins, orders, prob(wins))
	for _, mv := range moves {
		fmt.Fprintf(out, "  %-5s %d of %d = %.6f\n", mv.Move.Format(rules), mv.Wins, orders, prob(mv.Wins))
	}
	return nil
}
