// Package textblock lays out the plain text of calcsol's reports: words
// wrapped to a width, lines indented, counts with their nouns.
package textblock

import (
	"fmt"
	"strings"
)

// Wrap breaks s at spaces into lines of at most width characters, each
// indented by two spaces.
func Wrap(s string, width int) string {
	var b strings.Builder
	line := 0
	for _, w := range strings.Fields(s) {
		if line > 0 && line+1+len(w) > width {
			b.WriteByte('\n')
			line = 0
		}
		if line == 0 {
			b.WriteString("  ")
			line = 2
		} else {
			b.WriteByte(' ')
			line++
		}
		b.WriteString(w)
		line += len(w)
	}
	return b.String()
}

// Indent puts prefix before every line of s.
func Indent(s, prefix string) string {
	lines := strings.SplitAfter(s, "\n")
	for i, l := range lines {
		if l != "" {
			lines[i] = prefix + l
		}
	}
	return strings.Join(lines, "")
}

// Group writes n with a comma between groups of three digits: 30,000.
func Group(n int64) string {
	s := fmt.Sprint(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	if neg {
		return "-" + s
	}
	return s
}

// Plural writes n and noun, with an s unless n is 1: "1 deck", "2 decks".
func Plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
