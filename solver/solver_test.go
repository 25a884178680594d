package solver

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestTableOrder(t *testing.T) {
	// The four tables of docs/rules.md.
	want := []string{
		"A234567890JQK",
		"24680QA3579JK",
		"369Q258JA470K",
		"48Q37J260A59K",
	}
	for x := 1; x <= Tables; x++ {
		var b strings.Builder
		for k := 0; k < NumRanks; k++ {
			r := TableRank(x, k)
			b.WriteString(r.String())
			if TablePos(x, r) != k {
				t.Errorf("TablePos(%d, %s) = %d, want %d", x, r, TablePos(x, r), k)
			}
		}
		if got := b.String(); got != want[x-1] {
			t.Errorf("table %d = %s, want %s", x, got, want[x-1])
		}
	}
}

const sortedRanks = "AAAA22223333444455556666777788889999000" + "0JJJJQQQQKKKK"

func TestParseDeck(t *testing.T) {
	cards := func() string {
		var parts []string
		for _, s := range "SHDC" {
			for _, r := range rankChars {
				parts = append(parts, string(r)+string(s))
			}
		}
		return strings.Join(parts, " ")
	}()
	tests := []struct {
		name, in, want, err string
	}{
		{name: "ranks", in: sortedRanks, want: sortedRanks},
		{name: "ranks with T and spaces", in: strings.ReplaceAll(sortedRanks, "0", "T")[:20] + " " + strings.ReplaceAll(sortedRanks, "0", "T")[20:], want: sortedRanks},
		{name: "cards", in: cards, want: strings.Repeat("A234567890JQK", 4)},
		{name: "cards lower case", in: strings.ToLower(cards), want: strings.Repeat("A234567890JQK", 4)},
		{name: "too few", in: sortedRanks[:51], err: "51 cards; want 52"},
		{name: "too many", in: sortedRanks + "K", err: "53 cards; want 52"},
		{name: "fifth ace", in: "A" + sortedRanks[:51], err: "card 5: a fifth A"},
		{name: "unknown rank", in: "X" + sortedRanks[1:], err: `card 1: unknown rank 'X'`},
		{name: "duplicate card", in: strings.Replace(cards, "2S", "AS", 1), err: "card 2: duplicate card AS"},
		{name: "bad suit in cards", in: strings.Replace(cards, "2S", "2X", 1), err: `card 2: card "2X": unknown suit 'X'`},
		{name: "empty", in: "", err: "0 cards; want 52"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d, err := ParseDeck(tc.in)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("ParseDeck error = %v, want it to contain %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := d.String(); got != tc.want {
				t.Errorf("deck = %s, want %s", got, tc.want)
			}
		})
	}
}

func TestParseMove(t *testing.T) {
	r4 := Rules{Stacks: 4}
	tests := []struct {
		tok  string
		want Move
		err  string
	}{
		{tok: "33", want: Move{Kind: ToTable, Rank: 3, Table: 3}},
		{tok: "K1", want: Move{Kind: ToTable, Rank: 13, Table: 1}},
		{tok: "6Z4", want: Move{Kind: ToStack, Rank: 6, Stack: 0, Table: 4}},
		{tok: "0X3", want: Move{Kind: ToStack, Rank: 10, Stack: 1, Table: 3}},
		{tok: "TX3", want: Move{Kind: ToStack, Rank: 10, Stack: 1, Table: 3}},
		{tok: "Z93", want: Move{Kind: StackToTable, Rank: 9, Stack: 0, Table: 3}},
		{tok: "V93", want: Move{Kind: StackToTable, Rank: 9, Stack: 3, Table: 3}},
		{tok: "6C", want: Move{Kind: ToStack, Rank: 6, Stack: 2}},
		{tok: "35", err: "table '5' is not 1..4"},
		{tok: "6B4", err: "no stack 'B' with 4 stacks"},
		{tok: "B94", err: "no stack 'B' with 4 stacks"},
		{tok: "X3", err: "unknown rank 'X'"},
		{tok: "6Z44", err: "want yx, ySx, yS or Syx"},
		{tok: "Z9", err: "unknown rank 'Z'"},
	}
	for _, tc := range tests {
		t.Run(tc.tok, func(t *testing.T) {
			m, err := ParseMove(tc.tok, r4)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("ParseMove(%q) error = %v, want %q", tc.tok, err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, m); diff != "" {
				t.Errorf("ParseMove(%q) (-want +got):\n%s", tc.tok, diff)
			}
			if f := m.Format(r4); f != strings.ReplaceAll(tc.tok, "T", "0") {
				t.Errorf("Format = %q, want %q", f, tc.tok)
			}
		})
	}
}

