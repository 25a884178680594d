package corpus

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/calcsol/calcsol/decks/cards"
	"github.com/calcsol/calcsol/decks/deal"
	"github.com/calcsol/calcsol/decks/shuffle"
	"github.com/calcsol/calcsol/internal/golden"
	"github.com/calcsol/calcsol/solver"
)

// corpusFile builds a corpus file from deck lines, with a header whose
// count and checksum fit unless the extra header lines say otherwise.
func corpusFile(head string, lines ...string) string {
	h := sha256.New()
	for _, l := range lines {
		h.Write([]byte(l + "\n"))
	}
	s := head
	s = strings.ReplaceAll(s, "$COUNT", fmt.Sprint(len(lines)))
	s = strings.ReplaceAll(s, "$SUM", hex.EncodeToString(h.Sum(nil)))
	return s + strings.Join(lines, "\n") + "\n"
}

// freshLine is the fresh standard52 deck, card by card.
var freshLine = cards.Standard52.FormatDeck(cards.Standard52.NewDeck())

// swapCards returns freshLine with the cards at 0-based positions i and j swapped.
func swapCards(i, j int) string {
	f := strings.Fields(freshLine)
	f[i], f[j] = f[j], f[i]
	return strings.Join(f, " ")
}

// replaceCard returns freshLine with card i replaced by c.
func replaceCard(i int, c string) string {
	f := strings.Fields(freshLine)
	f[i] = c
	return strings.Join(f, " ")
}

const fullHeader = "# format calcsol-corpus 1\n# kind standard52\n# generator shuffle U\n# seed 7\n# count $COUNT\n# sha256 $SUM\n"

func TestReadCorpusErrors(t *testing.T) {
	rankOnly := strings.Repeat("A234567890JQK", 4)
	tests := []struct {
		name, in, want string
	}{
		{"short deck", corpusFile(fullHeader, freshLine, strings.TrimSuffix(freshLine, " KC")),
			"c.txt line 8: 51 cards; want 52"},
		{"long deck", corpusFile(fullHeader, freshLine+" AS"),
			"c.txt line 7: 53 cards; want 52"},
		{"unknown rank", corpusFile(fullHeader, replaceCard(4, "ZS")),
			`c.txt line 7: card 5: card "ZS": unknown rank 'Z'`},
		{"unknown suit", corpusFile(fullHeader, replaceCard(4, "5X")),
			`c.txt line 7: card 5: card "5X": unknown suit 'X' (want S H D C)`},
		{"three characters", corpusFile(fullHeader, replaceCard(4, "10H")),
			`c.txt line 7: card 5: card "10H": want rank+suit like AS or 0H`},
		{"duplicate card", corpusFile(fullHeader, replaceCard(16, "0S")),
			"c.txt line 7: card 17: duplicate card 0S (also card 10)"},
		{"count mismatch", corpusFile(strings.Replace(fullHeader, "$COUNT", "3", 1), freshLine, freshLine),
			"c.txt line 5: count 3, but the file holds 2 decks"},
		{"checksum mismatch", corpusFile(strings.Replace(fullHeader, "$SUM", strings.Repeat("0", 64), 1), freshLine),
			"c.txt line 6: checksum mismatch: header sha256 " + strings.Repeat("0", 64)},
		{"bad checksum", corpusFile("# sha256 abc\n", freshLine),
			`c.txt line 1: sha256 "abc": want 64 lower-case hex digits`},
		{"metadata after a deck", corpusFile("", freshLine, "# count 2", freshLine),
			`c.txt line 2: metadata "count" after the first deck`},
		{"unknown kind", corpusFile("# kind poker\n", freshLine),
			`c.txt line 1: unknown deck kind "poker"`},
		{"future format", corpusFile("# format calcsol-corpus 2\n", freshLine),
			`c.txt line 1: format "calcsol-corpus 2"; this reader knows "calcsol-corpus 1"`},
		{"second key", corpusFile("# seed 1\n# seed 2\n", freshLine),
			`c.txt line 2: second "seed" line (first on line 1)`},
		{"bad seed", corpusFile("# seed -1\n", freshLine),
			`c.txt line 1: seed "-1": want a decimal integer`},
		{"generator without seed", corpusFile("# generator shuffle U\n", freshLine),
			"c.txt line 1: generator without a seed line"},
		{"rank-only fifth king", corpusFile("", strings.Replace(rankOnly, "Q", "K", 1)),
			"c.txt line 1: rank-only deck, card 52: a fifth K"},
		{"rank-only short", corpusFile("", rankOnly[1:]),
			"c.txt line 1: rank-only deck: 51 cards; want 52"},
		{"rank-only unknown", corpusFile("", "X"+rankOnly[1:]),
			`c.txt line 1: rank-only deck, card 1: unknown rank 'X'`},
		{"mixed notations", corpusFile("", freshLine, rankOnly),
			"c.txt line 2: a rank-only deck, but line 1 is a card-by-card: one notation per file"},
		{"tcg60 card", corpusFile("# kind tcg60\n", strings.Replace(cards.TCG60.FormatDeck(cards.TCG60.NewDeck()), "60", "61", 1)),
			`c.txt line 2: card 60: card "61": want two digits 01..60`},
		{"set64 order", corpusFile("# kind set64\n", strings.Replace(cards.Set64.FormatDeck(cards.Set64.NewDeck()), "12a", "21a", 1)),
			`c.txt line 2: card 4: card "21a": members must be distinct and increasing`},
		{"set64 rank-only", corpusFile("# kind set64\n", rankOnly),
			`c.txt line 2: card 1: card "A234567890JQKA234567890JQKA234567890JQKA234567890JQK": want a subset`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Read(strings.NewReader(tt.in), "c.txt")
			if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
				t.Errorf("error %v\nwant prefix %s", err, tt.want)
			}
			if err != nil {
				var pe *ParseError
				if !errors.As(err, &pe) || pe.Name != "c.txt" {
					t.Errorf("error %v is not a *ParseError naming c.txt", err)
				}
			}
			if strings.HasPrefix(tt.want, "c.txt line") && !strings.Contains(tt.name, "tcg60") && !strings.Contains(tt.name, "set64") {
				// ReadCalculationDecks shares the checks.
				if _, err2 := ReadCalculationDecks(strings.NewReader(tt.in), "c.txt"); err2 == nil || err2.Error() != err.Error() {
					t.Errorf("ReadCalculationDecks: %v, want %v", err2, err)
				}
			}
		})
	}
}

