package main

import (
	"encoding/json"
	"io"
	"strings"
	"unicode"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/tw"
)

// table is a terminal table whose headers are printed as written ("max|e|",
// not "MAX | E |") and whose number columns are right-aligned.
type table struct {
	t    *tablewriter.Table
	rows [][]string
}

func newTable(w io.Writer, header ...string) *table {
	t := tablewriter.NewTable(w, tablewriter.WithHeaderAutoFormat(tw.Off))
	t.Header(header)
	return &table{t: t}
}

// Append adds a row.
func (t *table) Append(cells ...string) { t.rows = append(t.rows, cells) }

// Footer sets the footer row.
func (t *table) Footer(cells ...string) { t.t.Footer(cells) }

// Render aligns each column right when every cell of it is a number
// ("12", "0.978(2646)", "1.2e-04", "[6.48, 7.05]") and prints the table.
func (t *table) Render() error {
	cols := 0
	for _, r := range t.rows {
		cols = max(cols, len(r))
	}
	align := make([]tw.Align, cols)
	for c := range align {
		align[c] = tw.AlignRight
		for _, r := range t.rows {
			if c < len(r) && !isNumber(r[c]) {
				align[c] = tw.AlignLeft
			}
		}
	}
	t.t.Configure(func(cfg *tablewriter.Config) { cfg.Row.Alignment.PerColumn = align })
	if err := t.t.Bulk(t.rows); err != nil {
		return err
	}
	return t.t.Render()
}

// isNumber reports whether a cell reads as a number: it starts with a
// digit, a sign or a bracket and holds no letter but an exponent's e.
func isNumber(s string) bool {
	s = strings.TrimLeft(s, "[-+≈ ")
	if s == "" || !unicode.IsDigit(rune(s[0])) {
		return false
	}
	for _, c := range s {
		if unicode.IsLetter(c) && c != 'e' {
			return false
		}
	}
	return true
}

// printJSON writes v as indented JSON.
func printJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
