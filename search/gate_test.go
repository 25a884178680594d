package search

import (
	"context"
	"testing"

	"github.com/calcsol/calcsol/internal/longtest"
	"github.com/calcsol/calcsol/solver"
)

// TestSampleOwnCheck: settling a decision by the base's playouts of its own
// move, when they win every order, plays the same games as playing every
// place out, with and without a pilot, counted or raced, with alternative
// tables or without.
func TestSampleOwnCheck(t *testing.T) {
	reg := registry()
	base, err := reg.BuildSpec("priority:deadlock_check=exact,table=tuned-4-preplaced,reassign_tops=true")
	if err != nil {
		t.Fatal(err)
	}
	rules := solver.Rules{Stacks: 4, Preplaced: true}
	decks := loadCorpus(t)[:longtest.Size(2, 2, 12)]
	for _, c := range []struct {
		name string
		s    SampleStrategy
	}{
		{"counted", SampleStrategy{N: 8, Win: 100, Assign: true}},
		{"raced", SampleStrategy{N: 16, Win: 100, Race: 3, Tops: true, Margin: 1}},
		{"alternative tables", SampleStrategy{N: 8, Win: 100, AltTables: []string{"tuned-4"}}},
		{"pilot", SampleStrategy{N: 4, Win: 100, Tops: true, Pilot: 6}},
	} {
		t.Run(c.name, func(t *testing.T) {
			ctx := context.Background()
			open := func(off bool) *sampleSession {
				s := c.s
				s.Base, s.noOwnCheck = base, off
				return startSample(t, &s, rules)
			}
			checked, full := open(false), open(true)
			if !checked.checkOwn || full.checkOwn {
				t.Fatalf("the check of the own move: %v on, %v off", checked.checkOwn, full.checkOwn)
			}
			for i := range decks {
				g, err := solver.NewGame(&decks[i], rules)
				if err != nil {
					t.Fatal(err)
				}
				for !g.Over() {
					rq := solver.Request{Game: solver.GameID(i), Position: g.View()}
					got, err := checked.decide(ctx, rq)
					if err != nil {
						t.Fatal(err)
					}
					want, err := full.decide(ctx, rq)
					if err != nil {
						t.Fatal(err)
					}
					if got.Move != want.Move {
						t.Fatalf("deck %d, %d cards left: played %s, every place played out %s", i, g.StockLen(), got.Move.Format(rules), want.Move.Format(rules))
					}
					if got.Move.Kind == solver.Resign || g.Apply(got.Move) != nil {
						break
					}
				}
			}
			if checked.ownSettled == 0 || checked.playouts >= full.playouts {
				t.Fatalf("%d decisions settled by the own move, %d playouts against %d: the test checks nothing", checked.ownSettled, checked.playouts, full.playouts)
			}
			t.Logf("%d decisions settled; %d playouts against %d", checked.ownSettled, checked.playouts, full.playouts)
		})
	}
}
