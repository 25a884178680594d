package solver

import (
	"math/rand/v2"
	"testing"
	"unsafe"
)

// TestCachedAnswers checks, in every position of 200 random games (random
// legal moves, so stack tops also go to tables they were not assigned to),
// the answers Position keeps ready or takes a short cut to against their
// definitions: Need is the rank at position Placed(x) of table x (none once
// the table is complete), SlotFree is "neither filled nor reserved". The
// decoded copy of each position must agree too.
func TestCachedAnswers(t *testing.T) {
	rng := rand.New(rand.NewPCG(12, 12))
	check := func(p *Position, where string) {
		t.Helper()
		for x := 1; x <= Tables; x++ {
			want := Rank(0)
			if k := p.Placed(x); k < NumRanks {
				want = TableRank(x, k)
			}
			if got := p.Need(x); got != want {
				t.Fatalf("%s: Need(%d) = %s, want %s\n%s", where, x, rankOrNone(got), rankOrNone(want), p)
			}
			for r := Rank(1); r <= NumRanks; r++ {
				want := !p.Filled(x, r) && !p.Reserved(x, r)
				if got := p.SlotFree(x, r); got != want {
					t.Fatalf("%s: SlotFree(%d, %s) = %v, want %v\n%s", where, x, r, got, want, p)
				}
			}
		}
	}
	for i := range 200 {
		var d Deck
		for j := range d {
			d[j] = Rank(j%NumRanks + 1)
		}
		rng.Shuffle(len(d), func(a, b int) { d[a], d[b] = d[b], d[a] })
		r := Rules{Stacks: 1 + i%MaxStacks, Preplaced: i%3 == 0}
		g, err := NewGame(&d, r)
		if err != nil {
			t.Fatal(err)
		}
		var legal []Move
		for n := 0; ; n++ {
			check(&g.Position, "game "+d.String())
			b, _ := g.MarshalBinary()
			q, err := DecodePosition(b)
			if err != nil {
				t.Fatal(err)
			}
			check(&q, "decoded, game "+d.String())
			if g.Over() {
				break
			}
			legal = g.AppendLegalMoves(legal[:0])
			if err := g.Apply(legal[rng.IntN(len(legal))]); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// TestPositionSize pins the size that docs/design.md states: a search copies
// positions, so growing one is a cost to weigh, not an accident.
func TestPositionSize(t *testing.T) {
	if unsafe.Sizeof(uintptr(0)) != 8 {
		t.Skip("the size is stated for 64-bit machines")
	}
	if got := unsafe.Sizeof(Position{}); got != 304 {
		t.Errorf("Position is %d bytes, want 304 (update docs/design.md if that is meant)", got)
	}
}
