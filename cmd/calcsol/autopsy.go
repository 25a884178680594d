package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/calcsol/calcsol/clairvoyant"
	"github.com/calcsol/calcsol/decks/corpora"
	"github.com/calcsol/calcsol/decks/corpus"
	"github.com/calcsol/calcsol/internal/progress"
	"github.com/calcsol/calcsol/internal/texttable"
	"github.com/calcsol/calcsol/solver"
)

func newAutopsyCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "autopsy [--corpus NAME|FILE] [--strategy S] [--stacks N] [--preplaced]",
		Short: "Where a strategy's lost games were lost: which of their positions could still be won with the order known",
		Long: `Play every deck of a corpus with a strategy and, for each game it loses,
search the positions the game passed through where the stock holds each of
the --at numbers of cards (a card drawn), with the order of the stock known
(the clairvoyant solver, docs/clairvoyant.md; --nodes each). A position that
is winnable with the order known was not yet lost to a player who sees the
stock, and a win from a position of a game is a win from every earlier one,
so the latest winnable position bounds how late the game could still have
been saved. A player who does not see the stock may not have been able to:
it is a bound, not a verdict on a move.

The table gives, for each stock size, the lost games that reached it and the
verdicts (unknown: not settled within --nodes), and how many lost games had
their latest winnable position there. --corpus is a corpus file or a
built-in name (` + strings.Join(corpora.Names(), ", ") + `).

--sat D gives each position the search leaves unknown to a SAT solver, for
up to D (the position's formula: docs/clairvoyant.md, "The deal as a
formula"), so that far fewer positions stay unknown.`,
		Example: `  calcsol corpus generate --deck standard52 --shuffle U --count 20 --seed 5 --out twenty.txt
  calcsol autopsy --corpus twenty.txt --stacks 3 --preplaced --strategy priority:deadlock_check=exact+rescue --table tuned-3-preplaced --at 40,24,12 --nodes 20000
  calcsol autopsy --corpus twenty.txt --stacks 4 --table tuned-4 --option deadlock_check=exact --at 24,12 --nodes 20000 --json
  calcsol autopsy --corpus twenty.txt --stacks 3 --preplaced --strategy priority:deadlock_check=exact+rescue --table tuned-3-preplaced --at 12 --nodes 20000 --sat 1m`,
		Args: cobra.NoArgs,
		RunE: runAutopsy,
	}
	f := cmd.Flags()
	f.String("corpus", "uniform-1000", "corpus file, or name of a built-in corpus")
	f.IntSlice("at", []int{44, 40, 36, 32, 28, 24, 20, 16, 12, 8, 4}, "stock sizes of the positions searched")
	f.Int64("nodes", 300_000, "search nodes allowed for each position (0: no limit)")
	f.Int("workers", 2, "decks played in parallel")
	f.Duration("timeout", 0, "stop after this long (0: no limit); the decks not done are left out")
	f.Bool("json", false, "print the summary and every deck's probes as JSON")
	addSATFlags(cmd, "position")
	addRulesFlags(cmd)
	addStrategyFlags(cmd)
	return cmd
}

func init() { rootCmd.AddCommand(newAutopsyCmd()) }

// autopsyJSON is the --json output of calcsol autopsy.
type autopsyJSON struct {
	Corpus       string                   `json:"corpus"`
	Rules        string                   `json:"rules"`
	Strategy     string                   `json:"strategy"`
	Nodes        int64                    `json:"nodes"`
	Games        int                      `json:"games"`
	Won          int                      `json:"won"`
	Lost         int                      `json:"lost"`
	Failed       int                      `json:"failed"`
	Rows         []clairvoyant.AutopsyRow `json:"rows"`
	NoneWinnable int                      `json:"none_winnable"`
	Decks        []autopsyDeckJSON        `json:"decks"`
}

// autopsyDeckJSON is one lost game: the verdict at each stock size asked
// (true, false, or null for unknown; sizes the game never reached are left
// out).
type autopsyDeckJSON struct {
	Deck   int              `json:"deck"`
	Probes map[string]*bool `json:"probes"`
}

