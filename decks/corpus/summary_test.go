package corpus

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/calcsol/calcsol/decks/shuffle"
	"github.com/calcsol/calcsol/internal/golden"
)

// TestWriteSummary pins what "calcsol corpus show" prints: generated
// corpora of each kind and notation, one without a header, and head values
// below, at and above the number of decks.
func TestWriteSummary(t *testing.T) {
	var b bytes.Buffer
	for _, tc := range []struct {
		file string
		head int
	}{
		{"testdata/standard52-U.txt", 2},
		{"testdata/standard52-U-rankonly.txt", 4},
		{"testdata/tcg60-U.txt", 0},
		{"testdata/standard52-deal.txt", 9},
		{"no header", 1},
	} {
		var c *Corpus
		var err error
		if tc.file == "no header" {
			c, err = Parse([]byte("AS 2S 3S 4S 5S 6S 7S 8S 9S 0S JS QS KS AH 2H 3H 4H 5H 6H 7H 8H 9H 0H JH QH KH AD 2D 3D 4D 5D 6D 7D 8D 9D 0D JD QD KD AC 2C 3C 4C 5C 6C 7C 8C 9C 0C JC QC KC\n"), tc.file)
		} else {
			c, _, err = Load(tc.file)
		}
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "--- %s, head %d\n", tc.file, tc.head)
		if err := c.WriteSummary(&b, tc.file, tc.head); err != nil {
			t.Fatal(err)
		}
	}
	golden.Check(t, "testdata/summary.golden", b.Bytes())
}

func TestVerifyNamed(t *testing.T) {
	tests := []struct {
		name, arg, checked, err string
	}{
		{"file", "testdata/standard52-U.txt", `byte-identical to "shuffle U" seed 2026`, ""},
		{"shipped", "uniform-1000", `byte-identical to "shuffle U" seed `, ""},
		{"missing", "no-such-corpus", "", "no such file, and no shipped corpus"},
		{"directory", "testdata", "", "a directory"},
	}
	for _, tt := range tests {
		v, err := VerifyNamed(tt.arg, shuffle.DefaultParams())
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%s: error %v, want %q", tt.name, err, tt.err)
			}
			continue
		}
		if err != nil || !strings.HasPrefix(v.Checked(), tt.checked) {
			t.Errorf("%s: %v; want a verdict starting %q", tt.name, err, tt.checked)
		}
	}
	if _, err := VerifyNamed("no-such-corpus", shuffle.DefaultParams()); !errors.Is(err, ErrNotFound) {
		t.Errorf("missing corpus: %v is not ErrNotFound", err)
	}
	if _, err := os.Stat("no-such-corpus"); err == nil {
		t.Fatal("test assumes no file no-such-corpus")
	}
}
