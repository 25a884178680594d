package tournament_test

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/calcsol/calcsol/configs"
	"github.com/calcsol/calcsol/solver"
	"github.com/calcsol/calcsol/tournament"
)

// weakened plays like s but resigns when a king is drawn with one card left
// in the stock and more than three cards on the first stack: a change that
// flips a handful of won games.
type weakened struct{ s solver.Strategy }

func (w weakened) Info() solver.Info { return w.s.Info() }
func (w weakened) Start(ctx context.Context, r solver.Rules) (solver.Session, error) {
	sess, err := w.s.Start(ctx, r)
	if err != nil {
		return nil, err
	}
	return weakSession{sess}, nil
}

type weakSession struct{ solver.Session }

func (w weakSession) Decide(ctx context.Context, reqs []solver.Request, out []solver.Decision) error {
	if err := w.Session.Decide(ctx, reqs, out); err != nil {
		return err
	}
	for i, rq := range reqs {
		if rq.Position.Drawn() == solver.NumRanks && rq.Position.StockLen() == 1 && rq.Position.Height(0) > 3 {
			out[i] = solver.Decision{Move: solver.Move{Kind: solver.Resign}, Reason: "weakened"}
		}
	}
	return nil
}

// The shipped CI corpus, the shipped priority strategy: a baseline of it
// passes; a weakened copy under the same name fails, listing exactly the
// decks whose outcome changed, with the first move where the games differ;
// a changed configuration is a stale baseline, not a regression.
func TestRegress(t *testing.T) {
	ctx := context.Background()
	corpus, err := tournament.LoadCorpus("uniform-1000", "uniform-1000")
	if err != nil {
		t.Fatal(err)
	}
	real, err := configs.Strategies().BuildSpec("priority")
	if err != nil {
		t.Fatal(err)
	}
	rules := solver.Rules{Stacks: 4}
	plan := func(s solver.Strategy, hash string) *tournament.Tournament {
		tn, err := tournament.New(ctx, tournament.Plan{
			Entrants: []tournament.Entrant{{Name: "priority", Hash: hash, Strategy: s}},
			Corpora:  []*tournament.Corpus{corpus},
			Variants: []tournament.Variant{{Rules: rules}},
		}, 1)
		if err != nil {
			t.Fatal(err)
		}
		return tn
	}
	base, err := plan(real, "h1").MakeBaseline(ctx, "config", tournament.RunOptions{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	if base.Cells[0].Traces == "" {
		t.Fatal("no traces kept for a deterministic strategy on 1000 decks")
	}

	checks, err := plan(real, "h1").Regress(ctx, base, tournament.RunOptions{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	if checks[0].Failed || len(checks[0].Flipped) != 0 || checks[0].Wins != base.Cells[0].Wins {
		t.Errorf("the real strategy regressed against its own baseline: %+v", checks[0])
	}

	// The decks that flip, found independently.
	_, a, err := tournament.Evaluate(ctx, corpus.Decks(), rules, real, tournament.Options{})
	if err != nil {
		t.Fatal(err)
	}
	_, b, err := tournament.Evaluate(ctx, corpus.Decks(), rules, weakened{real}, tournament.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var want []int
	for i := range a {
		if a[i].Won != b[i].Won {
			want = append(want, i)
		}
	}
	if len(want) == 0 || len(want) > 20 {
		t.Fatalf("the weakening flips %d decks; want a handful", len(want))
	}
	checks, err = plan(weakened{real}, "h1").Regress(ctx, base, tournament.RunOptions{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	var got []int
	for _, f := range checks[0].Flipped {
		got = append(got, f.Deck)
		if !f.WasWon || f.Move == 0 || f.Now != "" || f.Was == "" {
			t.Errorf("deck %d: flip %+v; want won before, its first differing move, and the weakened game ending there", f.Deck, f)
		}
	}
	slices.Sort(got)
	if !checks[0].Failed || !slices.Equal(got, want) {
		t.Errorf("flipped decks %v, want %v (failed: %t)", got, want, checks[0].Failed)
	}

	// Another configuration under the same name: stale, before any game.
	_, err = plan(real, "h2").Regress(ctx, base, tournament.RunOptions{})
	var stale *tournament.StaleError
	if !errors.As(err, &stale) {
		t.Errorf("changed hash: error %v, want a StaleError", err)
	}
}
