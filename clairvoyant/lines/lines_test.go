package lines

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/calcsol/calcsol/solver"
)

// win is a winning line of a deal, from testdata/wins.txt.
type win struct {
	name  string
	deck  solver.Deck
	rules solver.Rules
	trace []solver.Move
}

func readWins(t testing.TB) []win {
	t.Helper()
	fh, err := os.Open("testdata/wins.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	var wins []win
	sc := bufio.NewScanner(fh)
	for sc.Scan() {
		l := sc.Text()
		if strings.HasPrefix(l, "#") {
			continue
		}
		var w win
		f := strings.SplitN(l, " ", 3)
		if _, err := fmt.Sscanf(f[0]+" "+f[1], "%d %t", &w.rules.Stacks, &w.rules.Preplaced); err != nil {
			t.Fatal(err)
		}
		if w.deck, err = solver.ParseDeck(f[2]); err != nil {
			t.Fatal(err)
		}
		if !sc.Scan() {
			t.Fatal("testdata/wins.txt: a deck without its trace")
		}
		if w.trace, err = solver.ParseTrace(sc.Text(), w.rules); err != nil {
			t.Fatal(err)
		}
		w.name = fmt.Sprintf("%s/%d", w.rules, len(wins))
		wins = append(wins, w)
	}
	if len(wins) == 0 {
		t.Fatal("testdata/wins.txt: no wins")
	}
	return wins
}

// TestRoundTrip: a winning trace encodes; its decoding replays to a win, puts
// each card in the same place (table, or stack and the table it leaves for)
// as the trace, and encodes to the same bytes.
func TestRoundTrip(t *testing.T) {
	for _, w := range readWins(t) {
		t.Run(w.name, func(t *testing.T) {
			data, err := Encode(&w.deck, w.rules, w.trace)
			if err != nil {
				t.Fatal(err)
			}
			moves, err := Decode(&w.deck, w.rules, data)
			if err != nil {
				t.Fatal(err)
			}
			g, err := solver.Replay(&w.deck, w.rules, moves)
			if err != nil || !g.Won() {
				t.Fatalf("decoded line: %v, won %v", err, err == nil && g.Won())
			}
			want, _ := placesOf(&w.deck, w.rules, w.trace)
			got, _ := placesOf(&w.deck, w.rules, moves)
			if !slices.Equal(got, want) {
				t.Errorf("places differ:\n got %s\nwant %s", solver.FormatTrace(got, w.rules), solver.FormatTrace(want, w.rules))
			}
			again, err := Encode(&w.deck, w.rules, moves)
			if err != nil || !bytes.Equal(again, data) {
				t.Errorf("re-encoded %x (%v), want %x", again, err, data)
			}
			// 52 cards of about 3 bits: the mixed-radix number is short.
			if len(data) > 32 {
				t.Errorf("%d bytes", len(data))
			}
		})
	}
}

func TestEncodeRefuses(t *testing.T) {
	w := readWins(t)[0]
	bad := slices.Clone(w.trace)
	bad[0].Table = bad[0].Table%4 + 1
	for _, c := range []struct {
		name  string
		trace []solver.Move
		want  string
	}{
		{"short", w.trace[:len(w.trace)-1], "does not win: 51 cards"},
		{"illegal", bad, "move 1 ("},
		{"empty", nil, "does not win: 0 cards"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Encode(&w.deck, w.rules, c.trace)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want %q", err, c.want)
			}
		})
	}
}

func TestDecodeRefuses(t *testing.T) {
	w := readWins(t)[0]
	data, err := Encode(&w.deck, w.rules, w.trace)
	if err != nil {
		t.Fatal(err)
	}
	big := append(slices.Clone(data), data...) // far more than 52 places use
	for _, c := range []struct {
		name string
		data []byte
		want string
	}{
		{"leading zero", append([]byte{0}, data...), "starts with a zero byte"},
		{"left over", big, "data left after the last card"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Decode(&w.deck, w.rules, c.data)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want %q", err, c.want)
			}
		})
	}
}

func TestFileRoundTrip(t *testing.T) {
	for _, c := range []struct {
		name string
		f    File
	}{
		{"none", File{Checksum: "ab", Rules: solver.Rules{Stacks: 3}}},
		{"mixed", File{Checksum: "0123", Rules: solver.Rules{Stacks: 4, Preplaced: true}, Lines: [][]byte{nil, {}, {1, 2, 3}, nil}}},
		{"long", File{Checksum: "ff", Rules: solver.Rules{Stacks: 8}, Lines: [][]byte{bytes.Repeat([]byte{7}, 254)}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := c.f.Write(&b); err != nil {
				t.Fatal(err)
			}
			got, err := Read(bytes.NewReader(b.Bytes()))
			if err != nil {
				t.Fatal(err)
			}
			if got.Checksum != c.f.Checksum || got.Rules != c.f.Rules || len(got.Lines) != len(c.f.Lines) {
				t.Fatalf("got %+v, want %+v", got, c.f)
			}
			for i, l := range c.f.Lines {
				if (l == nil) != (got.Lines[i] == nil) || !bytes.Equal(l, got.Lines[i]) {
					t.Errorf("line %d: got %v, want %v", i, got.Lines[i], l)
				}
			}
			var b2 bytes.Buffer
			if err := got.Write(&b2); err != nil || !bytes.Equal(b.Bytes(), b2.Bytes()) {
				t.Errorf("written twice, the bytes differ (%v)", err)
			}
		})
	}
}

func TestReadRefuses(t *testing.T) {
	gz := func(s string) []byte {
		var b bytes.Buffer
		w := gzip.NewWriter(&b)
		w.Write([]byte(s))
		w.Close()
		return b.Bytes()
	}
	for _, c := range []struct {
		name string
		data []byte
		want string
	}{
		{"not gzip", []byte("calcsol-bound-lines 1"), "lines file: gzip"},
		{"format", gz("calcsol-bound-lines 2 sha256=ab stacks=3 preplaced=false decks=0\n"), "want \"calcsol-bound-lines 1 sha256=…\""},
		{"stacks", gz("calcsol-bound-lines 1 sha256=ab stacks=0 preplaced=false decks=0\n"), "lines file: "},
		{"truncated", gz("calcsol-bound-lines 1 sha256=ab stacks=3 preplaced=false decks=2\n\x00"), "deck 1 of 2: unexpected EOF"},
		{"short line", gz("calcsol-bound-lines 1 sha256=ab stacks=3 preplaced=false decks=1\n\x05ab"), "deck 0: unexpected EOF"},
		{"extra", gz("calcsol-bound-lines 1 sha256=ab stacks=3 preplaced=false decks=1\n\x00\x00"), "data after the last deck"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Read(bytes.NewReader(c.data))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want %q", err, c.want)
			}
		})
	}
}
