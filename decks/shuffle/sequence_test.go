package shuffle

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

func TestParseSequence(t *testing.T) {
	p := DefaultParams()
	tests := []struct {
		spec     string
		want     string // canonical String
		expanded string
		len      int
	}{
		{"HDHRDHH", "HDHRDHH", "HDHRDHH", 7},
		{"D^1R^4", "DR^4", "DRRRR", 5},
		{"C^30", "C^30", strings.Repeat("C", 30), 30},
		{"U", "U", "U", 1},
		{"RRRR", "RRRR", "RRRR", 4},
		{"r^2 h", "R^2H", "RRH", 3},
		{" F\tO^01 ", "FO", "FO", 2},
		{"H^2H", "H^2H", "HHH", 3},
	}
	for _, tc := range tests {
		s, err := ParseSequence(tc.spec, p)
		if err != nil {
			t.Errorf("ParseSequence(%q): %v", tc.spec, err)
			continue
		}
		if got := s.String(); got != tc.want {
			t.Errorf("ParseSequence(%q).String() = %q, want %q", tc.spec, got, tc.want)
		}
		if got := s.Expanded(); got != tc.expanded {
			t.Errorf("ParseSequence(%q).Expanded() = %q, want %q", tc.spec, got, tc.expanded)
		}
		if got := s.Len(); got != tc.len {
			t.Errorf("ParseSequence(%q).Len() = %d, want %d", tc.spec, got, tc.len)
		}
	}
}

func TestParseSequenceErrors(t *testing.T) {
	p := DefaultParams()
	bad := DefaultParams()
	bad.Hindu.Min = 0
	tests := []struct {
		spec   string
		params Params
		pos    int
		msg    string // part of the message
	}{
		{"", p, 0, "empty"},
		{"   ", p, 0, "empty"},
		{"HDX", p, 3, `unknown shuffle letter "X"`},
		{"^2", p, 1, "'^' must follow"},
		{"R^", p, 3, "followed by a count"},
		{"R^x", p, 3, "followed by a count"},
		{"R^0", p, 3, "at least 1"},
		{"C^1000001", p, 3, "above"},
		{"C^99999999999999999999999", p, 3, "above"},
		{"R4", p, 2, "must follow '^'"},
		{"Hé", p, 2, "unknown shuffle letter"},
		{"éZ", p, 1, "unknown shuffle letter"},
		{"RH", bad, 2, "hindu min 0"},
		{"R^2^3", p, 4, "'^' must follow"},
	}
	for _, tc := range tests {
		_, err := ParseSequence(tc.spec, tc.params)
		var se *SequenceError
		if !errors.As(err, &se) {
			t.Errorf("ParseSequence(%q) error %v, want a *SequenceError", tc.spec, err)
			continue
		}
		if se.Pos != tc.pos || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("ParseSequence(%q) = %q (pos %d), want pos %d and %q", tc.spec, err, se.Pos, tc.pos, tc.msg)
		}
	}
}

// TestSequenceApplies checks that a sequence is its steps applied in order.
func TestSequenceApplies(t *testing.T) {
	p := DefaultParams()
	s := MustParseSequence("HD^2R", p)
	got := Unshuffled(52)
	s.Shuffle(got, NewRand(9))
	want := Unshuffled(52)
	r := NewRand(9)
	for _, m := range []Shuffler{p.Hindu, p.Deal, p.Deal, p.Riffle} {
		m.Shuffle(want, r)
	}
	if !slices.Equal(got, want) {
		t.Errorf("HD^2R = %v, want %v", got, want)
	}
	steps := s.Steps()
	if len(steps) != 3 || steps[1].Letter != 'D' || steps[1].Count != 2 || steps[1].Model.String() != "D" {
		t.Errorf("Steps() = %+v", steps)
	}
	var zero Sequence
	d := Unshuffled(5)
	zero.Shuffle(d, NewRand(1))
	if !slices.Equal(d, Unshuffled(5)) || zero.String() != "" {
		t.Errorf("zero Sequence changed the deck or has a name: %v %q", d, zero.String())
	}
}

// FuzzParseSequence: parse → String → parse gives the same sequence, and
// String is a fixed point; errors never panic.
func FuzzParseSequence(f *testing.F) {
	for _, s := range []string{"HDHRDHH", "D^1R^4", "C^30", "U", "r^2 h", "^", "R^0", "X", "C^1000000", "Hé^3"} {
		f.Add(s)
	}
	p := DefaultParams()
	f.Fuzz(func(t *testing.T, spec string) {
		s, err := ParseSequence(spec, p)
		if err != nil {
			var se *SequenceError
			if !errors.As(err, &se) {
				t.Fatalf("ParseSequence(%q): error %v is not a *SequenceError", spec, err)
			}
			return
		}
		canon := s.String()
		s2, err := ParseSequence(canon, p)
		if err != nil {
			t.Fatalf("ParseSequence(%q) → %q does not parse: %v", spec, canon, err)
		}
		if s2.String() != canon || s2.Len() != s.Len() || !slices.EqualFunc(s.Steps(), s2.Steps(), func(a, b Step) bool {
			return a.Letter == b.Letter && a.Count == b.Count
		}) {
			t.Fatalf("round trip %q → %q → %q", spec, canon, s2.String())
		}
	})
}

// ParseMethods round-trips: the letters it returns, joined, read back the same.
func FuzzParseMethods(f *testing.F) {
	for _, s := range []string{"HRD", "hrd", "CHRFDOU", "HH", "", "X", "Hé"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		names, err := ParseMethods(s)
		if err != nil {
			return
		}
		again, err := ParseMethods(strings.Join(names, ""))
		if err != nil || !slices.Equal(names, again) {
			t.Fatalf("ParseMethods(%q) = %v, read back as %v, %v", s, names, again, err)
		}
	})
}
