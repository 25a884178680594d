package tournament_test

import (
	"context"
	"math/rand/v2"
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

// BenchmarkRecordsWrite measures what writing a report's records costs, a
// record at a time (ns/record): encoding, checksumming and gzipping a block
// a member (results.jsonl.gz), or the plain lines of an older report that
// a run resumes (results.jsonl), for records shaped like the default
// tournament's. Batches of 256 records, as a run's chunks hand them on:
//
//	go test -run XXX -bench RecordsWrite -count 5 ./tournament/
func BenchmarkRecordsWrite(b *testing.B) {
	corpus, err := tournament.GenerateCorpus("uniform-30000", "shuffle U", 1, 10)
	if err != nil {
		b.Fatal(err)
	}
	s, err := configs.Strategies().BuildSpec("priority")
	if err != nil {
		b.Fatal(err)
	}
	tn, err := tournament.New(context.Background(), tournament.Plan{
		Entrants: []tournament.Entrant{{Name: "priority", Strategy: s}},
		Corpora:  []*tournament.Corpus{corpus},
		Variants: []tournament.Variant{{Rules: solver.Rules{Stacks: 3}}},
	}, 1)
	if err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	ends := []string{"stuck: the stock is empty and no stack top can move", "resigned: every operation for K is rejected",
		"resigned: every operation for 9 is rejected"}
	recs := make([]tournament.Record, 256)
	for i := range recs {
		r := tournament.Record{V: tournament.RecordVersion, Strategy: "priority", Corpus: "uniform-30000",
			CorpusSHA: corpus.Checksum, Rules: "3-base", Deck: i, Placed: rng.IntN(52), Micros: float64(rng.IntN(2000)) / 100}
		r.End = ends[rng.IntN(len(ends))]
		if rng.IntN(4) == 0 {
			r.Placed, r.Won, r.End = 52, true, "won"
		}
		recs[i] = r
	}
	for _, form := range []string{tournament.CompressedResultsFile, tournament.ResultsFile} {
		b.Run(form, func(b *testing.B) {
			dir := b.TempDir()
			var res *tournament.Results
			open := func() {
				for _, f := range []string{tournament.CompressedResultsFile, tournament.ResultsFile, tournament.SumsFile} {
					os.Remove(filepath.Join(dir, f))
				}
				if form == tournament.ResultsFile {
					os.WriteFile(filepath.Join(dir, form), nil, 0o644) // a plain file: appended to as it is
				}
				if res, _, err = tn.OpenResults(dir, tournament.Shard{}, tn.NewTally()); err != nil {
					b.Fatal(err)
				}
			}
			open()
			n := 0
			b.ReportAllocs()
			for b.Loop() {
				if err := res.Write(recs); err != nil {
					b.Fatal(err)
				}
				if n++; n%2048 == 0 { // half a million records: start again
					b.StopTimer()
					res.Close()
					open()
					b.StartTimer()
				}
			}
			if err := res.Close(); err != nil {
				b.Fatal(err)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(n*len(recs)), "ns/record")
		})
	}
}
