package search

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/calcsol/calcsol/solver"
	"github.com/calcsol/calcsol/subgame"
)

// oneTable returns a position of rules r in which tables 2–4 are complete
// and table 1 holds its first 13−d cards: the cards left are one of each
// rank table 1 still needs, which is the stack game itself. onStack[i] (i
// = 1 … d−1, the card needed i-th after the next) is the stack, 1-based,
// that card i is put on, 0 for the stock; cards are stacked from the last
// needed down, so each stack holds them in order, the first needed on top.
func oneTable(t *testing.T, r solver.Rules, d int, onStack []int) solver.State {
	t.Helper()
	st, err := solver.NewState(r)
	if err != nil {
		t.Fatal(err)
	}
	play := func(rk solver.Rank, m solver.Move) {
		t.Helper()
		if err := st.Reveal(rk); err != nil {
			t.Fatal(err)
		}
		if err := st.Apply(m); err != nil {
			t.Fatal(err)
		}
	}
	for x := 2; x <= solver.Tables; x++ {
		for k := st.Placed(x); k < solver.NumRanks; k++ {
			play(solver.TableRank(x, k), solver.Move{Kind: solver.ToTable, Table: int8(x)})
		}
	}
	for k := st.Placed(1); k < solver.NumRanks-d; k++ {
		play(solver.TableRank(1, k), solver.Move{Kind: solver.ToTable, Table: 1})
	}
	p := solver.NumRanks - d
	for i := d - 1; i >= 1; i-- {
		if s := onStack[i]; s != 0 {
			play(solver.TableRank(1, p+i), solver.Move{Kind: solver.ToStack, Stack: int8(s - 1)})
		}
	}
	return st
}

// TestStackGameIsExactOnOneTable: with one table left, Calculation is the
// stack game, and the value the player reads must be the exact win
// probability the endgame search computes by playing the real rules.
func TestStackGameIsExactOnOneTable(t *testing.T) {
	const d = 8
	r := solver.Rules{Stacks: 3}
	tab, err := subgame.Build(context.Background(), subgame.Key{Stacks: 3, Cards: d})
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(66, 1))
	e := NewEndgame()
	var sc schedule
	for _, model := range []string{"schedule", "tables"} {
		sc.model = model
		for try := range 40 {
			on := make([]int, d)
			for i := 1; i < d; i++ {
				if rng.IntN(2) == 0 {
					on[i] = 1 + rng.IntN(r.Stacks)
				}
			}
			st := oneTable(t, r, d, on)
			wins, orders := e.Wins(&st)
			want := uint16((wins*subgame.Scale + orders/2) / orders)
			if got := sc.value(tab, &st); got != want {
				t.Fatalf("%s, position %d:\n%s\nstack game %d, endgame search %d/%d = %d", model, try, st.String(), got, wins, orders, want)
			}
		}
	}
}

// fixedMove is a base that always plays one move.
type fixedMove struct{ m solver.Move }

func (f fixedMove) Choose(solver.View) (solver.Move, error) { return f.m, nil }

// TestSubgameDecisions checks the wrapper's decisions on worked positions.
func TestSubgameDecisions(t *testing.T) {
	r := solver.Rules{Stacks: 3}
	tab, err := subgame.Build(context.Background(), subgame.Key{Stacks: 3, Cards: 8})
	if err != nil {
		t.Fatal(err)
	}
	// Table 1 needs 6 (of 6 … K), the 0 lies on Z, and Q is drawn: Q onto
	// Z would bury the 0 that table 1 needs before it, which loses.
	st := oneTable(t, r, 8, []int{0, 0, 0, 0, 1, 0, 0, 0})
	if err := st.Reveal(solver.TableRank(1, 5+6)); err != nil { // Q, the card needed sixth
		t.Fatal(err)
	}
	onZ := solver.Move{Kind: solver.ToStack, Rank: st.Drawn(), Stack: 0}
	onX := solver.Move{Kind: solver.ToStack, Rank: st.Drawn(), Stack: 1}
	cases := []struct {
		name string
		base *solver.Move
		p    SubgameParams
		want solver.Move
	}{
		{"the base's bad move is replaced", &onZ, DefaultSubgameParams, onX},
		{"the base's good move stays", &onX, DefaultSubgameParams, onX},
		{"a resigning base gets the best place", nil, DefaultSubgameParams, onX},
		{"no margin is wide enough", &onZ, SubgameParams{Model: "schedule", Lookahead: 1, Margin: 1}, onZ},
		{"without lookahead too", &onZ, SubgameParams{Model: "tables", Margin: 0.05}, onX},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g := NewSubgame(tab, c.p)
			s := st
			got, ok := g.choose(&s, c.base)
			if !ok || got != c.want {
				t.Errorf("played %s (ok %v), want %s", got.Format(r), ok, c.want.Format(r))
			}
		})
	}
}

// TestSubgameLeavesEarlyMovesToBase: above the table's size off the
// tables the wrapper plays its base's moves, whatever they are.
func TestSubgameLeavesEarlyMovesToBase(t *testing.T) {
	t.Setenv(subgame.CacheEnv, t.TempDir())
	r := solver.Rules{Stacks: 3}
	onC := solver.Move{Kind: solver.ToStack, Stack: 2}
	base := solver.FromChooser(solver.Info{Name: "fixed"}, func(solver.Rules) (solver.Chooser, error) {
		return fixedMove{onC}, nil
	})
	w := &SubgameStrategy{Base: base, SubgameParams: SubgameParams{Cards: 6, Model: "schedule", Lookahead: 1}}
	sess, err := w.Start(context.Background(), r)
	if err != nil {
		t.Fatal(err)
	}
	defer sess.Close()
	d := loadCorpus(t)[0]
	g, err := solver.NewGame(&d, r)
	if err != nil {
		t.Fatal(err)
	}
	reqs := []solver.Request{{Position: g.View()}}
	out := make([]solver.Decision, 1)
	if err := sess.Decide(context.Background(), reqs, out); err != nil {
		t.Fatal(err)
	}
	if out[0].Move != onC {
		t.Errorf("played %s, want the base's %s", out[0].Move.Format(r), onC.Format(r))
	}
}
