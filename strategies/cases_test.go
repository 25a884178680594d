package strategies_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/calcsol/calcsol/deadlock"
	"github.com/calcsol/calcsol/solver"
	"github.com/calcsol/calcsol/strategies"
)

// deckWith returns the deck that starts with prefix (rank characters) and
// continues with the remaining cards in rank order.
func deckWith(t *testing.T, prefix string) solver.Deck {
	t.Helper()
	rest := []byte("AAAA2222333344445555666677778888999900000JJJJQQQQKKKK")
	rest = append(rest[:36], rest[37:]...) // four tens, not five
	for i := 0; i < len(prefix); i++ {
		j := strings.IndexByte(string(rest), prefix[i])
		if j < 0 {
			t.Fatalf("prefix %s: no %c left", prefix, prefix[i])
		}
		rest = append(rest[:j], rest[j+1:]...)
	}
	d, err := solver.ParseDeck(prefix + string(rest))
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// replayed returns the game of deck (a prefix completed by deckWith) after
// the moves of setup.
func replayed(t *testing.T, deck, setup string, r solver.Rules) *solver.Game {
	t.Helper()
	d := deckWith(t, deck)
	moves, err := solver.ParseTrace(setup, r)
	if err != nil {
		t.Fatal(err)
	}
	g, err := solver.Replay(&d, r, moves)
	if err != nil {
		t.Fatalf("setup: %v", err)
	}
	return g
}

// Hand-worked decisions of the priority strategy (Table 1, 3 stacks, base):
// each case sets up a position by replaying a trace (legal under the rules,
// not necessarily what the strategy would play) and names the move that
// Table 1, read as in docs/priority.md, prescribes next, with the reasoning.
func TestPriorityHandWorked(t *testing.T) {
	const deck0 = "5269Q34J4898002878A572AJ4937A709KQKK5Q3AQ504K326J66J" // deck 0 of uniform-30000
	tests := []struct {
		name  string
		deck  string // full deck, or a prefix completed by deckWith
		setup string
		opts  []string
		want  string // the next move, or the start of the resignation
	}{
		{
			// 5: T1 T3 T2 T4 fail (the tables need A 2 3 4), N4 N2 N3 N1 find
			// no stack top, X4 is the first stacking operation: X, not Z.
			name: "first legal operation, in list order", deck: deck0, setup: "", want: "5X4",
		},
		{
			// 6: T3 T2 T1 fail, N4 wants a 0 for table 4 on top (X's top is
			// 5>4), N1 N2 N3 find nothing, T4 fails, Z4 is free.
			name: "chain stacking finds nothing, then Z4", deck: deck0, setup: "5X4 22", want: "6Z4",
		},
		{
			// Q: N1 wants K>1 on top (none), T3 (needs 3), N2 wants A>2, T4,
			// N4 wants 3>4, N3 wants 2>3: all fail; X1: slot free, X holds
			// only 5>4 (check 1 passes), no table-1 card elsewhere (check 2).
			name: "queen to X for table 1", deck: deck0, setup: "5X4 22 6Z4 9Z2", want: "QX1",
		},
		{
			// K: C1 (C empty). Then Q: N1 finds K>1 on top of C, the card
			// right after Q on table 1: chain stacking onto C, not Z.
			name: "chain stacking onto the stack whose top comes next", deck: "KQ", setup: "KC1", want: "QC1",
		},
		{
			// A stacked A, buried under 5>4, is assigned to table 1: the drawn A
			// may not fill that slot (T1 refused), T2 fails, and N4 finds 5>4
			// on top of Z, the card right after A on table 4: chain stacking.
			name: "Tx refused for a reserved slot", deck: "A5A", setup: "AZ1 5Z4", want: "AZ4",
		},
		{
			name: "Tx allowed for a reserved slot by option", deck: "A5A", setup: "AZ1 5Z4",
			opts: []string{"tx_respects_reservation=false"}, want: "A1",
		},
		{
			// The A for table 1 is on top of Z and table 1 needs it: stack
			// tops move before the drawn card is placed.
			name: "stack tops move first", deck: "A2", setup: "AZ1", want: "ZA1",
		},
		{
			// Deck 0 ends here. 9: the slots of tables 1-3 are reserved by the
			// 9s on Z; table 4's slot is free but N4 wants K>4 on top; X4 and
			// Z4 fail check 1 (X holds 5>4, Z holds 6>4 2>4 7>4, all before 9
			// on table 4); C4 passes check 1 but fails check 2: w = 6>4 on Z
			// is covered by u = 9>2, and C holds 7>2, before 9 on table 2.
			name: "list exhausted through check 2", deck: deck0,
			setup: "5X4 22 6Z4 9Z2 QX1 33 44 JX1 42 84 9Z1 8Z1 0X1 0X3 2Z4 8Z3 7X3 8Z2 A1 5X2 7Z1 21 AX3 JX3 4Z1 9Z3 31 7Z4 AX2 7C2 0X2",
			want:  "resigned: every operation for 9 is rejected",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := solver.Rules{Stacks: 3}
			g := replayed(t, tc.deck, tc.setup, r)
			m, err := priority(t, r, tc.opts...).Choose(g.View())
			got := ""
			if err != nil {
				if !errors.Is(err, solver.ErrResign) {
					t.Fatalf("Choose failed: %v", err)
				}
				got = err.Error()
			} else {
				if m.Rank == 0 {
					m.Rank = g.Drawn()
				}
				got = m.Format(r)
			}
			if !strings.HasPrefix(got, tc.want) {
				t.Errorf("after %q the strategy plays %q, want %q\n%s", tc.setup, got, tc.want, g.Position.String())
			}
		})
	}
}

