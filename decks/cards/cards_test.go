package cards

import (
	"strings"
	"testing"
)

func TestFormatCard(t *testing.T) {
	tests := []struct {
		kind Kind
		id   int
		want string
	}{
		{Standard52, 0, "AS"},
		{Standard52, 9, "0S"},
		{Standard52, 12, "KS"},
		{Standard52, 13, "AH"},
		{Standard52, 22, "0H"},
		{Standard52, 38, "KD"},
		{Standard52, 51, "KC"},
		{TCG60, 0, "01"},
		{TCG60, 9, "10"},
		{TCG60, 59, "60"},
		{Set64, 0, "-a"},
		{Set64, 1, "1a"},
		{Set64, 0b10101, "135a"},
		{Set64, 31, "12345a"},
		{Set64, 32, "-b"},
		{Set64, 32 + 0b00110, "23b"},
		{Set64, 63, "12345b"},
	}
	for _, tt := range tests {
		if got := tt.kind.FormatCard(tt.id); got != tt.want {
			t.Errorf("%s.FormatCard(%d) = %q, want %q", tt.kind, tt.id, got, tt.want)
		}
		if id, err := tt.kind.ParseCard(tt.want); err != nil || id != tt.id {
			t.Errorf("%s.ParseCard(%q) = %d, %v, want %d", tt.kind, tt.want, id, err, tt.id)
		}
	}
}

func TestStandard52Identity(t *testing.T) {
	// Identity i is rank (i%13)+1 of suit "SHDC"[i/13].
	for i := range 52 {
		if RankOf(i) != RankOf(ID(RankOf(i), SuitOf(i))) || ID(RankOf(i), SuitOf(i)) != i {
			t.Fatalf("identity %d does not round-trip through RankOf/SuitOf/ID", i)
		}
		c := Standard52.FormatCard(i)
		if c[0] != RankOf(i).String()[0] || c[1] != "SHDC"[i/13] {
			t.Errorf("card %d written %s", i, c)
		}
	}
}

func TestParseCardErrors(t *testing.T) {
	tests := []struct {
		kind Kind
		in   string
		want string
	}{
		{Standard52, "A", "want rank+suit"},
		{Standard52, "1S", "unknown rank"},
		{Standard52, "AX", "unknown suit"},
		{TCG60, "00", "want two digits 01..60"},
		{TCG60, "61", "want two digits 01..60"},
		{TCG60, "1", "want two digits 01..60"},
		{TCG60, "AS", "want two digits 01..60"},
		{Set64, "a", "want a subset"},
		{Set64, "1c", "copy letter"},
		{Set64, "16a", "member '6'"},
		{Set64, "11a", "distinct and increasing"},
		{Set64, "21a", "distinct and increasing"},
		{Set64, "-1a", "member '-'"},
		{Set64, "123456a", "want a subset"},
		{Kind(0), "AS", "invalid deck kind"},
	}
	for _, tt := range tests {
		_, err := tt.kind.ParseCard(tt.in)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s.ParseCard(%q): %v, want an error containing %q", tt.kind, tt.in, err, tt.want)
		}
	}
}

func TestKinds(t *testing.T) {
	for _, k := range Kinds() {
		got, err := ParseKind(k.Name())
		if err != nil || got != k {
			t.Errorf("ParseKind(%q) = %v, %v", k.Name(), got, err)
		}
		d := k.NewDeck()
		if len(d) != k.Size() {
			t.Errorf("%s: fresh deck of %d cards, want %d", k, len(d), k.Size())
		}
		// Every card is written distinctly and reads back.
		seen := map[string]bool{}
		for _, id := range d {
			s := k.FormatCard(id)
			if seen[s] {
				t.Errorf("%s: two cards written %s", k, s)
			}
			seen[s] = true
		}
		back, err := k.ParseDeck(k.FormatDeck(d))
		if err != nil {
			t.Fatalf("%s: %v", k, err)
		}
		for i := range d {
			if back[i] != d[i] {
				t.Fatalf("%s: deck does not round-trip", k)
			}
		}
	}
	if _, err := ParseKind("standard54"); err == nil {
		t.Error("ParseKind(standard54) succeeded")
	}
	if Kind(9).Valid() || Kind(9).Size() != 0 {
		t.Error("Kind(9) is valid")
	}
}

// FuzzParseCard: a card that parses writes back to a card that parses to the
// same identity (T, lower case and the like are read, the writer is canonical).
func FuzzParseCard(f *testing.F) {
	for _, s := range []string{"AS", "0h", "TC", "01", "60", "-a", "135b", "12345a"} {
		f.Add(uint8(Standard52), s)
		f.Add(uint8(TCG60), s)
		f.Add(uint8(Set64), s)
	}
	f.Fuzz(func(t *testing.T, k uint8, s string) {
		kind := Kind(k)
		id, err := kind.ParseCard(s)
		if err != nil {
			return
		}
		if id < 0 || id >= kind.Size() {
			t.Fatalf("%s.ParseCard(%q) = %d, out of range", kind, s, id)
		}
		w := kind.FormatCard(id)
		id2, err := kind.ParseCard(w)
		if err != nil || id2 != id {
			t.Fatalf("%q -> %d -> %q -> %d, %v", s, id, w, id2, err)
		}
	})
}
