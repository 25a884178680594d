package deadlock

import (
	"fmt"
	"testing"

	"github.com/calcsol/calcsol/decks/shuffle"
	"github.com/calcsol/calcsol/solver"
)

// sample is one stacking move considered in a real game.
type sample struct {
	p       solver.Position
	y       solver.Rank
	x, s    int
	stacked int
}

// samples collects up to n stacking moves, in deadlock-free positions, from
// games on seeded random decks. Shallow: the moves a careful random player
// guarded by Partial considers (as a priority-table strategy would). Deep:
// positions with at least 12 stacked cards, from a player that often stacks
// rather than plays to a table and keeps deadlock-free with Exact.
func samples(b *testing.B, stacks, n int, deep bool) []sample {
	rules := solver.Rules{Stacks: stacks}
	var out []sample
	for seed := uint64(0); len(out) < n; seed++ {
		d := randomDeck(seed)
		pl := &player{rng: shuffle.NewRand(seed), tableFirst: 1, careful: true, guard: Partial}
		if deep {
			pl = &player{rng: shuffle.NewRand(seed), tableFirst: 0.3, careful: true, guard: exactCheck}
		}
		pl.visit = func(p solver.View, y solver.Rank, x, s int) {
			if len(out) < n && (!deep || stacked(p) >= 12) && FindCycle(p) == nil {
				out = append(out, sample{p.Position(), y, x, s, stacked(p)})
			}
		}
		play(b, &d, rules, pl, nil)
	}
	return out
}

// BenchmarkCheck compares the cost of the checks a strategy runs before every
// stacking move, on positions from real games (docs/deadlock.md):
//
//	go test ./deadlock -run '^$' -bench BenchmarkCheck -benchtime 2s
//
// Each op is one check of one (position, move); the samples are cycled.
// Metrics: stacked/pos, the mean number of stacked cards; %cyclic, the share
// of the sampled moves that would close a cycle (where Exact explains).
func BenchmarkCheck(b *testing.B) {
	for _, set := range []struct {
		stacks int
		deep   bool
	}{{3, false}, {4, false}, {4, true}} {
		stacks := set.stacks
		// 256 positions (160 KB) stay in cache, as the one position a
		// strategy checks all its candidate moves on does; with thousands
		// the benchmark measures cache misses on the stacks instead.
		ss := samples(b, stacks, 256, set.deep)
		name := fmt.Sprintf("stacks=%d", stacks)
		if set.deep {
			name += "/deep"
		}
		var cards, refused int
		for _, s := range ss {
			cards += s.stacked
			if Closes(s.p.View(), s.y, s.x, s.s) {
				refused++
			}
		}
		checks := []struct {
			name string
			f    func(s *sample) bool
		}{
			{"Partial", func(s *sample) bool { return Partial(s.p.View(), s.y, s.x, s.s) }},
			{"Closes", func(s *sample) bool { return Closes(s.p.View(), s.y, s.x, s.s) }},
			{"Exact", func(s *sample) bool { return Exact(s.p.View(), s.y, s.x, s.s) != nil }},
			{"FindCycle", func(s *sample) bool { return FindCycle(s.p.View()) != nil }},
		}
		for _, c := range checks {
			b.Run(name+"/"+c.name, func(b *testing.B) {
				b.ReportAllocs()
				i, hits := 0, 0
				for b.Loop() {
					if c.f(&ss[i]) {
						hits++
					}
					if i++; i == len(ss) {
						i = 0
					}
				}
				b.ReportMetric(float64(cards)/float64(len(ss)), "stacked/pos")
				b.ReportMetric(100*float64(refused)/float64(len(ss)), "%cyclic")
			})
		}
	}
}
