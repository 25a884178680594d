package tune

import (
	"context"
	"fmt"
	"math"

	"github.com/calcsol/calcsol/solver"
	"github.com/calcsol/calcsol/tournament"
)

// Report scores the start and the tuned candidate on decks the search never
// saw: each rate with its Wilson interval, and the two deck by deck.
type Report struct {
	Corpus       CorpusInfo
	Start, Tuned tournament.Summary
	// Paired compares the tuned candidate (A) with the start (B).
	Paired tournament.Paired
	// Diff is the tuned rate minus the start's; Lo and Hi bound it at 95 %
	// (PairedDiffInterval).
	Diff, Lo, Hi float64
}

// Test plays start and tuned on the test corpus with workers goroutines.
func Test(ctx context.Context, test *Corpus, r solver.Rules, build func(Candidate) (solver.Strategy, error), start, tuned Candidate, workers int) (*Report, error) {
	rep := &Report{Corpus: infoOf(test)}
	var runs [2][]tournament.DeckResult
	for i, c := range []Candidate{start, tuned} {
		st, err := build(c)
		if err != nil {
			return nil, err
		}
		sum, res, err := tournament.Evaluate(ctx, test.Decks, r, st, tournament.Options{Workers: workers})
		if err != nil {
			return nil, err
		}
		runs[i] = res
		if i == 0 {
			rep.Start = sum
		} else {
			rep.Tuned = sum
		}
	}
	p, err := tournament.Compare(runs[1], runs[0])
	if err != nil {
		return nil, err
	}
	rep.Paired = p
	rep.Diff, rep.Lo, rep.Hi = PairedDiffInterval(p.Both, p.OnlyA, p.OnlyB, p.Neither)
	return rep, nil
}

// PairedDiffInterval is the difference p1 − p2 between two success rates
// measured on the same trials, with its 95 % interval by Newcombe's method 10
// (the hybrid score interval built from the two Wilson intervals, with the
// correlation φ of the paired outcomes): R. G. Newcombe, "Improved confidence
// intervals for the difference between binomial proportions based on paired
// data", Statistics in Medicine 17 (1998) 2635–2650 [NewcombePaired1998].
// both trials both succeeded on, onlyA only the first, onlyB only the second,
// neither neither; p1 = (both+onlyA)/n, p2 = (both+onlyB)/n.
func PairedDiffInterval(both, onlyA, onlyB, neither int) (d, lo, hi float64) {
	n := both + onlyA + onlyB + neither
	if n == 0 {
		return 0, -1, 1
	}
	nf := float64(n)
	p1 := float64(both+onlyA) / nf
	p2 := float64(both+onlyB) / nf
	d = p1 - p2
	l1, u1 := tournament.Wilson(both+onlyA, n, tournament.Z95)
	l2, u2 := tournament.Wilson(both+onlyB, n, tournament.Z95)
	// φ, the correlation of the two outcomes; 0 when a margin is empty.
	phi := 0.0
	a, b, c, e := float64(both), float64(onlyA), float64(onlyB), float64(neither)
	if den := (a + b) * (c + e) * (a + c) * (b + e); den > 0 {
		phi = (a*e - b*c) / math.Sqrt(den)
	}
	dl := math.Sqrt(max(sq(p1-l1)-2*phi*(p1-l1)*(u2-p2)+sq(u2-p2), 0))
	du := math.Sqrt(max(sq(u1-p1)-2*phi*(u1-p1)*(p2-l2)+sq(p2-l2), 0))
	return d, max(d-dl, -1), min(d+du, 1)
}

func sq(x float64) float64 { return x * x }

// String writes the report as a few lines of text.
func (r *Report) String() string {
	line := func(name string, s tournament.Summary) string {
		return fmt.Sprintf("  %-6s %6d of %d = %6.2f %% [%.2f, %.2f]\n", name, s.Wins, s.Games, 100*s.Rate, 100*s.Lo, 100*s.Hi)
	}
	p := r.Paired
	return fmt.Sprintf("test corpus %s (%s, sha256 %s):\n", r.Corpus.Name, r.Corpus.About, r.Corpus.Checksum) +
		line("start", r.Start) + line("tuned", r.Tuned) +
		fmt.Sprintf("  difference %+.2f points, 95 %% CI [%+.2f, %+.2f] (Newcombe, paired)\n", 100*r.Diff, 100*r.Lo, 100*r.Hi) +
		fmt.Sprintf("  decks won by both %d, tuned only %d, start only %d, neither %d; McNemar exact p = %.3g\n",
			p.Both, p.OnlyA, p.OnlyB, p.Neither, p.P)
}
