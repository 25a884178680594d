package tune

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/calcsol/calcsol/solver"
	"github.com/calcsol/calcsol/tournament"
)

// BenchmarkCandidates scores neighbours of Table 1 on 30,000 training decks
// each, every deck played (no racing), on all cores: the search's cost per
// candidate. Run it on a quiet machine:
//
//	go test ./tune -run '^$' -bench Candidates -benchtime 50x
func BenchmarkCandidates(b *testing.B) {
	train, err := CorpusSpec{Deck: "standard52", Shuffle: "U", Count: 30000, Seed: 71001}.Generate("bench")
	if err != nil {
		b.Fatal(err)
	}
	rules := solver.Rules{Stacks: 3}
	start := Candidate{Table: table1(b), Params: map[string]string{}}
	space := &Space{Rules: rules, Ops: true}
	rng := rand.New(rand.NewPCG(1, 2))
	b.ReportAllocs()
	games := 0
	for b.Loop() {
		c, _, err := space.Neighbour(rng, start)
		if err != nil {
			b.Fatal(err)
		}
		st, err := build(c)
		if err != nil {
			b.Fatal(err)
		}
		if _, _, err := tournament.Evaluate(context.Background(), train.Decks, rules, st, tournament.Options{}); err != nil {
			b.Fatal(err)
		}
		games += len(train.Decks)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "candidates/s")
	b.ReportMetric(float64(games)/b.Elapsed().Seconds(), "games/s")
}

// BenchmarkCandidatesIncremental is BenchmarkCandidates the way the search
// scores a plain priority table: each neighbour played only on the decks
// its change can affect.
func BenchmarkCandidatesIncremental(b *testing.B) {
	train, err := CorpusSpec{Deck: "standard52", Shuffle: "U", Count: 30000, Seed: 71001}.Generate("bench")
	if err != nil {
		b.Fatal(err)
	}
	rules := solver.Rules{Stacks: 3}
	start := Candidate{Table: table1(b), Params: map[string]string{}}
	base, _, err := playIncremental(context.Background(), start.Table, nil, nil, rules, train.Decks, 0)
	if err != nil {
		b.Fatal(err)
	}
	space := &Space{Rules: rules, Ops: true}
	rng := rand.New(rand.NewPCG(1, 2))
	b.ReportAllocs()
	games, played := 0, 0
	for b.Loop() {
		c, _, err := space.Neighbour(rng, start)
		if err != nil {
			b.Fatal(err)
		}
		_, n, err := playIncremental(context.Background(), c.Table, start.Table, base, rules, train.Decks, 0)
		if err != nil {
			b.Fatal(err)
		}
		games += len(train.Decks)
		played += n
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "candidates/s")
	b.ReportMetric(float64(played)/float64(games), "played/decks")
}
