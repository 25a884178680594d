package tournament

import (
	"context"
	"fmt"
	"time"

	"github.com/calcsol/calcsol/solver"
)

// Single plays one strategy on one corpus under one rule variant through the
// tournament's runner, and returns the summary and the per-deck results in
// deck order: the special case of a tournament that `calcsol eval` is. A
// strategy that cannot play the variant gives an error wrapping
// solver.ErrNotApplicable.
func Single(ctx context.Context, e Entrant, c *Corpus, v Variant, opt RunOptions) (Summary, []DeckResult, error) {
	t, err := New(ctx, Plan{Entrants: []Entrant{e}, Corpora: []*Corpus{c}, Variants: []Variant{v}}, 0)
	if err != nil {
		return Summary{}, nil, err
	}
	if cell := t.cells[0]; !cell.Applicable {
		return Summary{}, nil, fmt.Errorf("%s under %s: %s: %w", e.Name, v.Key(), cell.Reason, solver.ErrNotApplicable)
	}
	results := make([]DeckResult, 0, opt.Shard.count(c.Len))
	start := time.Now()
	err = t.Run(ctx, SinkFunc(func(recs []Record) error {
		for i := range recs {
			r := &recs[i]
			results = append(results, DeckResult{Deck: r.Deck, Won: r.Won, Placed: r.Placed, Failed: r.Failed, Reason: r.End})
		}
		return nil
	}), opt)
	if err != nil {
		return Summary{}, nil, err
	}
	return Summarize(results, time.Since(start)), results, nil
}
