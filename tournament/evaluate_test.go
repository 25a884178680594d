package tournament

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/calcsol/calcsol/solver"
	"github.com/calcsol/calcsol/tournament/stats"
)

// serial plays the decks one by one with solver.Play: the reference that
// Evaluate's parallel, chunked, Game-reusing loop must agree with.
func serial(t *testing.T, ds []solver.Deck, r solver.Rules, s solver.Chooser) []DeckResult {
	t.Helper()
	out := make([]DeckResult, len(ds))
	for i := range ds {
		res, err := solver.Play(context.Background(), &ds[i], r, &solver.ChooserSession{C: s}, false)
		if err != nil {
			t.Fatal(err)
		}
		out[i] = DeckResult{Deck: i, Won: res.Won, Placed: res.Placed, Failed: res.Failed, Reason: res.Reason}
	}
	return out
}

func TestEvaluateWorkersAgree(t *testing.T) {
	ds := testDecks(1500, 1)
	for _, r := range []solver.Rules{
		{Stacks: 3},
		{Stacks: 4, Preplaced: true},
		{Stacks: 1},
	} {
		t.Run(r.String(), func(t *testing.T) {
			want := serial(t, ds, r, greedy{})
			for _, w := range []int{1, 2, 7, 0, 5000} {
				sum, got, err := Evaluate(context.Background(), ds, r, newGreedy(), Options{Workers: w})
				if err != nil {
					t.Fatalf("workers %d: %v", w, err)
				}
				if diff := cmp.Diff(want, got); diff != "" {
					t.Fatalf("workers %d: results differ from serial play (-want +got):\n%s", w, diff)
				}
				if want := Summarize(want, sum.Elapsed); sum != want {
					t.Errorf("workers %d: summary %+v, want %+v", w, sum, want)
				}
			}
		})
	}
}

func TestEvaluateEmpty(t *testing.T) {
	sum, res, err := Evaluate(context.Background(), nil, solver.DefaultRules(), newGreedy(), Options{Workers: 4})
	if err != nil {
		t.Fatal(err)
	}
	if len(res) != 0 || sum.Games != 0 || sum.Lo != 0 || sum.Hi != 1 {
		t.Errorf("empty corpus: %+v, %d results", sum, len(res))
	}
}

// panicky panics whenever the first card drawn is a king (so which decks
// fail is known in advance), and once it has panicked it panics on every
// later call: Evaluate must replace it with a fresh one.
type panicky struct{ broken bool }

func (s *panicky) Choose(p solver.View) (solver.Move, error) {
	if s.broken || (p.StockLen() == solver.DeckSize-1 && p.Drawn() == 13) {
		s.broken = true
		panic("king first")
	}
	return greedy{}.Choose(p)
}

// failing returns an error on every deck whose first card is a queen, and
// resigns on every deck whose first card is a jack.
type failing struct{}

var errBoom = errors.New("boom")

func (failing) Choose(p solver.View) (solver.Move, error) {
	if p.StockLen() == solver.DeckSize-1 {
		switch p.Drawn() {
		case 12:
			return solver.Move{}, errBoom
		case 11:
			return solver.Move{}, solver.ErrResign
		}
	}
	return greedy{}.Choose(p)
}

func TestEvaluateContainsFailures(t *testing.T) {
	ds := testDecks(600, 2)
	r := solver.DefaultRules()
	base := serial(t, ds, r, greedy{})
	tests := []struct {
		name    string
		factory solver.Strategy
		// want turns the greedy result of a deck into the expected one.
		want func(d *solver.Deck, res DeckResult) DeckResult
	}{
		{
			name:    "panic",
			factory: fromChooser(func() solver.Chooser { return &panicky{} }),
			want: func(d *solver.Deck, res DeckResult) DeckResult {
				if d[0] == 13 {
					return DeckResult{Deck: res.Deck, Failed: true, Reason: "strategy panicked: king first"}
				}
				return res
			},
		},
		{
			name:    "error and resignation",
			factory: fromChooser(func() solver.Chooser { return failing{} }),
			want: func(d *solver.Deck, res DeckResult) DeckResult {
				switch d[0] {
				case 12:
					return DeckResult{Deck: res.Deck, Failed: true, Reason: "boom"}
				case 11:
					return DeckResult{Deck: res.Deck, Reason: "resigned"}
				}
				return res
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			want := make([]DeckResult, len(base))
			failures := 0
			for i := range base {
				want[i] = tc.want(&ds[i], base[i])
				if want[i].Failed {
					failures++
				}
			}
			if failures == 0 {
				t.Fatal("test corpus has no deck that triggers the failure")
			}
			for _, w := range []int{1, 3} {
				sum, got, err := Evaluate(context.Background(), ds, r, tc.factory, Options{Workers: w})
				if err != nil {
					t.Fatalf("workers %d: %v", w, err)
				}
				if diff := cmp.Diff(want, got); diff != "" {
					t.Fatalf("workers %d: (-want +got):\n%s", w, diff)
				}
				if sum.Failures != failures {
					t.Errorf("workers %d: %d failures, want %d", w, sum.Failures, failures)
				}
			}
		})
	}
}

