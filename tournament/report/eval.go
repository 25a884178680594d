package report

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/tw"

	"github.com/calcsol/calcsol/tournament"
)

// Nanzaki & Shintani's figure (their Table 1, 3 stacks, tables starting
// empty): 16,720 wins of 30,000 decks. It is shown beside the measured 3-stack
// base row for comparison, never as a result.
const (
	refWins  = 16720
	refGames = 30000
)

// StrategyLabels names the strategy of the rows: its label, or, when the
// variants use different ones (the priority table for 4 stacks is not the one
// for 3), each label with the stack counts it played.
func StrategyLabels(rows []tournament.VariantResult) string {
	var labels []string
	stacks := map[string][]string{}
	for _, r := range rows {
		if _, ok := stacks[r.Label]; !ok {
			labels = append(labels, r.Label)
		}
		n := fmt.Sprint(r.Rules.Stacks)
		if !slices.Contains(stacks[r.Label], n) {
			stacks[r.Label] = append(stacks[r.Label], n)
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

// WriteEval prints the comparison table of the variants and, when the 3-stack
// base variant is in it, the note on the literature's figure (with opt.Wide
// also as a column beside that row). Without opt.Timing the games/s column
// reads "(masked)", since it depends on the machine. The note fits
// opt.width() unless opt.Wide.
func WriteEval(w io.Writer, rows []tournament.VariantResult, opt Options) error {
	failures := false
	for _, r := range rows {
		failures = failures || r.Sum.Failures > 0
	}
	header := []any{"variant", "wins", "games", "rate %", "95 % CI", "mean placed"}
	align := []tw.Align{tw.AlignLeft, tw.AlignRight, tw.AlignRight, tw.AlignRight, tw.AlignRight, tw.AlignRight}
	if failures {
		header, align = append(header, "failures"), append(align, tw.AlignRight)
	}
	// The literature's figure exists for 3 stacks, base only: no column without that row.
	ref := slices.IndexFunc(rows, func(r tournament.VariantResult) bool { return r.Rules.Stacks == 3 && !r.Rules.Preplaced })
	header = append(header, "games/s")
	lit := ref >= 0 && opt.Wide
	if lit {
		header = append(header, "literature")
	}
	align = append(align, tw.AlignRight, tw.AlignLeft)

	t := tablewriter.NewTable(w,
		tablewriter.WithRowAlignmentConfig(tw.CellAlignment{PerColumn: align}),
		tablewriter.WithHeaderAutoFormat(tw.Off))
	t.Header(header...)
	for i, r := range rows {
		s := r.Sum
		row := []any{r.Rules.String(), s.Wins, s.Games, pct(s.Rate), ci(s.Lo, s.Hi), fmt.Sprintf("%.2f", s.MeanPlaced)}
		if failures {
			row = append(row, s.Failures)
		}
		speed := "(masked)"
		if opt.Timing {
			speed = fmt.Sprintf("%.0f", s.GamesPerSec)
		}
		row = append(row, speed)
		if lit {
			lit := ""
			if ref == i {
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
	if ref >= 0 {
		refRate := float64(refWins) / refGames
		where := "inside"
		if refRate < rows[ref].Sum.Lo || refRate > rows[ref].Sum.Hi {
			where = "outside"
		}
		note := fmt.Sprintf("literature: the paper's figure, not measured here. Nanzaki & Shintani report "+
			"%d wins of %d decks (%.2f %%) with their Table 1, 3 stacks, tables starting empty, on "+
			"their own decks. It lies %s the 95 %% CI measured above for 3 stacks, base (%s).",
			refWins, refGames, 100*refRate, where, rows[ref].Label)
		width := opt.width()
		if opt.Wide {
			width = 1 << 30
		}
		wrap(w, note, width, 0)
	}
	return nil
}

// WriteEndings prints, for each variant, how its games ended, most frequent
// first, in the look of the main table: headers as written, numbers
// right-aligned.
func WriteEndings(w io.Writer, rows []tournament.VariantResult) error {
	for _, row := range rows {
		fmt.Fprintf(w, "\nhow the games ended, %s:\n", row.Rules)
		t := tablewriter.NewTable(w,
			tablewriter.WithRowAlignmentConfig(tw.CellAlignment{PerColumn: []tw.Align{tw.AlignRight, tw.AlignRight, tw.AlignLeft}}),
			tablewriter.WithHeaderAutoFormat(tw.Off))
		t.Header("games", "%", "ending")
		for _, e := range row.Endings {
			if err := t.Append([]string{strconv.Itoa(e.Games), fmt.Sprintf("%.2f", 100*float64(e.Games)/float64(row.Sum.Games)), e.Reason}); err != nil {
				return err
			}
		}
		if err := t.Render(); err != nil {
			return err
		}
	}
	return nil
}

// WriteCompare prints two runs compared deck by deck (names says where each
// run's records came from): their wins on the decks compared side by side,
// the decks each alone won, the paired difference of their rates with its
// 95 % interval, and McNemar's exact test; and the decks left out, if any.
func WriteCompare(w io.Writer, names [2]string, c tournament.Comparison) error {
	t := tablewriter.NewTable(w,
		tablewriter.WithRowAlignmentConfig(tw.CellAlignment{PerColumn: []tw.Align{tw.AlignLeft, tw.AlignLeft, tw.AlignRight, tw.AlignRight, tw.AlignRight, tw.AlignRight}}),
		tablewriter.WithHeaderAutoFormat(tw.Off))
	t.Header("run", "records", "wins", "games", "rate %", "95 % CI")
	for i, name := range []string{"A", "B"} {
		s := tournament.Summarize(c.Runs[i], 0)
		if err := t.Append(name, names[i], s.Wins, s.Games, pct(s.Rate), ci(s.Lo, s.Hi)); err != nil {
			return err
		}
	}
	if err := t.Render(); err != nil {
		return err
	}
	if c.LeftOut != [2]int{} {
		fmt.Fprintf(w, "compared on the %d decks both recorded; left out: %d recorded by A only, %d by B only\n", c.Games, c.LeftOut[0], c.LeftOut[1])
	}
	fmt.Fprintf(w, "both won %d, only A %d, only B %d, neither %d\n", c.Both, c.OnlyA, c.OnlyB, c.Neither)
	fmt.Fprintf(w, "A − B: %+.2f points, 95 %% CI [%+.2f, %+.2f] (paired)\n", 100*c.Diff, 100*c.DiffLo, 100*c.DiffHi)
	fmt.Fprintf(w, "McNemar exact test, two-sided: p = %.3g", c.P)
	switch {
	case c.P >= 0.05:
		fmt.Fprintln(w, " — no significant difference at the 5 % level")
	case c.OnlyA > c.OnlyB:
		fmt.Fprintln(w, " — A wins significantly more often (5 % level)")
	default:
		fmt.Fprintln(w, " — B wins significantly more often (5 % level)")
	}
	if e := c.Estimate; e != nil {
		run, other := "AB"[e.Run:e.Run+1], "AB"[1-e.Run:2-e.Run]
		wrap(w, fmt.Sprintf("estimate of %s on all %d decks %s recorded: %s %% %s (%s's rate there plus %s − %s on the %d both recorded, taken as a random sample of them)",
			run, e.Decks, other, pct(e.Rate), ci(e.Lo, e.Hi), other, run, other, e.Sample), DefaultWidth, 2)
	}
	return nil
}

// CompareRun is one side of CompareJSON: where its records came from, who
// played, and its wins on the decks compared.
type CompareRun struct {
	Records   string `json:"records"`
	Strategy  string `json:"strategy"`
	Corpus    string `json:"corpus"`
	CorpusSHA string `json:"corpus_sha256"`
	Rules     string `json:"rules"`
	Score
	LeftOut int `json:"left_out"` // decks it recorded that the other did not
}

// Score is a run's wins in the JSON outputs: the rate a fraction, the
// interval Wilson's at 95 %.
type Score struct {
	Wins   int     `json:"wins"`
	Games  int     `json:"games"`
	Rate   float64 `json:"rate"`
	CILow  float64 `json:"ci_low"`
	CIHigh float64 `json:"ci_high"`
}

func scoreOf(s tournament.Summary) Score {
	return Score{Wins: s.Wins, Games: s.Games, Rate: s.Rate, CILow: s.Lo, CIHigh: s.Hi}
}

// CompareJSON is WriteCompare's content for scripts (WriteCompareJSON).
type CompareJSON struct {
	A       CompareRun `json:"a"`
	B       CompareRun `json:"b"`
	Games   int        `json:"games"` // decks compared
	Both    int        `json:"both"`
	OnlyA   int        `json:"only_a"`
	OnlyB   int        `json:"only_b"`
	Neither int        `json:"neither"`
	Diff    float64    `json:"diff"` // rate(A) − rate(B), with its 95 % interval
	DiffLo  float64    `json:"diff_low"`
	DiffHi  float64    `json:"diff_high"`
	P       float64    `json:"p"` // McNemar's exact test, two-sided
	// Estimate is one run's estimated rate on all the other's decks, when
	// its decks are a sample of them (tournament.Extrapolation).
	Estimate *CompareEstimate `json:"estimate,omitempty"`
}

// CompareEstimate is CompareJSON's tournament.Extrapolation.
type CompareEstimate struct {
	Run    string  `json:"run"` // "a" or "b"
	Decks  int     `json:"decks"`
	Sample int     `json:"sample"`
	Rate   float64 `json:"rate"`
	CILow  float64 `json:"ci_low"`
	CIHigh float64 `json:"ci_high"`
}

// WriteCompareJSON writes c as one JSON object (CompareJSON).
func WriteCompareJSON(w io.Writer, names [2]string, c tournament.Comparison) error {
	var runs [2]CompareRun
	for i := range runs {
		s := tournament.Summarize(c.Runs[i], 0)
		id := c.IDs[i]
		runs[i] = CompareRun{Records: names[i], Strategy: id.Strategy, Corpus: id.Corpus, CorpusSHA: id.CorpusSHA, Rules: id.Rules,
			Score: scoreOf(s), LeftOut: c.LeftOut[i]}
	}
	out := CompareJSON{A: runs[0], B: runs[1], Games: c.Games, Both: c.Both, OnlyA: c.OnlyA, OnlyB: c.OnlyB, Neither: c.Neither,
		Diff: c.Diff, DiffLo: c.DiffLo, DiffHi: c.DiffHi, P: c.P}
	if e := c.Estimate; e != nil {
		out.Estimate = &CompareEstimate{Run: "ab"[e.Run : e.Run+1], Decks: e.Decks, Sample: e.Sample, Rate: e.Rate, CILow: e.Lo, CIHigh: e.Hi}
	}
	return writeJSON(w, out)
}

// EvalJSON is WriteEval's content for scripts (WriteEvalJSON): the corpus
// and, for each variant played, the strategy and its score.
type EvalJSON struct {
	Corpus    string        `json:"corpus"`
	CorpusSHA string        `json:"corpus_sha256"`
	Decks     int           `json:"decks"`
	Variants  []EvalVariant `json:"variants"`
}

// EvalVariant is one variant's score in EvalJSON; games_per_sec only when
// the run shows timing.
type EvalVariant struct {
	Strategy string `json:"strategy"`
	Rules    string `json:"rules"`
	Score
	MeanPlaced  float64  `json:"mean_placed"`
	Failures    int      `json:"failures"`
	GamesPerSec *float64 `json:"games_per_sec,omitempty"`
}

// WriteEvalJSON writes the rows of an eval on corpus c as one indented JSON
// object (EvalJSON).
func WriteEvalJSON(w io.Writer, c *tournament.Corpus, rows []tournament.VariantResult, opt Options) error {
	out := EvalJSON{Corpus: c.Name, CorpusSHA: c.Checksum, Decks: c.Len, Variants: []EvalVariant{}}
	for _, r := range rows {
		s := r.Sum
		v := EvalVariant{Strategy: r.Label, Rules: tournament.Variant{Rules: r.Rules}.Key(), Score: scoreOf(s),
			MeanPlaced: s.MeanPlaced, Failures: s.Failures}
		if opt.Timing {
			v.GamesPerSec = &s.GamesPerSec
		}
		out.Variants = append(out.Variants, v)
	}
	return writeJSON(w, out)
}

func pct(x float64) string     { return fmt.Sprintf("%.2f", 100*x) }
func ci(lo, hi float64) string { return fmt.Sprintf("[%.2f, %.2f]", 100*lo, 100*hi) }

// EvalEfficiencies are the efficiencies WriteEvalBounds prints, without
// printing them: each variant's wins against the bound of its rules, for
// the variants bounds cover.
func EvalEfficiencies(rows []tournament.VariantResult, bounds []tournament.Bound) []tournament.Efficiency {
	es, _ := efficiencies(rows, bounds)
	return es
}

// efficiencies returns the efficiency of each variant of rows that bounds
// cover, and the variants' names.
func efficiencies(rows []tournament.VariantResult, bounds []tournament.Bound) (es []tournament.Efficiency, variants []string) {
	for _, r := range rows {
		for i := range bounds {
			if bounds[i].Rules == r.Rules {
				es = append(es, bounds[i].Efficiency(r.Label, r.Results))
				variants = append(variants, r.Rules.String())
			}
		}
	}
	return es, variants
}

// WriteEvalBounds puts each variant's wins beside the clairvoyant bound of
// the corpus under its rules, for the variants bounds cover (nothing when
// none is), and returns the efficiency of each of those variants.
//
// Unless opt.Wide, the table fits opt.width() and shows only the variants
// where some deck is unknown or unwinnable; when there is none, one line
// says every deck is winnable.
func WriteEvalBounds(w io.Writer, rows []tournament.VariantResult, bounds []tournament.Bound, opt Options) ([]tournament.Efficiency, error) {
	es, variants := efficiencies(rows, bounds)
	if len(es) == 0 {
		return nil, nil
	}
	if !opt.Wide {
		return es, writeEvalBoundsFitted(w, es, opt.width())
	}
	fmt.Fprintf(w, "\nWins among the decks a player who sees the stock can win (the clairvoyant bound: %s; docs/clairvoyant.md):\n", boundSources(es))
	header := []string{"variant", "winnable", "unknown", "unwinnable", "wins among winnable", "rate %", "95 % CI", "wins on unknown"}
	err := table(w, false, header, 1, len(es), func(i int) []string {
		return append([]string{variants[i]}, efficiencyCells(es[i])[3:]...)
	})
	return es, err
}

// writeEvalBoundsFitted is WriteEvalBounds' table in width columns, for the
// variants where the bound tells what the rates do not.
func writeEvalBoundsFitted(w io.Writer, es []tournament.Efficiency, width int) error {
	shown := telling(es)
	fmt.Fprintln(w)
	src := boundSources(es) + "; docs/clairvoyant.md"
	if len(shown) == 0 {
		wrap(w, fmt.Sprintf("Clairvoyant bound (%s): every deck is winnable under the rules it covers, so those rates are also the shares of the winnable decks.", src), width, 2)
		return nil
	}
	wrap(w, fmt.Sprintf("Wins among the decks a player who sees the stock can win (the clairvoyant bound: %s):", src), width, 2)
	header := []string{"rules", "winnable", "unknown", "unwinnable", "wins", "rate %", "95 % CI", "won unknown"}
	rows := make([][]string, len(shown))
	for i, e := range shown {
		rows[i] = []string{e.Rules, strconv.Itoa(e.Winnable), strconv.Itoa(e.Unknown), strconv.Itoa(e.Unwinnable),
			strconv.Itoa(e.WinsWinnable), f(100*e.Rate, 2), "[" + f(100*e.CILow, 2) + ", " + f(100*e.CIHigh, 2) + "]", strconv.Itoa(e.WinsUnknown)}
	}
	if err := fittedTable(w, header, 1, rows, width); err != nil {
		return err
	}
	wrap(w, "wins and rate % are among the winnable decks", width, 2)
	return nil
}
