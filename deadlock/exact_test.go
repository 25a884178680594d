package deadlock

import (
	"testing"

	"github.com/calcsol/calcsol/decks/shuffle"
	"github.com/calcsol/calcsol/internal/longtest"
	"github.com/calcsol/calcsol/solver"
)

// TestExactMatchesReference is the main property test: over random games,
// at every legal stacking move, Exact agrees with FindCycle on the position
// after the move, both agree with the literal reference naiveCycle, the cycles
// reported are real (every card where it says, every link true) and shortest,
// and Partial never reports a deadlock Exact does not see (1 to 8 stacks).
//
// Two players make the positions: one stacks at random without any check, so
// that positions that are already deadlocked are covered too, and one keeps
// its positions deadlock-free with Exact, so that long games are covered.
func TestExactMatchesReference(t *testing.T) {
	games := longtest.Size(1, 3, 12) // games a variant: -race, quick, CALCSOL_LONG=1
	for _, stacks := range []int{1, 2, 3, 4, 5, 8} {
		for _, guarded := range []bool{false, true} {
			rules := solver.Rules{Stacks: stacks}
			var moves, cyclic, partialHits int
			for seed := range uint64(games) {
				pl := &player{rng: shuffle.NewRand(1000 + seed), tableFirst: 0.8}
				if guarded {
					pl.guard = exactCheck
				}
				d := randomDeck(seed)
				pl.visit = func(p solver.View, y solver.Rank, x, s int) {
					moves++
					q := after(t, p, y, x, s)
					e := Exact(p, y, x, s)
					f := FindCycle(q.View())
					wantQ, shortQ := naiveCycle(q.View())
					if (e != nil) != wantQ || (f != nil) != wantQ || Closes(p, y, x, s) != wantQ {
						t.Fatalf("%v, deck %s, stacks %s, %s on %c for %d: Exact %v, Closes %v, FindCycle after %v, reference %v",
							rules, &d, stacksString(p), y, rules.StackName(s), x, e, Closes(p, y, x, s), f, wantQ)
					}
					if e == nil {
						if Partial(p, y, x, s) {
							t.Errorf("deck %s, stacks %s, %s on %c for %d: Partial sees a deadlock, Exact none",
								&d, stacksString(p), y, rules.StackName(s), x)
						}
						return
					}
					cyclic++
					if Partial(p, y, x, s) {
						partialHits++
					}
					if err := validate(q.View(), e); err != nil {
						t.Fatalf("deck %s, stacks %s, %s on %c for %d: %v\n%v", &d, stacksString(p), y, rules.StackName(s), x, err, e)
					}
					if err := validate(q.View(), f); err != nil {
						t.Fatalf("deck %s, stacks %s: FindCycle: %v\n%v", &d, stacksString(q.View()), err, f)
					}
					if len(f.Cards) != shortQ {
						t.Errorf("FindCycle: cycle of %d cards, shortest has %d: %v", len(f.Cards), shortQ, f)
					}
					wantP, shortP := naiveCycle(p)
					if e.Existing != wantP {
						t.Errorf("Exact: Existing = %v, position deadlocked before the move: %v", e.Existing, wantP)
					}
					switch {
					case e.Existing && len(e.Cards) != shortP:
						t.Errorf("Exact: existing cycle of %d cards, shortest has %d: %v", len(e.Cards), shortP, e)
					case !e.Existing && (len(e.Cards) != shortQ || !e.Cards[0].New):
						t.Errorf("Exact: new cycle of %d cards (first new: %v), shortest has %d: %v",
							len(e.Cards), e.Cards[0].New, shortQ, e)
					}
				}
				play(t, &d, rules, pl, nil)
			}
			t.Logf("%d stacks, guarded %v: %d stacking moves checked, %d close a cycle, Partial sees %d of them",
				stacks, guarded, moves, cyclic, partialHits)
			if moves == 0 || !guarded && cyclic == 0 {
				t.Errorf("%d stacks, guarded %v: the games checked %d moves, %d cyclic: too few to test anything",
					stacks, guarded, moves, cyclic)
			}
		}
	}
}

// TestFindCycleMatchesReference checks FindCycle on every position of random
// unguarded games, deadlocked or not.
func TestFindCycleMatchesReference(t *testing.T) {
	for _, stacks := range []int{2, 3, 4, 6} {
		rules := solver.Rules{Stacks: stacks}
		var positions, cyclic int
		for seed := range uint64(longtest.Size(4, 8, 20)) { // -race, quick, CALCSOL_LONG=1
			d := randomDeck(500 + seed)
			pl := &player{rng: shuffle.NewRand(seed), tableFirst: 0.5}
			play(t, &d, rules, pl, func(g *solver.Game, trace []solver.Move) {
				positions++
				want, short := naiveCycle(g.View())
				c := FindCycle(g.View())
				if (c != nil) != want {
					t.Fatalf("deck %s, trace %q: FindCycle %v, reference %v", &d, solver.FormatTrace(trace, rules), c, want)
				}
				if c == nil {
					return
				}
				cyclic++
				if err := validate(g.View(), c); err != nil {
					t.Fatalf("deck %s, trace %q: %v\n%v", &d, solver.FormatTrace(trace, rules), err, c)
				}
				if len(c.Cards) != short || c.Existing {
					t.Errorf("cycle of %d cards (Existing %v), shortest has %d: %v", len(c.Cards), c.Existing, short, c)
				}
			})
		}
		t.Logf("%d stacks: %d positions, %d deadlocked", stacks, positions, cyclic)
		if cyclic == 0 || cyclic == positions {
			t.Errorf("%d stacks: %d of %d positions deadlocked: the test sees only one case", stacks, cyclic, positions)
		}
	}
}

