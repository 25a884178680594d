package report

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/calcsol/calcsol/tournament"
)

func TestShorten(t *testing.T) {
	tests := []struct {
		in    string
		width int
		want  string
	}{
		{"priority", 8, "priority"},
		{"priority", 20, "priority"},
		{"tuned-3x+reassign+rescue+endgame", 20, "tuned-3x+r…e+endgame"},
		{"abcdef", 5, "ab…ef"},
		{"abcdef", 1, "a"},
	}
	for _, tc := range tests {
		got := Shorten(tc.in, tc.width)
		if got != tc.want || utf8.RuneCountInString(got) > max(tc.width, 0) {
			t.Errorf("Shorten(%q, %d) = %q, want %q", tc.in, tc.width, got, tc.want)
		}
	}
}

func TestWrap(t *testing.T) {
	tests := []struct {
		name, in      string
		width, indent int
		want          string
	}{
		{"fits", "a b c", 10, 2, "a b c\n"},
		{"breaks", "aaa bbb ccc", 7, 2, "aaa bbb\n  ccc\n"},
		{"leading spaces stay", "  aaa bbb", 6, 4, "  aaa\n    bbb\n"},
		{"long word whole", "aaaaaaaaaa b", 4, 0, "aaaaaaaaaa\nb\n"},
	}
	for _, tc := range tests {
		if got := Wrap(tc.in, tc.width, tc.indent); got != tc.want {
			t.Errorf("%s: Wrap(%q, %d, %d) = %q, want %q", tc.name, tc.in, tc.width, tc.indent, got, tc.want)
		}
	}
}

func TestRulesTitle(t *testing.T) {
	for key, want := range map[string]string{
		"3-base":            "3 stacks, tables start empty (3-base)",
		"4-preplaced":       "4 stacks, A 2 3 4 pre-placed (4-preplaced)",
		"3-base/move=10ms":  "3 stacks, tables start empty (3-base/move=10ms)",
		"something-strange": "something-strange",
	} {
		if got := RulesTitle(key); got != want {
			t.Errorf("RulesTitle(%q) = %q, want %q", key, got, want)
		}
	}
}

func TestSig3(t *testing.T) {
	for x, want := range map[float64]string{0.04081: "0.0408", 9.3162: "9.32", 24.2456: "24.2", 149.9686: "150", 1234.5: "1234"} {
		if got := sig3(x); got != want {
			t.Errorf("sig3(%g) = %q, want %q", x, got, want)
		}
	}
}

// A report with long names, a cell not applicable and a failure fits the
// width in the table format, and keeps every win count.
func TestWriteFits(t *testing.T) {
	long := strings.Repeat("long-name-", 8)
	rep := tournament.Report{Alpha: tournament.Alpha,
		Rows: []tournament.Row{
			{Strategy: long + "a", Corpus: "c", Rules: "3-base", Applicable: true, Wins: 123, Games: 1000, Failures: 2, Rate: 0.123, CILow: 0.1, CIHigh: 0.15, MsPerGame: 1234.5},
			{Strategy: long + "b", Corpus: "c", Rules: "3-base", Applicable: true, Wins: 45, Games: 1000, Rate: 0.045, CILow: 0.03, CIHigh: 0.06},
			{Strategy: long + "b", Corpus: "c", Rules: "4-base"},
		},
		Pairs: []tournament.Pair{{Corpus: "c", Rules: "3-base", A: long + "a", B: long + "b", Games: 1000, Diff: 0.078, DiffLo: 0.05, DiffHi: 0.1, PHolm: 1e-9, Winner: long + "a"}},
	}
	// Below about 75 columns the figures alone do not fit.
	for _, width := range []int{80, 100, 120} {
		var b bytes.Buffer
		if err := Write(&b, rep, "table", Options{Timing: true, Width: width}); err != nil {
			t.Fatal(err)
		}
		for _, l := range strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n") {
			if n := utf8.RuneCountInString(l); n > width {
				t.Errorf("width %d: a line of %d columns: %q", width, n, l)
			}
		}
		for _, s := range []string{"│  123 │", "│   45 │", "not applicable (1 cell, left out)", "failures", "1 of 1 pairs"} {
			if !strings.Contains(b.String(), s) && !(s == "1 of 1 pairs" && strings.Contains(b.String(), "all 1 pairs")) {
				t.Errorf("width %d: no %q in\n%s", width, s, b.String())
			}
		}
	}
}
