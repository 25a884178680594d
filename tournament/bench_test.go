package tournament

import (
	"context"
	"testing"

	"github.com/calcsol/calcsol/solver"
)

// BenchmarkEvaluate measures the runner itself: 30,000 decks (the size of the
// shipped corpus) played by the trivial greedy strategy, so that the figure is
// the ceiling of games/s that Evaluate's own overhead allows on this machine.
// One op is one whole corpus.
func BenchmarkEvaluate(b *testing.B) {
	ds := testDecks(30000, 7)
	for _, bc := range []struct {
		name           string
		workers, batch int
	}{{"workers=1", 1, 1}, {"workers=GOMAXPROCS", 0, 1}, {"workers=GOMAXPROCS/batch=64", 0, 64}} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			games := 0
			for b.Loop() {
				sum, _, err := Evaluate(context.Background(), ds, solver.DefaultRules(), newGreedy(), Options{Workers: bc.workers, Batch: bc.batch})
				if err != nil {
					b.Fatal(err)
				}
				games += sum.Games
			}
			b.ReportMetric(float64(games)/b.Elapsed().Seconds(), "games/s")
		})
	}
}

// BenchmarkBareLoop is the same games played one by one on one reused Game,
// the strategy called directly, with no session, batch or runner around them:
// the difference to BenchmarkEvaluate/workers=1 is the harness's overhead.
func BenchmarkBareLoop(b *testing.B) {
	ds := testDecks(30000, 7)
	r := solver.DefaultRules()
	var g solver.Game
	b.ReportAllocs()
	games := 0
	for b.Loop() {
		for i := range ds {
			if err := g.Reset(&ds[i], r); err != nil {
				b.Fatal(err)
			}
			for !g.Over() {
				m, err := greedy{}.Choose(g.View())
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
}
