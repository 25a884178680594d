package main

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/tw"
	"github.com/spf13/cobra"

	"github.com/calcsol/calcsol/decks/corpora"
	"github.com/calcsol/calcsol/internal/atomicfile"
	"github.com/calcsol/calcsol/solver"
	"github.com/calcsol/calcsol/tournament"
)

// Nanzaki & Shintani's figure (their Table 1, 3 stacks, tables starting
// empty): 16,720 wins of 30,000 decks. It is shown beside the measured 3-stack
// base row for comparison, never as a result.
const (
	refWins  = 16720
	refGames = 30000
)

func newEvalCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "eval [--corpus FILE|NAME] [--strategy NAME] [--table FILE] [--stacks N] [--preplaced]",
		Short: "Score a strategy on a deck corpus",
		Long: `Play every deck of a corpus with a strategy and report the wins, the success
rate with its Wilson 95 % confidence interval, the mean number of cards placed
on the tables, the strategy's failures (errors, illegal moves, panics; counted
as losses) and the speed in games per second.

With neither --stacks nor --preplaced the strategy is scored on the four
variants {3, 4 stacks} × {base, preplaced} and one table compares them; the
3-stack base row shows beside it the figure Nanzaki & Shintani report for
their Table 1: 16,720 of 30,000 decks, 55.73 %. That column is the
literature's figure on the authors' own decks, not a result of this run.
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
with 'calcsol eval compare' (McNemar's test). See docs/eval.md.`,
		Example: `  calcsol eval
  calcsol eval --corpus uniform-1000 --stacks 4
  calcsol eval --corpus my-decks.txt --table my-table.yaml --stacks 3
  calcsol eval --out base.jsonl && calcsol eval --option deadlock_check=exact --out exact.jsonl
  calcsol eval compare base.jsonl exact.jsonl`,
		Args: cobra.NoArgs,
		RunE: runEval,
	}
	f := cmd.Flags()
	f.String("corpus", corpora.Default, "corpus file, or name of a built-in corpus ("+strings.Join(corpora.Names(), ", ")+")")
	f.Int("workers", runtime.NumCPU(), "games played in parallel")
	f.Bool("reasons", false, "also print, per variant, how the games ended (won, which card exhausted the list, stuck, …)")
	f.Bool("jsonl", false, "print one JSON record per deck (summary to standard error); plays one variant")
	f.String("out", "", "write the JSONL records to this file instead (summary to standard output); plays one variant")
	addRulesFlags(cmd)
	addStrategyFlags(cmd)
	cmd.AddCommand(newEvalCompareCmd())
	return cmd
}

func init() { rootCmd.AddCommand(newEvalCmd()) }

// evalRow is one evaluated variant.
type evalRow struct {
	rules   solver.Rules
	label   string
	sum     tournament.Summary
	endings []tournament.Ending
}

func runEval(cmd *cobra.Command, _ []string) error {
	f := cmd.Flags()
	corpusArg, _ := f.GetString("corpus")
	workers, _ := f.GetInt("workers")
	jsonl, _ := f.GetBool("jsonl")
	out, _ := f.GetString("out")
	if workers < 1 {
		return badInput("--workers %d: want at least 1", workers)
	}
	if out != "" {
		if err := atomicfile.CheckFile(out); err != nil {
			return badInput("--out: %v", err)
		}
	}
	corpus, err := tournament.LoadCorpus(corpusArg, corpusArg)
	if err != nil {
		return badInput("%v", err)
	}
	corpusName := corpusArg

	variants := []solver.Rules{{Stacks: 3}, {Stacks: 3, Preplaced: true}, {Stacks: 4}, {Stacks: 4, Preplaced: true}}
	if f.Changed("stacks") || f.Changed("preplaced") || jsonl || out != "" {
		r, err := rulesFromFlags(cmd)
		if err != nil {
			return err
		}
		variants = []solver.Rules{r}
	}
	// Build every strategy before playing, so that a bad table or option is
	// reported at once rather than after the first variants have run. Of the
	// four default variants, those the strategy cannot play (a --table made
	// for another number of stacks) are skipped with a note, as long as one
	// is left.
	var entrants []solver.Strategy
	var rows []evalRow
	var skipped []string
	var firstErr error
	for _, r := range variants {
		strategy, label, err := newStrategy(cmd, r)
		if err != nil {
			firstErr = cmp.Or(firstErr, err)
			skipped = append(skipped, fmt.Sprintf("skipped %s: %v", r, err))
			continue
		}
		entrants = append(entrants, strategy)
		rows = append(rows, evalRow{rules: r, label: label})
	}
	if len(rows) == 0 {
		return firstErr
	}

	// The summary goes where the records do not.
	summaryOut := cmd.OutOrStdout()
	if jsonl && out == "" {
		summaryOut = cmd.ErrOrStderr()
	}
	ctx := cmd.Context()
	if ctx == nil {
		ctx = context.Background()
	}
	var results []tournament.DeckResult
	var runID tournament.RunID
	for i, row := range rows {
		r := row.rules
		e := tournament.Entrant{Name: row.label, Spec: row.label, Strategy: entrants[i]}
		sum, res, err := tournament.Single(ctx, e, corpus, tournament.Variant{Rules: r}, tournament.RunOptions{Workers: workers})
		if err != nil {
			return fmt.Errorf("eval %s: %w", r, err)
		}
		rows[i].sum, results = sum, res
		runID = tournament.RunID{Strategy: row.label, Corpus: corpusName, CorpusSHA: corpus.Checksum, Rules: tournament.Variant{Rules: r}.Key()}
		rows[i].endings = tournament.Endings(res)
	}

	if out != "" {
		if err := atomicfile.WriteFunc(out, func(w io.Writer) error { return tournament.WriteJSONL(w, runID, results) }); err != nil {
			return err
		}
	} else if jsonl {
		if err := tournament.WriteJSONL(cmd.OutOrStdout(), runID, results); err != nil {
			return err
		}
	}
	fmt.Fprintf(summaryOut, "corpus %s: %d decks; workers: %d\n", corpusName, corpus.Len, workers)
	fmt.Fprintf(summaryOut, "strategy %s\n", strategyLabels(rows))
	if err := renderEval(summaryOut, rows); err != nil {
		return err
	}
	for _, msg := range skipped {
		fmt.Fprintln(summaryOut, msg)
	}
	if reasons, _ := f.GetBool("reasons"); reasons {
		if err := renderEndings(summaryOut, rows); err != nil {
			return err
		}
	}
	if out != "" {
		fmt.Fprintf(summaryOut, "per-deck records: %s\n", out)
	}
	return nil
}

