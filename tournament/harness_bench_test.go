package tournament_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/calcsol/calcsol/configs"
	"github.com/calcsol/calcsol/solver"
	"github.com/calcsol/calcsol/tournament"
)

// BenchmarkHarness measures what the tournament harness costs: the priority
// strategy on 300,000 uniform decks (one op), played by a bare loop (the
// Chooser called directly on one reused Game) and by a tournament of that
// strategy alone (ordered chunks, per-game records encoded and appended to
// results.jsonl, a tally with win bitsets), with one worker and with all.
// Compare games/s side by side in one run:
//
//	go test -run XXX -bench Harness -benchtime 3x ./tournament/
func BenchmarkHarness(b *testing.B) {
	const n = 300_000
	corpus, err := tournament.GenerateCorpus("uniform-300000", "shuffle U", 1, n)
	if err != nil {
		b.Fatal(err)
	}
	ds := corpus.Decks()
	mem, err := tournament.NewCorpus("uniform-300000", ds)
	if err != nil {
		b.Fatal(err)
	}
	s, err := configs.Strategies().BuildSpec("priority")
	if err != nil {
		b.Fatal(err)
	}
	r := solver.Rules{Stacks: 3}
	ctx := context.Background()

	b.Run("bare-loop", func(b *testing.B) {
		sess, err := s.Start(ctx, r)
		if err != nil {
			b.Fatal(err)
		}
		c := sess.(*solver.ChooserSession).C
		var g solver.Game
		games := 0
		b.ReportAllocs()
		for b.Loop() {
			for i := range ds {
				if err := g.Reset(&ds[i], r); err != nil {
					b.Fatal(err)
				}
				for !g.Over() {
					m, err := c.Choose(g.View())
					if err != nil {
						break
					}
					if err := g.Apply(m); err != nil {
						b.Fatal(err)
					}
				}
			}
			games += len(ds)
		}
		b.ReportMetric(float64(games)/b.Elapsed().Seconds(), "games/s")
	})
	for _, bc := range []struct {
		name    string
		workers int
	}{{"tournament/workers=1", 1}, {"tournament/workers=GOMAXPROCS", 0}} {
		b.Run(bc.name, func(b *testing.B) {
			tn, err := tournament.New(ctx, tournament.Plan{
				Entrants: []tournament.Entrant{{Name: "priority", Strategy: s}},
				Corpora:  []*tournament.Corpus{mem},
				Variants: []tournament.Variant{{Rules: r}},
			}, 1)
			if err != nil {
				b.Fatal(err)
			}
			dir := b.TempDir()
			games := 0
			b.ReportAllocs()
			for b.Loop() {
				os.Remove(filepath.Join(dir, tournament.CompressedResultsFile))
				ta := tn.NewTally()
				res, _, err := tn.OpenResults(dir, tournament.Shard{}, ta)
				if err != nil {
					b.Fatal(err)
				}
				if err := tn.Run(ctx, ta.Sink(res), tournament.RunOptions{Workers: bc.workers}); err != nil {
					b.Fatal(err)
				}
				res.Close()
				games += n
			}
			b.ReportMetric(float64(games)/b.Elapsed().Seconds(), "games/s")
		})
	}
}
