package clairvoyant_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/calcsol/calcsol/clairvoyant"
	"github.com/calcsol/calcsol/decks/corpus"
	"github.com/calcsol/calcsol/solver"
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
			nodes := benchSolve(b, clairvoyant.Options{}, ds, rules, 200_000)
			b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
		})
	}
}

// benchSolve solves one deck of ds per iteration, in turn, and reports the
// nodes per deck and the share settled (answered yes or no); it returns the
// nodes spent.
func benchSolve(b *testing.B, opts clairvoyant.Options, ds []solver.Deck, rules solver.Rules, budget int64) int64 {
	sv := clairvoyant.NewSolver(opts)
	var nodes int64
	var settled, n int
	for b.Loop() {
		res, err := sv.Solve(context.Background(), ds[n%len(ds)], rules, clairvoyant.Budget{Nodes: budget})
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
	return nodes
}

// BenchmarkRestarts solves hard 3-stack deals (A 2 3 4 pre-placed; decks of
// uniform-30000 that the shipped bound had left unknown before its restart
// stage, docs/clairvoyant.md)
// with a budget of 6 million nodes, without and with restarts, one deck per
// iteration: run with -benchtime 8x to give each variant the same eight
// decks, and compare settled and nodes/deck side by side.
func BenchmarkRestarts(b *testing.B) {
	all, err := corpus.LoadCalculationDecks("uniform-30000")
	if err != nil {
		b.Fatal(err)
	}
	var ds []solver.Deck
	for _, i := range []int{10, 34, 71, 113, 123, 142, 165, 268} {
		ds = append(ds, all[i])
	}
	rules := solver.Rules{Stacks: 3, Preplaced: true}
	for _, restarts := range []int64{0, 6_000_000} {
		b.Run(fmt.Sprintf("restarts=%d", restarts), func(b *testing.B) {
			benchSolve(b, clairvoyant.Options{Restarts: restarts}, ds, rules, 6_000_000)
		})
	}
}

// BenchmarkSolveSAT decides the first decks of uniform-1000 with 3 stacks
// by their SAT formula alone (gophersat in process), one deck per
// iteration: ns/op is the cost a deck of the SAT stage (`solve --sat`),
// beside BenchmarkSolve's search.
func BenchmarkSolveSAT(b *testing.B) {
	ds := corpusDecks(b, 8)
	for _, rules := range []solver.Rules{{Stacks: 3}, {Stacks: 3, Preplaced: true}} {
		b.Run(rules.String(), func(b *testing.B) {
			n := 0
			for b.Loop() {
				res, err := clairvoyant.SolveSAT(context.Background(), ds[n%len(ds)], rules, clairvoyant.Gophersat{})
				if err != nil {
					b.Fatal(err)
				}
				if res.Winnable == clairvoyant.Unknown {
					b.Fatal("no answer")
				}
				n++
			}
		})
	}
}

// BenchmarkPilot plays the first 400 decks of uniform-1000 (3 stacks,
// tables start empty) by the pilot of each level over the tuned table, the
// order known, one deck per iteration: ns/op is the cost a deck of `solve
// --try priority:table=tuned-3-exact --pilot L` (level 0: the table's own
// game), won the share of decks its game wins. Run with -benchtime 400x so
// that every level plays the same 400 decks.
func BenchmarkPilot(b *testing.B) {
	ds := corpusDecks(b, 400)
	rules := solver.Rules{Stacks: 3}
	for level := 0; level <= 2; level++ {
		b.Run(fmt.Sprintf("level=%d", level), func(b *testing.B) {
			w := pilotWitness(b, "priority:table=tuned-3-exact", rules, level)
			b.ReportAllocs()
			won, n := 0, 0
			for b.Loop() {
				if _, ok := w.Game(context.Background(), &ds[n%len(ds)], rules, level); ok {
					won++
				}
				n++
			}
			b.ReportMetric(float64(won)/float64(n), "won")
		})
	}
}
