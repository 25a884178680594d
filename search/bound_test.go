package search

import (
	"context"
	"testing"

	"github.com/calcsol/calcsol/clairvoyant"
	"github.com/calcsol/calcsol/solver"
)

// TestNoStrategyBeatsTheSolver: a player who does not see the stock never
// wins a position that the clairvoyant solver, which does, calls lost. Full
// deals are rarely proved lost, so the positions are endgames: decks of the
// shipped small corpus played by the deadlock-graph player until 14 cards
// are left, under all four rule variants. The solver settles each; then
// every strategy plays on from it. The test needs both verdicts and some
// wins among the strategies, so that it can fail.
func TestNoStrategyBeatsTheSolver(t *testing.T) {
	t.Parallel()
	decks := loadCorpus(t)[:size(4, 30)]
	reg := registry()
	specs := []string{"greedy", "priority:deadlock_check=exact+endgame:k=4", "deadlock-graph+endgame:k=4", "priority+sample:n=4", "deadlock-graph",
		"priority:deadlock_check=exact+pimc:k=14,n=4,nodes=2000", "priority:deadlock_check=exact+rescue+endgame:k=4"}
	rules := []solver.Rules{{Stacks: 3}, {Stacks: 3, Preplaced: true}, {Stacks: 4}, {Stacks: 4, Preplaced: true}}
	ctx := context.Background()
	sv := clairvoyant.NewSolver(clairvoyant.Options{})
	var lost, won, wins, checked int
	for _, r := range rules {
		sessions := make([]solver.Session, len(specs))
		for i, spec := range specs {
			s, err := reg.BuildSpec(spec)
			if err != nil {
				t.Fatal(err)
			}
			if sessions[i], err = s.Start(ctx, r); err != nil {
				t.Fatalf("%s under %v: %v", spec, r, err)
			}
			defer sessions[i].Close()
		}
		for d := range decks {
			prefix, ok := playUntil(t, &decks[d], r, 14)
			if !ok {
				continue
			}
			res, err := sv.SolveAfter(ctx, decks[d], r, prefix, clairvoyant.Budget{Nodes: 2_000_000})
			if err != nil {
				t.Fatal(err)
			}
			switch res.Winnable {
			case clairvoyant.No:
				lost++
			case clairvoyant.Yes:
				won++
			default:
				continue
			}
			for i, sess := range sessions {
				g, err := solver.Replay(&decks[d], r, prefix)
				if err != nil {
					t.Fatal(err)
				}
				if playOn(t, g, sess) {
					wins++
					if res.Winnable == clairvoyant.No {
						t.Errorf("%s won deck %d under %v after %d moves; the solver says the position is lost", specs[i], d, r, len(prefix))
					}
				}
				checked++
			}
		}
	}
	t.Logf("%d positions lost, %d winnable by the solver; %d games played on, %d won", lost, won, checked, wins)
	if lost == 0 || wins == 0 {
		t.Fatalf("the test needs lost positions (%d) and wins (%d) to check anything", lost, wins)
	}
}

// playOn lets sess play g to its end, one decision at a time, and reports
// whether it won. Every move is checked by the engine.
func playOn(t *testing.T, g *solver.Game, sess solver.Session) bool {
	t.Helper()
	out := make([]solver.Decision, 1)
	for !g.Over() {
		if err := sess.Decide(context.Background(), []solver.Request{{Game: 1, Position: g.View()}}, out); err != nil {
			t.Fatal(err)
		}
		m := out[0].Move
		if out[0].Failed {
			t.Fatalf("strategy failed: %s", out[0].Reason)
		}
		if m.Kind == solver.Resign {
			break
		}
		switch {
		case m.Rank != 0:
		case m.Kind == solver.StackToTable:
			m.Rank = g.Top(int(m.Stack)).Rank()
		default:
			m.Rank = g.Drawn()
		}
		if err := g.Apply(m); err != nil {
			t.Fatalf("illegal move %s: %v", m.Format(g.Rules()), err)
		}
	}
	if err := sess.End(context.Background(), []solver.GameID{1}); err != nil {
		t.Fatal(err)
	}
	return g.Won()
}
