package tournament

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/calcsol/calcsol/internal/longtest"
	"github.com/calcsol/calcsol/solver"
)

// threeOnly is a strategy that can play 3 stacks only.
func threeOnly() solver.Strategy {
	return solver.FromChooser(solver.Info{Name: "three"}, func(r solver.Rules) (solver.Chooser, error) {
		if r.Stacks != 3 {
			return nil, fmt.Errorf("3 stacks only: %w", solver.ErrNotApplicable)
		}
		return greedy{}, nil
	})
}

// seeded is a stochastic strategy: greedy, but it resigns at once on games
// whose seed is odd, so its results show which seed each game got.
type seeded struct{}

func (seeded) Info() solver.Info { return solver.Info{Name: "seeded", Stochastic: true} }
func (seeded) Start(context.Context, solver.Rules) (solver.Session, error) {
	return seededSession{}, nil
}

type seededSession struct{}

func (seededSession) Decide(_ context.Context, reqs []solver.Request, out []solver.Decision) error {
	for i, rq := range reqs {
		if rq.Seed%2 == 1 {
			out[i] = solver.Decision{Move: solver.Move{Kind: solver.Resign}, Reason: "odd seed"}
			continue
		}
		m, _ := greedy{}.Choose(rq.Position)
		out[i] = solver.Decision{Move: m}
	}
	return nil
}
func (seededSession) End(context.Context, []solver.GameID) error { return nil }
func (seededSession) Close() error                               { return nil }

func testPlan(t *testing.T, n int) Plan {
	t.Helper()
	c, err := NewCorpus("small", testDecks(n, 3))
	if err != nil {
		t.Fatal(err)
	}
	return Plan{
		Entrants: []Entrant{{Name: "greedy", Strategy: newGreedy()}, {Name: "three", Strategy: threeOnly()}, {Name: "seeded", Strategy: seeded{}, Batch: 5}},
		Corpora:  []*Corpus{c},
		Variants: []Variant{{Rules: solver.Rules{Stacks: 3}}, {Rules: solver.Rules{Stacks: 4, Preplaced: true}}},
	}
}

// collect runs t and returns its records, timing fields cleared.
func collect(t *testing.T, tn *Tournament, opt RunOptions) []Record {
	t.Helper()
	var out []Record
	err := tn.Run(context.Background(), SinkFunc(func(recs []Record) error {
		for _, r := range recs {
			r.Micros, r.cell = 0, 0
			out = append(out, r)
		}
		return nil
	}), opt)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestRunOrderWorkersShardsResume(t *testing.T) {
	tn, err := New(context.Background(), testPlan(t, 300), 42)
	if err != nil {
		t.Fatal(err)
	}
	// "three" cannot play 4 stacks: that cell is not applicable, not an error.
	var na []string
	for _, c := range tn.Cells() {
		if !c.Applicable {
			na = append(na, c.Entrant.Name+" "+c.Variant.Key())
		}
	}
	if want := []string{"three 4-preplaced"}; !slices.Equal(na, want) {
		t.Errorf("not applicable: %v, want %v", na, want)
	}
	if got, want := tn.Games(Shard{}), 5*300; got != want {
		t.Errorf("Games %d, want %d", got, want)
	}
	whole := collect(t, tn, RunOptions{Workers: 1})
	if len(whole) != 1500 {
		t.Fatalf("%d records, want 1500", len(whole))
	}
	// The order: cells in plan order, decks ascending.
	for i := 1; i < len(whole); i++ {
		a, b := whole[i-1], whole[i]
		if a.Strategy == b.Strategy && a.Rules == b.Rules && b.Deck != a.Deck+1 {
			t.Fatalf("record %d: deck %d after %d", i, b.Deck, a.Deck)
		}
	}
	for _, workers := range []int{2, 7} {
		if diff := cmp.Diff(whole, collect(t, tn, RunOptions{Workers: workers}), recOpt); diff != "" {
			t.Errorf("%d workers (-1 worker +more):\n%s", workers, diff)
		}
	}
	// A resumed run plays only the rest.
	for _, skip := range []int{0, 1, 299, 300, 777, 1500} {
		rest := collect(t, tn, RunOptions{Workers: 3, Skip: skip})
		if len(rest) == 0 && skip == len(whole) {
			continue
		}
		if diff := cmp.Diff(whole[skip:], rest, recOpt); diff != "" {
			t.Errorf("skip %d (-want +got):\n%s", skip, diff)
		}
	}
	// Three shards hold every game once.
	var union []Record
	for k := 1; k <= 3; k++ {
		part := collect(t, tn, RunOptions{Workers: 2, Shard: Shard{k, 3}})
		for _, r := range part {
			if r.Deck%3 != k-1 {
				t.Fatalf("shard %d/3 played deck %d", k, r.Deck)
			}
		}
		union = append(union, part...)
	}
	if diff := cmp.Diff(sortRecords(whole), sortRecords(union), recOpt); diff != "" {
		t.Errorf("shards (-whole +union):\n%s", diff)
	}
	// The stochastic strategy got the seeds GameSeed derives.
	for _, r := range whole {
		if r.Strategy != "seeded" {
			continue
		}
		odd := GameSeed(42, "seeded", tn.Plan().Corpora[0].Checksum, r.Deck)%2 == 1
		if odd != (r.End == "resigned: odd seed") {
			t.Fatalf("deck %d: end %q with seed odd=%t", r.Deck, r.End, odd)
		}
	}
}

// recOpt compares records with their unexported cell index.
var recOpt = cmp.AllowUnexported(Record{})

func sortRecords(rs []Record) []Record {
	rs = slices.Clone(rs)
	slices.SortFunc(rs, func(a, b Record) int {
		return strings.Compare(fmt.Sprint(a.Strategy, a.Corpus, a.Rules, fmt.Sprintf("%08d", a.Deck)), fmt.Sprint(b.Strategy, b.Corpus, b.Rules, fmt.Sprintf("%08d", b.Deck)))
	})
	return rs
}

func TestRunCancelWritesPrefix(t *testing.T) {
	tn, err := New(context.Background(), testPlan(t, 2000), 1)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	var got []Record
	err = tn.Run(ctx, SinkFunc(func(recs []Record) error {
		got = append(got, recs...)
		if len(got) > 3000 {
			cancel()
		}
		return nil
	}), RunOptions{Workers: 2})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v, want context.Canceled", err)
	}
	whole := collect(t, tn, RunOptions{Workers: 2})
	for i := range got {
		got[i].Micros, got[i].cell = 0, 0
	}
	if len(got) >= len(whole) || !cmp.Equal(whole[:len(got)], got, recOpt) {
		t.Errorf("a cancelled run wrote %d records, not a prefix of the %d", len(got), len(whole))
	}
}

