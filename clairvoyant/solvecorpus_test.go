package clairvoyant_test

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/calcsol/calcsol/clairvoyant"
	"github.com/calcsol/calcsol/configs"
	"github.com/calcsol/calcsol/decks/corpus"
	"github.com/calcsol/calcsol/solver"
)

// SolveCorpus is SolveAll with the job's strategies tried first: the same
// verdicts as a SolveAll given the same witnesses, counted, and its
// intervals from those counts.
func TestSolveCorpus(t *testing.T) {
	c, err := corpus.NewCalculation("twenty", corpusDecks(t, 20))
	if err != nil {
		t.Fatal(err)
	}
	rules := solver.Rules{Stacks: 4, Preplaced: true}
	budget := clairvoyant.Budget{Nodes: 2_000}
	s, err := configs.Strategies().BuildSpec("priority")
	if err != nil {
		t.Fatal(err)
	}
	job := clairvoyant.CorpusJob{Rules: rules, Budget: budget, Workers: 2, Try: []solver.Strategy{s}, Start: 5}
	got, err := clairvoyant.SolveCorpus(context.Background(), c, job)
	if err != nil {
		t.Fatal(err)
	}
	w, err := clairvoyant.NewStrategyWitness(context.Background(), s, rules)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	want, err := clairvoyant.SolveAll(context.Background(), c.Decks(), rules, clairvoyant.Options{Witness: w.Line, Start: 5}, budget, 2, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	verdicts := func(rs []clairvoyant.Result) []clairvoyant.Verdict {
		var v []clairvoyant.Verdict
		for _, r := range rs {
			v = append(v, r.Winnable)
		}
		return v
	}
	if !slices.Equal(verdicts(got.Results), verdicts(want)) || got.Tally != clairvoyant.Count(want) {
		t.Errorf("verdicts %v (%+v), want %v", verdicts(got.Results), got.Tally, verdicts(want))
	}
	if p, lo, hi := got.Share(); !(lo <= p && p <= hi) || p != float64(got.Winnable)/20 {
		t.Errorf("share %g [%g, %g]", p, lo, hi)
	}
	if lo, hi, clo, chi := got.Bound(); !(clo <= lo && lo <= hi && hi <= chi) {
		t.Errorf("bound [%g, %g], widened [%g, %g]", lo, hi, clo, chi)
	}
	if got.Handoff || got.HandoffNodes != 0 || got.BySAT != 0 {
		t.Errorf("handoff %v, %d nodes, %d by SAT: want none", got.Handoff, got.HandoffNodes, got.BySAT)
	}

	// A strategy that refuses the pilot is named by its index.
	job.Pilot = clairvoyant.MaxPilotLevel + 1
	var te *clairvoyant.TryError
	if _, err := clairvoyant.SolveCorpus(context.Background(), c, job); !errors.As(err, &te) || te.Index != 0 || !te.Pilot {
		t.Errorf("pilot %d: error %v, want a *TryError for the pilot of strategy 0", job.Pilot, err)
	}
}
