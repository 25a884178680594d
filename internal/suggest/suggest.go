// Package suggest finds the names a mistyped one was probably meant to be,
// for the "did you mean" of an error message: an unknown strategy kind,
// parameter, flag, command or config key.
//
//	suggest.Hint("wrokers", []string{"workers", "seed"}, "--")
//	// " (did you mean --workers?)"
//
// A name is near when it is within a few edits of the word typed — inserted,
// deleted or changed characters, or two neighbours swapped (the
// Damerau-Levenshtein distance, in its "optimal string alignment" form) —
// or when the word typed is the start of it. Letter case is ignored.
package suggest

import (
	"slices"
	"strings"
)

// Distance is the number of edits that turn a into b: a character
// inserted, deleted or changed, or two neighbouring characters swapped
// (each character swapped once at most: the optimal string alignment
// distance, as in Damerau, "A technique for computer detection and
// correction of spelling errors"). It counts runes, not bytes.
func Distance(a, b string) int {
	x, y := []rune(a), []rune(b)
	// Three rows of the table: the two before row i are all a swap needs.
	prev2 := make([]int, len(y)+1)
	prev := make([]int, len(y)+1)
	cur := make([]int, len(y)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(x); i++ {
		cur[0] = i
		for j := 1; j <= len(y); j++ {
			cost := 1
			if x[i-1] == y[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && x[i-1] == y[j-2] && x[i-2] == y[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(y)]
}

// limit is how many edits away a name may be from word, of n runes, to be
// suggested: none for a word of one or two (any name of that length is
// that near), then one per three runes, at most two.
func limit(n int) int {
	if n < 3 {
		return 0
	}
	return min(2, max(1, n/3))
}

// minPrefix is the shortest word that suggests the names it begins.
const minPrefix = 3

// Closest returns the names nearest to word, in the order of names: those
// the fewest edits away, within the limit for word's length; failing
// those, the names word is the start of (at least three runes of it).
// It returns nothing for a word that is one of names, or that is near none.
func Closest(word string, names []string) []string {
	w := strings.ToLower(word)
	n := len([]rune(w))
	var best, prefixed []string
	bestD := limit(n)
	for _, name := range names {
		if name == word {
			return nil
		}
		l := strings.ToLower(name)
		switch d := Distance(w, l); {
		case d > bestD:
		case d < bestD || len(best) == 0:
			best, bestD = []string{name}, d
		case !slices.Contains(best, name):
			best = append(best, name)
		}
		if n >= minPrefix && strings.HasPrefix(l, w) && !slices.Contains(prefixed, name) {
			prefixed = append(prefixed, name)
		}
	}
	if len(best) > 0 {
		return best
	}
	return prefixed
}

// most is how many names a hint offers.
const most = 3

// Hint is " (did you mean X?)" for the names nearest to word, each written
// after prefix ("--" for flags), or "" when none is near. Two or three are
// offered as "X or Y", "X, Y or Z"; more than three are too many to be a
// hint.
func Hint(word string, names []string, prefix string) string {
	m := Mean(word, names, prefix)
	if m == "" {
		return ""
	}
	return " (did you mean " + m + "?)"
}

// Mean is the "X or Y" of Hint without its parentheses, "" when no name is
// near: for a message that puts the hint among other words.
func Mean(word string, names []string, prefix string) string {
	c := Closest(word, names)
	if len(c) == 0 || len(c) > most {
		return ""
	}
	for i := range c {
		c[i] = prefix + c[i]
	}
	if len(c) == 1 {
		return c[0]
	}
	return strings.Join(c[:len(c)-1], ", ") + " or " + c[len(c)-1]
}
