package report

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/calcsol/calcsol/tournament"
)

// DefaultWidth is the columns the "table" format fits unless told otherwise
// (Options.Width) or asked for every column (Options.Wide).
const DefaultWidth = 100

// width is the columns opt's text fits.
func (opt Options) width() int {
	if opt.Width > 0 {
		return opt.Width
	}
	return DefaultWidth
}

// writeFitted renders rep as text that fits opt.width(): the games per
// corpus once, one table per rule variant with the applicable rows only, the
// cells left out counted in a line, the significant pairs as sentences and
// the bound only where it tells what the rates do not.
func writeFitted(w io.Writer, rep tournament.Report, opt Options) error {
	width := opt.width()
	// The games of each corpus: said once when every cell played as many.
	var corpora []string
	games := map[string][]int{}
	failures := false
	for _, r := range rep.Rows {
		if _, ok := games[r.Corpus]; !ok {
			corpora = append(corpora, r.Corpus)
			games[r.Corpus] = nil
		}
		if r.Applicable && !slices.Contains(games[r.Corpus], r.Games) {
			games[r.Corpus] = append(games[r.Corpus], r.Games)
		}
		failures = failures || r.Failures > 0
	}
	varying := false
	parts := make([]string, len(corpora))
	for i, c := range corpora {
		parts[i] = c
		if n := games[c]; len(n) == 1 {
			parts[i] += " (" + group(n[0]) + " decks)"
		}
		varying = varying || len(games[c]) > 1
	}
	if len(corpora) > 0 {
		wrap(w, "corpora: "+strings.Join(parts, ", "), width, 2)
	}

	// One table per rule variant, in the order the rows name them.
	var variants []string
	for _, r := range rep.Rows {
		if !slices.Contains(variants, r.Rules) {
			variants = append(variants, r.Rules)
		}
	}
	header := []string{"strategy", "corpus", "wins"}
	if varying {
		header = append(header, "games")
	}
	header = append(header, "rate %", "95 % CI")
	if failures {
		header = append(header, "failures")
	}
	if opt.Timing {
		header = append(header, "ms/game")
	}
	var notApp []string
	notAppBy := map[string][]string{}
	nNotApp := 0
	type titled struct {
		title string
		rows  [][]string
	}
	var tables []titled
	for _, v := range variants {
		var rows [][]string
		for _, r := range rep.Rows {
			if r.Rules != v {
				continue
			}
			if !r.Applicable {
				if _, ok := notAppBy[r.Strategy]; !ok {
					notApp = append(notApp, r.Strategy)
				}
				if !slices.Contains(notAppBy[r.Strategy], v) {
					notAppBy[r.Strategy] = append(notAppBy[r.Strategy], v)
				}
				nNotApp++
				continue
			}
			c := []string{r.Strategy, r.Corpus, strconv.Itoa(r.Wins)}
			if varying {
				c = append(c, strconv.Itoa(r.Games))
			}
			c = append(c, f(100*r.Rate, 2), "["+f(100*r.CILow, 2)+", "+f(100*r.CIHigh, 2)+"]")
			if failures {
				c = append(c, strconv.Itoa(r.Failures))
			}
			if opt.Timing {
				c = append(c, sig3(r.MsPerGame))
			}
			rows = append(rows, c)
		}
		if len(rows) == 0 {
			continue
		}
		tables = append(tables, titled{RulesTitle(v), rows})
	}
	// The names are cut alike in every table.
	var all [][]string
	for _, t := range tables {
		all = append(all, t.rows...)
	}
	shortenNames(header, all, width)
	for _, t := range tables {
		fmt.Fprintf(w, "\n%s\n", t.title)
		if err := fittedTable(w, header, 2, t.rows, width); err != nil {
			return err
		}
	}
	if nNotApp > 0 {
		s := make([]string, len(notApp))
		for i, n := range notApp {
			s[i] = Shorten(n, nameRoom(width)) + " under " + strings.Join(notAppBy[n], ", ")
		}
		cells := "cells"
		if nNotApp == 1 {
			cells = "cell"
		}
		wrap(w, fmt.Sprintf("not applicable (%d %s, left out): %s", nNotApp, cells, strings.Join(s, "; ")), width, 2)
	}
	if failures {
		wrap(w, "failures: games a strategy ended with an error, an illegal move or a panic, counted as lost", width, 2)
	}
	writePairSentences(w, rep, opt)
	return writeBoundsFitted(w, rep.Efficiency, width)
}

