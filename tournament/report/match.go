package report

import (
	"fmt"
	"io"

	"github.com/calcsol/calcsol/internal/textblock"
	"github.com/calcsol/calcsol/tournament"
	"github.com/calcsol/calcsol/tournament/stats"
)

// MatchWidth is the width the match verdict fits.
const MatchWidth = 80

// WriteMatch writes a match's verdict in at most MatchWidth columns: each
// side's wins with the interval, the paired difference with its interval,
// McNemar's exact p, and the sequential test's verdict.
func WriteMatch(w io.Writer, m *tournament.MatchResult) error {
	fmt.Fprintf(w, "%s: %s decks of %s, in a spread-out order\n\n", rulesName(m), group(m.Decks), m.Corpus)
	for _, s := range []struct {
		tag  string
		side tournament.MatchSide
	}{{"A", m.A}, {"B", m.B}} {
		lo, hi := stats.Wilson(s.side.Wins, m.Decks, stats.Z95)
		line := fmt.Sprintf("%6s of %-6s %6.2f %% [%5.2f, %5.2f]", group(s.side.Wins), group(m.Decks),
			100*share(s.side.Wins, m.Decks), 100*lo, 100*hi)
		name := Shorten(s.side.Name, MatchWidth-len(line)-7)
		fmt.Fprintf(w, "  %s  %-*s  %s\n", s.tag, MatchWidth-len(line)-7, name, line)
		if s.side.Failures > 0 {
			fmt.Fprintf(w, "     %d games failed (counted as lost)\n", s.side.Failures)
		}
	}
	d, lo, hi := stats.PairedDiff(m.Both(), m.OnlyA, m.OnlyB, m.Neither())
	fmt.Fprintf(w, "\n  won by both %s, by A only %s, by B only %s, by neither %s\n",
		group(m.Both()), group(m.OnlyA), group(m.OnlyB), group(m.Neither()))
	fmt.Fprintf(w, "  B − A: %+.2f points [%+.2f, %+.2f]; McNemar exact p = %s\n",
		100*-d, 100*-hi, 100*-lo, pValue(stats.McNemarExact(m.OnlyA, m.OnlyB)))
	fmt.Fprintf(w, "  SPRT on the decks only one won: odds %g, α %g, β %g\n", m.Test.Odds, m.Test.Alpha, m.Test.Beta)
	fmt.Fprintf(w, "\n%s\n", verdictLine(m))
	return nil
}

// verdictLine says what the match decided, in one line.
func verdictLine(m *tournament.MatchResult) string {
	after := fmt.Sprintf("(decided after %s decks)", group(m.Decks))
	switch m.Verdict {
	case stats.AStronger:
		return fmt.Sprintf("A is stronger %s", after)
	case stats.BStronger:
		return fmt.Sprintf("B is stronger %s", after)
	case stats.NoAdvantage:
		return fmt.Sprintf("No advantage of odds %g either way %s", m.Test.Odds, after)
	}
	return fmt.Sprintf("No difference shown after %s decks (undecided: a larger --max or corpus plays on)", group(m.Decks))
}

// group writes a count with thousands separators: 30,000.
func group(n int) string { return textblock.Group(int64(n)) }

func rulesName(m *tournament.MatchResult) string {
	start := "tables start empty"
	if m.Rules.Preplaced {
		start = "A 2 3 4 pre-placed"
	}
	return fmt.Sprintf("%d stacks, %s", m.Rules.Stacks, start)
}

// share is k of n, or 0 of none.
func share(k, n int) float64 {
	if n == 0 {
		return 0
	}
	return float64(k) / float64(n)
}

func pValue(p float64) string {
	if p < 1e-4 {
		return fmt.Sprintf("%.1e", p)
	}
	return fmt.Sprintf("%.4f", p)
}

type matchSideJSON struct {
	Name     string  `json:"name"`
	Wins     int     `json:"wins"`
	Failures int     `json:"failures"`
	Rate     float64 `json:"rate"`
	CILow    float64 `json:"ci_low"`
	CIHigh   float64 `json:"ci_high"`
}

// WriteMatchJSON writes a match as one JSON object.
func WriteMatchJSON(w io.Writer, m *tournament.MatchResult) error {
	side := func(s tournament.MatchSide) matchSideJSON {
		lo, hi := stats.Wilson(s.Wins, m.Decks, stats.Z95)
		return matchSideJSON{s.Name, s.Wins, s.Failures, share(s.Wins, m.Decks), lo, hi}
	}
	d, lo, hi := stats.PairedDiff(m.Both(), m.OnlyA, m.OnlyB, m.Neither())
	llrA, llrB := m.Test.LLR(m.OnlyA, m.OnlyB)
	lower, upper := m.Test.Bounds()
	verdict := map[stats.Verdict]string{stats.Undecided: "undecided", stats.AStronger: "A", stats.BStronger: "B", stats.NoAdvantage: "none"}[m.Verdict]
	return writeJSON(w, map[string]any{
		"corpus": m.Corpus, "corpus_sha256": m.Checksum, "rules": m.Rules.String(),
		"decks": m.Decks, "played": m.Played, "a": side(m.A), "b": side(m.B),
		"both": m.Both(), "only_a": m.OnlyA, "only_b": m.OnlyB, "neither": m.Neither(),
		"diff_b_minus_a": -d, "diff_ci_low": -hi, "diff_ci_high": -lo,
		"mcnemar_p": stats.McNemarExact(m.OnlyA, m.OnlyB),
		"sprt":      map[string]any{"odds": m.Test.Odds, "alpha": m.Test.Alpha, "beta": m.Test.Beta, "llr_a": llrA, "llr_b": llrB, "lower": lower, "upper": upper},
		"verdict":   verdict, "decided": m.Verdict != stats.Undecided, "order": m.Order,
	})
}