func TestEvaluateErrors(t *testing.T) {
	ds := testDecks(10, 3)
	bad := testDecks(3, 4)
	for i := range 5 {
		bad[2][i] = 13 // five kings
	}
	tests := []struct {
		name    string
		decks   []solver.Deck
		rules   solver.Rules
		factory solver.Strategy
		want    string
	}{
		{"bad rules", ds, solver.Rules{Stacks: 0}, newGreedy(), "0 stacks"},
		{"no strategy", ds, solver.DefaultRules(), nil, "no strategy"},
		{"nil session", ds, solver.DefaultRules(), startWith(func() (solver.Session, error) { return nil, nil }), "no session"},
		{"start panics", ds, solver.DefaultRules(), startWith(func() (solver.Session, error) { panic("no") }), "panicked: no"},
		{"start fails", ds, solver.DefaultRules(), startWith(func() (solver.Session, error) { return nil, solver.ErrNotApplicable }), "not applicable"},
		{"bad deck", bad, solver.DefaultRules(), newGreedy(), "deck 2:"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, res, err := Evaluate(context.Background(), tc.decks, tc.rules, tc.factory, Options{Workers: 2})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one containing %q", err, tc.want)
			}
			if res != nil {
				t.Errorf("results returned with an error")
			}
		})
	}
}

// cancelling cancels the run after a number of moves, and counts the moves
// made after cancel returned (late): a run's own context is done by then,
// so only the games in play may go on. Moves made between the count
// reaching after and cancel returning are not late: on a loaded machine the
// cancelling goroutine can be descheduled there while the other plays on.
type cancelling struct {
	calls, late *atomic.Int64
	cancelled   *atomic.Bool
	after       int64
	cancel      context.CancelFunc
}

func (s cancelling) Choose(p solver.View) (solver.Move, error) {
	if s.cancelled.Load() {
		s.late.Add(1)
	}
	if s.calls.Add(1) == s.after {
		s.cancel()
		s.cancelled.Store(true)
	}
	return greedy{}.Choose(p)
}

func TestEvaluateCancel(t *testing.T) {
	ds := testDecks(2000, 5)
	t.Run("before", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if _, _, err := Evaluate(ctx, ds, solver.DefaultRules(), newGreedy(), Options{Workers: 2}); !errors.Is(err, context.Canceled) {
			t.Fatalf("error %v, want context.Canceled", err)
		}
	})
	t.Run("during", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		var calls, late atomic.Int64
		var cancelled atomic.Bool
		factory := fromChooser(func() solver.Chooser { return cancelling{&calls, &late, &cancelled, 500, cancel} })
		_, res, err := Evaluate(ctx, ds, solver.DefaultRules(), factory, Options{Workers: 2})
		if !errors.Is(err, context.Canceled) || res != nil {
			t.Fatalf("error %v, %d results; want context.Canceled and none", err, len(res))
		}
		// Each worker finishes at most the game it is playing (a game is
		// at most 2×52 moves: every card drawn, then played) and starts
		// no other.
		if !cancelled.Load() {
			t.Fatalf("the run ended after %d moves, before move 500", calls.Load())
		}
		if n := late.Load(); n > 2*2*solver.DeckSize {
			t.Errorf("%d moves after cancelling at move 500", n)
		}
	})
}

func TestSummarize(t *testing.T) {
	res := []DeckResult{
		{Deck: 0, Won: true, Placed: 52},
		{Deck: 1, Placed: 40},
		{Deck: 2, Placed: 7, Failed: true, Reason: "x"},
		{Deck: 3, Won: true, Placed: 52},
	}
	got := Summarize(res, 2e9)
	lo, hi := stats.Wilson(2, 4, stats.Z95)
	want := Summary{Games: 4, Wins: 2, Failures: 1, Rate: 0.5, Lo: lo, Hi: hi,
		MeanPlaced: 151.0 / 4, Elapsed: 2e9, GamesPerSec: 2}
	if got != want {
		t.Errorf("got %+v\nwant %+v", got, want)
	}
}

func TestChunkSize(t *testing.T) {
	tests := []struct{ n, workers, want int }{
		{30000, 2, 256},
		{1000, 2, 31},
		{10, 8, 1},
		{0, 1, 1},
	}
	for _, tc := range tests {
		if got := chunkSize(tc.n, tc.workers); got != tc.want {
			t.Errorf("chunkSize(%d, %d) = %d, want %d", tc.n, tc.workers, got, tc.want)
		}
	}
}
