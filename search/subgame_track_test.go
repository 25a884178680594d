package search

import (
	"context"
	"fmt"
	"testing"

	"github.com/calcsol/calcsol/internal/longtest"
	"github.com/calcsol/calcsol/solver"
	"github.com/calcsol/calcsol/subgame"
)

// TestStackGameTracksWins measures how well the stack game's value of a
// position tells the games the fast player goes on to win from those it
// loses: the first 1,000 decks, 3 stacks pre-placed, the value read when
// the stock holds 30, 20 and 10 cards, as the area under the ROC curve
// (the chance that a won game's position is valued above a lost one's,
// ties half; 0.5 is no better than a coin).
//
//	CALCSOL_LONG=1 go test ./search -run TestStackGameTracksWins -v
func TestStackGameTracksWins(t *testing.T) {
	longtest.Skip(t)
	r := solver.Rules{Stacks: 3, Preplaced: true}
	strat, err := registry().BuildSpec("priority:reassign_tops=true,table=tuned-3-preplaced+rescue+endgame:k=4")
	if err != nil {
		t.Fatal(err)
	}
	tab, err := subgame.Build(context.Background(), subgame.Key{Stacks: 3, Cards: subgame.DefaultCards(3)})
	if err != nil {
		t.Fatal(err)
	}
	checkpoints := []int{30, 20, 10}
	models := []string{"schedule", "windows", "tables"}
	type obs struct {
		v   uint16
		won bool
	}
	seen := map[string][]obs{}
	ctx := context.Background()
	sess, err := strat.Start(ctx, r)
	if err != nil {
		t.Fatal(err)
	}
	defer sess.Close()
	var sc schedule
	for i, d := range loadCorpus(t) {
		g, err := solver.NewGame(&d, r)
		if err != nil {
			t.Fatal(err)
		}
		var vals []string
		var got []uint16
		for !g.Over() {
			for _, k := range checkpoints {
				if g.StockLen() == k && len(got) < len(models)*(1+indexOf(checkpoints, k)) {
					for _, m := range models {
						st := g.State
						autoplay(&st)
						sc.model = m
						got = append(got, sc.value(tab, &st))
						vals = append(vals, fmt.Sprintf("%d/%s", k, m))
					}
				}
			}
			out := make([]solver.Decision, 1)
			if err := sess.Decide(ctx, []solver.Request{{Game: solver.GameID(i), Position: g.View()}}, out); err != nil {
				t.Fatal(err)
			}
			if out[0].Move.Kind == solver.Resign || g.Apply(out[0].Move) != nil {
				break
			}
		}
		for j, key := range vals {
			seen[key] = append(seen[key], obs{got[j], g.Won()})
		}
	}
	for _, k := range checkpoints {
		for _, m := range models {
			key := fmt.Sprintf("%d/%s", k, m)
			var auc, pairs float64
			o := seen[key]
			for _, a := range o {
				for _, b := range o {
					if a.won && !b.won {
						pairs++
						switch {
						case a.v > b.v:
							auc++
						case a.v == b.v:
							auc += 0.5
						}
					}
				}
			}
			zeros := 0
			for _, a := range o {
				if a.v == 0 {
					zeros++
				}
			}
			t.Logf("stock %2d, model %-8s: %4d positions, %4d valued 0, AUC %.3f", k, m, len(o), zeros, auc/max(pairs, 1))
		}
	}
}

func indexOf(s []int, v int) int {
	for i, x := range s {
		if x == v {
			return i
		}
	}
	return -1
}
