package corpus

import (
	"os"
	"path/filepath"
	"runtime"
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
		{name: "BOM", file: "\xef\xbb\xbf" + string(good), err: "line 1 starts with a UTF-8 byte-order mark"},
		{name: "bad card", file: strings.Join(lines[:6], "") + "ZZ" + strings.Join(lines[6:], "")[2:], err: "c.txt line 7: card 1"},
	}
	t.Chdir(t.TempDir())
	for _, tc := range tests {
		// VerifyNamed, which reads the file line by line and holds it only
		// when it does not verify, says the same as VerifyFile.
		for _, named := range []bool{false, true} {
			t.Run(tc.name+map[bool]string{true: "/named"}[named], func(t *testing.T) {
				v, err := VerifyFile([]byte(tc.file), "c.txt", shuffle.DefaultParams())
				if named {
					if err := os.WriteFile("c.txt", []byte(tc.file), 0o644); err != nil {
						t.Fatal(err)
					}
					v, err = VerifyNamed("c.txt", shuffle.DefaultParams())
				}
				if tc.err != "" {
					if err == nil || !strings.Contains(err.Error(), tc.err) {
						t.Fatalf("error %v, want %q", err, tc.err)
					}
					return
				}
				if err != nil {
					t.Fatal(err)
				}
				if got := v.Checked(); got != tc.checked || v.Decks != 3 {
					t.Errorf("Checked() = %q, %d decks; want %q, 3", got, v.Decks, tc.checked)
				}
			})
		}
	}
}

// VerifyNamed of a file that verifies allocates about the same bytes for
// 20 times the decks: none is held.
func TestVerifyNamedMemoryFlat(t *testing.T) {
	dir := t.TempDir()
	alloc := func(count int) uint64 {
		path := filepath.Join(dir, "c.txt")
		writeUniform(t, path, count)
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		v, err := VerifyNamed(path, shuffle.DefaultParams())
		runtime.ReadMemStats(&after)
		if err != nil || !v.Regenerated || v.Decks != count {
			t.Fatalf("%d decks: %v", count, err)
		}
		return after.TotalAlloc - before.TotalAlloc
	}
	small, large := alloc(500), alloc(10000)
	// 10,000 decks held would be 1.5 MB of file and 4 MB of [][]int.
	if large > 2*small+256<<10 {
		t.Errorf("500 decks allocate %d bytes, 10,000 decks %d: memory grows with the count", small, large)
	}
}
