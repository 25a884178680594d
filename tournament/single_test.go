package tournament

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/calcsol/calcsol/solver"
)

// Variants plays the variants whose strategy builds, notes the others, and
// fails with the first build error when none builds.
func TestVariants(t *testing.T) {
	c, err := NewCorpus("small", testDecks(30, 5))
	if err != nil {
		t.Fatal(err)
	}
	bad := errors.New("no table for 4 stacks")
	build := func(r solver.Rules) (solver.Strategy, string, error) {
		if r.Stacks == 4 {
			return nil, "", bad
		}
		return newGreedy(), "greedy", nil
	}
	three, four := solver.Rules{Stacks: 3}, solver.Rules{Stacks: 4}
	tests := []struct {
		name     string
		variants []solver.Rules
		rows     int
		skipped  []string
		err      error
	}{
		{"one", []solver.Rules{three}, 1, nil, nil},
		{"one skipped", []solver.Rules{three, four}, 1, []string{"skipped " + four.String() + ": no table for 4 stacks"}, nil},
		{"none", []solver.Rules{four}, 0, []string{"skipped " + four.String() + ": no table for 4 stacks"}, bad},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rows, skipped, err := Variants(context.Background(), c, tc.variants, build, RunOptions{Workers: 2})
			if err != tc.err || len(rows) != tc.rows || !slices.Equal(skipped, tc.skipped) {
				t.Fatalf("%d rows, skipped %q, error %v; want %d, %q, %v", len(rows), skipped, err, tc.rows, tc.skipped, tc.err)
			}
			for _, r := range rows {
				if r.Label != "greedy" || r.Sum.Games != 30 || len(r.Results) != 30 || len(r.Endings) == 0 {
					t.Errorf("row %+v", r)
				}
			}
		})
	}
	// A strategy that cannot play its variant fails the run, named.
	_, _, err = Variants(context.Background(), c, []solver.Rules{four}, func(solver.Rules) (solver.Strategy, string, error) {
		return threeOnly(), "three", nil
	}, RunOptions{Workers: 1})
	if err == nil || !strings.HasPrefix(err.Error(), "eval "+four.String()+": ") || !errors.Is(err, solver.ErrNotApplicable) {
		t.Errorf("error %v, want eval %s: … not applicable", err, four)
	}
}

// A variant's records read back as a run of its strategy, corpus and rules,
// with its results.
func TestVariantResultWriteJSONL(t *testing.T) {
	c, err := NewCorpus("small", testDecks(10, 2))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		rules solver.Rules
		key   string
	}{
		{"base", solver.Rules{Stacks: 3}, "3-base"},
		{"preplaced", solver.Rules{Stacks: 4, Preplaced: true}, "4-preplaced"},
	}
	for _, tc := range tests {
		rows, _, err := Variants(context.Background(), c, []solver.Rules{tc.rules}, func(solver.Rules) (solver.Strategy, string, error) {
			return newGreedy(), "greedy", nil
		}, RunOptions{Workers: 1})
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		if err := rows[0].WriteJSONL(&b, c); err != nil {
			t.Fatal(err)
		}
		id, res, err := ReadJSONL(strings.NewReader(b.String()))
		want := RunID{Strategy: "greedy", Corpus: "small", CorpusSHA: c.Checksum, Rules: tc.key}
		if err != nil || id != want || !slices.Equal(res, rows[0].Results) {
			t.Errorf("%s: read back %+v, %d results, %v; want %+v, %d results", tc.name, id, len(res), err, want, len(rows[0].Results))
		}
	}
}
