package corpus

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/calcsol/calcsol/decks/cards"
	"github.com/calcsol/calcsol/decks/corpora"
	"github.com/calcsol/calcsol/decks/shuffle"
	"github.com/calcsol/calcsol/solver"
)

// A corpus read from a file, line by line, is the corpus parsed from its
// bytes: same decks, same checksum, whatever the line endings.
func TestOpenCalculationStreamsAsParse(t *testing.T) {
	data, err := corpora.Bytes("uniform-1000")
	if err != nil {
		t.Fatal(err)
	}
	want, err := ParseCalculationDecks(data, "uniform-1000")
	if err != nil {
		t.Fatal(err)
	}
	shipped, err := OpenCalculation("u", "uniform-1000")
	if err != nil {
		t.Fatal(err)
	}
	if shipped.Source != "shipped uniform-1000" || shipped.Len != 1000 || !slices.Equal(shipped.Decks(), want) {
		t.Fatalf("shipped: %s, %d decks", shipped.Source, shipped.Len)
	}
	dir := t.TempDir()
	for _, tc := range []struct{ name, body string }{
		{"as shipped", string(data)},
		{"CRLF", strings.ReplaceAll(string(data), "\n", "\r\n")},
		{"no last newline", strings.TrimSuffix(string(data), "\n")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "-")+".txt")
			if err := os.WriteFile(path, []byte(tc.body), 0o644); err != nil {
				t.Fatal(err)
			}
			c, err := OpenCalculation("f", path)
			if err != nil {
				t.Fatal(err)
			}
			if c.Checksum != shipped.Checksum || c.Source != "file "+path || !slices.Equal(c.Decks(), want) {
				t.Errorf("%s: checksum %s, source %q, %d decks; want the shipped corpus's", tc.name, c.Checksum, c.Source, c.Len)
			}
		})
	}
}

// OpenCalculation's errors name the file and the line.
func TestOpenCalculationErrors(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	tcg, err := os.ReadFile("testdata/tcg60-U.txt")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, arg, want string
	}{
		{"bad card", write("bad.txt", freshLine+"\n"+replaceCard(3, "ZZ")+"\n"), "corpus " + dir + "/bad.txt line 2: "},
		{"duplicate", write("dup.txt", "# a comment\n"+replaceCard(0, "2S")+"\n"), "corpus " + dir + "/dup.txt line 2: "},
		{"empty", write("empty.txt", "# format calcsol-corpus 1\n"), "no deck lines"},
		{"long line", write("long.txt", strings.Repeat("A", MaxLine+1)+"\n"), "long.txt line 1: longer than 65536 bytes: not a corpus file"},
		{"kind", write("tcg.txt", string(tcg)), "corpus " + dir + "/tcg.txt: deck kind tcg60: Calculation needs standard52"},
		{"directory", dir, "a directory, not a corpus file"},
		{"nothing", filepath.Join(dir, "none"), "no such file, and no shipped corpus"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := OpenCalculation("x", tc.arg)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want %q", err, tc.want)
			}
		})
	}
}

// A generated corpus is the corpus Generate writes: same checksum, same
// decks, walked again the same each time.
func TestGenerateCalculation(t *testing.T) {
	c, err := GenerateCalculation("g", "shuffle U", 7, 25)
	if err != nil {
		t.Fatal(err)
	}
	g, err := ParseGenerator("shuffle U", shuffle.DefaultParams())
	if err != nil {
		t.Fatal(err)
	}
	file, err := Generate(cards.Standard52, g, 7, 25)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := Write(&buf, file); err != nil {
		t.Fatal(err)
	}
	want, err := ParseCalculationDecks(buf.Bytes(), "g")
	if err != nil {
		t.Fatal(err)
	}
	read, err := Parse(buf.Bytes(), "g")
	if err != nil {
		t.Fatal(err)
	}
	if c.Checksum != read.Checksum || c.Len != 25 || !slices.Equal(c.Decks(), want) || !slices.Equal(c.Decks(), want) {
		t.Errorf("checksum %s, want %s; or other decks", c.Checksum, read.Checksum)
	}
	n := 0
	for i, d := range c.All() {
		if i != n || *d != want[i] {
			t.Fatalf("deck %d: %v", i, d)
		}
		if n++; n == 3 {
			break
		}
	}
	if _, err := NewCalculation("none", nil); err == nil {
		t.Error("NewCalculation of no decks: no error")
	}
	m, err := NewCalculation("m", want)
	if err != nil || m.Len != 25 || !slices.Equal(m.Decks(), want) {
		t.Errorf("NewCalculation: %v", err)
	}
	var bad solver.Deck
	if _, err := NewCalculation("bad", []solver.Deck{bad}); err == nil || !strings.Contains(err.Error(), "corpus bad: deck 0") {
		t.Errorf("NewCalculation of a bad deck: %v", err)
	}
}

// The two line sources split a file the same way.
func FuzzLines(f *testing.F) {
	for _, s := range []string{"", "\n", "a", "a\n", "a\r\nb", "\n\nx\n", "# k v\nAS 2S\n"} {
		f.Add(s)
	}
	f.Add(strings.Repeat("x", MaxLine-1) + "\n" + strings.Repeat("y", MaxLine))
	f.Fuzz(func(t *testing.T, s string) {
		collect := func(src lines) ([]string, error) {
			var out []string
			err := src(func(l []byte) bool { out = append(out, string(l)); return true })
			return out, err
		}
		a, err := collect(bytesLines([]byte(s)))
		if err != nil {
			t.Fatal(err)
		}
		b, err := collect(readerLines(strings.NewReader(s), "s"))
		if err == errLongLine {
			// The streamed source stops at the first line the scanner refuses.
			if len(b) >= len(a) || len(a[len(b)]) < MaxLine {
				t.Fatalf("%d lines, then a long line; in memory, line %d is not long", len(b), len(b)+1)
			}
			a = a[:len(b)]
		} else if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(a, b) {
			t.Errorf("%q: in memory %q, streamed %q", s, a, b)
		}
	})
}