// A run told to stop (RunOptions.Stop) hands out no more chunks, finishes
// and writes the chunks in play, calls Stopping once and returns
// ErrStopped: its records are a prefix of the whole run's, and a run that
// resumes after them ends with the whole run's records. Stopped before it
// began, it still plays its first chunk; stopped after its last record, it
// ends normally. (TestRunStopFinishesChunksInPlay holds a chunk in play.)
func TestRunStop(t *testing.T) {
	// 400 decks (2,400 games; chunkSize cuts a cell in 16 a worker), 2,000
	// in the long run (package longtest).
	tn, err := New(context.Background(), testPlan(t, longtest.Size(400, 400, 2000)), 1)
	if err != nil {
		t.Fatal(err)
	}
	whole := collect(t, tn, RunOptions{Workers: 2})
	clean := func(recs []Record) []Record {
		for i := range recs {
			recs[i].Micros, recs[i].cell = 0, 0
		}
		return recs
	}
	for _, tc := range []struct {
		name    string
		after   int // close Stop once this many records are written; -1: before the run
		workers int
		wantErr error
	}{
		{"before the run", -1, 2, ErrStopped},
		{"after the first chunk, 1 worker", 1, 1, ErrStopped},
		{"after the first chunk, 2 workers", 1, 2, ErrStopped},
		{"half way, 3 workers", len(whole) / 2, 3, ErrStopped},
		{"after the last record", len(whole), 2, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			stop := make(chan struct{})
			if tc.after < 0 {
				close(stop)
			}
			var got []Record
			var writes, afterStop, stopping int
			closed := tc.after < 0
			err := tn.Run(context.Background(), SinkFunc(func(recs []Record) error {
				got = append(got, recs...)
				writes++
				if closed {
					afterStop++
				}
				if !closed && len(got) >= tc.after {
					close(stop)
					closed = true
				}
				return nil
			}), RunOptions{Workers: tc.workers, Stop: stop, Stopping: func() { stopping++ }})
			if !errors.Is(err, tc.wantErr) || (tc.wantErr == nil && err != nil) {
				t.Fatalf("error %v, want %v", err, tc.wantErr)
			}
			if want := map[bool]int{true: 1, false: 0}[tc.wantErr != nil]; stopping != want {
				t.Errorf("Stopping called %d times, want %d", stopping, want)
			}
			got = clean(got)
			if len(got) > 0 && !cmp.Equal(whole[:len(got)], got, recOpt) {
				t.Fatalf("a stopped run wrote %d records, not a prefix of the %d", len(got), len(whole))
			}
			switch {
			case tc.after < 0 && (writes != 1 || len(got) == 0 || len(got) > maxChunk):
				t.Errorf("stopped before the run, it wrote %d records in %d chunks, want its first chunk", len(got), writes)
			case tc.wantErr != nil && len(got) == len(whole):
				t.Errorf("stopped after %d records, it played all %d", tc.after, len(whole))
			case tc.wantErr == nil && len(got) != len(whole):
				t.Errorf("stopped after its last chunk, it wrote %d of %d", len(got), len(whole))
			}
			// The chunks handed out when Stop closed are finished and
			// written: those in play and those done but waiting for an
			// earlier one, no more than Run keeps in flight (4 a worker).
			if tc.wantErr != nil && tc.after > 0 && afterStop > 4*tc.workers {
				t.Errorf("%d chunks written after the stop with %d workers", afterStop, tc.workers)
			}
			rest := collect(t, tn, RunOptions{Workers: 2, Skip: len(got)})
			if !cmp.Equal(whole, append(got, rest...), recOpt) {
				t.Errorf("resumed after %d records, the run does not end with the whole run's records", len(got))
			}
		})
	}
}

