package corpus

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"testing/iotest"
	"time"

	"github.com/calcsol/calcsol/decks/cards"
	"github.com/calcsol/calcsol/decks/shuffle"
	"github.com/calcsol/calcsol/solver"
)

// readers are the ways a corpus file is read, each giving the checksum and
// the Calculation decks, or the error.
var readers = []struct {
	name string
	read func(t *testing.T, data []byte) (string, []solver.Deck, error)
}{
	{"Parse", func(_ *testing.T, data []byte) (string, []solver.Deck, error) {
		c, err := Parse(data, "c.txt")
		if err != nil {
			return "", nil, err
		}
		return c.Checksum, calcDecks(c), nil
	}},
	{"Read one byte at a time", func(_ *testing.T, data []byte) (string, []solver.Deck, error) {
		c, err := Read(iotest.OneByteReader(bytes.NewReader(data)), "c.txt")
		if err != nil {
			return "", nil, err
		}
		return c.Checksum, calcDecks(c), nil
	}},
	{"Load", func(t *testing.T, data []byte) (string, []solver.Deck, error) {
		c, raw, err := Load(writeFile(t, data))
		if err != nil {
			return "", nil, err
		}
		if !bytes.Equal(raw, data) {
			t.Errorf("Load: %d raw bytes, want the file's %d", len(raw), len(data))
		}
		return c.Checksum, calcDecks(c), nil
	}},
	{"LoadCalculationDecks", func(t *testing.T, data []byte) (string, []solver.Deck, error) {
		ds, err := LoadCalculationDecks(writeFile(t, data))
		return "", ds, err
	}},
	{"OpenCalculation", func(t *testing.T, data []byte) (string, []solver.Deck, error) {
		c, err := OpenCalculation("c", writeFile(t, data))
		if err != nil {
			return "", nil, err
		}
		ds := c.Decks()
		if err := c.Err(); err != nil || len(ds) != c.Len {
			t.Fatalf("OpenCalculation: walk: %d of %d decks, %v", len(ds), c.Len, err)
		}
		return c.Checksum, ds, nil
	}},
}

// writeFile writes data to c.txt in the working directory (the tests chdir
// to a temporary one), so that error messages name the file as Parse does.
func writeFile(t *testing.T, data []byte) string {
	if err := os.WriteFile("c.txt", data, 0o644); err != nil {
		t.Fatal(err)
	}
	return "c.txt"
}

// calcDecks are c's decks as Calculation plays them.
func calcDecks(c *Corpus) []solver.Deck {
	out := make([]solver.Deck, len(c.Decks))
	for i, d := range c.Decks {
		toDeck(&out[i], d)
	}
	return out
}

