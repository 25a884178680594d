// Package report renders a tournament's report: the tables (text,
// Markdown, CSV, JSON) and the chart of success rates. It is the edge where
// tablewriter and gonum/plot live; package tournament computes what is shown.
package report

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/renderer"
	"github.com/olekukonko/tablewriter/tw"

	"github.com/calcsol/calcsol/internal/atomicfile"
	"github.com/calcsol/calcsol/tournament"
)

// Formats are the formats Write knows.
var Formats = []string{"table", "markdown", "csv", "json"}

// Options say what Write shows.
type Options struct {
	// Timing shows ms per game (which differs between runs); off for
	// reports that must be the same byte for byte.
	Timing bool
	// Wide renders the "table" format as one table per view with every
	// column and full names, at any width (the pairs still as AllPairs
	// says); otherwise it fits Width columns (DefaultWidth if 0).
	Wide  bool
	Width int
	// AllPairs lists every pair in the "table" format, not only those that
	// differ significantly. Markdown, CSV and JSON list every pair always.
	AllPairs bool
}

// Write renders rep in format: "table" (boxes), "markdown", "csv" (the rows,
// then the pairs after a blank line) or "json".
func Write(w io.Writer, rep tournament.Report, format string, opt Options) error {
	switch format {
	case "json":
		out := rep
		if !opt.Timing {
			out.Rows = append([]tournament.Row(nil), rep.Rows...)
			for i := range out.Rows {
				out.Rows[i].MsPerGame = 0
			}
		}
		return writeJSON(w, out)
	case "csv":
		// The CSV columns are the JSON fields: raw fractions, one value each.
		cw := csv.NewWriter(w)
		h := []string{"strategy", "corpus", "corpus_sha256", "rules", "applicable", "wins", "games", "failures", "rate", "ci_low", "ci_high", "mean_placed"}
		if opt.Timing {
			h = append(h, "ms_per_game")
		}
		_ = cw.Write(h)
		for _, r := range rep.Rows {
			c := []string{r.Strategy, r.Corpus, r.CorpusSHA, r.Rules, strconv.FormatBool(r.Applicable), strconv.Itoa(r.Wins), strconv.Itoa(r.Games),
				strconv.Itoa(r.Failures), f(r.Rate, 6), f(r.CILow, 6), f(r.CIHigh, 6), f(r.MeanPlaced, 4)}
			if opt.Timing {
				c = append(c, f(r.MsPerGame, 4))
			}
			_ = cw.Write(c)
		}
		_ = cw.Write(nil)
		_ = cw.Write([]string{"corpus", "rules", "a", "b", "games", "both", "only_a", "only_b", "neither", "diff", "diff_low", "diff_high", "p", "p_holm", "winner"})
		for _, p := range rep.Pairs {
			_ = cw.Write([]string{p.Corpus, p.Rules, p.A, p.B, strconv.Itoa(p.Games), strconv.Itoa(p.Both), strconv.Itoa(p.OnlyA), strconv.Itoa(p.OnlyB),
				strconv.Itoa(p.Neither), f(p.Diff, 6), f(p.DiffLo, 6), f(p.DiffHi, 6), strconv.FormatFloat(p.P, 'g', -1, 64), strconv.FormatFloat(p.PHolm, 'g', -1, 64), p.Winner})
		}
		if len(rep.Efficiency) > 0 {
			_ = cw.Write(nil)
			_ = cw.Write([]string{"strategy", "corpus", "rules", "bound", "games", "winnable", "unknown", "unwinnable", "wins_winnable", "rate", "ci_low", "ci_high", "wins_unknown", "wins_unwinnable"})
			for _, e := range rep.Efficiency {
				_ = cw.Write([]string{e.Strategy, e.Corpus, e.Rules, e.Bound, strconv.Itoa(e.Games), strconv.Itoa(e.Winnable), strconv.Itoa(e.Unknown), strconv.Itoa(e.Unwinnable),
					strconv.Itoa(e.WinsWinnable), f(e.Rate, 6), f(e.CILow, 6), f(e.CIHigh, 6), strconv.Itoa(e.WinsUnknown), strconv.Itoa(e.WinsUnwinnable)})
			}
		}
		cw.Flush()
		return cw.Error()
	case "table", "markdown":
		md := format == "markdown"
		if !md && !opt.Wide {
			return writeFitted(w, rep, opt)
		}
		pairs := rep.Pairs
		if !md && !opt.AllPairs {
			pairs = slices.DeleteFunc(slices.Clone(pairs), func(p tournament.Pair) bool { return p.Winner == "" })
		}
		if err := table(w, md, rowHeader(opt), 3, len(rep.Rows), func(i int) []string { return rowCells(rep.Rows[i], opt) }); err != nil {
			return err
		}
		if len(rep.Pairs) > 0 {
			fmt.Fprintf(w, "\nPaired comparisons on the same decks (exact McNemar test; * marks the winner where significant at %g after Holm's correction over all %d pairs):\n", rep.Alpha, len(rep.Pairs))
			if md {
				fmt.Fprintln(w)
			}
			if len(pairs) < len(rep.Pairs) {
				fmt.Fprintf(w, "%d of %d pairs differ significantly; --pairs all lists every pair.\n", len(pairs), len(rep.Pairs))
			}
			if err := table(w, md, pairHeader(), 4, len(pairs), func(i int) []string { return pairCells(pairs[i]) }); err != nil {
				return err
			}
		}
		if len(rep.Efficiency) > 0 {
			fmt.Fprintf(w, "\nWins among the decks a player who sees the stock can win (the clairvoyant bound: %s; docs/clairvoyant.md):\n", boundSources(rep.Efficiency))
			if md {
				fmt.Fprintln(w)
			}
			if err := table(w, md, efficiencyHeader(), 3, len(rep.Efficiency), func(i int) []string { return efficiencyCells(rep.Efficiency[i]) }); err != nil {
				return err
			}
		}
		return nil
	}
	return fmt.Errorf("format %q: want one of table, markdown, csv, json", format)
}