func TestReadCorpusAccepts(t *testing.T) {
	rankOnly := strings.Repeat("A234567890JQK", 4)
	lower := strings.ToLower(strings.ReplaceAll(swapCards(0, 51), "0", "T"))
	tests := []struct {
		name     string
		in       string
		rankOnly bool
		first    []int
	}{
		{"bare lines", freshLine + "\n" + swapCards(0, 51), false, nil},
		{"full header", corpusFile(fullHeader, freshLine, swapCards(0, 51)), false, nil},
		{"comments, blank lines, CRLF", "# made by hand\r\n\r\n" + freshLine + "\r\n  \n# the end\n" + swapCards(0, 51) + "\r\n", false, nil},
		{"lower case and T", freshLine + "\n" + lower + "\n", false, nil},
		{"tabs and runs of spaces", strings.ReplaceAll(freshLine, " ", " \t ") + "\n" + swapCards(0, 51), false, nil},
		{"rank-only", rankOnly + "\n" + rankOnly, true, nil},
		{"rank-only with spaces", strings.Join(strings.Split(rankOnly, ""), " ") + "\n" + rankOnly, true, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := Read(strings.NewReader(tt.in), "c.txt")
			if err != nil {
				t.Fatal(err)
			}
			if len(c.Decks) != 2 || c.Kind != cards.Standard52 || c.RankOnly != tt.rankOnly {
				t.Fatalf("got %d decks of %s, rank-only %v", len(c.Decks), c.Kind, c.RankOnly)
			}
			// Rank-only decks get suits S, H, D, C by occurrence: the fresh deck.
			if diff := cmp.Diff(cards.Standard52.NewDeck(), c.Decks[0]); diff != "" {
				t.Errorf("deck 1 (-want +got):\n%s", diff)
			}
			ds, err := ReadCalculationDecks(strings.NewReader(tt.in), "c.txt")
			if err != nil {
				t.Fatal(err)
			}
			if got := ds[0].String(); got != rankOnly {
				t.Errorf("ReadCalculationDecks deck 1 = %s, want %s", got, rankOnly)
			}
		})
	}
}