// The limits of the reader, the same for every way of reading a file: a
// line of MaxLine bytes or more is refused on that line, as are binary
// data and UTF-16; a UTF-8 byte-order mark at the start is accepted and
// changes neither the decks nor the checksum.
func TestReaderLimits(t *testing.T) {
	t.Chdir(t.TempDir())
	deck := swapCards(3, 40)
	plain := corpusFile(fullHeader, freshLine, deck)
	wantSum := hexSum([]byte(freshLine + "\n" + deck + "\n"))
	want, err := ParseCalculationDecks([]byte(plain), "plain")
	if err != nil {
		t.Fatal(err)
	}
	padded := deck + strings.Repeat(" ", MaxLine-1-len(deck))
	bom := "\xef\xbb\xbf"
	tests := []struct {
		name, in, err string
		sum           string // the checksum, if not wantSum
	}{
		{name: "plain", in: plain},
		{name: "a deck line of MaxLine-1 bytes", in: freshLine + "\n" + padded + "\n",
			sum: hexSum([]byte(freshLine + "\n" + padded + "\n"))},
		{name: "and its CR", in: freshLine + "\n" + padded[:len(padded)-1] + "\r\n",
			sum: hexSum([]byte(freshLine + "\n" + padded[:len(padded)-1] + "\n"))},
		{name: "a deck line of MaxLine bytes", in: freshLine + "\n" + padded + " \n",
			err: "c.txt line 2: longer than 65536 bytes: not a corpus file"},
		{name: "a long last line without newline", in: freshLine + "\n" + padded + " ",
			err: "c.txt line 2: longer than 65536 bytes: not a corpus file"},
		{name: "a long comment", in: "# " + strings.Repeat("x", MaxLine) + "\n" + freshLine + "\n",
			err: "c.txt line 1: longer than 65536 bytes: not a corpus file"},
		{name: "zeros", in: strings.Repeat("\x00", 3*MaxLine),
			err: "c.txt line 1: longer than 65536 bytes: not a corpus file"},
		{name: "a NUL byte", in: "\x00" + freshLine + "\n",
			err: "c.txt line 1: byte 0x00 at column 1: a deck line is ASCII text (is this a corpus file?)"},
		{name: "binary after a header", in: "# kind standard52\nAS \xe2\x82\xac\n",
			err: "c.txt line 2: byte 0xe2 at column 4: a deck line is ASCII text"},
		{name: "a long junk card", in: strings.Repeat("Z", 5000) + "\n",
			err: `c.txt line 1: rank-only deck, card 1: unknown rank 'Z'`},
		{name: "UTF-8 BOM before the header", in: bom + plain},
		{name: "UTF-8 BOM before a deck", in: bom + freshLine + "\r\n" + deck + "\r\n"},
		{name: "UTF-8 BOM on line 2", in: freshLine + "\n" + bom + deck + "\n",
			err: "c.txt line 2: byte 0xef at column 1"},
		{name: "UTF-16 little-endian", in: "\xff\xfe#\x00 \x00",
			err: "c.txt line 1: UTF-16 text (it starts with a UTF-16 byte-order mark): a corpus file is ASCII text"},
		{name: "UTF-16 big-endian", in: "\xfe\xff\x00#",
			err: "c.txt line 1: UTF-16 text"},
	}
	for _, tc := range tests {
		for _, r := range readers {
			t.Run(tc.name+"/"+r.name, func(t *testing.T) {
				sum, decks, err := r.read(t, []byte(tc.in))
				if tc.err != "" {
					if err == nil || !strings.Contains(err.Error(), tc.err) {
						t.Fatalf("error %v, want %q", err, tc.err)
					}
					if msg := err.Error(); strings.Contains(msg, "\n") || len(msg) > 300 {
						t.Errorf("error of %d bytes, or of several lines: %.80q…", len(msg), msg)
					}
					return
				}
				if err != nil {
					t.Fatal(err)
				}
				ws := wantSum
				if tc.sum != "" {
					ws = tc.sum
				}
				if (sum != "" && sum != ws) || !slices.Equal(decks, want) {
					t.Errorf("checksum %s, decks %v; want %s, %v", sum, decks, ws, want)
				}
			})
		}
	}
}

// A corpus file is read again each time it is walked, and a file that
// changed since it was opened is not played: the walk stops and Err says
// why. A walk the caller stops is no error.
func TestOpenCalculationWalksTheFile(t *testing.T) {
	dir := t.TempDir()
	g, err := ParseGenerator("shuffle U", shuffle.DefaultParams())
	if err != nil {
		t.Fatal(err)
	}
	c0, err := Generate(cards.Standard52, g, 3, 40)
	if err != nil {
		t.Fatal(err)
	}
	data, err := c0.MarshalText()
	if err != nil {
		t.Fatal(err)
	}
	want, err := ParseCalculationDecks(data, "x")
	if err != nil {
		t.Fatal(err)
	}
	read, err := Parse(data, "x")
	if err != nil {
		t.Fatal(err)
	}
	other, err := Generate(cards.Standard52, g, 4, 40)
	if err != nil {
		t.Fatal(err)
	}
	otherData, _ := other.MarshalText()
	later := time.Now().Add(time.Hour)
	tests := []struct {
		name   string
		change func(path string) error
		err    string
	}{
		{"unchanged", func(string) error { return nil }, ""},
		{"touched", func(p string) error { return os.Chtimes(p, later, later) }, "written to since it was first read"},
		{"rewritten in place", func(p string) error {
			if err := os.WriteFile(p, otherData, 0o644); err != nil {
				return err
			}
			return os.Chtimes(p, later, later)
		}, "written to since it was first read"},
		{"replaced", func(p string) error {
			if err := os.WriteFile(p+".new", data, 0o644); err != nil {
				return err
			}
			return os.Rename(p+".new", p)
		}, "replaced by another file since it was first read"},
		{"removed", func(p string) error { return os.Remove(p) }, "reading it again"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "-")+".txt")
			if err := os.WriteFile(path, data, 0o644); err != nil {
				t.Fatal(err)
			}
			c, err := OpenCalculation("c", path)
			if err != nil {
				t.Fatal(err)
			}
			if c.Len != 40 || c.Checksum != read.Checksum {
				t.Fatalf("%d decks, checksum %s", c.Len, c.Checksum)
			}
			n := 0
			for range c.All() {
				if n++; n == 5 {
					break
				}
			}
			if err := c.Err(); err != nil {
				t.Fatalf("a walk stopped by its caller: %v", err)
			}
			if err := tc.change(path); err != nil {
				t.Fatal(err)
			}
			got := c.Decks()
			if tc.err == "" {
				if err := c.Err(); err != nil || !slices.Equal(got, want) || !slices.Equal(c.Decks(), want) {
					t.Fatalf("walks: %d decks, %v", len(got), err)
				}
				return
			}
			if err := c.Err(); err == nil || !strings.Contains(err.Error(), tc.err) || !strings.HasPrefix(err.Error(), "corpus "+path+": ") {
				t.Fatalf("Err() = %v, want %q", err, tc.err)
			}
			if got != nil {
				t.Errorf("Decks() of a changed file: %d decks, want nil", len(got))
			}
		})
	}
}