// writePairSentences says, per rule variant and corpus, which strategy beats
// which (winner first), and how many pairs did not differ significantly;
// with opt.AllPairs those too.
func writePairSentences(w io.Writer, rep tournament.Report, opt Options) {
	if len(rep.Pairs) == 0 {
		return
	}
	width := opt.width()
	sig := 0
	for _, p := range rep.Pairs {
		if p.Winner != "" {
			sig++
		}
	}
	fmt.Fprintln(w)
	wrap(w, fmt.Sprintf("Paired comparisons on the same decks (exact McNemar test, Holm-corrected over %d pairs, α %g):", len(rep.Pairs), rep.Alpha), width, 2)
	switch {
	case opt.AllPairs:
		fmt.Fprintf(w, "%d of %d pairs differ significantly.\n", sig, len(rep.Pairs))
	case sig == len(rep.Pairs):
		fmt.Fprintf(w, "all %d pairs differ significantly.\n", sig)
	default:
		fmt.Fprintf(w, "%d of %d pairs differ significantly; --pairs all lists every pair.\n", sig, len(rep.Pairs))
	}
	last := ""
	for _, p := range rep.Pairs {
		if p.Winner == "" && !opt.AllPairs {
			continue
		}
		if k := p.Rules + " on " + p.Corpus; k != last {
			fmt.Fprintf(w, "%s:\n", k)
			last = k
		}
		room := nameRoom(width)
		p.A, p.B = Shorten(p.A, room), Shorten(p.B, room)
		if p.Winner != "" {
			p.Winner = Shorten(p.Winner, room)
		}
		var s string
		switch p.Winner {
		case "":
			s = fmt.Sprintf("%s and %s: no significant difference, %s − %s %+.2f points [%+.2f, %+.2f], p(Holm) %s",
				p.A, p.B, p.A, p.B, 100*p.Diff, 100*p.DiffLo, 100*p.DiffHi, g(p.PHolm))
		case p.A:
			s = fmt.Sprintf("%s beats %s by %.2f points [%.2f, %.2f], p(Holm) %s", p.A, p.B, 100*p.Diff, 100*p.DiffLo, 100*p.DiffHi, g(p.PHolm))
		default:
			s = fmt.Sprintf("%s beats %s by %.2f points [%.2f, %.2f], p(Holm) %s", p.B, p.A, -100*p.Diff, -100*p.DiffHi, -100*p.DiffLo, g(p.PHolm))
		}
		wrap(w, "  "+s, width, 4)
	}
}

// writeBoundsFitted shows the clairvoyant bound only for the cells where it
// differs from the rates above (a deck unknown or unwinnable), grouped by
// rules, corpus and the bound's counts; the others get one line.
func writeBoundsFitted(w io.Writer, es []tournament.Efficiency, width int) error {
	if len(es) == 0 {
		return nil
	}
	shown := telling(es)
	fmt.Fprintln(w)
	src := boundSources(es) + "; docs/clairvoyant.md"
	if len(shown) == 0 {
		cells := fmt.Sprintf("the %d cells they cover", len(es))
		if len(es) == 1 {
			cells = "the cell it covers"
		}
		wrap(w, fmt.Sprintf("Clairvoyant bounds (%s): every deck of %s is winnable, so those rates are also the shares of the winnable decks.", src, cells), width, 2)
		return nil
	}
	msg := fmt.Sprintf("Wins among the decks a player who sees the stock can win (the clairvoyant bound: %s), where some deck is unknown or unwinnable", src)
	if n := len(es) - len(shown); n > 0 {
		msg += fmt.Sprintf("; in the other %d cells it covers every deck is winnable", n)
	}
	wrap(w, msg+":", width, 2)
	type key struct {
		rules, corpus                 string
		winnable, unknown, unwinnable int
	}
	var keys []key
	byKey := map[key][]tournament.Efficiency{}
	for _, e := range shown {
		k := key{e.Rules, e.Corpus, e.Winnable, e.Unknown, e.Unwinnable}
		if _, ok := byKey[k]; !ok {
			keys = append(keys, k)
		}
		byKey[k] = append(byKey[k], e)
	}
	impossible := slices.ContainsFunc(shown, func(e tournament.Efficiency) bool { return e.WinsUnwinnable > 0 })
	header := []string{"strategy", "wins", "rate %", "95 % CI", "won unknown"}
	if impossible {
		header = append(header, "won unwinnable")
	}
	for _, k := range keys {
		fmt.Fprintf(w, "%s on %s: %d winnable, %d unknown, %d unwinnable; wins and rate among the winnable\n", k.rules, k.corpus, k.winnable, k.unknown, k.unwinnable)
		var rows [][]string
		for _, e := range byKey[k] {
			c := []string{e.Strategy, strconv.Itoa(e.WinsWinnable), f(100*e.Rate, 2), "[" + f(100*e.CILow, 2) + ", " + f(100*e.CIHigh, 2) + "]", strconv.Itoa(e.WinsUnknown)}
			if impossible {
				c = append(c, strconv.Itoa(e.WinsUnwinnable))
			}
			rows = append(rows, c)
		}
		if err := fittedTable(w, header, 1, rows, width); err != nil {
			return err
		}
	}
	return nil
}

