package analysis

import (
	"strings"
	"testing"

	"github.com/calcsol/calcsol/decks/shuffle"
)

// Sets per second of Measure at n = 52 on one worker, matrix accumulation
// included (docs/shuffles-analysis.md quotes these). "-stats" also gathers
// the per-deck statistics (rising sequences, adjacent pairs, guess score),
// as "calcsol shuffle analyze" always does; the plain variants do not.
func BenchmarkMeasure(b *testing.B) {
	for _, spec := range []string{"U", "R", "H", "D", "HDHRDHH"} {
		for _, stats := range []bool{false, true} {
			name := spec
			if stats {
				name += "-stats"
			}
			b.Run(name, func(b *testing.B) {
				sh := seq(b, spec)
				const sets = 20000
				b.ReportAllocs()
				for b.Loop() {
					if _, err := Measure(sh, Options{N: 52, Sets: sets, Seed: 1, Workers: 1, Stats: stats}); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(sets*b.N)/b.Elapsed().Seconds(), "sets/s")
			})
		}
	}
}

// The seed-001 experiment (every sequence of H, R, D of length 1..7, 3,279
// sequences) on one worker, with few sets; "s/1e6sets" projects the full
// experiment at s = 10^6 on one core.
func BenchmarkSearchHRD7(b *testing.B) {
	p := shuffle.DefaultParams()
	names := []string{"H", "R", "D"}
	newSteps := func() ([]shuffle.Shuffler, error) { return p.Models(strings.Join(names, "")) }
	const sets = 1000
	b.ReportAllocs()
	for b.Loop() {
		_, err := Search(newSteps, names, SearchOptions{Options: Options{N: 52, Sets: sets, Seed: 1, Workers: 1}, MinLen: 1, MaxLen: 7})
		if err != nil {
			b.Fatal(err)
		}
	}
	perSet := b.Elapsed().Seconds() / float64(sets*b.N)
	b.ReportMetric(1/perSet, "sets/s")
	b.ReportMetric(perSet*1e6, "s/1e6sets")
}