func TestReadCalculationDecksKind(t *testing.T) {
	in := corpusFile("# kind tcg60\n", cards.TCG60.FormatDeck(cards.TCG60.NewDeck()))
	_, err := ReadCalculationDecks(strings.NewReader(in), "t.txt")
	if want := "t.txt line 2: a 60-card deck: Calculation needs standard52"; err == nil || err.Error() != want {
		t.Errorf("error %v, want %s", err, want)
	}
	// A header without decks is refused before its kind is looked at.
	_, err = ReadCalculationDecks(strings.NewReader("# kind set64\n"), "t.txt")
	if want := "t.txt: no deck lines: a corpus holds at least one deck"; err == nil || err.Error() != want {
		t.Errorf("error %v, want %s", err, want)
	}
}

// The checksum is the SHA-256 of the deck lines, each with "\n", as documented
// (grep -v '^#' FILE | sha256sum).
func TestChecksumDefinition(t *testing.T) {
	c, err := Generate(cards.Standard52, ShuffleGenerator{shuffle.Uniform{}}, 3, 5)
	if err != nil {
		t.Fatal(err)
	}
	b, err := c.MarshalText()
	if err != nil {
		t.Fatal(err)
	}
	var body []byte
	var sumLine string
	for _, l := range strings.SplitAfter(string(b), "\n") {
		if strings.HasPrefix(l, "# sha256 ") {
			sumLine = strings.TrimSpace(strings.TrimPrefix(l, "# sha256 "))
		}
		if !strings.HasPrefix(l, "#") {
			body = append(body, l...)
		}
	}
	sum := sha256.Sum256(body)
	if got := hex.EncodeToString(sum[:]); got != sumLine {
		t.Errorf("header sha256 %s, sha256 of the deck lines %s", sumLine, got)
	}
}

func TestGenerateDeterministic(t *testing.T) {
	// One generator consumed in deck order: the first k decks of a longer
	// corpus are the corpus of k decks.
	long, err := Generate(cards.Standard52, ShuffleGenerator{shuffle.Uniform{}}, 42, 20)
	if err != nil {
		t.Fatal(err)
	}
	short, err := Generate(cards.Standard52, ShuffleGenerator{shuffle.Uniform{}}, 42, 7)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(long.Decks[:7], short.Decks); diff != "" {
		t.Errorf("prefix differs:\n%s", diff)
	}
	other, _ := Generate(cards.Standard52, ShuffleGenerator{shuffle.Uniform{}}, 43, 7)
	if cmp.Equal(other.Decks, short.Decks) {
		t.Error("seeds 42 and 43 gave the same decks")
	}
	// By hand: deck j continues the same generator.
	r := shuffle.NewRand(42)
	for j := range 3 {
		d := cards.Standard52.NewDeck()
		shuffle.Uniform{}.Shuffle(d, r)
		if !slices.Equal(d, long.Decks[j]) {
			t.Errorf("deck %d is not the %d-th shuffle of shuffle.NewRand(42)", j+1, j+1)
		}
	}
}

func TestGenerateErrors(t *testing.T) {
	if _, err := Generate(cards.TCG60, deal.DefaultSpec(), 1, 1); err == nil {
		t.Error("a deal of tcg60 decks was accepted")
	}
	if _, err := Generate(cards.Kind(0), ShuffleGenerator{shuffle.Uniform{}}, 1, 1); err == nil {
		t.Error("kind 0 was accepted")
	}
	if _, err := Generate(cards.Standard52, ShuffleGenerator{shuffle.Uniform{}}, 1, -1); err == nil {
		t.Error("count -1 was accepted")
	}
}

// TestCorpusGolden pins the file format and the generators: a few decks of
// every kind, and a rank-only corpus, byte for byte.
func TestCorpusGolden(t *testing.T) {
	p := shuffle.DefaultParams()
	tests := []struct {
		file     string
		kind     cards.Kind
		gen      string
		rankOnly bool
	}{
		{"standard52-U.txt", cards.Standard52, "shuffle U", false},
		{"standard52-U-rankonly.txt", cards.Standard52, "shuffle U", true},
		{"tcg60-U.txt", cards.TCG60, "shuffle U", false},
		{"set64-U.txt", cards.Set64, "shuffle U", false},
		{"standard52-deal.txt", cards.Standard52, "deal players=4,adjust=30,target=pairs", false},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			g, err := ParseGenerator(tt.gen, p)
			if err != nil {
				t.Fatal(err)
			}
			c, err := Generate(tt.kind, g, 2026, 4)
			if err != nil {
				t.Fatal(err)
			}
			c.RankOnly = tt.rankOnly
			b, err := c.MarshalText()
			if err != nil {
				t.Fatal(err)
			}
			golden.Check(t, "testdata/"+tt.file, b)
			back, err := Read(bytes.NewReader(b), tt.file)
			if err != nil {
				t.Fatal(err)
			}
			if err := Verify(back, p); err != nil {
				t.Errorf("Verify: %v", err)
			}
		})
	}
}

