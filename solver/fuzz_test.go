package solver

import "testing"

func FuzzParseDeck(f *testing.F) {
	f.Add(sortedRanks)
	f.Add("A3474AK0JJ77Q580Q626639695324880KJAK2047A85Q25KJ99Q3")
	f.Add("AS 2S 3S")
	f.Add("")
	f.Fuzz(func(t *testing.T, s string) {
		d, err := ParseDeck(s)
		if err != nil {
			return
		}
		// Round trip: what parses is written and parses to the same deck.
		d2, err := ParseDeck(d.String())
		if err != nil {
			t.Fatalf("ParseDeck(%q) ok, but its String %q does not parse: %v", s, d.String(), err)
		}
		if d2 != d {
			t.Fatalf("round trip changed the deck: %s → %s", d.String(), d2.String())
		}
	})
}

func FuzzParseTrace(f *testing.F) {
	f.Add("6Z4 0X3 33 KC1 Z93", 3)
	f.Add("6V 9B2", 5)
	f.Add("", 1)
	f.Fuzz(func(t *testing.T, s string, stacks int) {
		r := Rules{Stacks: stacks%MaxStacks + 1}
		if r.Stacks < 1 {
			r.Stacks = -r.Stacks + 1
		}
		moves, err := ParseTrace(s, r)
		if err != nil {
			return
		}
		text := FormatTrace(moves, r)
		again, err := ParseTrace(text, r)
		if err != nil {
			t.Fatalf("ParseTrace(%q) ok, but its format %q does not parse: %v", s, text, err)
		}
		if FormatTrace(again, r) != text {
			t.Fatalf("round trip changed the trace: %q → %q", text, FormatTrace(again, r))
		}
	})
}
