package search

import (
	"context"
	"math"
	"testing"

	"github.com/calcsol/calcsol/configs"
	"github.com/calcsol/calcsol/solver"
)

// TestSampleChoice: at positions of real games, the sampling player plays
// the place a plain count picks — every place played out on every order,
// the highest total, ties to the base's own move, then to the first place —
// so stopping a place once it cannot catch up changes no decision; and with
// a margin larger than the orders dealt it always plays the base's move.
func TestSampleChoice(t *testing.T) {
	base, err := configs.Strategies().BuildSpec("priority:deadlock_check=exact,table=tuned-4")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	rules := solver.Rules{Stacks: 4}
	const n = 8
	plain := &SampleStrategy{Base: base, N: n, Win: 100, Assign: true}
	stubborn := &SampleStrategy{Base: base, N: n, Win: 100, Assign: true, Margin: n + 1}
	start := func(s *SampleStrategy) *sampleSession {
		sess, err := s.Start(ctx, rules)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { sess.Close() })
		return sess.(*sampleSession)
	}
	ss, st := start(plain), start(stubborn)
	decided, deviated := 0, 0
	played, plainPlayed := 0, 0 // orders played out by the player, and by a plain count
	for i, d := range loadCorpus(t)[:6] {
		g, err := solver.NewGame(&d, rules)
		if err != nil {
			t.Fatal(err)
		}
		for !g.Over() {
			rq := solver.Request{Game: solver.GameID(i), Position: g.View()}
			before := ss.playouts
			got, err := ss.decide(ctx, rq)
			played += ss.playouts - before
			if err != nil {
				t.Fatal(err)
			}
			if got.Failed || got.Move.Kind == solver.Resign {
				break
			}
			own, err := ss.ask(ctx, rq.Game, rq.Seed, rq.Position)
			if err != nil {
				t.Fatal(err)
			}
			state := g.View().State()
			var buf [solver.MaxLegalMoves]solver.Move
			cands := sampleCandidates(&state, true, own.Move, buf[:0])
			if own.Move.Kind != solver.StackToTable && g.Drawn() != 0 && g.StockLen() > 0 && len(cands) >= 2 {
				decided++
				plainPlayed += len(cands) * n
				ss.deal(&state)
				want, best := -1, math.Inf(-1)
				for ci, m := range cands {
					total, err := ss.score(ctx, rq, &state, m, math.Inf(-1))
					if err != nil {
						t.Fatal(err)
					}
					if total > best || (total == best && sameMove(m, own.Move, g.Drawn())) {
						want, best = ci, total
					}
				}
				if got.Move != cands[want] {
					t.Fatalf("deck %d, %d cards left: played %s, the plain count picks %s", i, g.StockLen(), got.Move.Format(rules), cands[want].Format(rules))
				}
				if !sameMove(got.Move, own.Move, g.Drawn()) {
					deviated++
				}
				stub, err := st.decide(ctx, rq)
				if err != nil {
					t.Fatal(err)
				}
				if !sameMove(stub.Move, own.Move, g.Drawn()) {
					t.Fatalf("deck %d: with margin %d the player left the base's move %s for %s", i, n+1, own.Move.Format(rules), stub.Move.Format(rules))
				}
			}
			if err := g.Apply(got.Move); err != nil {
				t.Fatal(err)
			}
		}
	}
	if decided == 0 || deviated == 0 {
		t.Fatalf("%d decisions sampled, %d left the base's move: the test checks nothing", decided, deviated)
	}
	if played >= plainPlayed {
		t.Errorf("the player played out %d orders, a plain count %d: the early stop saved nothing", played, plainPlayed)
	}
	t.Logf("%d decisions sampled, %d left the base's move; %d orders played out against %d", decided, deviated, played, plainPlayed)
}