func runAutopsy(cmd *cobra.Command, _ []string) error {
	f := cmd.Flags()
	rules, err := rulesFromFlags(cmd)
	if err != nil {
		return err
	}
	at, _ := f.GetIntSlice("at")
	for _, s := range at {
		if s < 0 || s >= solver.DeckSize {
			return badInput("--at %d: want a number of stock cards from 0 to %d", s, solver.DeckSize-1)
		}
	}
	nodes, _ := f.GetInt64("nodes")
	workers, _ := f.GetInt("workers")
	switch {
	case len(at) == 0:
		return badInput("--at: give at least one stock size")
	case nodes < 0:
		return badInput("--nodes %d: want 0 (no limit) or more", nodes)
	case workers < 1:
		return badInput("--workers %d: want at least 1", workers)
	}
	corpusArg, _ := f.GetString("corpus")
	c, err := corpus.OpenCalculation(corpusArg, corpusArg)
	if err != nil {
		return badInput("%v", err)
	}
	s, label, err := newStrategy(cmd, rules)
	if err != nil {
		return err
	}
	ctx := contextOf(cmd)
	if d, _ := f.GetDuration("timeout"); d > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, d)
		defer cancel()
	}
	var opts clairvoyant.Options
	if err := satFromFlags(cmd, &opts); err != nil {
		return err
	}
	w, err := clairvoyant.NewStrategyWitness(ctx, s, rules)
	if err != nil {
		return badInput("%s: %w", label, err)
	}
	defer w.Close()
	w.SetSAT(opts.SAT, opts.SATTime)
	ds := c.Decks()
	if err := c.Err(); err != nil {
		return err
	}
	bar := progress.Start(cmd.ErrOrStderr(), "decks", int64(len(ds)))
	as, err := clairvoyant.Autopsies(ctx, w, ds, rules, at, clairvoyant.Budget{Nodes: nodes}, workers, bar.Count(0))
	bar.Stop()
	stopped := errors.Is(err, context.DeadlineExceeded)
	if err != nil && !stopped {
		return err
	}
	sum := clairvoyant.Summarize(as, at)
	out := cmd.OutOrStdout()
	if asJSON, _ := f.GetBool("json"); asJSON {
		j := autopsyJSON{Corpus: corpusArg, Rules: rules.String(), Strategy: label, Nodes: nodes,
			Games: sum.Games, Won: sum.Won, Lost: sum.Lost, Failed: sum.Failed, Rows: sum.Rows, NoneWinnable: sum.NoneWinnable, Decks: []autopsyDeckJSON{}}
		for i, a := range as {
			if !a.Played || a.Won || a.Failed {
				continue
			}
			d := autopsyDeckJSON{Deck: i, Probes: map[string]*bool{}}
			for _, p := range a.Probes {
				if p.Reached {
					d.Probes[strconv.Itoa(p.Stock)] = p.Verdict.Bool()
				}
			}
			j.Decks = append(j.Decks, d)
		}
		return json.NewEncoder(out).Encode(j)
	}
	fmt.Fprintf(out, "corpus %s: %d decks; %s; strategy %s; %s nodes a position; workers %d\n", corpusArg, len(ds), rules, label, nodesText(nodes), workers)
	if stopped {
		fmt.Fprintf(out, "stopped by --timeout after %d decks: the rest are left out\n", sum.Games)
	}
	fmt.Fprintf(out, "games %d: won %d, lost %d, failed %d\n", sum.Games, sum.Won, sum.Lost, sum.Failed)
	if sum.Lost == 0 {
		return nil
	}
	fmt.Fprintln(out, "The positions of the lost games, searched with the order of the stock known:")
	rows := make([][]string, len(sum.Rows))
	for i, r := range sum.Rows {
		rows[i] = []string{strconv.Itoa(r.Stock), strconv.Itoa(r.Reached), strconv.Itoa(r.Winnable), strconv.Itoa(r.Unwinnable), strconv.Itoa(r.Unknown), strconv.Itoa(r.LastWinnable)}
	}
	if err := texttable.Write(out, []string{"stock", "reached", "winnable", "unwinnable", "unknown", "latest winnable"}, rows); err != nil {
		return err
	}
	fmt.Fprintf(out, "lost games with no position found winnable: %d\n", sum.NoneWinnable)
	return nil
}
