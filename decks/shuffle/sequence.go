package shuffle

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"unicode/utf8"
)

// MaxSequenceCount bounds the count of one letter in a sequence ("C^30"), so
// that a typo cannot start a shuffle that never ends.
const MaxSequenceCount = 1_000_000

// Step is one letter of a sequence with its count: "R^4" is Step{'R', 4, …}.
type Step struct {
	Letter byte
	Count  int
	Model  Shuffler
}

// Sequence is a shuffle written in the notation of docs/shuffles-models.md: letters, each
// optionally raised to a count ("HDHRDHH", "D^1R^4", "C^30"), applied left
// to right. It implements Shuffler. The zero Sequence shuffles nothing.
type Sequence struct {
	steps []Step
}

// SequenceError is a malformed sequence: Pos is the 1-based character
// position of the problem in Spec (0 for the sequence as a whole).
type SequenceError struct {
	Spec string
	Pos  int
	Msg  string
	Err  error // the underlying cause, if any (a parameter error)
}

func (e *SequenceError) Error() string {
	if e.Pos == 0 {
		return fmt.Sprintf("shuffle sequence %q: %s", e.Spec, e.Msg)
	}
	return fmt.Sprintf("shuffle sequence %q: position %d: %s", e.Spec, e.Pos, e.Msg)
}

func (e *SequenceError) Unwrap() error { return e.Err }

// ParseSequence reads a sequence such as "HDHRDHH", "D^1R^4", "C^30" or "U"
// and builds each letter's model from p. Letters may be lower case; spaces
// between items are ignored. A count is a decimal number 1..MaxSequenceCount
// after '^'. String gives the canonical form (upper case, no spaces, "^1"
// dropped), which parses back to the same sequence.
func ParseSequence(spec string, p Params) (Sequence, error) {
	var seq Sequence
	// pos counts characters (runes), not bytes, for the error messages.
	i, pos := 0, 0
	fail := func(at int, format string, args ...any) (Sequence, error) {
		return Sequence{}, &SequenceError{Spec: spec, Pos: at, Msg: fmt.Sprintf(format, args...)}
	}
	for i < len(spec) {
		c, size := utf8.DecodeRuneInString(spec[i:])
		pos++
		i += size
		if c == ' ' || c == '\t' {
			continue
		}
		letterPos := pos
		if c >= 'a' && c <= 'z' {
			c -= 'a' - 'A'
		}
		if c == '^' {
			return fail(letterPos, "'^' must follow a shuffle letter")
		}
		if c >= utf8.RuneSelf || strings.IndexByte(Letters, byte(c)) < 0 {
			if c >= '0' && c <= '9' {
				return fail(letterPos, "count %q must follow '^'", string(c))
			}
			return fail(letterPos, "unknown shuffle letter %q (want one of %s)", string(c), Letters)
		}
		letter := byte(c)
		count := 1
		if i < len(spec) && spec[i] == '^' {
			i++
			pos++
			caretPos := pos
			digits := 0
			count = 0
			for i < len(spec) && spec[i] >= '0' && spec[i] <= '9' {
				if count <= MaxSequenceCount {
					count = count*10 + int(spec[i]-'0')
				}
				i++
				pos++
				digits++
			}
			switch {
			case digits == 0:
				return fail(caretPos+1, "'^' must be followed by a count")
			case count < 1:
				return fail(caretPos+1, "count of %c must be at least 1", letter)
			case count > MaxSequenceCount:
				return fail(caretPos+1, "count of %c is above %d", letter, MaxSequenceCount)
			}
		}
		m, err := p.Model(letter)
		if err != nil {
			return Sequence{}, &SequenceError{Spec: spec, Pos: letterPos, Msg: err.Error(), Err: err}
		}
		seq.steps = append(seq.steps, Step{Letter: letter, Count: count, Model: m})
	}
	if len(seq.steps) == 0 {
		return fail(0, "empty (want letters of %s, e.g. \"HDHRDHH\" or \"D^1R^4\")", Letters)
	}
	return seq, nil
}

// MustParseSequence is ParseSequence for sequences known to be valid (tests,
// examples); it panics on error.
func MustParseSequence(spec string, p Params) Sequence {
	s, err := ParseSequence(spec, p)
	if err != nil {
		panic(err)
	}
	return s
}

// Shuffle applies every step in order.
func (s Sequence) Shuffle(deck []int, r *rand.Rand) {
	for _, st := range s.steps {
		for range st.Count {
			st.Model.Shuffle(deck, r)
		}
	}
}

// String gives the canonical form: each step as its letter, followed by
// "^count" when the count is not 1 ("HDHRDHH", "DR^4", "C^30"). Steps are
// kept as written: "HH" and "H^2" are the same shuffle with different names.
func (s Sequence) String() string {
	var b strings.Builder
	for _, st := range s.steps {
		b.WriteByte(st.Letter)
		if st.Count != 1 {
			fmt.Fprintf(&b, "^%d", st.Count)
		}
	}
	return b.String()
}

// Expanded spells every shuffle out: "D^1R^4" gives "DRRRR". Two sequences
// are the same shuffle (with the same parameters) when their Expanded forms
// are equal.
func (s Sequence) Expanded() string {
	var b strings.Builder
	for _, st := range s.steps {
		for range st.Count {
			b.WriteByte(st.Letter)
		}
	}
	return b.String()
}

// Len is the number of single shuffles in the sequence ("D^1R^4": 5).
func (s Sequence) Len() int {
	n := 0
	for _, st := range s.steps {
		n += st.Count
	}
	return n
}

// Steps returns a copy of the steps.
func (s Sequence) Steps() []Step {
	return append([]Step(nil), s.steps...)
}
