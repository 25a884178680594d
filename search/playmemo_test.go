package search

import (
	"fmt"
	"math"
	"testing"

	"github.com/calcsol/calcsol/decks/shuffle"
	"github.com/calcsol/calcsol/solver"
)

// TestPlayKey plays random games (1 to 8 stacks, tables starting empty or
// A 2 3 4 pre-placed, stacking whenever it can in half the games so that
// the stacks run deep) and reads every position's key back: the cards on
// each table, the drawn card, the stock's size, each stack's cards and the
// ranks still to be drawn come out as the position and its order hold them,
// and the rest of the key is 0; no key is the zero key (an empty slot's). A key that can be read back belongs to one
// position and order only.
func TestPlayKey(t *testing.T) {
	for stacks := 1; stacks <= solver.MaxStacks; stacks++ {
		for _, preplaced := range []bool{false, true} {
			rules := solver.Rules{Stacks: stacks, Preplaced: preplaced}
			t.Run(fmt.Sprintf("%d stacks, preplaced %v", stacks, preplaced), func(t *testing.T) {
				longest := 0
				for seed := range uint64(6) {
					rng := shuffle.NewRand(seed)
					p, err := solver.NewPosition(rules)
					if err != nil {
						t.Fatal(err)
					}
					st := solver.State{Position: p}
					ord := dealOrders(&st, 1, nil)[0]
					rng.Shuffle(len(ord), func(i, j int) { ord[i], ord[j] = ord[j], ord[i] })
					stackFirst := seed%2 == 0
					for {
						over, err := drawNext(&st, ord)
						if err != nil {
							t.Fatal(err)
						}
						if over {
							break
						}
						k := keyOf(&st, ord)
						longest = max(longest, readKey(t, &k, &st, ord))
						checkPilotKeys(t, &k, &st, ord)
						var buf [solver.MaxLegalMoves]solver.Move
						moves := st.AppendLegalMoves(buf[:0])
						if len(moves) == 0 {
							break
						}
						m := moves[rng.IntN(len(moves))]
						if stackFirst {
							for _, c := range moves {
								if c.Kind == solver.ToStack {
									m = c
									break
								}
							}
						}
						if err := st.Apply(m); err != nil {
							t.Fatal(err)
						}
					}
				}
				if longest >= len(playKey{}) {
					t.Fatalf("a key of %d bytes: the last byte, the pilot's best score (pilotKeyOf), is taken", longest)
				}
				t.Logf("longest key %d bytes", longest)
			})
		}
	}
}

// checkPilotKeys checks the pilot's keys of st and ord (pilotKeyOf), k
// being the position's: the position's key but for the last byte, and
// distinct for every best score a pilot can have found.
func checkPilotKeys(t *testing.T, k *playKey, st *solver.State, ord []solver.Rank) {
	t.Helper()
	seen := map[playKey]float64{}
	for best := -1; best <= solver.DeckSize; best++ {
		b := float64(best)
		if best < 0 {
			b = math.Inf(-1)
		}
		pk := pilotKeyOf(st, ord, b)
		if [len(pk) - 1]byte(pk[:len(pk)-1]) != [len(k) - 1]byte(k[:len(k)-1]) {
			t.Fatalf("best %v: the pilot's key %v is not the position's %v", b, pk, *k)
		}
		if other, ok := seen[pk]; ok {
			t.Fatalf("best %v and %v: the same key", other, b)
		}
		seen[pk] = b
	}
}

// readKey reads k back and compares it with st and ord; it returns the
// number of bytes the key used.
func readKey(t *testing.T, k *playKey, st *solver.State, ord []solver.Rank) int {
	t.Helper()
	if *k == (playKey{}) {
		t.Fatal("the zero key, an empty slot's")
	}
	for x := 1; x <= solver.Tables; x++ {
		if int(k[x-1]) != st.Placed(x) {
			t.Fatalf("table %d: key says %d cards, the position %d", x, k[x-1], st.Placed(x))
		}
	}
	if solver.Rank(k[4]) != st.Drawn() || int(k[5]) != st.StockLen() {
		t.Fatalf("key says %d drawn and %d in the stock, the position %s and %d", k[4], k[5], st.Drawn(), st.StockLen())
	}
	i := 6
	for s := range st.Stacks() {
		for j := 0; ; j++ {
			c := solver.Card(k[i])
			i++
			if c == 0 {
				if j != st.Height(s) {
					t.Fatalf("stack %d: key holds %d cards, the position %d", s, j, st.Height(s))
				}
				break
			}
			if j >= st.Height(s) || c != st.StackCard(s, j) {
				t.Fatalf("stack %d, card %d: key holds %v", s, j, c)
			}
		}
	}
	for j, r := range ord[len(ord)-st.StockLen():] {
		if solver.Rank(k[i]) != r {
			t.Fatalf("draw %d: key holds %d, the order %s", j, k[i], r)
		}
		i++
	}
	for _, b := range k[i:] {
		if b != 0 {
			t.Fatalf("key %v: bytes after its end", *k)
		}
	}
	return i
}

// TestPlayMemo: a score put is got back for its key only; a key whose
// slot another key takes is forgotten, the other remembered; a key whose
// hash is another's (forced here) does not get the other's score.
func TestPlayMemo(t *testing.T) {
	m := new(playMemo)
	key := func(b ...byte) (k playKey) {
		copy(k[:], b)
		return k
	}
	a := entry(key(1, 2, 3, 4, 5, 40))
	if _, ok := m.get(&a); ok {
		t.Fatal("an empty memo knows a key")
	}
	a.score = 17
	m.put(&a)
	if v, ok := m.get(&a); !ok || v != 17 {
		t.Fatalf("got %v, %v; want 17, true", v, ok)
	}
	// b: another key in a's slot.
	var b memoSlot
	for i := 0; ; i++ {
		b = entry(key(1, 2, 3, 4, 5, 40, byte(i), byte(i>>8)))
		if b.key != a.key && m.slot(b.hash) == m.slot(a.hash) {
			break
		}
	}
	if _, ok := m.get(&b); ok {
		t.Fatal("a key sharing a slot got the other's score")
	}
	b.score = 5200
	m.put(&b)
	if _, ok := m.get(&a); ok {
		t.Fatal("a key whose slot was taken is still remembered")
	}
	if v, ok := m.get(&b); !ok || v != 5200 {
		t.Fatalf("got %v, %v; want 5200, true", v, ok)
	}
	c := entry(key(9, 9, 9))
	c.hash = b.hash
	if _, ok := m.get(&c); ok {
		t.Fatal("a key with another's hash got its score")
	}
}
