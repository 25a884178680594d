package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/calcsol/calcsol/internal/golden"
	"github.com/calcsol/calcsol/solver"
	"github.com/calcsol/calcsol/tournament"
	"github.com/calcsol/calcsol/tournament/stats"
)

// results makes n results, the first wins of them won.
func results(n, wins int) []tournament.DeckResult {
	res := make([]tournament.DeckResult, n)
	for i := range res {
		res[i] = tournament.DeckResult{Deck: i, Placed: 30, Reason: "stuck"}
		if i < wins {
			res[i] = tournament.DeckResult{Deck: i, Won: true, Placed: 52, Reason: "won"}
		}
	}
	return res
}

// comparison is the Comparison of runs a and b (c their Compare) with
// leftOut decks recorded by one run only (and the estimate when B's are a
// sample of A's).
func comparison(a, b []tournament.DeckResult, c stats.Paired, leftOut [2]int) tournament.Comparison {
	id := tournament.RunID{Strategy: "priority", Corpus: "test-100", CorpusSHA: "abc", Rules: "3-base"}
	cmp := tournament.Comparison{IDs: [2]tournament.RunID{id, id}, Runs: [2][]tournament.DeckResult{a, b}, LeftOut: leftOut, Paired: c}
	cmp.IDs[1].Strategy = "priority+sample"
	cmp.Diff, cmp.DiffLo, cmp.DiffHi = stats.PairedDiff(c.Both, c.OnlyA, c.OnlyB, c.Neither)
	if leftOut[0] > 0 && leftOut[1] == 0 { // B's decks a sample of A's, which won 60 % of all
		e := &tournament.Extrapolation{Run: 1, Decks: leftOut[0] + c.Games, Sample: c.Games}
		e.Rate, e.Lo, e.Hi = stats.DifferenceEstimate(e.Decks*6/10, e.Decks, c)
		cmp.Estimate = e
	}
	return cmp
}

func TestStrategyLabels(t *testing.T) {
	tests := []struct {
		name string
		rows []tournament.VariantResult
		want string
	}{
		{"one", []tournament.VariantResult{{Rules: solver.Rules{Stacks: 3}, Label: "a"}, {Rules: solver.Rules{Stacks: 4}, Label: "a"}}, "a"},
		{"per stacks", []tournament.VariantResult{
			{Rules: solver.Rules{Stacks: 3}, Label: "a"}, {Rules: solver.Rules{Stacks: 3, Preplaced: true}, Label: "a"},
			{Rules: solver.Rules{Stacks: 4}, Label: "b"}}, "a (3 stacks); b (4 stacks)"},
	}
	for _, tc := range tests {
		if got := StrategyLabels(tc.rows); got != tc.want {
			t.Errorf("%s: got %q, want %q", tc.name, got, tc.want)
		}
	}
}

// WriteEval, WriteEndings and WriteCompare against golden files: with
// failures the failures column shows, and the note says whether the
// literature's figure lies inside the measured interval.
func TestWriteEval(t *testing.T) {
	res := make([]tournament.DeckResult, 1000)
	for i := range res {
		res[i] = tournament.DeckResult{Deck: i, Placed: 30}
		if i%9 < 5 { // 556 wins, one of them replaced by a failure below
			res[i] = tournament.DeckResult{Deck: i, Won: true, Placed: 52}
		}
	}
	res[1] = tournament.DeckResult{Deck: 1, Placed: 4, Failed: true, Reason: "boom"}
	a, b := results(100, 60), results(100, 45)
	c, err := tournament.Compare(a, b)
	if err != nil {
		t.Fatal(err)
	}
	ends := []tournament.VariantResult{{Rules: solver.Rules{Stacks: 4}, Sum: tournament.Summarize(a, 0), Endings: tournament.Endings(a)}}
	tests := []struct {
		name  string
		write func(*bytes.Buffer) error
	}{
		{"eval-failures", func(w *bytes.Buffer) error {
			return WriteEval(w, []tournament.VariantResult{
				{Rules: solver.Rules{Stacks: 3}, Label: "x", Sum: tournament.Summarize(res, 0)},
				{Rules: solver.Rules{Stacks: 4}, Label: "y", Sum: tournament.Summarize(res[:10], 0)},
			}, Options{})
		}},
		{"eval-no-reference", func(w *bytes.Buffer) error { return WriteEval(w, ends, Options{}) }},
		{"eval-endings", func(w *bytes.Buffer) error { return WriteEndings(w, ends) }},
		{"eval-bounds", func(w *bytes.Buffer) error {
			// 100 decks: 0-59 won; the bound calls 0-49 and 80-99 winnable,
			// 50-69 unknown, 70-79 unwinnable. Only 4 stacks has a bound.
			v := strings.Repeat("W", 50) + strings.Repeat("?", 20) + strings.Repeat("L", 10) + strings.Repeat("W", 20)
			bd, err := tournament.ParseVerdicts("c", "x", solver.Rules{Stacks: 4}, "shipped c-s4.json", v)
			if err != nil {
				return err
			}
			es, err := WriteEvalBounds(w, []tournament.VariantResult{
				{Rules: solver.Rules{Stacks: 3}, Label: "x", Results: a},
				{Rules: solver.Rules{Stacks: 4}, Label: "x", Results: a},
			}, []tournament.Bound{bd}, Options{})
			if len(es) != 1 || es[0].Winnable != 70 || es[0].WinsWinnable != 50 || es[0].WinsUnknown != 10 || es[0].WinsUnwinnable != 0 {
				t.Errorf("efficiency %+v", es)
			}
			return err
		}},
		{"eval-compare", func(w *bytes.Buffer) error {
			return WriteCompare(w, [2]string{"a.jsonl", "b.jsonl"}, comparison(a, b, c, [2]int{}))
		}},
		{"eval-compare-common", func(w *bytes.Buffer) error {
			return WriteCompare(w, [2]string{"s-1,s-2", "c-*"}, comparison(a, b, c, [2]int{900, 0}))
		}},
		{"eval-compare-json", func(w *bytes.Buffer) error {
			return WriteCompareJSON(w, [2]string{"s-1,s-2", "c-*"}, comparison(a, b, c, [2]int{900, 0}))
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := tc.write(&b); err != nil {
				t.Fatal(err)
			}
			golden.Check(t, "testdata/"+tc.name+".golden", b.Bytes())
		})
	}
}
