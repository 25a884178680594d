package deadlock

import (
	"testing"

	"github.com/calcsol/calcsol/decks/shuffle"
	"github.com/calcsol/calcsol/solver"
)

// FuzzClosesMatchesReference lets the fuzzer pick the deck, the player's
// random stream, the number of stacks and how eagerly the player plays to the
// tables; at every legal stacking move Closes, Exact and the reference must
// agree (and a Checker's answer, its position read for that question), and
// Partial must not refuse more than Exact (1 to 8 stacks).
//
//	go test ./deadlock -run '^$' -fuzz FuzzClosesMatchesReference -fuzztime 60s
func FuzzClosesMatchesReference(f *testing.F) {
	f.Add(uint64(1), uint64(2), uint8(3), uint8(200))
	f.Add(uint64(7), uint64(7), uint8(4), uint8(0))
	f.Add(uint64(42), uint64(1), uint8(8), uint8(128))
	f.Fuzz(func(t *testing.T, deckSeed, playSeed uint64, stacks, eager uint8) {
		rules := solver.Rules{Stacks: int(stacks)%solver.MaxStacks + 1}
		d := randomDeck(deckSeed)
		pl := &player{rng: shuffle.NewRand(playSeed), tableFirst: float64(eager) / 255}
		pl.visit = func(p solver.View, y solver.Rank, x, s int) {
			q := after(t, p, y, x, s)
			want, _ := naiveCycle(q.View())
			e := Exact(p, y, x, s)
			var chk Checker
			if Closes(p, y, x, s) != want || (e != nil) != want || chk.Closes(p, y, x, s) != want {
				t.Fatalf("%v, deck %s, stacks %s, %s on %c for %d: Closes %v, Exact %v, Checker %v, reference %v",
					rules, &d, stacksString(p), y, rules.StackName(s), x, Closes(p, y, x, s), e, chk.Closes(p, y, x, s), want)
			}
			if e != nil {
				if err := validate(q.View(), e); err != nil {
					t.Fatalf("deck %s, stacks %s: %v\n%v", &d, stacksString(p), err, e)
				}
			}
			if Partial(p, y, x, s) && !want {
				t.Fatalf("deck %s, stacks %s, %s on %c for %d: Partial refuses a move that closes no cycle",
					&d, stacksString(p), y, rules.StackName(s), x)
			}
		}
		play(t, &d, rules, pl, nil)
	})
}
