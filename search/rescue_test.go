package search

import (
	"slices"
	"testing"

	"github.com/calcsol/calcsol/configs"
	"github.com/calcsol/calcsol/solver"
)

// TestRescuePlaysOnWhereBaseResigns: the rescue wrapper changes nothing in a
// game its base wins; where the base resigns, the wrapped game begins with
// the base's moves and goes on (its trace replays), and some of those games
// are won — games the priority table gives up that were not lost.
func TestRescuePlaysOnWhereBaseResigns(t *testing.T) {
	base, err := configs.Strategies().BuildSpec("priority:deadlock_check=exact")
	if err != nil {
		t.Fatal(err)
	}
	rescue := &RescueStrategy{Base: base}
	ds := loadCorpus(t)[:60]
	for _, rules := range []solver.Rules{{Stacks: 4}, {Stacks: 4, Preplaced: true}, {Stacks: 3}} {
		t.Run(rules.String(), func(t *testing.T) {
			saved, resigned := 0, 0
			for i, d := range ds {
				bt, bwon := playResult(t, base, d, rules)
				rt, rwon := playResult(t, rescue, d, rules)
				if bwon {
					if !rwon || !slices.Equal(bt, rt) {
						t.Errorf("deck %d: the base wins; the rescue wrapper plays another game", i)
					}
					continue
				}
				resigned++
				if len(rt) <= len(bt) || !slices.Equal(bt, rt[:len(bt)]) {
					t.Errorf("deck %d: the wrapped game does not go on from the base's %d moves", i, len(bt))
				}
				if rwon {
					saved++
				}
			}
			t.Logf("%s: base lost %d of %d decks; the rescue won %d of them", rules, resigned, len(ds), saved)
			if rules.Stacks == 4 && saved == 0 {
				t.Errorf("no game the base gave up was won on: the wrapper does nothing")
			}
		})
	}
}

// TestChains: chain stacking needs the card's slot open on a table whose
// next slot is the covered card's rank (tables as in docs/rules.md).
func TestChains(t *testing.T) {
	st, err := solver.NewState(solver.Rules{Stacks: 3, Preplaced: true}) // A 2 3 4 on tables 1-4
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		y, top solver.Rank
		want   bool
	}{
		{5, 6, true},   // table 1: … 5 6 …
		{2, 3, true},   // table 1: 2 is open (only A placed), then 3
		{1, 2, false},  // A then 2 only on table 1, which holds A already
		{1, 3, true},   // table 2: … A 3 …
		{12, 1, true},  // table 2: … Q A …
		{13, 1, false}, // a king ends every table
		{6, 5, false},  // 5 follows 6 on no table (table 1 goes 6 7, table 3 goes 6 9, …)
	}
	for _, tc := range tests {
		if got := chains(&st, tc.y, tc.top); got != tc.want {
			t.Errorf("chains(%s on %s) = %v, want %v", tc.y, tc.top, got, tc.want)
		}
	}
}

// TestRescueParams: the rescue's weights are its parameters.
func TestRescueParams(t *testing.T) {
	reg := registry()
	s, err := reg.BuildSpec("priority:deadlock_check=exact+rescue:w_chain=5,w_gap=2")
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, p := range s.Info().Params {
		got[p.Name] = p.Value
	}
	if got["w_chain"] != "5" || got["w_gap"] != "2" || got["w_bury"] != "20" {
		t.Errorf("params %v: want w_chain 5, w_gap 2, w_bury 20 (default)", got)
	}
	if got["give_up"] != "false" || got["nodes"] != "0" {
		t.Errorf("params %v: want give_up false, nodes 0 (defaults)", got)
	}
	s, err = reg.BuildSpec("priority:deadlock_check=exact+rescue:give_up=true,nodes=500")
	if err != nil {
		t.Fatal(err)
	}
	if r, ok := s.(*RescueStrategy); !ok || !r.GiveUp || r.Nodes != 500 {
		t.Errorf("give_up=true,nodes=500: got %#v", s)
	}
	for _, bad := range []string{"w_gap=x", "give_up=maybe", "nodes=many", "w_nope=1"} {
		if _, err := reg.BuildSpec("priority+rescue:" + bad); err == nil {
			t.Errorf("%s: no error", bad)
		}
	}
}

// TestRescueGiveUp: with give_up the rescue resigns where the game is lost
// (every assignment has a cycle) instead of playing it out: each game is
// the one without give_up up to there, and the same games are won.
func TestRescueGiveUp(t *testing.T) {
	base, err := configs.Strategies().BuildSpec("priority:deadlock_check=exact")
	if err != nil {
		t.Fatal(err)
	}
	full, giveUp := &RescueStrategy{Base: base}, &RescueStrategy{Base: base, GiveUp: true}
	ds := loadCorpus(t)[:60]
	for _, rules := range []solver.Rules{{Stacks: 4}, {Stacks: 3, Preplaced: true}} {
		t.Run(rules.String(), func(t *testing.T) {
			shorter, won := 0, 0
			for i, d := range ds {
				ft, fwon := playResult(t, full, d, rules)
				gt, gwon := playResult(t, giveUp, d, rules)
				if fwon != gwon || len(gt) > len(ft) || !slices.Equal(gt, ft[:len(gt)]) {
					t.Fatalf("deck %d: with give_up %d moves (won %v), without %d (won %v): want the same game cut short",
						i, len(gt), gwon, len(ft), fwon)
				}
				if len(gt) < len(ft) {
					shorter++
				}
				if gwon {
					won++
				}
			}
			t.Logf("%s: %d games won, %d given up early", rules, won, shorter)
			if shorter == 0 {
				t.Error("no game was given up early: the test shows nothing")
			}
		})
	}
}
