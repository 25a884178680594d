// Package tournament scores strategies: it plays a corpus of decks with a
// strategy, in parallel, and summarises the outcome with the statistics a
// comparison needs (a Wilson interval for one success rate, McNemar's test for
// two strategies played on the same decks).
//
// It depends only on solver and the standard library (plus gonum for
// distributions); rendering tables and reading flags belong to cmd/calcsol
// (docs/eval.md).
package tournament

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/calcsol/calcsol/solver"
)

// DeckResult is the outcome of one game.
type DeckResult struct {
	Deck   int  // 0-based index of the deck in the corpus
	Won    bool // all 52 cards on the tables
	Placed int  // cards on the tables at the end (0..52)
	// Failed is set when the strategy failed rather than played the game out:
	// it returned an error other than solver.ErrResign, made an illegal move,
	// or panicked. A failed game is a lost game in every count.
	Failed bool
	Reason string // how the game ended ("won", "resigned: …", "stuck: …", a failure)
}

// Summary is what a run of Evaluate amounts to.
type Summary struct {
	Games    int // decks played
	Wins     int
	Failures int // games the strategy failed (counted as losses)
	// Rate is Wins/Games; Lo and Hi bound it with the Wilson score interval at
	// 95 % (Z95).
	Rate, Lo, Hi float64
	MeanPlaced   float64 // mean cards on the tables at the end
	Elapsed      time.Duration
	GamesPerSec  float64
}

// maxChunk is the most decks a worker takes at a time. Workers take decks in
// chunks through one atomic counter, so contention stays negligible; smaller
// corpora get smaller chunks (see chunkSize) so that every worker gets work.
const maxChunk = 256

// chunkSize gives each worker about 16 chunks, at least 1 deck and at most
// maxChunk decks each: slow strategies on small corpora still spread evenly.
func chunkSize(n, workers int) int {
	return min(max(n/(workers*16), 1), maxChunk)
}

// Evaluate plays every deck under rules r with strategies made by factory,
// on workers goroutines (workers <= 0 means runtime.GOMAXPROCS(0)), and
// returns the summary and the per-deck results in deck order. The results do
// not depend on the number of workers, provided the strategy is deterministic.
//
// Each worker makes its own strategy and reuses one solver.Game for all its
// games, so the only allocations are per worker, not per game. A strategy that
// panics fails that deck only (Failed, with the panic in Reason); the worker
// then takes a fresh strategy from the factory and goes on. Cancelling ctx
// stops the run: Evaluate then returns ctx's error and no results.
func Evaluate(ctx context.Context, decks []solver.Deck, r solver.Rules, factory func() solver.Strategy, workers int) (Summary, []DeckResult, error) {
	if err := r.Validate(); err != nil {
		return Summary{}, nil, fmt.Errorf("evaluate: %w", err)
	}
	if factory == nil {
		return Summary{}, nil, errors.New("evaluate: no strategy factory")
	}
	for i := range decks {
		if err := decks[i].Validate(); err != nil {
			return Summary{}, nil, fmt.Errorf("evaluate: deck %d: %w", i, err)
		}
	}
	n := len(decks)
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	chunk := chunkSize(n, workers)
	workers = max(min(workers, (n+chunk-1)/chunk), 1)

	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	results := make([]DeckResult, n)
	var next atomic.Int64
	var wg sync.WaitGroup
	start := time.Now()
	for range workers {
		wg.Go(func() {
			w := worker{decks: decks, rules: r, factory: factory, results: results}
			if err := w.run(ctx, &next, chunk); err != nil {
				cancel(err)
			}
		})
	}
	wg.Wait()
	elapsed := time.Since(start)
	if ctx.Err() != nil {
		return Summary{}, nil, context.Cause(ctx)
	}
	return Summarize(results, elapsed), results, nil
}

// worker plays the chunks it takes until none is left.
type worker struct {
	decks   []solver.Deck
	rules   solver.Rules
	factory func() solver.Strategy
	results []DeckResult
	game    solver.Game
}

func (w *worker) run(ctx context.Context, next *atomic.Int64, chunk int) error {
	s, err := newStrategy(w.factory)
	if err != nil {
		return err
	}
	done := ctx.Done()
	n := len(w.decks)
	for {
		lo := int(next.Add(int64(chunk))) - chunk
		if lo >= n {
			return nil
		}
		for i := lo; i < min(lo+chunk, n); i++ {
			// A non-blocking receive on an open channel takes no lock, so
			// checking every game costs nothing next to a game, and a slow
			// strategy still stops promptly.
			select {
			case <-done:
				return nil
			default:
			}
			var panicked bool
			w.results[i], panicked = w.play(i, s)
			if panicked {
				// The strategy may be left in any state: start a fresh one.
				if s, err = newStrategy(w.factory); err != nil {
					return err
				}
			}
		}
	}
}

// play plays deck i with s, turning a panic into a failed game.
func (w *worker) play(i int, s solver.Strategy) (res DeckResult, panicked bool) {
	defer func() {
		if v := recover(); v != nil {
			res = DeckResult{Deck: i, Placed: w.game.TotalPlaced(), Failed: true,
				Reason: fmt.Sprintf("strategy panicked: %v", v)}
			panicked = true
		}
	}()
	if err := w.game.Reset(&w.decks[i], w.rules); err != nil {
		// Cannot happen: rules and decks were validated.
		return DeckResult{Deck: i, Failed: true, Reason: err.Error()}, false
	}
	g := w.game.PlayOut(s, false)
	res = DeckResult{Deck: i, Won: g.Won, Placed: g.Placed, Failed: g.Failed, Reason: g.Reason}
	if g.Failed && res.Reason == "" {
		res.Reason = "failed"
	}
	return res, false
}

// newStrategy calls factory, turning a panic or a nil strategy into an error.
func newStrategy(factory func() solver.Strategy) (s solver.Strategy, err error) {
	defer func() {
		if v := recover(); v != nil {
			err = fmt.Errorf("evaluate: strategy factory panicked: %v", v)
		}
	}()
	if s = factory(); s == nil {
		return nil, errors.New("evaluate: strategy factory returned nil")
	}
	return s, nil
}

// Summarize counts results: wins, failures, the success rate with its Wilson
// 95 % interval and the mean number of cards placed; elapsed gives the speed.
func Summarize(results []DeckResult, elapsed time.Duration) Summary {
	s := Summary{Games: len(results), Elapsed: elapsed}
	placed := 0
	for _, r := range results {
		if r.Won {
			s.Wins++
		}
		if r.Failed {
			s.Failures++
		}
		placed += r.Placed
	}
	if s.Games > 0 {
		s.Rate = float64(s.Wins) / float64(s.Games)
		s.MeanPlaced = float64(placed) / float64(s.Games)
	}
	s.Lo, s.Hi = Wilson(s.Wins, s.Games, Z95)
	if elapsed > 0 {
		s.GamesPerSec = float64(s.Games) / elapsed.Seconds()
	}
	return s
}
