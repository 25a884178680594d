package tournament

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/calcsol/calcsol/solver"
)

func TestCheckFailures(t *testing.T) {
	f := func(failed, games int) []FailedGames {
		return []FailedGames{{Strategy: "p", Failed: failed, Games: games, Corpus: "c", Rules: "3-base", Reason: "x"}}
	}
	tests := []struct {
		name     string
		fs       []FailedGames
		maxShare float64
		want     bool
	}{
		{"none failed", f(0, 1000), 0.5, false},
		{"exactly half", f(500, 1000), 0.5, false},
		{"more than half", f(501, 1000), 0.5, true},
		{"all, share 1", f(1000, 1000), 1, true},
		{"all but one, share 1", f(999, 1000), 1, false},
		{"one, share 0", f(1, 1000), 0, true},
		{"no games", f(0, 0), 0, false},
		{"the second of two", append(f(0, 10), FailedGames{Strategy: "q", Failed: 10, Games: 10}), 0.5, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := CheckFailures(tc.fs, tc.maxShare)
			var fe *FailuresError
			if got := errors.As(err, &fe); got != tc.want {
				t.Fatalf("CheckFailures = %v, want an error: %t", err, tc.want)
			}
			if fe != nil && (len(fe.Strategies) != 1 || fe.Strategies[0] != tc.fs[len(tc.fs)-1]) {
				t.Errorf("names %+v, want only %+v", fe.Strategies, tc.fs[len(tc.fs)-1])
			}
		})
	}
	for _, share := range []float64{-0.1, 1.5} {
		if err := CheckFailures(f(1, 1), share); err == nil || errors.As(err, new(*FailuresError)) {
			t.Errorf("share %v: %v, want a refusal of the share", share, err)
		}
	}
}

// broken is an in-process strategy that errors on every move.
func broken() solver.Strategy {
	return fromChooser(func() solver.Chooser { return brokenChooser{} })
}

type brokenChooser struct{}

func (brokenChooser) Choose(solver.View) (solver.Move, error) {
	return solver.Move{}, errors.New("no table entry\nfor this card")
}

// A strategy that errors on every move fails every game of every cell; the
// tally names its first failure (cell, deck, reason) whatever order the
// records came in, and the check names it alone.
func TestTallyFailedGames(t *testing.T) {
	p := testPlan(t, 40)
	p.Entrants = []Entrant{{Name: "greedy", Strategy: newGreedy()}, {Name: "broken", Strategy: broken()}}
	tn, err := New(context.Background(), p, 0)
	if err != nil {
		t.Fatal(err)
	}
	recs := collect(t, tn, RunOptions{Workers: 2})
	want := []FailedGames{
		{Strategy: "greedy", Games: 80},
		{Strategy: "broken", Failed: 80, Games: 80, Corpus: "small", Rules: "3-base", Deck: 0, Reason: "no table entry\nfor this card"},
	}
	for _, order := range []string{"run", "reversed"} {
		if order == "reversed" {
			slices.Reverse(recs)
		}
		ta := tn.NewTally()
		for i := range recs {
			r := recs[i]
			r.cell = -1 // found by its names, as records read back are
			if err := ta.Add(&r); err != nil {
				t.Fatal(err)
			}
		}
		if diff := cmp.Diff(want, ta.FailedGames()); diff != "" {
			t.Errorf("%s order: FailedGames (-want +got):\n%s", order, diff)
		}
	}
	err = CheckFailures(want, DefaultMaxFailedShare)
	const msg = "strategy broken failed 80 of 80 games (100 %, more than the 50 % allowed); " +
		"the first, deck 0 of small under 3-base: no table entry for this card"
	if err == nil || err.Error() != msg {
		t.Errorf("CheckFailures: %v\nwant %s", err, msg)
	}
}

// An eval's variant and a match's sides count their failures, the first
// in the order of play.
func TestVariantAndMatchFailedGames(t *testing.T) {
	v := VariantResult{Rules: solver.Rules{Stacks: 4, Preplaced: true}, Label: "p", Results: []DeckResult{
		{Deck: 0, Won: true}, {Deck: 1, Failed: true, Reason: "first"}, {Deck: 2, Failed: true, Reason: "second"}}}
	want := FailedGames{Strategy: "p", Failed: 2, Games: 3, Corpus: "c", Rules: "4-preplaced", Deck: 1, Reason: "first"}
	if got := v.FailedGames("c"); got != want {
		t.Errorf("variant: %+v, want %+v", got, want)
	}
	m := MatchResult{Corpus: "c", Rules: solver.Rules{Stacks: 3}, Decks: 10,
		A: MatchSide{Name: "a"}, B: MatchSide{Name: "b", Failures: 10, FirstFailure: DeckResult{Deck: 7, Failed: true, Reason: "why"}}}
	wantM := []FailedGames{{Strategy: "a", Games: 10, Corpus: "c", Rules: "3-base"},
		{Strategy: "b", Failed: 10, Games: 10, Corpus: "c", Rules: "3-base", Deck: 7, Reason: "why"}}
	if diff := cmp.Diff(wantM, m.FailedGames()); diff != "" {
		t.Errorf("match (-want +got):\n%s", diff)
	}
}
