package corpus

import (
	"strings"
	"testing"

	"github.com/calcsol/calcsol/decks/cards"
	"github.com/calcsol/calcsol/decks/shuffle"
)

func TestVerifyFile(t *testing.T) {
	c, err := Generate(cards.Standard52, ShuffleGenerator{shuffle.Uniform{}}, 7, 3)
	if err != nil {
		t.Fatal(err)
	}
	good, _ := c.MarshalText()
	lines := strings.SplitAfter(string(good), "\n")
	decks := strings.Join(lines[6:], "")
	tests := []struct {
		name, file, checked, err string
	}{
		{name: "as written", file: string(good), checked: `byte-identical to "shuffle U" seed 7`},
		{name: "CRLF", file: strings.ReplaceAll(string(good), "\n", "\r\n"), err: "line 1 ends with CRLF"},
		{name: "comment", file: lines[0] + "# hi\n" + strings.Join(lines[1:], ""), err: `line 2: extra '#' line "# hi"`},
		{name: "other seed", file: strings.Replace(string(good), "# seed 7", "# seed 8", 1), err: "deck 1 card 1"},
		// A file without a header: nothing but the format can be checked,
		// and the verdict must not claim a checksum was.
		{name: "no header", file: decks, checked: "no generator in the header: format checked"},
		{name: "count only", file: "# count 3\n" + decks, checked: "no generator in the header: format and count checked"},
		{name: "count and sum", file: strings.Join(append(lines[:2], lines[4:]...), ""), checked: "no generator in the header: format, count and checksum checked"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v, err := VerifyFile([]byte(tc.file), "c.txt", shuffle.DefaultParams())
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := v.Checked(); got != tc.checked {
				t.Errorf("Checked() = %q, want %q", got, tc.checked)
			}
		})
	}
}