func TestRulesValidate(t *testing.T) {
	tests := []struct {
		r   Rules
		err string
	}{
		{r: Rules{Stacks: 1}},
		{r: Rules{Stacks: 8}},
		{r: Rules{Stacks: 0}, err: "0 stacks"},
		{r: Rules{Stacks: 9}, err: "9 stacks"},
		{r: Rules{Stacks: 2, Names: "Z"}, err: "1 stack names"},
		{r: Rules{Stacks: 2, Names: "ZA"}, err: "clashes"},
		{r: Rules{Stacks: 2, Names: "Z3"}, err: "clashes"},
		{r: Rules{Stacks: 2, Names: "ZZ"}, err: "used twice"},
		{r: Rules{Stacks: 2, Names: "uv"}},
	}
	for _, tc := range tests {
		err := tc.r.Validate()
		if (err == nil) != (tc.err == "") || (err != nil && !strings.Contains(err.Error(), tc.err)) {
			t.Errorf("%+v: Validate() = %v, want %q", tc.r, err, tc.err)
		}
	}
}

// The opening of the example tokens of docs/rules.md ("6Z4 0X3 33 KC1 Z93")
// on a deck that starts 6 0 3 K 9, with the rest sorted.
func TestReplay(t *testing.T) {
	rest := []byte(sortedRanks)
	for _, c := range "603K9" {
		i := strings.IndexRune(string(rest), c)
		rest = append(rest[:i], rest[i+1:]...)
	}
	d, err := ParseDeck("603K9" + string(rest))
	if err != nil {
		t.Fatal(err)
	}
	r := DefaultRules()
	tests := []struct {
		name, trace string
		err         string // "" = legal
		index       int
	}{
		{name: "rules example", trace: "6Z4 0X3 33 KC1"},
		{name: "wrong drawn card", trace: "6Z4 9X3", err: "drawn card is 0, not 9", index: 1},
		{name: "table does not need it", trace: "6Z4 0X3 31", err: "table 1 needs A, not 3", index: 2},
		{name: "stack empty", trace: "Z61", err: "stack Z is empty", index: 0},
		{name: "stack to table not needed", trace: "6Z4 Z64", err: "table 4 needs 4, not 6", index: 1},
		{name: "reserved slot", trace: "6Z4 6X4", err: "drawn card is 0, not 6", index: 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			moves, err := ParseTrace(tc.trace, r)
			if err != nil {
				t.Fatal(err)
			}
			_, err = Replay(&d, r, moves)
			if tc.err == "" {
				if err != nil {
					t.Fatalf("Replay: %v", err)
				}
				return
			}
			var re *ReplayError
			if !errors.As(err, &re) {
				t.Fatalf("Replay error = %v, want a *ReplayError", err)
			}
			if re.Index != tc.index || !strings.Contains(re.Err.Error(), tc.err) {
				t.Errorf("Replay error = move %d: %v; want move %d: %q", re.Index+1, re.Err, tc.index+1, tc.err)
			}
		})
	}
}