// gated plays as greedy does, but its first decision in game gate closes
// started and waits for release: the gate's chunk is held in play.
type gated struct {
	gate             solver.GameID
	started, release chan struct{}
	once             sync.Once
}

func (g *gated) Info() solver.Info { return solver.Info{Name: "gated"} }
func (g *gated) Start(context.Context, solver.Rules) (solver.Session, error) {
	return gatedSession{g}, nil
}

type gatedSession struct{ g *gated }

func (s gatedSession) Decide(_ context.Context, reqs []solver.Request, out []solver.Decision) error {
	for i, rq := range reqs {
		if rq.Game == s.g.gate {
			s.g.once.Do(func() {
				close(s.g.started)
				<-s.g.release
			})
		}
		m, _ := greedy{}.Choose(rq.Position)
		out[i] = solver.Decision{Move: m}
	}
	return nil
}
func (gatedSession) End(context.Context, []solver.GameID) error { return nil }
func (gatedSession) Close() error                               { return nil }

// Stop closed while a chunk is in play: that chunk and every earlier one are
// written. Held in the last chunk, every chunk has been handed out, and the
// run ends normally with all its records.
func TestRunStopFinishesChunksInPlay(t *testing.T) {
	c, err := NewCorpus("small", testDecks(2000, 3))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name    string
		gate    int
		workers int
		wantErr error
	}{
		{"deck 700, 1 worker", 700, 1, ErrStopped},
		{"deck 700, 2 workers", 700, 2, ErrStopped},
		{"the last deck", 1999, 2, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := &gated{gate: solver.GameID(tc.gate), started: make(chan struct{}), release: make(chan struct{})}
			tn, err := New(context.Background(), Plan{
				Entrants: []Entrant{{Name: "gated", Strategy: g}},
				Corpora:  []*Corpus{c},
				Variants: []Variant{{Rules: solver.Rules{Stacks: 3}}},
			}, 1)
			if err != nil {
				t.Fatal(err)
			}
			stop := make(chan struct{})
			go func() {
				<-g.started
				close(stop)
				close(g.release)
			}()
			var got []int
			err = tn.Run(context.Background(), SinkFunc(func(recs []Record) error {
				for _, r := range recs {
					got = append(got, r.Deck)
				}
				return nil
			}), RunOptions{Workers: tc.workers, Stop: stop})
			if !errors.Is(err, tc.wantErr) || (tc.wantErr == nil && err != nil) {
				t.Fatalf("error %v, want %v", err, tc.wantErr)
			}
			for i, d := range got {
				if d != i {
					t.Fatalf("record %d is deck %d: not a prefix of the run", i, d)
				}
			}
			if len(got) <= tc.gate {
				t.Errorf("%d records: the chunk of deck %d, in play when the run was stopped, is not written", len(got), tc.gate)
			}
			if tc.wantErr != nil && len(got) == 2000 {
				t.Errorf("stopped at deck %d, the run played all 2000", tc.gate)
			}
		})
	}
}

