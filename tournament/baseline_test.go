package tournament_test

import (
	"context"
	"encoding/base64"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/calcsol/calcsol/configs"
	"github.com/calcsol/calcsol/solver"
	"github.com/calcsol/calcsol/tournament"
)

// resignWhen plays like s but resigns the games for which when says so.
type resignWhen struct {
	s    solver.Strategy
	info solver.Info
	when func(rq solver.Request) bool
}

func (w resignWhen) Info() solver.Info { return w.info }
func (w resignWhen) Start(ctx context.Context, r solver.Rules) (solver.Session, error) {
	sess, err := w.s.Start(ctx, r)
	if err != nil {
		return nil, err
	}
	return resignSession{sess, w.when}, nil
}

type resignSession struct {
	solver.Session
	when func(rq solver.Request) bool
}

func (w resignSession) Decide(ctx context.Context, reqs []solver.Request, out []solver.Decision) error {
	if err := w.Session.Decide(ctx, reqs, out); err != nil {
		return err
	}
	for i, rq := range reqs {
		if w.when(rq) {
			out[i] = solver.Decision{Move: solver.Move{Kind: solver.Resign}, Reason: "told to"}
		}
	}
	return nil
}

// weakened plays like s but resigns when a king is drawn with one card left
// in the stock and more than three cards on the first stack: a change that
// flips a handful of won games.
func weakened(s solver.Strategy) solver.Strategy {
	return resignWhen{s, s.Info(), func(rq solver.Request) bool {
		p := rq.Position
		return p.Drawn() == solver.NumRanks && p.StockLen() == 1 && p.Height(0) > 3
	}}
}

// coin is a stochastic strategy: s, but it resigns the games whose seed is odd.
func coin(s solver.Strategy) solver.Strategy {
	return resignWhen{s, solver.Info{Name: "coin", Stochastic: true}, func(rq solver.Request) bool { return rq.Seed%2 == 1 }}
}

// ciCorpusAndPriority returns the shipped CI corpus and the shipped priority strategy.
func ciCorpusAndPriority(t *testing.T) (*tournament.Corpus, solver.Strategy) {
	t.Helper()
	corpus, err := tournament.LoadCorpus("uniform-1000", "uniform-1000")
	if err != nil {
		t.Fatal(err)
	}
	s, err := configs.Strategies().BuildSpec("priority")
	if err != nil {
		t.Fatal(err)
	}
	return corpus, s
}

