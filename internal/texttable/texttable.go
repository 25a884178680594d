// Package texttable prints the terminal tables of calcsol's commands:
// headers as written, number columns aligned right.
package texttable

import (
	"io"
	"strings"
	"unicode"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/tw"
)

// Table is a terminal table whose headers are printed as written ("max|e|",
// not "MAX | E |") and whose number columns are right-aligned.
type Table struct {
	t    *tablewriter.Table
	rows [][]string
}

// New starts a table that Render prints to w.
func New(w io.Writer, header ...string) *Table {
	t := tablewriter.NewTable(w, tablewriter.WithHeaderAutoFormat(tw.Off))
	t.Header(header)
	return &Table{t: t}
}

// Append adds a row.
func (t *Table) Append(cells ...string) { t.rows = append(t.rows, cells) }

// Footer sets the footer row.
func (t *Table) Footer(cells ...string) { t.t.Footer(cells) }

// Render aligns each column right when every cell of it is a number
// ("12", "0.978(2646)", "1.2e-04", "[6.48, 7.05]") and prints the table.
func (t *Table) Render() error {
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

// Write prints rows under header to w, and the footer if one is given.
func Write(w io.Writer, header []string, rows [][]string, footer ...string) error {
	t := New(w, header...)
	t.rows = rows
	if footer != nil {
		t.Footer(footer...)
	}
	return t.Render()
}

// Row is a value that shows as one table row.
type Row interface{ Cells() []string }

// Rows prints rows under header to w, one row each.
func Rows[R Row](w io.Writer, header []string, rows []R) error {
	cells := make([][]string, len(rows))
	for i, r := range rows {
		cells[i] = r.Cells()
	}
	return Write(w, header, cells)
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
