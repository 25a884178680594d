package tournament

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/calcsol/calcsol/solver"
	"github.com/calcsol/calcsol/tournament/stats"
)

// boundPlan is testPlan with a second corpus on which only greedy is
// entered, and a bound for the first corpus under 4 stacks, pre-placed, whose verdicts
// are given deck by deck.
func boundPlan(t *testing.T, verdicts string) Plan {
	t.Helper()
	p := testPlan(t, len(verdicts))
	other, err := NewCorpus("other", testDecks(7, 4))
	if err != nil {
		t.Fatal(err)
	}
	p.Corpora = append(p.Corpora, other)
	p.Entrants = slices.Clone(p.Entrants)
	p.Entrants[1].Corpora = []string{"small"}
	p.Entrants[2].Corpora = []string{"small"}
	c := p.Corpora[0]
	b, err := ParseVerdicts(c.Name, c.Checksum, solver.Rules{Stacks: 4, Preplaced: true}, "test bound", verdicts)
	if err != nil {
		t.Fatal(err)
	}
	p.Bounds = []Bound{b}
	return p
}

func TestEfficiency(t *testing.T) {
	// Play once without a bound to learn which decks greedy wins.
	n := 600
	plain := boundPlan(t, strings.Repeat("?", n))
	plain.Bounds = nil
	tn, err := New(context.Background(), plain, 1)
	if err != nil {
		t.Fatal(err)
	}
	var won []int
	for _, r := range collect(t, tn, RunOptions{}) {
		if r.Strategy == "greedy" && r.Corpus == "small" && r.Rules == "4-preplaced" && r.Won {
			won = append(won, r.Deck)
		}
	}
	if len(won) < 2 {
		t.Fatalf("greedy won %d of %d decks; the test needs two", len(won), n)
	}
	// Verdicts: decks ≡ 0 mod 3 winnable, ≡ 1 unknown, ≡ 2 unwinnable,
	// except greedy's wins, which are winnable but for the first, left
	// unknown.
	v := make([]byte, n)
	for i := range v {
		v[i] = "W?L"[i%3]
	}
	for _, d := range won {
		v[d] = 'W'
	}
	v[won[0]] = '?'
	tn, err = New(context.Background(), boundPlan(t, string(v)), 1)
	if err != nil {
		t.Fatal(err)
	}
	if got := len(tn.Cells()); got != 4+2+2 { // greedy: 2 corpora × 2 rules; three and seeded: 1 corpus × 2 rules
		t.Errorf("%d cells, want 8 (strategies entered on one corpus only)", got)
	}
	ta := tn.NewTally()
	if err := tn.Run(context.Background(), ta.Sink(nil), RunOptions{}); err != nil {
		t.Fatal(err)
	}
	rep := ta.Report()
	var wantW, wantU, wantL int
	for _, c := range v {
		switch c {
		case 'W':
			wantW++
		case '?':
			wantU++
		default:
			wantL++
		}
	}
	// One efficiency row per applicable cell of (small, 4-preplaced):
	// greedy and seeded, in the plan's order (three plays 3 stacks only).
	if len(rep.Efficiency) != 2 {
		t.Fatalf("%d efficiency rows: %+v", len(rep.Efficiency), rep.Efficiency)
	}
	g := rep.Efficiency[0]
	want := Efficiency{Strategy: "greedy", Corpus: "small", Rules: "4-preplaced", Bound: "test bound", Games: n,
		Winnable: wantW, Unknown: wantU, Unwinnable: wantL, WinsWinnable: len(won) - 1, WinsUnknown: 1}
	want.Rate = float64(want.WinsWinnable) / float64(wantW)
	want.CILow, want.CIHigh = stats.Wilson(want.WinsWinnable, wantW, stats.Z95)
	if diff := cmp.Diff(want, g); diff != "" {
		t.Errorf("greedy's efficiency (-want +got):\n%s", diff)
	}
	if err := CheckPossible(rep.Efficiency); err != nil {
		t.Errorf("impossible wins reported: %v", err)
	}

	// A bound that calls a deck greedy won unwinnable: the report says so.
	v[won[1]] = 'L'
	tn, err = New(context.Background(), boundPlan(t, string(v)), 1)
	if err != nil {
		t.Fatal(err)
	}
	ta = tn.NewTally()
	if err := tn.Run(context.Background(), ta.Sink(nil), RunOptions{}); err != nil {
		t.Fatal(err)
	}
	err = CheckPossible(ta.Report().Efficiency)
	if err == nil || !strings.Contains(err.Error(), "greedy won 1 deck(s) of small under 4-preplaced that the bound (test bound) calls unwinnable") {
		t.Errorf("a won deck called unwinnable: %v", err)
	}

	// The manifest keeps the bound and the cells: its skeleton reports the
	// same efficiency from the same records.
	m := tn.Manifest("", Shard{}, false)
	sk, err := m.Skeleton()
	if err != nil {
		t.Fatal(err)
	}
	ta2 := sk.NewTally()
	for _, r := range collect(t, tn, RunOptions{}) {
		if err := ta2.Add(&r); err != nil {
			t.Fatal(err)
		}
	}
	if diff := cmp.Diff(ta.Report().Efficiency, ta2.Report().Efficiency); diff != "" {
		t.Errorf("efficiency from the manifest's skeleton differs (-run +skeleton):\n%s", diff)
	}
}

func TestBoundPlanErrors(t *testing.T) {
	tests := []struct {
		name string
		edit func(p *Plan)
		want string
	}{
		{"other decks", func(p *Plan) { p.Bounds[0].Checksum = "ab" }, "is for other decks"},
		{"fewer decks", func(p *Plan) {
			c := p.Corpora[0]
			p.Bounds[0], _ = ParseVerdicts(c.Name, c.Checksum, solver.Rules{Stacks: 4, Preplaced: true}, "short", "WW")
		}, "is for other decks"},
		{"no such corpus", func(p *Plan) { p.Bounds[0].Corpus = "nope" }, "names corpus nope"},
		{"twice", func(p *Plan) { p.Bounds = append(p.Bounds, p.Bounds[0]) }, "two bounds for corpus small, rules 4-preplaced"},
		{"strategy on an unknown corpus", func(p *Plan) { p.Entrants[1].Corpora = []string{"nope"} }, `strategy three: no corpus "nope"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := boundPlan(t, "WWL?WWL?WW")
			p.Bounds = slices.Clone(p.Bounds)
			tc.edit(&p)
			_, err := New(context.Background(), p, 0)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want %q", err, tc.want)
			}
		})
	}
}

func TestVerdictsRoundTrip(t *testing.T) {
	for _, v := range []string{"", "W", "L?W", "??????????????????????????????????????????????????????????????????WL"} {
		b, err := ParseVerdicts("c", "x", solver.Rules{Stacks: 4}, "s", v)
		if err != nil {
			t.Fatal(err)
		}
		if got := b.Verdicts(); got != v {
			t.Errorf("%q read back as %q", v, got)
		}
	}
	if _, err := ParseVerdicts("c", "x", solver.Rules{Stacks: 4}, "s", "WX"); err == nil || !strings.Contains(err.Error(), "deck 1") {
		t.Errorf("bad verdict: error %v", err)
	}
}