func rowHeader(opt Options) []string {
	h := []string{"strategy", "corpus", "rules", "wins", "games", "rate %", "95 % CI", "mean placed", "failures"}
	if opt.Timing {
		h = append(h, "ms/game")
	}
	return h
}

func rowCells(r tournament.Row, opt Options) []string {
	if !r.Applicable {
		c := []string{r.Strategy, r.Corpus, r.Rules, "", "", "n/a", "not applicable", "", ""}
		if opt.Timing {
			c = append(c, "")
		}
		return c
	}
	c := []string{r.Strategy, r.Corpus, r.Rules, strconv.Itoa(r.Wins), strconv.Itoa(r.Games),
		f(100*r.Rate, 2), "[" + f(100*r.CILow, 2) + ", " + f(100*r.CIHigh, 2) + "]", f(r.MeanPlaced, 2)}
	c = append(c, strconv.Itoa(r.Failures))
	if opt.Timing {
		c = append(c, f(r.MsPerGame, 4))
	}
	return c
}

func pairHeader() []string {
	return []string{"corpus", "rules", "A", "B", "decks", "both", "only A", "only B", "neither", "A − B (points)", "95 % CI", "p", "p (Holm)", "winner"}
}

func pairCells(p tournament.Pair) []string {
	c := []string{p.Corpus, p.Rules, p.A, p.B, strconv.Itoa(p.Games), strconv.Itoa(p.Both), strconv.Itoa(p.OnlyA), strconv.Itoa(p.OnlyB), strconv.Itoa(p.Neither)}
	winner := ""
	if p.Winner != "" {
		winner = p.Winner + " *"
	}
	return append(c, fmt.Sprintf("%+.2f", 100*p.Diff), fmt.Sprintf("[%+.2f, %+.2f]", 100*p.DiffLo, 100*p.DiffHi), g(p.P), g(p.PHolm), winner)
}

func efficiencyHeader() []string {
	return []string{"strategy", "corpus", "rules", "winnable", "unknown", "unwinnable", "wins among winnable", "rate %", "95 % CI", "wins on unknown"}
}

