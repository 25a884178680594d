package deadlock

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/calcsol/calcsol/internal/golden"

	"github.com/calcsol/calcsol/solver"
)

// deckWith returns a deck that starts with the given ranks and continues with
// the rest of the 52 cards in rank order: enough to replay a short trace.
func deckWith(prefix string) string {
	var count [solver.NumRanks + 1]int
	for i := range len(prefix) {
		r, err := solver.ParseRank(prefix[i])
		if err != nil {
			panic(err)
		}
		count[r]++
	}
	var b strings.Builder
	b.WriteString(prefix)
	for r := solver.Rank(1); r <= solver.NumRanks; r++ {
		for ; count[r] < 4; count[r]++ {
			b.WriteString(r.String())
		}
	}
	return b.String()
}

// missedDeck and missedTrace are the smallest position found where Partial
// misses a deadlock (TestPartialVsExactStats, 3 stacks, random player, the
// default 200 games): four stacked cards, and stacking the drawn Q on X for table 2
// closes Q → 3 → 9 → 0 → Q, where 9 lies on 7 which lies on 0, so check 2
// (which looks only at the card directly on 0, the 7) does not see it.
const (
	missedDeck  = "07393Q9893Q627520448647A865J32JQAK7Q48K5A09J0K6JA5K2"
	missedTrace = "0Z2 7Z3 33 9Z4 3X4"
)

// exactCases are positions, each with one stacking move, chosen to show
// each shape of deadlock; their explanations are in testdata/explanations.golden.
var exactCases = []struct {
	name    string
	stacks  int
	deck    string
	trace   string
	move    string // ySx: the drawn card y onto stack S for table x
	partial bool   // what Nanzaki & Shintani's partial check says
	exact   bool   // whether the move closes (or the position has) a cycle
}{
	{
		name: "chain stacking is safe", stacks: 3,
		deck: deckWith("54"), trace: "5Z1", move: "4Z1",
	},
	{
		name: "check 1: an earlier card of the same table below", stacks: 3,
		deck: deckWith("35"), trace: "3Z1", move: "5Z1",
		partial: true, exact: true,
	},
	{
		name: "check 1: earlier card deep in the stack", stacks: 3,
		deck: deckWith("3K5"), trace: "3Z1 KZ2", move: "5Z1",
		partial: true, exact: true,
	},
	{
		name: "check 2: the card directly on w", stacks: 3,
		deck: deckWith("3K25"), trace: "3X1 KX2 2Z2", move: "5Z1",
		partial: true, exact: true,
	},
	{
		name: "missed: lies above, two stacks (real game)", stacks: 3,
		deck: missedDeck, trace: missedTrace, move: "QX2",
		exact: true,
	},
	{
		name: "missed: an unrelated card between w and u", stacks: 3,
		deck: deckWith("37K25"), trace: "3X1 7X4 KX2 2Z2", move: "5Z1",
		exact: true,
	},
	{
		name: "missed: three stacks (real game)", stacks: 4,
		deck:  "44JA289KA2KKQ42J597766736Q40Q30A8085963JJ395KQ75820A",
		trace: "44 4Z1 JV4 A1 22 84 9C2 KZ2 AC4 21", move: "KV1",
		exact: true,
	},
	{
		name: "unassigned card between: still a cycle", stacks: 3,
		deck: deckWith("37K25"), trace: "3X1 7X KX2 2Z2", move: "5Z1",
		exact: true,
	},
	{
		name: "already deadlocked before the move", stacks: 3,
		deck: missedDeck, trace: missedTrace + " QX2", move: "9C1",
		exact: true,
	},
}

// TestExactCases checks Partial, Exact, Closes and FindCycle on the named
// positions and compares the explanations with testdata/explanations.golden
// (go test ./deadlock -run TestExactCases -update rewrites it).
func TestExactCases(t *testing.T) {
	var got bytes.Buffer
	for _, tc := range exactCases {
		rules := solver.Rules{Stacks: tc.stacks}
		g := replay(t, tc.deck, rules, tc.trace)
		p := g.View()
		m, err := solver.ParseMove(tc.move, rules)
		if err != nil || m.Kind != solver.ToStack {
			t.Fatalf("%s: move %q: %v", tc.name, tc.move, err)
		}
		if m.Rank != p.Drawn() {
			t.Fatalf("%s: move %s, but %s is drawn", tc.name, tc.move, p.Drawn())
		}
		y, x, s := m.Rank, int(m.Table), int(m.Stack)
		if got := Partial(p, y, x, s); got != tc.partial {
			t.Errorf("%s: Partial = %v, want %v", tc.name, got, tc.partial)
		}
		c := Exact(p, y, x, s)
		if (c != nil) != tc.exact || Closes(p, y, x, s) != tc.exact {
			t.Errorf("%s: Exact = %v, Closes = %v, want deadlock %v", tc.name, c, Closes(p, y, x, s), tc.exact)
		}
		if c != nil {
			q := after(t, p, y, x, s)
			if err := validate(q.View(), c); err != nil {
				t.Errorf("%s: %v\n%v", tc.name, err, c)
			}
		}
		fmt.Fprintf(&got, "# %s\n%s\nmove %s\n%v\n\n", tc.name, stacksString(p), tc.move, c)
	}
	golden.Check(t, "testdata/explanations.golden", got.Bytes())
}

// TestExactMovesThatAddNoNode: an unassigned card, or a card for a slot that
// is filled or reserved, adds no node; Exact and Closes then judge the
// position alone, and a stack that does not exist is a bug of the caller.
func TestExactMovesThatAddNoNode(t *testing.T) {
	rules := solver.DefaultRules()
	free := replay(t, missedDeck, rules, missedTrace)         // Q drawn, no cycle
	dead := replay(t, missedDeck, rules, missedTrace+" QX2")  // 9 drawn, cycle
	filled := replay(t, deckWith("A2"), rules, "A1")          // 2 drawn, table 1 needs it
	reserved := replay(t, deckWith("3K25"), rules, "3X1 KX2") // 2 drawn
	cases := []struct {
		name string
		p    solver.View
		y    solver.Rank
		x, s int
		want bool
	}{
		{"unassigned, deadlock-free", free.View(), 12, 0, 1, false},
		{"unassigned, deadlocked", dead.View(), 9, 0, 0, true},
		{"table 5", free.View(), 12, 5, 1, false},
		{"no rank", free.View(), 0, 2, 1, false},
		{"slot filled", filled.View(), 1, 1, 0, false},
		{"slot reserved", reserved.View(), 3, 1, 2, false},
	}
	for _, tc := range cases {
		c := Exact(tc.p, tc.y, tc.x, tc.s)
		if (c != nil) != tc.want || Closes(tc.p, tc.y, tc.x, tc.s) != tc.want {
			t.Errorf("%s: Exact %v, Closes %v, want deadlock %v", tc.name, c, Closes(tc.p, tc.y, tc.x, tc.s), tc.want)
		}
		if c != nil && !c.Existing {
			t.Errorf("%s: cycle not marked Existing: %v", tc.name, c)
		}
	}
	for _, s := range []int{-1, 3, 8} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Exact on stack %d of 3: no panic", s)
				}
			}()
			Exact(free.View(), 12, 2, s)
		}()
	}
}
