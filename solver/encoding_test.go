package solver

import (
	"math/rand/v2"
	"testing"
)

// Every position of many games survives MarshalBinary → UnmarshalBinary
// unchanged, including the reservation indexes.
func TestPositionBinaryRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	for i := 0; i < 200; i++ {
		var d Deck
		for j := range d {
			d[j] = Rank(j%13 + 1)
		}
		rng.Shuffle(len(d), func(a, b int) { d[a], d[b] = d[b], d[a] })
		r := Rules{Stacks: 1 + i%MaxStacks, Preplaced: i%2 == 0}
		if i%5 == 0 {
			r.Names = "uvwxyzmn"[:r.Stacks]
		}
		g, err := NewGame(&d, r)
		if err != nil {
			t.Fatal(err)
		}
		for !g.Over() {
			b, _ := g.Position.MarshalBinary()
			q, err := DecodePosition(b)
			if err != nil {
				t.Fatalf("deck %s: %v\n%s", d.String(), err, g.Position.String())
			}
			b2, _ := q.MarshalBinary()
			if string(b2) != string(b) || q.reserved != g.reserved || q.inStack != g.inStack || !sameWhere(&q, &g.Position) {
				t.Fatalf("deck %s: round trip changed the position:\n%s\n%s", d.String(), g.Position.String(), q.String())
			}
			m, _ := randomStacker{rng}.Choose(g.View())
			if err := g.Apply(m); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// randomStacker moves a needed stack top, else plays the drawn card to a table
// or onto a random stack with a random free assignment.
type randomStacker struct{ rng *rand.Rand }

func (s randomStacker) Choose(p View) (Move, error) {
	if m, err := (trivial{}).Choose(p); err == nil && m.Kind != ToStack {
		return m, nil
	}
	st := int8(s.rng.IntN(p.Stacks()))
	x := int8(s.rng.IntN(Tables + 1))
	if x != 0 && (p.Filled(int(x), p.Drawn()) || p.Reserved(int(x), p.Drawn())) {
		x = 0
	}
	return Move{Kind: ToStack, Stack: st, Table: x}, nil
}

func FuzzPositionUnmarshal(f *testing.F) {
	p, _ := NewPosition(DefaultRules())
	b, _ := p.MarshalBinary()
	f.Add(b)
	f.Fuzz(func(t *testing.T, b []byte) {
		q, err := DecodePosition(b)
		if err != nil {
			return
		}
		again, _ := q.MarshalBinary()
		q2, err := DecodePosition(again)
		if err != nil || q2.String() != q.String() {
			t.Fatalf("re-encoding does not round trip: %v", err)
		}
	})
}

// sameWhere compares the card locations of the reserved slots only (the rest
// of the index is stale by design).
func sameWhere(a, b *Position) bool {
	for x := 0; x < Tables; x++ {
		for k := 0; k < NumRanks; k++ {
			if a.reserved[x]&(1<<k) != 0 && a.where[x][k] != b.where[x][k] {
				return false
			}
		}
	}
	return true
}