func TestVerifyDetects(t *testing.T) {
	p := shuffle.DefaultParams()
	c, err := Generate(cards.Standard52, ShuffleGenerator{shuffle.Uniform{}}, 5, 10)
	if err != nil {
		t.Fatal(err)
	}
	if err := Verify(c, p); err != nil {
		t.Fatalf("fresh corpus: %v", err)
	}
	d := c.Decks[6]
	d[3], d[40] = d[40], d[3]
	err = Verify(c, p)
	if err == nil || !strings.HasPrefix(err.Error(), "deck 7 card 4: ") {
		t.Errorf("swapped cards: %v", err)
	}
	c.Generator = "shuffle u"
	if err := Verify(c, p); err == nil || !strings.Contains(err.Error(), "canonical") {
		t.Errorf("non-canonical generator: %v", err)
	}
	c.Generator = "stir"
	if err := Verify(c, p); err == nil {
		t.Error("unknown generator verified")
	}
	c.Generator = ""
	if err := Verify(c, p); err == nil {
		t.Error("no generator verified")
	}
}

// TestVerifyBadGeneratorLine: a generator the header names but that does not
// parse is reported with its line.
func TestVerifyBadGeneratorLine(t *testing.T) {
	in := corpusFile("# format calcsol-corpus 1\n# kind standard52\n# generator shuffle HX\n# seed 1\n", freshLine)
	c, err := Read(strings.NewReader(in), "t.txt")
	if err != nil {
		t.Fatal(err)
	}
	err = Verify(c, shuffle.DefaultParams())
	want := `line 3: generator "shuffle HX": shuffle sequence "HX": position 2: unknown shuffle letter "X"`
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("error %v, want %s…", err, want)
	}
}

// TestReadCorpusNoDecks: a header without deck lines is not a corpus, and
// Generate makes at least one deck.
func TestReadCorpusNoDecks(t *testing.T) {
	for _, in := range []string{"", "# format calcsol-corpus 1\n# count 0\n", "\n\n# comment\n"} {
		if _, err := Read(strings.NewReader(in), "t.txt"); err == nil || !strings.Contains(err.Error(), "no deck lines") {
			t.Errorf("%q: %v, want no deck lines", in, err)
		}
	}
	if _, err := Generate(cards.Standard52, ShuffleGenerator{shuffle.Uniform{}}, 1, 0); err == nil {
		t.Error("Generate made an empty corpus")
	}
}

func TestWriteCorpusFileAtomic(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "c.txt")
	c, err := Generate(cards.Set64, ShuffleGenerator{shuffle.Uniform{}}, 1, 3)
	if err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(path, c); err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("directory holds %d files, want only c.txt (no temporary left)", len(entries))
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	back, err := Read(f, path)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(c.Decks, back.Decks); diff != "" {
		t.Error(diff)
	}
	bad := &Corpus{Kind: cards.Standard52, Decks: [][]int{{1, 2}}}
	if err := WriteFile(filepath.Join(dir, "bad.txt"), bad); err == nil {
		t.Error("a 2-card deck was written")
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("a failed write left %d files", len(entries))
	}
}

