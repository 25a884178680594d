package suggest

import (
	"slices"
	"testing"
	"unicode/utf8"
)

func TestDistance(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"", "", 0},
		{"", "abc", 3},
		{"abc", "", 3},
		{"workers", "workers", 0},
		{"wrokers", "workers", 1}, // a swap
		{"worker", "workers", 1},  // an insertion
		{"workerss", "workers", 1},
		{"wokrers", "workers", 1},
		{"wrokesr", "workers", 2}, // two swaps
		{"tabel", "table", 1},
		{"ca", "abc", 3}, // optimal string alignment: no edit of a swapped pair
		{"kitten", "sitting", 3},
		{"évál", "eval", 2}, // runes, not bytes
		{"tuned-33", "tuned-3", 1},
	}
	for _, tc := range tests {
		if got := Distance(tc.a, tc.b); got != tc.want {
			t.Errorf("Distance(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
	}
}

func TestHint(t *testing.T) {
	flags := []string{"workers", "seed", "out", "resume", "format", "stop-after", "corpus", "corpora"}
	tests := []struct {
		name   string
		word   string
		names  []string
		prefix string
		want   string
	}{
		{"a swap", "wrokers", flags, "--", " (did you mean --workers?)"},
		{"two edits in seven", "wrokesr", flags, "--", " (did you mean --workers?)"},
		{"three edits is too far", "wxyzers", flags, "--", ""},
		{"the start of a name", "stop", flags, "--", " (did you mean --stop-after?)"},
		{"the start of two", "corp", flags, "", " (did you mean corpus or corpora?)"},
		{"a near name before a prefix", "corpuss", flags, "", " (did you mean corpus?)"},
		{"letter case", "Seed", flags, "--", " (did you mean --seed?)"},
		{"a name itself", "seed", flags, "--", ""},
		{"short words get none", "ot", flags, "--", ""},
		{"three letters, one edit", "otu", flags, "--", " (did you mean --out?)"},
		{"nothing near", "zzzzzz", flags, "--", ""},
		{"no names", "seed", nil, "--", ""},
		{"ties, in the names' order", "tuned-5", []string{"tuned-3", "tuned-4", "tuned-3p"}, "", " (did you mean tuned-3 or tuned-4?)"},
		{"three", "ab", []string{"abc"}, "", ""},
		{"too many to hint", "aaa", []string{"aab", "aac", "aad", "aae"}, "", ""},
		{"a name given twice counts once", "sede", []string{"seed", "seed"}, "", " (did you mean seed?)"},
	}
	for _, tc := range tests {
		if got := Hint(tc.word, tc.names, tc.prefix); got != tc.want {
			t.Errorf("%s: Hint(%q) = %q, want %q", tc.name, tc.word, got, tc.want)
		}
	}
}

func TestMean(t *testing.T) {
	if got, want := Mean("seex", []string{"seed", "seen", "seek"}, "--"), "--seed, --seen or --seek"; got != want {
		t.Errorf("Mean = %q, want %q", got, want)
	}
}

// Properties of the distance, and of what Closest returns, for any input.
func FuzzClosest(f *testing.F) {
	f.Add("wrokers", "workers", "seed")
	f.Add("", "a", "")
	f.Add("évál", "eval", "évaluer")
	f.Add("ab\xffc", "abc", "ba")
	f.Fuzz(func(t *testing.T, word, a, b string) {
		for _, p := range [][2]string{{word, a}, {word, b}, {a, b}} {
			d := Distance(p[0], p[1])
			if d != Distance(p[1], p[0]) {
				t.Fatalf("Distance(%q, %q) = %d, not symmetric", p[0], p[1], d)
			}
			la, lb := utf8.RuneCountInString(p[0]), utf8.RuneCountInString(p[1])
			if d < max(la, lb)-min(la, lb) || d > max(la, lb) {
				t.Fatalf("Distance(%q, %q) = %d, outside [%d, %d]", p[0], p[1], d, max(la, lb)-min(la, lb), max(la, lb))
			}
			// Bytes that are not UTF-8 count as U+FFFD, as a range over the
			// string reads them.
			if (d == 0) != (string([]rune(p[0])) == string([]rune(p[1]))) {
				t.Fatalf("Distance(%q, %q) = %d", p[0], p[1], d)
			}
		}
		names := []string{a, b}
		got := Closest(word, names)
		if slices.Contains(names, word) && got != nil {
			t.Fatalf("Closest(%q, %q) = %q for a word among the names", word, names, got)
		}
		for _, g := range got {
			if !slices.Contains(names, g) {
				t.Fatalf("Closest(%q, %q) = %q, not among the names", word, names, got)
			}
		}
		if h := Hint(word, names, "--"); (h == "") != (len(got) == 0) {
			t.Fatalf("Hint(%q, %q) = %q, but Closest = %q", word, names, h, got)
		}
	})
}