// nameRoom is the runes a strategy's name may take in a sentence of width
// columns: two names and the figures fit a line.
func nameRoom(width int) int { return max(width/2-12, 8) }

// telling are the entries of es where the bound says something the rates
// do not: some deck unknown or unwinnable.
func telling(es []tournament.Efficiency) []tournament.Efficiency {
	var t []tournament.Efficiency
	for _, e := range es {
		if e.Unknown > 0 || e.Unwinnable > 0 || e.WinsUnwinnable > 0 {
			t = append(t, e)
		}
	}
	return t
}

// RulesTitle says what a rule variant's key means: "3 stacks, tables start
// empty (3-base)".
func RulesTitle(key string) string {
	base, _, _ := strings.Cut(key, "/")
	n, kind, ok := strings.Cut(base, "-")
	if !ok {
		return key
	}
	switch kind {
	case "base":
		return n + " stacks, tables start empty (" + key + ")"
	case "preplaced":
		return n + " stacks, A 2 3 4 pre-placed (" + key + ")"
	}
	return key
}

// fittedTable renders a box table whose first column (names) is shortened
// with "…" so that the table fits width columns; the first left columns are
// aligned left.
func fittedTable(w io.Writer, header []string, left int, rows [][]string, width int) error {
	shortenNames(header, rows, width)
	return table(w, false, header, left, len(rows), func(i int) []string { return rows[i] })
}

// shortenNames cuts the first cell of rows (Shorten) so that a box table
// of header and rows fits width columns.
func shortenNames(header []string, rows [][]string, width int) {
	cols := make([]int, len(header))
	for i, h := range header {
		cols[i] = utf8.RuneCountInString(h)
	}
	for _, r := range rows {
		for i, c := range r {
			cols[i] = max(cols[i], utf8.RuneCountInString(c))
		}
	}
	// A box table is its cells, a space either side of each, and the rules
	// between and around them.
	total := 3*len(cols) + 1
	for _, c := range cols {
		total += c
	}
	if over := total - width; over > 0 {
		room := max(cols[0]-over, utf8.RuneCountInString(header[0]))
		for _, r := range rows {
			r[0] = Shorten(r[0], room)
		}
	}
}

// Shorten fits s into width runes, cutting its middle for "…" so that both
// the start and the end of a long name stay.
func Shorten(s string, width int) string {
	r := []rune(s)
	if len(r) <= width {
		return s
	}
	if width < 2 {
		return string(r[:max(width, 0)])
	}
	head := width / 2
	tail := width - 1 - head
	return string(r[:head]) + "…" + string(r[len(r)-tail:])
}

// wrap writes s in lines of at most width runes, broken at spaces, the
// lines after the first indented by indent spaces; a word longer than a line
// stays whole.
func wrap(w io.Writer, s string, width, indent int) {
	fmt.Fprint(w, Wrap(s, width, indent))
}

// Wrap is s in lines of at most width runes, each ending in "\n", broken at
// spaces; the lines after the first are indented by indent spaces. A word
// longer than a line stays whole.
func Wrap(s string, width, indent int) string {
	var b strings.Builder
	line := 0
	for i, word := range strings.Fields(s) {
		n := utf8.RuneCountInString(word)
		switch {
		case i == 0:
			lead := len(s) - len(strings.TrimLeft(s, " "))
			b.WriteString(strings.Repeat(" ", lead))
			line = lead
		case line+1+n > width:
			b.WriteString("\n" + strings.Repeat(" ", indent))
			line = indent
		default:
			b.WriteByte(' ')
			line++
		}
		b.WriteString(word)
		line += n
	}
	b.WriteByte('\n')
	return b.String()
}

// sig3 writes ms with three significant digits, without an exponent.
func sig3(x float64) string {
	switch {
	case x >= 100:
		return strconv.FormatFloat(x, 'f', 0, 64)
	case x >= 10:
		return strconv.FormatFloat(x, 'f', 1, 64)
	case x >= 1:
		return strconv.FormatFloat(x, 'f', 2, 64)
	}
	return strconv.FormatFloat(x, 'g', 3, 64)
}