func TestGameFlow(t *testing.T) {
	d, _ := ParseDeck(sortedRanks)
	g, err := NewGame(&d, DefaultRules())
	if err != nil {
		t.Fatal(err)
	}
	if g.Drawn() != 1 || g.StockLen() != 51 || g.Remaining(1) != 3 {
		t.Fatalf("after the first draw: drawn %s, stock %d, aces left %d", g.Drawn(), g.StockLen(), g.Remaining(1))
	}
	// A to table 1, then A onto Z for table 2 (slot reserved), then A onto X for table 2 is refused.
	for _, m := range []Move{{Kind: ToTable, Table: 1}, {Kind: ToStack, Stack: 0, Table: 2}} {
		if err := g.Apply(m); err != nil {
			t.Fatal(err)
		}
	}
	if !g.Reserved(2, 1) || g.ReservedMask(2) != 1<<TablePos(2, 1) || g.StackMask(0, 2) != 1<<TablePos(2, 1) {
		t.Errorf("A for table 2 on Z: reserved masks %b %b", g.ReservedMask(2), g.StackMask(0, 2))
	}
	if s, i := g.Locate(2, TablePos(2, 1)); s != 0 || i != 0 {
		t.Errorf("Locate = %d,%d want 0,0", s, i)
	}
	if err := g.Apply(Move{Kind: ToStack, Stack: 1, Table: 2}); err == nil || !strings.Contains(err.Error(), "already filled or reserved") {
		t.Errorf("second A for table 2: err = %v", err)
	}
	if err := g.Apply(Move{Kind: ToStack, Stack: 1, Table: 1}); err == nil {
		t.Errorf("A for table 1 after it was placed: no error")
	}
}

func TestPreplaced(t *testing.T) {
	d, _ := ParseDeck(sortedRanks)
	g, err := NewGame(&d, Rules{Stacks: 3, Preplaced: true})
	if err != nil {
		t.Fatal(err)
	}
	for x := 1; x <= Tables; x++ {
		if g.Placed(x) != 1 {
			t.Errorf("table %d holds %d cards, want 1", x, g.Placed(x))
		}
	}
	// The first A, 2, 3, 4 are gone: 48 cards, three aces then three 2s…
	if g.Drawn() != 1 || g.StockLen() != 47 || g.Remaining(1) != 2 || g.Remaining(2) != 3 {
		t.Errorf("drawn %s, stock %d, aces %d, twos %d", g.Drawn(), g.StockLen(), g.Remaining(1), g.Remaining(2))
	}
}

// trivial plays a stack top its table needs, else the drawn card to a table
// that needs it, else onto the stack with the fewest cards, unassigned.
type trivial struct{}

func (trivial) Choose(p View) (Move, error) {
	for s := 0; s < p.Stacks(); s++ {
		if t := p.Top(s); t != 0 {
			for x := 1; x <= Tables; x++ {
				if p.Need(x) == t.Rank() {
					return Move{Kind: StackToTable, Stack: int8(s), Table: int8(x)}, nil
				}
			}
		}
	}
	for x := 1; x <= Tables; x++ {
		if p.Need(x) == p.Drawn() {
			return Move{Kind: ToTable, Table: int8(x)}, nil
		}
	}
	best := 0
	for s := 1; s < p.Stacks(); s++ {
		if p.Height(s) < p.Height(best) {
			best = s
		}
	}
	return Move{Kind: ToStack, Stack: int8(best)}, nil
}

func TestPlayReplayRoundTrip(t *testing.T) {
	decks := []string{sortedRanks, "A3474AK0JJ77Q580Q626639695324880KJAK2047A85Q25KJ99Q3"}
	for _, s := range decks {
		d, err := ParseDeck(s)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range []Rules{{Stacks: 3}, {Stacks: 4, Preplaced: true}, {Stacks: 1}} {
			res, err := Play(context.Background(), &d, r, &ChooserSession{C: trivial{}}, true)
			if err != nil {
				t.Fatal(err)
			}
			text := FormatTrace(res.Trace, r)
			moves, err := ParseTrace(text, r)
			if err != nil {
				t.Fatal(err)
			}
			g, err := Replay(&d, r, moves)
			if err != nil {
				t.Fatalf("%s: replay of %s: %v", r, text, err)
			}
			if g.Won() != res.Won || g.TotalPlaced() != res.Placed {
				t.Errorf("%s: replay ends won=%t placed=%d, play said won=%t placed=%d", r, g.Won(), g.TotalPlaced(), res.Won, res.Placed)
			}
		}
	}
}

func TestPositionStringSingular(t *testing.T) {
	p, err := NewPosition(Rules{Stacks: 3, Preplaced: true})
	if err != nil {
		t.Fatal(err)
	}
	if s := p.String(); !strings.Contains(s, "table 1:  1 card , top A") || strings.Contains(s, "1 cards") {
		t.Errorf("position with one card per table:\n%s", s)
	}
}