// strategyLabels names the strategy of the rows: its label, or, when the
// variants use different ones (the priority table for 4 stacks is not the one
// for 3), each label with the stack counts it played.
func strategyLabels(rows []evalRow) string {
	var labels []string
	stacks := map[string][]string{}
	for _, r := range rows {
		if _, ok := stacks[r.label]; !ok {
			labels = append(labels, r.label)
		}
		n := fmt.Sprint(r.rules.Stacks)
		if !slices.Contains(stacks[r.label], n) {
			stacks[r.label] = append(stacks[r.label], n)
		}
	}
	if len(labels) == 1 {
		return labels[0]
	}
	parts := make([]string, len(labels))
	for i, l := range labels {
		parts[i] = fmt.Sprintf("%s (%s stacks)", l, strings.Join(stacks[l], ", "))
	}
	return strings.Join(parts, "; ")
}

// speedText formats the games/s column; the command's golden test masks it,
// since it depends on the machine.
var speedText = func(s tournament.Summary) string { return fmt.Sprintf("%.0f", s.GamesPerSec) }

// renderEval prints the comparison table and, when the 3-stack base variant
// is in it, the note on the literature's figure.
func renderEval(w io.Writer, rows []evalRow) error {
	failures := false
	for _, r := range rows {
		failures = failures || r.sum.Failures > 0
	}
	header := []any{"variant", "wins", "games", "rate %", "95 % CI", "mean placed"}
	if failures {
		header = append(header, "failures")
	}
	// The literature's figure exists for 3 stacks, base only: no column without that row.
	var ref *evalRow
	for i, r := range rows {
		if r.rules.Stacks == 3 && !r.rules.Preplaced {
			ref = &rows[i]
		}
	}
	header = append(header, "games/s")
	if ref != nil {
		header = append(header, "literature")
	}
	align := []tw.Align{tw.AlignLeft, tw.AlignRight, tw.AlignRight, tw.AlignRight, tw.AlignRight, tw.AlignRight}
	if failures {
		align = append(align, tw.AlignRight)
	}
	align = append(align, tw.AlignRight, tw.AlignLeft)

	t := tablewriter.NewTable(w,
		tablewriter.WithRowAlignmentConfig(tw.CellAlignment{PerColumn: align}),
		tablewriter.WithHeaderAutoFormat(tw.Off))
	t.Header(header...)
	for i, r := range rows {
		s := r.sum
		row := []any{r.rules.String(), s.Wins, s.Games,
			fmt.Sprintf("%.2f", 100*s.Rate),
			fmt.Sprintf("[%.2f, %.2f]", 100*s.Lo, 100*s.Hi),
			fmt.Sprintf("%.2f", s.MeanPlaced)}
		if failures {
			row = append(row, s.Failures)
		}
		row = append(row, speedText(s))
		if ref != nil {
			lit := ""
			if ref == &rows[i] {
				lit = fmt.Sprintf("%.2f %% (Nanzaki & Shintani)", 100*float64(refWins)/refGames)
			}
			row = append(row, lit)
		}
		if err := t.Append(row...); err != nil {
			return err
		}
	}
	if err := t.Render(); err != nil {
		return err
	}
	if ref != nil {
		refRate := float64(refWins) / refGames
		where := "inside"
		if refRate < ref.sum.Lo || refRate > ref.sum.Hi {
			where = "outside"
		}
		fmt.Fprintf(w, "literature: the paper's figure, not measured here. Nanzaki & Shintani report\n"+
			"%d wins of %d decks (%.2f %%) with their Table 1, 3 stacks, tables starting empty, on\n"+
			"their own decks. It lies %s the 95 %% CI measured above for 3 stacks, base (%s).\n",
			refWins, refGames, 100*refRate, where, ref.label)
	}
	return nil
}

func newEvalCompareCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "compare A.jsonl B.jsonl",
		Short: "Compare two eval runs on the same corpus deck by deck (McNemar's test)",
		Long: `Read two files of per-deck records written by 'calcsol eval --out' (or
--jsonl) on the same corpus under the same rules and compare them deck by
deck (runs on different corpora or rules are refused, with the reason): the decks both
won, only A won, only B won, neither won, and the two-sided p-value of
McNemar's exact test that A and B win equally often. Only the decks on which
they differ carry information about which is better; a small p (below 0.05,
say) means the difference in wins is unlikely to be luck of this corpus.
See docs/eval.md.`,
		Example: `  calcsol eval --out a.jsonl
  calcsol eval --table my-table.yaml --out b.jsonl
  calcsol eval compare a.jsonl b.jsonl`,
		Args: cobra.ExactArgs(2),
		RunE: runEvalCompare,
	}
}

func runEvalCompare(cmd *cobra.Command, args []string) error {
	var runs [2][]tournament.DeckResult
	var ids [2]tournament.RunID
	for i, path := range args {
		fh, err := os.Open(path)
		if err != nil {
			return badInput("%v", err)
		}
		ids[i], runs[i], err = tournament.ReadJSONL(fh)
		fh.Close()
		if err != nil {
			return badInput("%s: %v", path, err)
		}
	}
	if err := ids[0].Paired(ids[1]); err != nil {
		return badInput("compare %s %s: %v", args[0], args[1], err)
	}
	c, err := tournament.Compare(runs[0], runs[1])
	if err != nil {
		return badInput("%v", err)
	}
	w := cmd.OutOrStdout()
	t := tablewriter.NewTable(w,
		tablewriter.WithRowAlignmentConfig(tw.CellAlignment{PerColumn: []tw.Align{tw.AlignLeft, tw.AlignLeft, tw.AlignRight, tw.AlignRight, tw.AlignRight, tw.AlignRight}}),
		tablewriter.WithHeaderAutoFormat(tw.Off))
	t.Header("run", "file", "wins", "games", "rate %", "95 % CI")
	for i, name := range []string{"A", "B"} {
		s := tournament.Summarize(runs[i], 0)
		if err := t.Append(name, args[i], s.Wins, s.Games, fmt.Sprintf("%.2f", 100*s.Rate),
			fmt.Sprintf("[%.2f, %.2f]", 100*s.Lo, 100*s.Hi)); err != nil {
			return err
		}
	}
	if err := t.Render(); err != nil {
		return err
	}
	fmt.Fprintf(w, "both won %d, only A %d, only B %d, neither %d\n", c.Both, c.OnlyA, c.OnlyB, c.Neither)
	fmt.Fprintf(w, "McNemar exact test, two-sided: p = %.3g", c.P)
	switch {
	case c.P >= 0.05:
		fmt.Fprintln(w, " — no significant difference at the 5 % level")
	case c.OnlyA > c.OnlyB:
		fmt.Fprintln(w, " — A wins significantly more often (5 % level)")
	default:
		fmt.Fprintln(w, " — B wins significantly more often (5 % level)")
	}
	return nil
}

// renderEndings prints, for each variant, how its games ended, most frequent first.
func renderEndings(w io.Writer, rows []evalRow) error {
	for _, row := range rows {
		fmt.Fprintf(w, "\nhow the games ended, %s:\n", row.rules)
		// The same look as the main table: headers as written, numbers
		// right-aligned.
		t := tablewriter.NewTable(w,
			tablewriter.WithRowAlignmentConfig(tw.CellAlignment{PerColumn: []tw.Align{tw.AlignRight, tw.AlignRight, tw.AlignLeft}}),
			tablewriter.WithHeaderAutoFormat(tw.Off))
		t.Header("games", "%", "ending")
		for _, e := range row.endings {
			t.Append([]string{strconv.Itoa(e.Games), fmt.Sprintf("%.2f", 100*float64(e.Games)/float64(row.sum.Games)), e.Reason})
		}
		if err := t.Render(); err != nil {
			return err
		}
	}
	return nil
}