// The last case above in detail: check 1 does not refuse C4, check 2 does.
func TestCheck2RefusesC4(t *testing.T) {
	r := solver.Rules{Stacks: 3}
	d := deckWith(t, "5269Q34J4898002878A572AJ4937A709KQKK5Q3AQ504K326J66J")
	moves, _ := solver.ParseTrace("5X4 22 6Z4 9Z2 QX1 33 44 JX1 42 84 9Z1 8Z1 0X1 0X3 2Z4 8Z3 7X3 8Z2 A1 5X2 7Z1 21 AX3 JX3 4Z1 9Z3 31 7Z4 AX2 7C2 0X2", r)
	g, err := solver.Replay(&d, r, moves)
	if err != nil {
		t.Fatal(err)
	}
	const c = 2
	if g.StackMask(c, 4) != 0 {
		t.Fatalf("C holds a card for table 4: check 1 would refuse")
	}
	if !deadlock.Partial(g.View(), 9, 4, c) {
		t.Errorf("Partial does not refuse 9 on C for table 4")
	}
	if cyc := deadlock.Exact(g.View(), 9, 4, c); cyc == nil {
		t.Errorf("Exact sees no cycle for 9 on C for table 4")
	} else {
		t.Log(cyc)
	}
}

// Hand-worked decisions of calcsol's fit (Fx) and empty-stack (Ex)
// operations, 3 stacks, tables start empty, the exact check. A card's wait
// is how many cards its table must still get before it.
func TestFitAndEmptyOps(t *testing.T) {
	tests := []struct {
		name, ops, deck, setup, want string
	}{
		{
			// 3 for table 1 waits 2 (A 2 first). Z's top K>1 waits 12, X's
			// 6>1 waits 5: both wait longer, X least; C is empty.
			name: "fit: the top needed soonest after the card", ops: "F1", deck: "K63", setup: "KZ1 6X1", want: "3X1",
		},
		{
			// 9 for table 1 waits 8: Z's 2>1 (1) and X's 6>1 (5) are needed
			// before it, so F1 finds nothing. 9 for table 2 waits 10: no top
			// waits longer. 9 for table 3 (3 6 9) waits 2: X's 6>1 waits 5.
			name: "fit: tops needed sooner are passed over", ops: "F1 F2 F3", deck: "269", setup: "2Z1 6X1", want: "9X3",
		},
		{
			// Z's K>1 and X's K>2 both wait 12: a tie goes to the first stack.
			name: "fit: a tie goes to the first stack", ops: "F1", deck: "KK3", setup: "KZ1 KX2", want: "3Z1",
		},
		{
			// 4 for table 1 waits 3. Z's top 8>3 waits 6, X's K>1 12: Z fits
			// best, but Z holds 2>1 under the 8, which table 1 needs before
			// the 4 — a cycle, refused by the check; X is next.
			name: "fit: a stack the check refuses is passed over", ops: "F1", deck: "28K4", setup: "2Z1 8Z3 KX1", want: "4X1",
		},
		{
			// Z's 6 is stacked unassigned: it waits 1, for table 3 (3 6 …),
			// less than the 3 for table 1 (2): not a fit. X's K>1 is.
			name: "fit: an unassigned top waits for its nearest table", ops: "F1", deck: "6K3", setup: "6Z KX1", want: "3X1",
		},
		{
			name: "empty: the first empty stack", ops: "E1", deck: "269", setup: "2Z1 6X1", want: "9C1",
		},
		{
			// No stack is empty: E1 is skipped, Z2 is played.
			name: "empty: none left", ops: "E1 Z2", deck: "2694", setup: "2Z1 6X1 9C1", want: "4Z2",
		},
	}
	r := solver.Rules{Stacks: 3}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tab := &strategies.Table{Name: "test", Stacks: "ZXC", Options: strategies.DefaultOptions()}
			tab.Options.Check = strategies.CheckExact
			for k := solver.Rank(1); k <= solver.NumRanks; k++ {
				ops, err := strategies.ParseOps(tc.ops+" Z1 X1 C1", tab.Stacks)
				if err != nil {
					t.Fatal(err)
				}
				tab.Ops[k] = ops
			}
			p, err := strategies.NewPriority(tab, r)
			if err != nil {
				t.Fatal(err)
			}
			g := replayed(t, tc.deck, tc.setup, r)
			m, err := p.Choose(g.View())
			if err != nil {
				t.Fatal(err)
			}
			if m.Rank == 0 {
				m.Rank = g.Drawn()
			}
			if got := m.Format(r); got != tc.want {
				t.Errorf("after %q the strategy plays %q, want %q\n%s", tc.setup, got, tc.want, g.Position.String())
			}
		})
	}
}