func efficiencyCells(e tournament.Efficiency) []string {
	return []string{e.Strategy, e.Corpus, e.Rules, strconv.Itoa(e.Winnable), strconv.Itoa(e.Unknown), strconv.Itoa(e.Unwinnable),
		strconv.Itoa(e.WinsWinnable), f(100*e.Rate, 2), "[" + f(100*e.CILow, 2) + ", " + f(100*e.CIHigh, 2) + "]", strconv.Itoa(e.WinsUnknown)}
}

// boundSources names the bounds of a report, each once, in order.
func boundSources(es []tournament.Efficiency) string {
	var src []string
	for _, e := range es {
		if !slices.Contains(src, e.Bound) {
			src = append(src, e.Bound)
		}
	}
	return strings.Join(src, ", ")
}

func f(x float64, prec int) string { return strconv.FormatFloat(x, 'f', prec, 64) }

// g formats a p-value; one below the smallest float64 shows as such.
func g(x float64) string {
	if x == 0 {
		return "<1e-300"
	}
	return strconv.FormatFloat(x, 'g', 3, 64)
}

// table renders rows with tablewriter: boxes, or Markdown; the first left
// columns are aligned left (names), the others right (figures).
func table(w io.Writer, markdown bool, header []string, left, n int, row func(int) []string) error {
	align := make([]tw.Align, len(header))
	for i := range align {
		align[i] = tw.AlignRight
		if i < left || i == len(header)-1 && header[i] == "winner" {
			align[i] = tw.AlignLeft
		}
	}
	opts := []tablewriter.Option{tablewriter.WithHeaderAutoFormat(tw.Off), tablewriter.WithRowAlignmentConfig(tw.CellAlignment{PerColumn: align})}
	if markdown {
		opts = append(opts, tablewriter.WithRenderer(renderer.NewMarkdown()))
	}
	t := tablewriter.NewTable(w, opts...)
	h := make([]any, len(header))
	for i, s := range header {
		h[i] = s
	}
	t.Header(h...)
	rows := make([][]string, n)
	for i := range rows {
		rows[i] = row(i)
	}
	if err := t.Bulk(rows); err != nil {
		return err
	}
	return t.Render()
}

// Summary files of a report directory.
const (
	SummaryMarkdown = "summary.md"
	SummaryJSON     = "summary.json"
	ChartPNG        = "rates.png"
)

// WriteFiles writes the summaries of rep into the report directory dir:
// summary.md (the tables, without timing, so that a merged report is the same
// byte for byte), summary.json (with ms per game, the one timing field) and
// rates.png (Chart). m heads summary.md with what produced the report.
func WriteFiles(dir string, rep tournament.Report, m tournament.Manifest) error {
	var md bytes.Buffer
	fmt.Fprintf(&md, "# Tournament report\n\nProgram: %s. Config sha256 %s, run seed %d.\n\n", m.Program, m.ConfigSHA, m.Seed)
	for _, c := range m.Corpora {
		fmt.Fprintf(&md, "- corpus %s: %d decks, sha256 %s (%s)\n", c.Name, c.Decks, c.SHA, c.Source)
	}
	for _, s := range m.Strategies {
		fmt.Fprintf(&md, "- strategy %s: %s (config hash %s)\n", s.Name, s.Spec, s.Hash)
	}
	// The chart first: the tables after it give the figures.
	fmt.Fprintf(&md, "\n![success rates](%s)\n\n", ChartPNG)
	if err := Write(&md, rep, "markdown", Options{}); err != nil {
		return err
	}
	var js bytes.Buffer
	if err := Write(&js, rep, "json", Options{Timing: true}); err != nil {
		return err
	}
	var png bytes.Buffer
	if err := Chart(&png, rep); err != nil {
		return err
	}
	for _, f := range []struct {
		name string
		data []byte
	}{{SummaryMarkdown, md.Bytes()}, {SummaryJSON, js.Bytes()}, {ChartPNG, png.Bytes()}} {
		if err := atomicfile.Write(filepath.Join(dir, f.name), f.data); err != nil {
			return err
		}
	}
	return nil
}

// writeJSON writes v as indented JSON, the form of every JSON output here.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