// FuzzReadCorpus: whatever Read accepts, it writes back as a file that
// reads to the same corpus and writes to the same bytes.
func FuzzRead(f *testing.F) {
	c, _ := Generate(cards.Standard52, ShuffleGenerator{shuffle.Uniform{}}, 1, 2)
	b, _ := c.MarshalText()
	f.Add(string(b))
	c.RankOnly = true
	b, _ = c.MarshalText()
	f.Add(string(b))
	for _, k := range []cards.Kind{cards.TCG60, cards.Set64} {
		c, _ := Generate(k, ShuffleGenerator{shuffle.Uniform{}}, 1, 2)
		b, _ := c.MarshalText()
		f.Add(string(b))
	}
	f.Add(freshLine + "\n# note\n\n" + strings.ToLower(freshLine))
	f.Add("# kind set64\n" + cards.Set64.FormatDeck(cards.Set64.NewDeck()))
	f.Fuzz(func(t *testing.T, in string) {
		c1, err := Read(strings.NewReader(in), "fuzz")
		if err != nil {
			return
		}
		b1, err := c1.MarshalText()
		if err != nil {
			t.Fatalf("accepted input does not write: %v", err)
		}
		c2, err := Read(bytes.NewReader(b1), "again")
		if err != nil {
			t.Fatalf("written corpus does not read: %v\n%s", err, b1)
		}
		if c1.Kind != c2.Kind || c1.Generator != c2.Generator || c1.RankOnly != c2.RankOnly ||
			(c1.Generator != "" && c1.Seed != c2.Seed) || !cmp.Equal(c1.Decks, c2.Decks) {
			t.Fatalf("round trip changed the corpus:\n%+v\n%+v", c1, c2)
		}
		b2, _ := c2.MarshalText()
		if !bytes.Equal(b1, b2) {
			t.Fatal("second write differs")
		}
		if c2.Checksum != hexSum(bodyOf(b1)) {
			t.Fatal("checksum is not that of the deck lines")
		}
	})
}

func bodyOf(b []byte) []byte {
	var out []byte
	for _, l := range bytes.SplitAfter(b, []byte("\n")) {
		if len(l) > 0 && l[0] != '#' {
			out = append(out, l...)
		}
	}
	return out
}

func hexSum(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// uniformFile is a 30,000-deck uniform corpus file, the size of the shipped one.
func uniformFile(b *testing.B) []byte {
	c, err := Generate(cards.Standard52, ShuffleGenerator{shuffle.Uniform{}}, 20021001, 30000)
	if err != nil {
		b.Fatal(err)
	}
	data, err := c.MarshalText()
	if err != nil {
		b.Fatal(err)
	}
	return data
}

func BenchmarkReadCalculationDecks(b *testing.B) {
	data := uniformFile(b)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	var ds []solver.Deck
	for b.Loop() {
		var err error
		ds, err = ReadCalculationDecks(bytes.NewReader(data), "bench")
		if err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/corpus")
	b.ReportMetric(float64(len(ds))*float64(b.N)/b.Elapsed().Seconds(), "decks/s")
}

func BenchmarkRead(b *testing.B) {
	data := uniformFile(b)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Read(bytes.NewReader(data), "bench"); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(30000)*float64(b.N)/b.Elapsed().Seconds(), "decks/s")
}

func BenchmarkGenerate(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Generate(cards.Standard52, ShuffleGenerator{shuffle.Uniform{}}, 1, 30000); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(30000)*float64(b.N)/b.Elapsed().Seconds(), "decks/s")
}

// TestAdjustZero: with adjust 0 nothing is exchanged. Interleaved, the deal is
// the uniform deck itself (the decks of "shuffle U" with the same seed);
// gathered by hands it is those hands, as dealt.
func TestAdjustZero(t *testing.T) {
	p := shuffle.DefaultParams()
	u, err := Generate(cards.Standard52, ShuffleGenerator{shuffle.Uniform{}}, 99, 50)
	if err != nil {
		t.Fatal(err)
	}
	for _, players := range []int{3, 4, 5} {
		g, err := ParseGenerator(fmt.Sprintf("deal players=%d,adjust=0,target=both,gather=interleave", players), p)
		if err != nil {
			t.Fatal(err)
		}
		c, err := Generate(cards.Standard52, g, 99, 50)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(u.Decks, c.Decks); diff != "" {
			t.Errorf("%d players, interleave: adjust 0 differs from shuffle U:\n%s", players, diff)
		}
		g, _ = ParseGenerator(fmt.Sprintf("deal players=%d,adjust=0,target=pairs", players), p)
		c, _ = Generate(cards.Standard52, g, 99, 50)
		for j, d := range u.Decks {
			var want []int
			for pl := range players {
				for k := pl; k < 52; k += players {
					want = append(want, d[k])
				}
			}
			if !slices.Equal(want, c.Decks[j]) {
				t.Fatalf("%d players, hands: deck %d is not the dealt hands in order", players, j+1)
			}
		}
	}
}
