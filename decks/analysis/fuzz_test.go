package analysis

import "testing"

func FuzzParseLengths(f *testing.F) {
	for _, s := range []string{"1..7", "7", "3..3", "0..2", "5..1", "a..b", "1..", "..4", "+1..+2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		lo, hi, err := ParseLengths(s)
		if err != nil {
			return
		}
		if lo < 1 || hi < lo {
			t.Fatalf("%q: accepted %d..%d", s, lo, hi)
		}
		w := FormatLengths(lo, hi)
		lo2, hi2, err := ParseLengths(w)
		if err != nil || lo2 != lo || hi2 != hi {
			t.Fatalf("%q → %d..%d → %q → %d..%d, %v", s, lo, hi, w, lo2, hi2, err)
		}
	})
}