func TestNewRefusesBadPlans(t *testing.T) {
	ok := testPlan(t, 10)
	failing := solver.FromChooser(solver.Info{Name: "broken"}, func(solver.Rules) (solver.Chooser, error) { return nil, errors.New("no table file") })
	tests := []struct {
		name string
		edit func(p *Plan)
		want string
	}{
		{"no strategy", func(p *Plan) { p.Entrants = nil }, "at least one strategy"},
		{"twice", func(p *Plan) { p.Entrants[1].Name = "greedy" }, `strategy name "greedy" empty or given twice`},
		{"rules twice", func(p *Plan) { p.Variants[1] = p.Variants[0] }, "rules 3-base given twice"},
		{"start fails", func(p *Plan) { p.Entrants[0].Strategy = failing }, "strategy greedy, rules 3-base: evaluate: starting broken: no table file"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := ok
			p.Entrants = slices.Clone(ok.Entrants)
			p.Variants = slices.Clone(ok.Variants)
			tc.edit(&p)
			_, err := New(context.Background(), p, 0)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want %q", err, tc.want)
			}
		})
	}
}

func TestReportPairsAndHolm(t *testing.T) {
	tn, err := New(context.Background(), testPlan(t, 400), 42)
	if err != nil {
		t.Fatal(err)
	}
	ta := tn.NewTally()
	if err := tn.Run(context.Background(), ta.Sink(nil), RunOptions{}); err != nil {
		t.Fatal(err)
	}
	rep := ta.Report()
	if len(rep.Rows) != 6 {
		t.Fatalf("%d rows", len(rep.Rows))
	}
	// 3 pairs under 3-base, 1 under 4-preplaced (three cannot play it),
	// each once.
	if len(rep.Pairs) != 4 || rep.Pairs[3].Rules != "4-preplaced" {
		t.Fatalf("%d pairs: %+v", len(rep.Pairs), rep.Pairs)
	}
	for _, p := range rep.Pairs {
		if p.Both+p.OnlyA+p.OnlyB+p.Neither != p.Games || p.Games != 400 {
			t.Errorf("pair %+v does not add up", p)
		}
		if p.PHolm < p.P {
			t.Errorf("Holm lowered a p-value: %+v", p)
		}
	}
	// greedy and three are the same player: no discordant deck.
	if p := rep.Pairs[0]; p.A != "greedy" || p.B != "three" || p.OnlyA+p.OnlyB != 0 || p.P != 1 || p.Winner != "" {
		t.Errorf("greedy vs three: %+v", p)
	}
}

func TestVariantKeyRoundTrip(t *testing.T) {
	for _, key := range []string{"3-base", "8-preplaced", "1-base/move=1ms", "4-base/move=1ms,game=100ms"} {
		v, err := ParseVariant(key)
		if err != nil || v.Key() != key {
			t.Errorf("%s: %v, %q", key, err, v.Key())
		}
	}
	for _, bad := range []string{"", "3", "9-base", "3-x", "3-base/move=-1s", "3-base/turn=1s"} {
		if _, err := ParseVariant(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

// slow takes 3 ms per decision.
type slow struct{ greedy }

func (s slow) Choose(p solver.View) (solver.Move, error) {
	time.Sleep(3 * time.Millisecond)
	return s.greedy.Choose(p)
}

// A rule variant's time budget applies to every strategy: a strategy over
// it fails its games (recorded, counted as failures), one within it plays on.
func TestRunBudget(t *testing.T) {
	c, err := NewCorpus("tiny", testDecks(4, 9))
	if err != nil {
		t.Fatal(err)
	}
	tn, err := New(context.Background(), Plan{
		Entrants: []Entrant{{Name: "slow", Strategy: fromChooser(func() solver.Chooser { return slow{} })}, {Name: "greedy", Strategy: newGreedy()}},
		Corpora:  []*Corpus{c},
		Variants: []Variant{{Rules: solver.Rules{Stacks: 3}, Budget: solver.Budget{Move: time.Millisecond}}},
	}, 0)
	if err != nil {
		t.Fatal(err)
	}
	played := 0
	for _, r := range collect(t, tn, RunOptions{Workers: 2}) {
		over := strings.HasPrefix(r.End, "over the time budget: a move took")
		if r.Strategy == "slow" && (!r.Failed || !over) {
			t.Errorf("slow, deck %d: %+v; want failed over the budget", r.Deck, r)
		}
		if r.Rules != "3-base/move=1ms" {
			t.Errorf("rules %q", r.Rules)
		}
		// A stalled machine may push even a greedy decision over 1 ms:
		// one game played out is enough.
		if r.Strategy == "greedy" && !r.Failed {
			played++
		}
	}
	if played == 0 {
		t.Error("greedy failed every game")
	}
}
