package main

import (
	"errors"
	"fmt"
	"os"
	"runtime"
	"strings"
	"unicode/utf8"

	"github.com/spf13/cobra"

	"github.com/calcsol/calcsol/configs"
	"github.com/calcsol/calcsol/internal/atomicfile"
	"github.com/calcsol/calcsol/internal/exitcode"
	"github.com/calcsol/calcsol/tournament"
	"github.com/calcsol/calcsol/tournament/report"
)

func newBaselineCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "baseline (--from DIR --out FILE | --update FILE)",
		Short: "Record which decks each strategy of a tournament report won",
		Long: `Record, per strategy × corpus × rules of a complete tournament report, the
games, the wins, the decks won (a bitmap), the hashes of the strategy's
configuration and of the corpus, and the record format, with the games'
traces for deterministic strategies on corpora of up to 1000 decks (when the
run recorded them: tournament --trace). 'calcsol regress' checks a later
build against it.

--update FILE replays the config stored in the baseline FILE and rewrites
it: the one command that updates a baseline on purpose.`,
		Example: `  calcsol tournament baselines/shipped.tournament.yaml --trace --out report
  calcsol baseline --from report --out baselines/shipped.yaml
  calcsol baseline --update baselines/shipped.yaml`,
		Args: cobra.NoArgs,
		RunE: runBaseline,
	}
	cmd.Flags().String("from", "", "a complete tournament report directory")
	cmd.Flags().String("out", "", "the baseline file to write")
	cmd.Flags().String("update", "", "replay this baseline's config and rewrite it")
	cmd.Flags().Int("workers", runtime.NumCPU(), "games played in parallel (--update)")
	return cmd
}

func newRegressCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "regress --baseline FILE",
		Short: "Replay a baseline and fail when a strategy wins other decks",
		Long: `Replay every strategy × corpus × rules a baseline names and compare the decks
won. A deterministic strategy fails when it wins a different set of decks:
the decks that flipped are listed, with the first move where the game differs
from the baseline's trace. A stochastic strategy fails only on a
significant drop (exact McNemar test on the decks, two-sided, α = 0.01).

For a strategy still being worked on (your own plugin or table, whose
configuration hash changes with every edit), --against-changed plays a
strategy whose configuration changed instead of refusing it, and compares
it with the baseline deck by deck: the decks won then and lost now and the
reverse, and the exact McNemar test on them; it fails only on a significant
loss (α = 0.01), so an improvement or a wash passes.

Exit status: 0 no regression; 3 regression; 4 stale baseline (a strategy's
configuration, a corpus or the record format changed under the baseline's
names: update it with 'calcsol baseline --update FILE' if that was meant);
2 bad input; 1 any other error. See docs/tournament.md.`,
		Example: `  calcsol regress --baseline baselines/shipped.yaml
  calcsol regress --baseline baselines/shipped.yaml --against-changed`,
		Args: cobra.NoArgs,
		RunE: runRegress,
	}
	cmd.Flags().String("baseline", "", "the baseline file")
	cmd.Flags().Int("workers", runtime.NumCPU(), "games played in parallel")
	cmd.Flags().Bool("against-changed", false, "compare a strategy whose configuration changed deck by deck instead of refusing it")
	return cmd
}

func init() { rootCmd.AddCommand(newBaselineCmd(), newRegressCmd()) }

func runBaseline(cmd *cobra.Command, _ []string) error {
	from, _ := cmd.Flags().GetString("from")
	out, _ := cmd.Flags().GetString("out")
	update, _ := cmd.Flags().GetString("update")
	workers, _ := cmd.Flags().GetInt("workers")
	var b *tournament.Baseline
	switch {
	case update != "" && from == "" && out == "":
		if err := atomicfile.CheckFile(update); err != nil {
			return badInput("--update: %v", err)
		}
		old, t, err := loadBaseline(cmd, update)
		if err != nil {
			return err
		}
		if err := old.Verify(); err != nil {
			// Updating is how a refused baseline is remade: say what it was.
			fmt.Fprintf(cmd.ErrOrStderr(), "calcsol: %s: %v; remaking it from its config\n", update, err)
		}
		ctx, stop := signalContext(cmd)
		defer stop()
		if b, err = t.MakeBaseline(ctx, old.Config, tournament.RunOptions{Workers: workers}); err != nil {
			return err
		}
		out = update
	case from != "" && out != "" && update == "":
		if err := atomicfile.CheckFile(out); err != nil {
			return badInput("--out: %v", err)
		}
		var err error
		if b, err = tournament.BaselineFromReport(from); err != nil {
			return badInput("--from: %v", err)
		}
	default:
		return badInput("give --from DIR and --out FILE, or --update FILE")
	}
	data, err := configs.FormatBaseline(b)
	if err != nil {
		return err
	}
	if err := atomicfile.Write(out, data); err != nil {
		return err
	}
	fmt.Fprintf(cmd.OutOrStdout(), "baseline %s: %d strategy × corpus × rules cells\n", out, len(b.Cells))
	return nil
}

