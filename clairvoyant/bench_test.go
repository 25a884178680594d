package clairvoyant_test

import (
	"context"
	"testing"

	"github.com/calcsol/calcsol/clairvoyant"
)

// BenchmarkSolve solves the first decks of uniform-1000 under each variant,
// one deck per iteration, with a budget of 200,000 nodes: ns/op is the time
// per deck, nodes/deck and settled (the share of decks answered yes or no)
// say what that time bought.
func BenchmarkSolve(b *testing.B) {
	ds := corpusDecks(b, 20)
	for _, rules := range variants {
		b.Run(rules.String(), func(b *testing.B) {
			b.ReportAllocs()
			sv := clairvoyant.NewSolver(clairvoyant.Options{})
			var nodes int64
			var settled, n int
			for b.Loop() {
				res, err := sv.Solve(context.Background(), ds[n%len(ds)], rules, clairvoyant.Budget{Nodes: 200_000})
				if err != nil {
					b.Fatal(err)
				}
				nodes += res.Nodes
				if res.Winnable != clairvoyant.Unknown {
					settled++
				}
				n++
			}
			b.ReportMetric(float64(nodes)/float64(n), "nodes/deck")
			b.ReportMetric(float64(settled)/float64(n), "settled")
			b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
		})
	}
}
