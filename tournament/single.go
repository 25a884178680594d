package tournament

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/calcsol/calcsol/solver"
)

// Single plays one strategy on one corpus under one rule variant through the
// tournament's runner, and returns the summary and the per-deck results in
// deck order: the special case of a tournament that `calcsol eval` is. A
// strategy that cannot play the variant gives an error wrapping
// solver.ErrNotApplicable.
func Single(ctx context.Context, e Entrant, c *Corpus, v Variant, opt RunOptions) (Summary, []DeckResult, error) {
	t, err := New(ctx, Plan{Entrants: []Entrant{e}, Corpora: []*Corpus{c}, Variants: []Variant{v}, Blind: opt.Blind}, 0)
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
	if t.blind != nil { // played in the secret order
		slices.SortFunc(results, func(a, b DeckResult) int { return cmp.Compare(a.Deck, b.Deck) })
	}
	return Summarize(results, time.Since(start)), results, nil
}

// VariantResult is one strategy, labelled, scored under one rule variant.
type VariantResult struct {
	Rules   solver.Rules
	Label   string
	Sum     Summary
	Endings []Ending
	Results []DeckResult // in deck order
}

// WriteJSONL writes v's per-deck results (WriteJSONL) as the records of a
// run of v's strategy on corpus c.
func (v VariantResult) WriteJSONL(w io.Writer, c *Corpus) error {
	id := RunID{Strategy: v.Label, Corpus: c.Name, CorpusSHA: c.Checksum, Rules: Variant{Rules: v.Rules}.Key()}
	return WriteJSONL(w, id, v.Results)
}

// Variants plays, for each rule variant, the strategy build makes for it on
// c (Single). Every strategy is built before any game, so that a bad table
// or option is reported at once rather than after the first variants have
// run. A variant whose strategy cannot be built (a table made for another
// number of stacks) is skipped with a note, "skipped RULES: reason", as long
// as one is left; when none is, the first build error is returned as it is.
func Variants(ctx context.Context, c *Corpus, variants []solver.Rules, build func(solver.Rules) (solver.Strategy, string, error), opt RunOptions) (rows []VariantResult, skipped []string, err error) {
	var entrants []solver.Strategy
	var firstErr error
	for _, r := range variants {
		strategy, label, err := build(r)
		if err != nil {
			firstErr = cmp.Or(firstErr, err)
			skipped = append(skipped, fmt.Sprintf("skipped %s: %v", r, err))
			continue
		}
		entrants = append(entrants, strategy)
		rows = append(rows, VariantResult{Rules: r, Label: label})
	}
	if len(rows) == 0 {
		return nil, skipped, firstErr
	}
	for i := range rows {
		row := &rows[i]
		e := Entrant{Name: row.Label, Spec: row.Label, Strategy: entrants[i]}
		if row.Sum, row.Results, err = Single(ctx, e, c, Variant{Rules: row.Rules}, opt); err != nil {
			return nil, skipped, fmt.Errorf("eval %s: %w", row.Rules, err)
		}
		row.Endings = Endings(row.Results)
	}
	return rows, skipped, nil
}
