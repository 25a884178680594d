package tune

import (
	"context"
	"fmt"

	"github.com/calcsol/calcsol/solver"
	"github.com/calcsol/calcsol/tournament"
	"github.com/calcsol/calcsol/tournament/stats"
)

// Report scores the start and the tuned candidate on decks the search never
// saw: each rate with its Wilson interval, and the two deck by deck.
type Report struct {
	Corpus       CorpusInfo
	Start, Tuned tournament.Summary
	// Paired compares the tuned candidate (A) with the start (B).
	Paired stats.Paired
	// Diff is the tuned rate minus the start's; Lo and Hi bound it at 95 %
	// (stats.PairedDiff).
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
	rep.Diff, rep.Lo, rep.Hi = stats.PairedDiff(p.Both, p.OnlyA, p.OnlyB, p.Neither)
	return rep, nil
}

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