// TestCorollary1 checks Corollary 1 of Nanzaki & Shintani [NanzakiShintani],
// in the form of docs/deadlock.md: in a deadlock-free position
// with nothing left in the stock, every stacked card assigned and every slot
// respected, some stack top can go to its assigned table; so such a position
// is a win. Positions come from random games guarded by Exact (which stay
// deadlock-free) and by Partial (which sometimes do not); the player moves
// tops to their own tables only, so a deadlock-free game that reaches the
// end of the stock must be won.
//
// The property holds for any number of stacks; 3 stacks are left out because
// this simple player almost never gets through the stock with 3 (none of 400
// games did).
func TestCorollary1(t *testing.T) {
	for _, stacks := range []int{4, 5, 8} {
		for _, name := range []string{"exact", "partial"} {
			rules := solver.Rules{Stacks: stacks}
			var endgames, free, won int
			for seed := range uint64(200) {
				d := randomDeck(9000 + seed)
				pl := &player{rng: shuffle.NewRand(seed), tableFirst: 1, careful: true}
				pl.guard = exactCheck
				if name == "partial" {
					pl.guard = Partial
				}
				g, trace := play(t, &d, rules, pl, func(g *solver.Game, trace []solver.Move) {
					p := g.View()
					if p.StockLen() != 0 || p.Drawn() != 0 || p.Won() {
						return
					}
					endgames++
					c := FindCycle(p)
					movable := false
					for s := range p.Stacks() {
						if top := p.Top(s); top != 0 && p.Need(top.Table()) == top.Rank() {
							movable = true
						}
					}
					if c == nil {
						free++
					}
					if c == nil && !movable {
						t.Errorf("deck %s, trace %q: no deadlock, stock empty, yet no top can go to its table:\n%s",
							&d, solver.FormatTrace(trace, rules), stacksString(p))
					}
				})
				if g.StockLen() == 0 && g.Drawn() == 0 {
					if g.Won() {
						won++
					} else if FindCycle(g.View()) == nil {
						t.Errorf("deck %s, trace %q: stock empty, deadlock-free, yet lost:\n%s",
							&d, solver.FormatTrace(trace, rules), stacksString(g.View()))
					}
				}
			}
			t.Logf("%d stacks, %s guard: %d endgame positions (%d deadlock-free), %d games won",
				stacks, name, endgames, free, won)
			if free == 0 || won == 0 {
				t.Errorf("%d stacks, %s guard: %d deadlock-free endgames, %d wins: the property was not tested", stacks, name, free, won)
			}
		}
	}
}

// TestCheckerMatchesCloses asks one Checker, reset once per position, about
// every stacking of every rank the rules allow there (each table, each stack,
// in a shuffled order, so that questions after the first reuse the graph it
// read), and wants Closes's answer to each: over random games, guarded and
// not, so that positions already deadlocked are asked about too.
func TestCheckerMatchesCloses(t *testing.T) {
	for _, stacks := range []int{1, 3, 4, 8} {
		for _, guarded := range []bool{false, true} {
			rules := solver.Rules{Stacks: stacks}
			var asked, closing int
			var chk Checker
			for seed := range uint64(longtest.Size(1, 2, 8)) { // -race, quick, CALCSOL_LONG=1
				rng := shuffle.NewRand(2000 + seed)
				pl := &player{rng: shuffle.NewRand(3000 + seed), tableFirst: 0.8}
				if guarded {
					pl.guard = exactCheck
				}
				d := randomDeck(seed)
				type question struct {
					y    solver.Rank
					x, s int
				}
				var qs []question
				pl.visit = func(p solver.View, y solver.Rank, x, s int) {
					qs = qs[:0]
					for r := solver.Rank(1); r <= solver.NumRanks; r++ {
						for x := 1; x <= solver.Tables; x++ {
							for s := range p.Stacks() {
								qs = append(qs, question{r, x, s})
							}
						}
					}
					rng.Shuffle(len(qs), func(i, j int) { qs[i], qs[j] = qs[j], qs[i] })
					chk.Reset()
					for _, q := range qs {
						got, want := chk.Closes(p, q.y, q.x, q.s), Closes(p, q.y, q.x, q.s)
						if got != want {
							t.Fatalf("%v, deck %s, stacks %s, %s on %c for %d: Checker %v, Closes %v",
								rules, &d, stacksString(p), q.y, rules.StackName(q.s), q.x, got, want)
						}
						asked++
						if want {
							closing++
						}
					}
				}
				play(t, &d, rules, pl, nil)
			}
			if asked == 0 || closing == 0 || closing == asked {
				t.Errorf("%d stacks, guarded %v: %d questions, %d closing a cycle: too one-sided to test anything",
					stacks, guarded, asked, closing)
			}
		}
	}
}