// The shipped CI corpus, the shipped priority strategy: a baseline of it
// passes; a weakened copy under the same name fails, listing exactly the
// decks whose outcome changed, with the first move where the games differ;
// a changed configuration is a stale baseline, not a regression.
func TestRegress(t *testing.T) {
	ctx := context.Background()
	corpus, real := ciCorpusAndPriority(t)
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
	_, b, err := tournament.Evaluate(ctx, corpus.Decks(), rules, weakened(real), tournament.Options{})
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
	checks, err = plan(weakened(real), "h1").Regress(ctx, base, tournament.RunOptions{Workers: 2})
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

// A stochastic strategy fails only on a significant drop: against a
// baseline that claims a few more won decks it passes, against one that
// claims many more it fails.
func TestRegressStochastic(t *testing.T) {
	ctx := context.Background()
	corpus, real := ciCorpusAndPriority(t)
	tn, err := tournament.New(ctx, tournament.Plan{
		Entrants: []tournament.Entrant{{Name: "coin", Hash: "h", Strategy: coin(real)}},
		Corpora:  []*tournament.Corpus{corpus},
		Variants: []tournament.Variant{{Rules: solver.Rules{Stacks: 4}}},
	}, 1)
	if err != nil {
		t.Fatal(err)
	}
	base, err := tn.MakeBaseline(ctx, "config", tournament.RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if base.Cells[0].Traces != "" {
		t.Error("traces kept for a stochastic strategy")
	}
	for _, tc := range []struct {
		extra int
		fail  bool
	}{{0, false}, {3, false}, {60, true}} {
		b := *base
		b.Cells = []tournament.BaselineCell{base.Cells[0]}
		b.Cells[0].Won = claimWins(t, base.Cells[0].Won, tc.extra)
		b.Cells[0].Wins += tc.extra
		b.Seal() // an edit that keeps the counts true and reseals
		checks, err := tn.Regress(ctx, &b, tournament.RunOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if c := checks[0]; c.Failed != tc.fail || len(c.Flipped) != 0 {
			t.Errorf("baseline with %d more wins: failed %t (p = %.3g), want %t", tc.extra, c.Failed, c.P, tc.fail)
		}
	}
}

// claimWins sets n more bits in a base64 bitset.
func claimWins(t *testing.T, won string, n int) string {
	t.Helper()
	raw, err := base64.StdEncoding.DecodeString(won)
	if err != nil {
		t.Fatal(err)
	}
	for d := 0; n > 0 && d < 8*len(raw); d++ {
		if raw[d/8]&(1<<(d%8)) == 0 {
			raw[d/8] |= 1 << (d % 8)
			n--
		}
	}
	return base64.StdEncoding.EncodeToString(raw)
}

// A baseline edited after calcsol wrote it is refused: its checksum no
// longer matches, or, resealed or of the older format without one, its
// counts do not add up against its bitmap or its corpus. It is never "ok".
func TestBaselineEdited(t *testing.T) {
	ctx := context.Background()
	corpus, real := ciCorpusAndPriority(t)
	tn, err := tournament.New(ctx, tournament.Plan{
		Entrants: []tournament.Entrant{{Name: "priority", Hash: "h", Strategy: real}},
		Corpora:  []*tournament.Corpus{corpus},
		Variants: []tournament.Variant{{Rules: solver.Rules{Stacks: 4}}},
	}, 1)
	if err != nil {
		t.Fatal(err)
	}
	base, err := tn.MakeBaseline(ctx, "config", tournament.RunOptions{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	if err := base.Verify(); err != nil {
		t.Fatalf("a baseline as made: %v", err)
	}
	tests := []struct {
		name   string
		edit   func(b *tournament.Baseline)
		reseal bool
		want   string // "" for a baseline that passes
	}{
		{"as made", func(*tournament.Baseline) {}, false, ""},
		{"wins", func(b *tournament.Baseline) { b.Cells[0].Wins++ }, false, "does not match its content"},
		{"games", func(b *tournament.Baseline) { b.Cells[0].Games-- }, false, "does not match its content"},
		{"bitmap", func(b *tournament.Baseline) { b.Cells[0].Won = claimWins(t, b.Cells[0].Won, 1) }, false, "does not match its content"},
		{"hash", func(b *tournament.Baseline) { b.Cells[0].Hash = "other" }, false, "does not match its content"},
		{"checksum gone", func(b *tournament.Baseline) { b.Checksum = "" }, false, "no checksum"},
		{"wins, resealed", func(b *tournament.Baseline) { b.Cells[0].Wins++ }, true, "the counts do not add up"},
		{"games, resealed", func(b *tournament.Baseline) { b.Cells[0].Games-- }, true, "the counts do not add up"},
		{"bitmap past the games, resealed", func(b *tournament.Baseline) {
			b.Cells[0].Games -= 3
			b.Cells[0].Won = claimWins(t, b.Cells[0].Won, 1000) // every deck
			b.Cells[0].Wins = b.Cells[0].Games
		}, true, "marked won, past its"},
		{"older format, no checksum", func(b *tournament.Baseline) { b.Format, b.Checksum = tournament.BaselineFormatV1, "" }, false, ""},
		{"older format, wins", func(b *tournament.Baseline) {
			b.Format, b.Checksum = tournament.BaselineFormatV1, ""
			b.Cells[0].Wins++
		}, false, "the counts do not add up"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := *base
			b.Cells = append([]tournament.BaselineCell(nil), base.Cells...)
			tc.edit(&b)
			if tc.reseal {
				b.Seal()
			}
			checks, err := tn.Regress(ctx, &b, tournament.RunOptions{Workers: 2})
			if tc.want == "" {
				if err != nil || checks[0].Failed {
					t.Fatalf("error %v, checks %+v; want a pass", err, checks)
				}
				return
			}
			var be *tournament.BaselineError
			if !errors.As(err, &be) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want a BaselineError containing %q", err, tc.want)
			}
		})
	}
}