// A corpus file costs no memory per deck once read: opening 20 times the
// decks retains about the same bytes.
func TestOpenCalculationMemoryFlat(t *testing.T) {
	dir := t.TempDir()
	retained := func(count int) uint64 {
		path := filepath.Join(dir, fmt.Sprintf("%d.txt", count))
		writeUniform(t, path, count)
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		c, err := OpenCalculation("c", path)
		if err != nil {
			t.Fatal(err)
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		runtime.KeepAlive(c)
		return after.HeapAlloc - min(after.HeapAlloc, before.HeapAlloc)
	}
	small, large := retained(500), retained(10000)
	// 10,000 decks held would be 520,000 bytes.
	if large > small+64<<10 {
		t.Errorf("500 decks retain %d bytes, 10,000 decks %d: the decks are held", small, large)
	}
}

// Every reader agrees: the same corpus from any input it accepts, and the
// same one-line error on any it refuses, however the reads are split.
func FuzzStreamedRead(f *testing.F) {
	c, _ := Generate(cards.Standard52, ShuffleGenerator{shuffle.Uniform{}}, 1, 3)
	b, _ := c.MarshalText()
	f.Add(b)
	f.Add(bytes.ReplaceAll(b, []byte("\n"), []byte("\r\n")))
	f.Add(append([]byte("\xef\xbb\xbf"), b...))
	f.Add([]byte("\xff\xfe# kind"))
	f.Add([]byte(freshLine + "\n\x00\n"))
	f.Add([]byte(freshLine + "\n" + strings.Repeat(" ", MaxLine) + "\n"))
	f.Add([]byte("# kind tcg60\n" + cards.TCG60.FormatDeck(cards.TCG60.NewDeck())))
	f.Fuzz(func(t *testing.T, in []byte) {
		parsed, perr := Parse(in, "f")
		for _, r := range []struct {
			name string
			c    func() (*Corpus, error)
		}{
			{"whole", func() (*Corpus, error) { return Read(bytes.NewReader(in), "f") }},
			{"one byte", func() (*Corpus, error) { return Read(iotest.OneByteReader(bytes.NewReader(in)), "f") }},
			{"half", func() (*Corpus, error) { return Read(iotest.HalfReader(bytes.NewReader(in)), "f") }},
		} {
			got, err := r.c()
			if (err == nil) != (perr == nil) || (err != nil && err.Error() != perr.Error()) {
				t.Fatalf("%s: streamed error %v, in memory %v", r.name, err, perr)
			}
			if err != nil {
				if strings.Contains(err.Error(), "\n") {
					t.Fatalf("an error of several lines: %q", err)
				}
				continue
			}
			if got.Checksum != parsed.Checksum || got.Kind != parsed.Kind || !slices.EqualFunc(got.Decks, parsed.Decks, slices.Equal) {
				t.Fatalf("%s: streamed %d decks %s, in memory %d decks %s", r.name, len(got.Decks), got.Checksum, len(parsed.Decks), parsed.Checksum)
			}
		}
	})
}

// writeUniform writes the corpus file of count uniform decks from seed 1.
func writeUniform(t *testing.T, path string, count int) {
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	s := Spec{Kind: cards.Standard52, Generator: ShuffleGenerator{shuffle.Uniform{}}, Seed: 1, Count: count}
	if _, err := WriteGenerated(t.Context(), f, s); err != nil {
		t.Fatal(err)
	}
}
