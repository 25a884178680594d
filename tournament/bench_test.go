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
		name    string
		workers int
	}{{"workers=1", 1}, {"workers=GOMAXPROCS", 0}} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			games := 0
			for b.Loop() {
				sum, _, err := Evaluate(context.Background(), ds, solver.DefaultRules(), newGreedy, bc.workers)
				if err != nil {
					b.Fatal(err)
				}
				games += sum.Games
			}
			b.ReportMetric(float64(games)/b.Elapsed().Seconds(), "games/s")
		})
	}
}

// BenchmarkPlayOut is the same games played one by one on one reused Game with
// no runner around them: the difference to BenchmarkEvaluate/workers=1 is the
// runner's overhead per game.
func BenchmarkPlayOut(b *testing.B) {
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
			g.PlayOut(greedy{}, false)
		}
		games += len(ds)
	}
	b.ReportMetric(float64(games)/b.Elapsed().Seconds(), "games/s")
}