// loadBaseline reads a baseline and builds the tournament of its config.
func loadBaseline(cmd *cobra.Command, file string) (*tournament.Baseline, *tournament.Tournament, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, nil, badInput("%v", err)
	}
	b, err := configs.ParseBaseline(data, file)
	if err != nil {
		return nil, nil, badInput("%v", err)
	}
	t, _, err := configs.LoadTournament(contextOf(cmd), []byte(b.Config), file+" (its config)", strategyRegistry())
	if err != nil {
		return nil, nil, badInput("%w", err)
	}
	return b, t, nil
}

func runRegress(cmd *cobra.Command, _ []string) error {
	file, _ := cmd.Flags().GetString("baseline")
	workers, _ := cmd.Flags().GetInt("workers")
	if file == "" {
		return badInput("--baseline FILE: the baseline to check against")
	}
	b, t, err := loadBaseline(cmd, file)
	if err != nil {
		return err
	}
	ctx, stop := signalContext(cmd)
	defer stop()
	regress := t.Regress
	if against, _ := cmd.Flags().GetBool("against-changed"); against {
		regress = t.RegressChanged
	}
	if b.Checksum == "" && b.Format == tournament.BaselineFormatV1 {
		fmt.Fprintf(cmd.ErrOrStderr(), "calcsol: warning: %s has no checksum (an older calcsol wrote it): an edit of it\n"+
			"  goes unseen but for its counts; add one with: calcsol baseline --update %s\n", file, file)
	}
	checks, err := regress(ctx, b, tournament.RunOptions{Workers: workers})
	var stale *tournament.StaleError
	if be := (*tournament.BaselineError)(nil); errors.As(err, &be) {
		return badInput("%s: %v (remake it: calcsol baseline --update %s, or --from a report)", file, err, file)
	}
	if errors.As(err, &stale) {
		return exitcode.Error{Code: exitcode.Stale, Err: fmt.Errorf("%s: %w (update it on purpose with: calcsol baseline --update %s)", file, err, file)}
	}
	if err != nil {
		return err
	}
	w := cmd.OutOrStdout()
	// Lines are wrapped to fit the terminal ($COLUMNS, else 100 columns).
	width := terminalWidth()
	failed := 0
	for _, c := range checks {
		status := "ok"
		if c.Failed {
			status, failed = "REGRESSION", failed+1
		}
		if c.Changed {
			status += " (changed)"
		}
		line := fmt.Sprintf("%s %s × %s × %s: %d of %d games won (baseline %d)", status, c.Strategy, c.Corpus, c.Rules, c.Wins, c.Games, c.BaselineWins)
		sep, detail := "", ""
		switch {
		case c.Changed:
			sep, detail = "; ", fmt.Sprintf("%d decks lost since, %d won since, exact McNemar p = %.3g", c.OnlyBaseline, c.OnlyNow, c.P)
		case c.Stochastic:
			sep, detail = ", ", fmt.Sprintf("stochastic: exact McNemar p = %.3g", c.P)
		}
		// The figures go on a line of their own when the whole does not fit.
		if detail != "" && utf8.RuneCountInString(line+sep+detail) > width {
			fmt.Fprint(w, report.Wrap(line, width, 4))
			line = "    " + detail
		} else {
			line += sep + detail
		}
		fmt.Fprint(w, report.Wrap(line, width, 4))
		for i, f := range c.Flipped {
			if c.Changed && i == maxChangedFlips {
				fmt.Fprintf(w, "  … and %d more decks\n", len(c.Flipped)-i)
				break
			}
			was, now := "won", "lost"
			if !f.WasWon {
				was, now = now, was
			}
			line := fmt.Sprintf("  deck %d: %s, now %s", f.Deck, was, now)
			if f.Move > 0 {
				line += fmt.Sprintf("; first different move %d: baseline %s, now %s", f.Move, orEnd(f.Was), orEnd(f.Now))
			}
			fmt.Fprint(w, report.Wrap(line, width, 4))
		}
	}
	if failed > 0 {
		return exitcode.Error{Code: exitcode.Regression, Err: fmt.Errorf("regress %s: %d of %d cells regressed", file, failed, len(checks))}
	}
	return nil
}

// maxChangedFlips is how many of a changed strategy's flipped decks regress
// lists.
const maxChangedFlips = 10

func orEnd(m string) string {
	if m == "" {
		return "(game over)"
	}
	return strings.TrimSpace(m)
}
