// Package tournament plays strategies against each other: a plan (entrants
// × corpora by checksum × rule variants) runs in parallel and streams one
// versioned record per game, in a fixed order, to a sink (results.jsonl), so
// that runs can be resumed, sharded, merged and compared safely; a tally
// turns records into a report (Wilson intervals, paired differences, exact
// McNemar tests with Holm's correction, all from tournament/stats); baselines record the decks each
// strategy won and Regress checks a later build against them. Evaluate plays
// one strategy on decks in memory.
//
// It depends on solver, the deck packages (in corpus.go only),
// tournament/stats and the standard library; rendering belongs to
// tournament/report and flags to cmd/calcsol (docs/tournament.md).
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
	"github.com/calcsol/calcsol/tournament/stats"
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
	// 95 % (stats.Z95).
	Rate, Lo, Hi float64
	MeanPlaced   float64 // mean cards on the tables at the end
	Elapsed      time.Duration
	GamesPerSec  float64
}

// Options say how Evaluate plays.
type Options struct {
	// Workers is the number of goroutines, each with its own session;
	// <= 0 means runtime.GOMAXPROCS(0).
	Workers int
	// Batch is the number of games a worker advances in lockstep, whose
	// decisions reach the session in one Decide call; <= 0 means 1. A
	// strategy in another process wants large batches; one in process
	// gains nothing from them.
	Batch int
	// Budget limits the time per move and per game (zero: no limit).
	Budget solver.Budget
	// Seed is the seed of game i (its deck index); nil gives every game
	// seed 0. Stochastic strategies draw from it.
	Seed func(deck int) uint64
	// Game is the id the strategy sees for game i; nil gives i. A blind
	// match gives opaque ids (Blind.GameIDs).
	Game func(deck int) solver.GameID
}

// Evaluate plays every deck under rules r with strategy s and returns the
// summary and the per-deck results in deck order. The results do not depend
// on the number of workers or the batch size, provided the strategy is
// deterministic or draws only from the games' seeds.
//
// Each worker opens its own session (closed on every path) and reuses one
// solver.Player, so the only allocations are per worker, not per game. A
// session that panics fails the games of that batch only (Failed, with the
// panic in Reason); the worker then opens a fresh session and goes on.
// Cancelling ctx stops the run: Evaluate then returns ctx's error and no
// results. A strategy that cannot play r returns an error wrapping
// solver.ErrNotApplicable.
func Evaluate(ctx context.Context, decks []solver.Deck, r solver.Rules, s solver.Strategy, opt Options) (Summary, []DeckResult, error) {
	if err := r.Validate(); err != nil {
		return Summary{}, nil, fmt.Errorf("evaluate: %w", err)
	}
	if s == nil {
		return Summary{}, nil, errors.New("evaluate: no strategy")
	}
	for i := range decks {
		if err := decks[i].Validate(); err != nil {
			return Summary{}, nil, fmt.Errorf("evaluate: deck %d: %w", i, err)
		}
	}
	n := len(decks)
	workers := opt.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	batch := max(opt.Batch, 1)
	chunk := chunkSize(n, workers)
	if batch > 1 {
		// A chunk of several batches keeps batch games in play until near
		// its end (solver.PlayOptions.Window): fewer, fuller rounds.
		chunk = max(chunk, min(4*batch, (n+workers-1)/workers))
	}
	workers = max(min(workers, (n+chunk-1)/chunk), 1)

	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	results := make([]DeckResult, n)
	var next atomic.Int64
	var wg sync.WaitGroup
	start := time.Now()
	for range workers {
		wg.Go(func() {
			w := worker{decks: decks, rules: r, strategy: s, results: results, opt: opt, batch: batch}
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
	decks    []solver.Deck
	rules    solver.Rules
	strategy solver.Strategy
	results  []DeckResult
	opt      Options
	batch    int
	player   solver.Player
	deals    []solver.Deal
	res      []solver.Result
}

func (w *worker) run(ctx context.Context, next *atomic.Int64, chunk int) (err error) {
	sess, err := startSession(ctx, w.strategy, w.rules)
	if err != nil {
		return err
	}
	defer func() {
		if sess == nil {
			return // a fresh session failed to start: that error is reported
		}
		if cerr := sess.Close(); cerr != nil && err == nil {
			err = fmt.Errorf("evaluate: closing the session: %w", cerr)
		}
	}()
	w.deals = make([]solver.Deal, 0, chunk)
	w.res = make([]solver.Result, chunk)
	popt := solver.PlayOptions{Budget: w.opt.Budget, Window: w.batch}
	n := len(w.decks)
	for {
		lo := int(next.Add(int64(chunk))) - chunk
		if lo >= n || ctx.Err() != nil {
			return nil
		}
		hi := min(lo+chunk, n)
		w.deals = w.deals[:0]
		for i := lo; i < hi; i++ {
			d := solver.Deal{Deck: &w.decks[i], Game: solver.GameID(i)}
			if w.opt.Game != nil {
				d.Game = w.opt.Game(i)
			}
			if w.opt.Seed != nil {
				d.Seed = w.opt.Seed(i)
			}
			w.deals = append(w.deals, d)
		}
		res := w.res[:len(w.deals)]
		if err := playChunk(ctx, &w.player, &sess, w.strategy, w.rules, w.deals, res, popt); err != nil {
			if ctx.Err() != nil {
				return nil // cancelled: Evaluate reports ctx's cause
			}
			return err
		}
		for j, g := range res {
			dr := DeckResult{Deck: lo + j, Won: g.Won, Placed: g.Placed, Failed: g.Failed, Reason: g.Reason}
			if g.Failed && dr.Reason == "" {
				dr.Reason = "failed"
			}
			w.results[lo+j] = dr
		}
	}
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
	s.Lo, s.Hi = stats.Wilson(s.Wins, s.Games, stats.Z95)
	if elapsed > 0 {
		s.GamesPerSec = float64(s.Games) / elapsed.Seconds()
	}
	return s
}
