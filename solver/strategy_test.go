package solver

import (
	"context"
	"errors"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestAppendLegalMoves checks, along random games, that the legal moves are
// exactly the moves Check accepts among all moves that name the right card.
func TestAppendLegalMoves(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	for _, r := range []Rules{{Stacks: 1}, {Stacks: 3}, {Stacks: 4, Preplaced: true}, {Stacks: 8}} {
		for range 40 {
			var d Deck
			for i := range DeckSize {
				d[i] = Rank(1 + i/4)
			}
			rng.Shuffle(len(d), func(i, j int) { d[i], d[j] = d[j], d[i] })
			g, err := NewGame(&d, r)
			if err != nil {
				t.Fatal(err)
			}
			for !g.Over() {
				legal := g.AppendLegalMoves(nil)
				var want []Move
				for _, m := range allMoves(&g.Position) {
					if g.Check(m) == nil {
						want = append(want, m)
					}
				}
				// cmp.Diff only to show a difference: on every position of
				// 160 games it costs most of the test's time.
				if !slices.Equal(want, legal) {
					t.Fatalf("%s, position\n%s: legal moves (-Check +AppendLegalMoves):\n%s", r, g.String(), cmp.Diff(want, legal))
				}
				if len(legal) > MaxLegalMoves {
					t.Fatalf("%d legal moves, more than MaxLegalMoves", len(legal))
				}
				if err := g.Apply(legal[rng.IntN(len(legal))]); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
}

// allMoves lists every move with the card filled in, in AppendLegalMoves' order.
func allMoves(p *Position) []Move {
	var ms []Move
	if y := p.Drawn(); y != 0 {
		for x := int8(1); x <= Tables; x++ {
			ms = append(ms, Move{Kind: ToTable, Rank: y, Table: x})
		}
		for s := range int8(MaxStacks) {
			for x := int8(0); x <= Tables; x++ {
				ms = append(ms, Move{Kind: ToStack, Rank: y, Stack: s, Table: x})
			}
		}
	}
	for s := range int8(MaxStacks) {
		for x := int8(1); x <= Tables; x++ {
			ms = append(ms, Move{Kind: StackToTable, Rank: p.Top(int(s)).Rank(), Stack: s, Table: x})
		}
	}
	return slices.DeleteFunc(ms, func(m Move) bool { return m.Kind == StackToTable && m.Rank == 0 })
}

// scripted answers each game from a table of behaviours keyed by game.
type scripted struct {
	ended []GameID
}

func (s *scripted) Decide(_ context.Context, reqs []Request, out []Decision) error {
	for i, rq := range reqs {
		m, _ := trivial{}.Choose(rq.Position)
		switch rq.Game {
		case 1:
			out[i] = Decision{Move: Move{Kind: Resign}, Reason: "bored"}
		case 2:
			out[i] = Decision{Failed: true, Reason: "broken"}
		case 3:
			out[i] = Decision{Move: Move{Kind: StackToTable, Stack: 7, Table: 1}}
		case 4:
			time.Sleep(2 * time.Millisecond)
			out[i] = Decision{Move: m}
		default:
			out[i] = Decision{Move: m}
		}
	}
	return nil
}
func (s *scripted) End(_ context.Context, g []GameID) error {
	s.ended = append(s.ended, g...)
	return nil
}
func (s *scripted) Close() error { return nil }

func TestPlayBatch(t *testing.T) {
	d, _ := ParseDeck("A3474AK0JJ77Q580Q626639695324880KJAK2047A85Q25KJ99Q3")
	r := Rules{Stacks: 3}
	single, err := Play(context.Background(), &d, r, &ChooserSession{C: trivial{}}, true)
	if err != nil {
		t.Fatal(err)
	}
	deals := make([]Deal, 6)
	for i := range deals {
		deals[i] = Deal{Deck: &d, Game: GameID(i)}
	}
	s := &scripted{}
	results := make([]Result, len(deals))
	opt := PlayOptions{Record: true}
	if err := PlayBatch(context.Background(), s, r, deals, results, opt); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		game       int
		failed     bool
		reasonHead string
	}{
		{0, false, single.Reason},
		{1, false, "resigned: bored"},
		{2, true, "broken"},
		{3, true, "illegal move L?1: no stack 7"},
		{4, false, single.Reason}, // slow, but no budget
		{5, false, single.Reason},
	}
	for _, tc := range tests {
		got := results[tc.game]
		if got.Failed != tc.failed || len(got.Reason) < len(tc.reasonHead) || got.Reason[:len(tc.reasonHead)] != tc.reasonHead {
			t.Errorf("game %d: failed=%t reason %q; want failed=%t reason starting %q", tc.game, got.Failed, got.Reason, tc.failed, tc.reasonHead)
		}
	}
	if diff := cmp.Diff(FormatTrace(single.Trace, r), FormatTrace(results[5].Trace, r)); diff != "" {
		t.Errorf("a game played in a batch differs from the same game played alone:\n%s", diff)
	}
	slices.Sort(s.ended)
	if want := []GameID{0, 1, 2, 3, 4, 5}; !slices.Equal(s.ended, want) {
		t.Errorf("End was told about %v, want %v", s.ended, want)
	}
}

func TestPlayBatchBudget(t *testing.T) {
	d, _ := ParseDeck("A3474AK0JJ77Q580Q626639695324880KJAK2047A85Q25KJ99Q3")
	results := make([]Result, 1)
	opt := PlayOptions{Budget: Budget{Move: time.Millisecond}}
	if err := PlayBatch(context.Background(), &scripted{}, Rules{Stacks: 3}, []Deal{{Deck: &d, Game: 4}}, results, opt); err != nil {
		t.Fatal(err)
	}
	if want := "over the time budget: a move took"; !results[0].Failed || !strings.HasPrefix(results[0].Reason, want) {
		t.Errorf("got %+v, want a failure starting %q", results[0], want)
	}
	opt = PlayOptions{Budget: Budget{Game: 5 * time.Millisecond}}
	if err := PlayBatch(context.Background(), &scripted{}, Rules{Stacks: 3}, []Deal{{Deck: &d, Game: 4}}, results, opt); err != nil {
		t.Fatal(err)
	}
	if want := "over the time budget: the game took"; !results[0].Failed || !strings.HasPrefix(results[0].Reason, want) {
		t.Errorf("got %+v, want a failure starting %q", results[0], want)
	}
}

func TestPlayBatchCancelled(t *testing.T) {
	d, _ := ParseDeck(sortedRanks)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	err := PlayBatch(ctx, &ChooserSession{C: trivial{}}, Rules{Stacks: 3}, []Deal{{Deck: &d}}, make([]Result, 1), PlayOptions{})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("got %v, want context.Canceled", err)
	}
}

// lockstep hides a ChooserSession's type, so that Play takes the general
// (lockstep) path instead of the direct one.
type lockstep struct{ *ChooserSession }

// shuffledDeals deals n uniformly shuffled decks, games 0..n-1.
func shuffledDeals(n int, seed uint64) []Deal {
	rng := rand.New(rand.NewPCG(seed, seed+1))
	deals := make([]Deal, n)
	for i := range deals {
		var d Deck
		for k := range d {
			d[k] = Rank(1 + k/4)
		}
		rng.Shuffle(len(d), func(a, b int) { d[a], d[b] = d[b], d[a] })
		deals[i] = Deal{Deck: &d, Game: GameID(i)}
	}
	return deals
}

func TestPlayPathsAgree(t *testing.T) {
	deals := shuffledDeals(200, 3)
	for _, r := range []Rules{{Stacks: 3}, {Stacks: 4, Preplaced: true}} {
		direct := make([]Result, len(deals))
		if err := PlayBatch(context.Background(), &ChooserSession{C: trivial{}}, r, deals, direct, PlayOptions{Record: true}); err != nil {
			t.Fatal(err)
		}
		for _, batch := range []int{1, 7, len(deals)} {
			got := make([]Result, len(deals))
			var p Player
			for lo := 0; lo < len(deals); lo += batch {
				hi := min(lo+batch, len(deals))
				if err := p.Play(context.Background(), lockstep{&ChooserSession{C: trivial{}}}, r, deals[lo:hi], got[lo:hi], PlayOptions{Record: true}); err != nil {
					t.Fatal(err)
				}
			}
			// cmp.Diff only to show a difference: on 200 recorded games
			// it costs most of the test's time.
			if !reflect.DeepEqual(direct, got) {
				t.Fatalf("%s, batch %d: lockstep and direct play differ (-direct +lockstep):\n%s", r, batch, cmp.Diff(direct, got))
			}
		}
	}
}

// stepChecker answers like trivial and checks what the Player says of each
// request: Step counts the game's decisions from 1, Last is the answer it
// gave the game's previous decision. It records the largest round.
type stepChecker struct {
	t        *testing.T
	steps    map[GameID]int
	answered map[GameID]Move
	widest   int
}

func (s *stepChecker) Decide(_ context.Context, reqs []Request, out []Decision) error {
	s.widest = max(s.widest, len(reqs))
	for i, rq := range reqs {
		if want := s.steps[rq.Game] + 1; rq.Step != want {
			s.t.Errorf("game %d: step %d, want %d", rq.Game, rq.Step, want)
		}
		if rq.Last != s.answered[rq.Game] {
			s.t.Errorf("game %d, step %d: last move %v, want %v", rq.Game, rq.Step, rq.Last, s.answered[rq.Game])
		}
		m, _ := trivial{}.Choose(rq.Position)
		if rq.Step%2 == 0 {
			m.Rank = 0 // the card is implied: Last must repeat the answer as it was
		}
		out[i] = Decision{Move: m}
		s.steps[rq.Game], s.answered[rq.Game] = rq.Step, m
	}
	return nil
}

func (s *stepChecker) End(_ context.Context, games []GameID) error {
	for _, g := range games {
		delete(s.steps, g)
		delete(s.answered, g)
	}
	return nil
}

func (s *stepChecker) Close() error { return nil }

// TestPlayWindow plays the same deals at once and with windows of several
// sizes: the results are the same, no round asks for more decisions than the
// window, and every request's Step and Last are right.
func TestPlayWindow(t *testing.T) {
	deals := shuffledDeals(50, 5)
	r := Rules{Stacks: 3}
	want := make([]Result, len(deals))
	if err := PlayBatch(context.Background(), &ChooserSession{C: trivial{}}, r, deals, want, PlayOptions{}); err != nil {
		t.Fatal(err)
	}
	for _, window := range []int{1, 3, 20} {
		s := &stepChecker{t: t, steps: map[GameID]int{}, answered: map[GameID]Move{}}
		got := make([]Result, len(deals))
		var p Player
		if err := p.Play(context.Background(), s, r, deals, got, PlayOptions{Window: window}); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("window %d: results differ from all at once (-want +got):\n%s", window, diff)
		}
		if s.widest != window {
			t.Errorf("window %d: the widest round asked for %d decisions", window, s.widest)
		}
	}
}

func TestPlayerReusedAcrossPaths(t *testing.T) {
	d, _ := ParseDeck(sortedRanks)
	deals := []Deal{{Deck: &d}, {Deck: &d, Game: 1}}
	res := make([]Result, 2)
	var p Player
	for _, sess := range []Session{&ChooserSession{C: trivial{}}, lockstep{&ChooserSession{C: trivial{}}}, &ChooserSession{C: trivial{}}} {
		for _, n := range []int{1, 2} {
			if err := p.Play(context.Background(), sess, Rules{Stacks: 3}, deals[:n], res[:n], PlayOptions{}); err != nil {
				t.Fatal(err)
			}
		}
	}
}
