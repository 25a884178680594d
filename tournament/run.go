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

// RunOptions say how Run plays.
type RunOptions struct {
	// Workers is the number of goroutines, each with its own session;
	// <= 0 means runtime.GOMAXPROCS(0).
	Workers int
	// Shard restricts the run to a share of the decks (zero: all).
	Shard Shard
	// Skip is the number of games at the start of the run's order that are
	// already recorded (a resumed run): they are not played again.
	Skip int
	// Trace records every game's moves in Record.Trace.
	Trace bool
	// Only, if set, restricts the run to the decks set in Only[cell]
	// (a cell with no bitset plays none): replaying chosen games.
	Only []Bitset
	// Progress, if set, is called from the writing goroutine after each
	// batch of records with the games done (Skip included) and the total.
	Progress func(done, total int)
	// Stop, if set, is closed to stop the run gently: once Run sees it
	// closed it hands out no more chunks, the chunks handed out are
	// finished and written, and Run returns ErrStopped if games were left
	// unplayed (nil if every chunk had been handed out). The first chunk is
	// handed out whatever Stop says, so that every run makes progress.
	Stop <-chan struct{}
	// Stopping, if set, is called once when Stop stops the run with games
	// left, from the goroutine that hands out the chunks, before the chunks
	// in play are done.
	Stopping func()
	// Blind is the secret Single and Variants make their plan blind with
	// (Plan.Blind); Run plays its own plan's and ignores it.
	Blind *Blind
}

// workers is the number of goroutines Run plays with (Workers).
func (o RunOptions) workers() int {
	if o.Workers <= 0 {
		return runtime.GOMAXPROCS(0)
	}
	return o.Workers
}

// ErrStopped is Run's error when RunOptions.Stop stopped it before its last
// chunk: the records written are a prefix of the run's order, as after a
// cancellation, but none of the games handed out is lost.
var ErrStopped = errors.New("tournament: stopped before the end")

// Sink receives the records of a run in the run's order (Tournament.Cells,
// decks ascending), from one goroutine. An error stops the run.
type Sink interface {
	Write(recs []Record) error
}

// SinkFunc adapts a function to a Sink.
type SinkFunc func(recs []Record) error

// Write implements Sink.
func (f SinkFunc) Write(recs []Record) error { return f(recs) }

// job is a chunk of one cell's games, in the run's order (seq).
type job struct {
	seq   int
	cell  int
	decks []solver.Deck
	index []int // deck indices in the corpus
	res   []solver.Result
	recs  []Record
}

// Run plays the tournament's games (those of opt.Shard, after the first
// opt.Skip) and hands their records to sink in order. Workers play chunks of
// games in parallel; the records are released in order as soon as every
// earlier chunk is done, so a run stopped at any point has written a prefix
// of its order, and a run that resumes with Skip set to that prefix's length
// ends with exactly the records of an uninterrupted run.
//
// Memory does not grow with the number of decks: a bounded number of chunks
// is in flight, and generated corpora are generated as they are played.
// Cancelling ctx stops the run after the chunks in play; Run then returns
// ctx's error, and everything before the first unfinished chunk has been
// written.
func (t *Tournament) Run(ctx context.Context, sink Sink, opt RunOptions) error {
	workers := opt.workers()
	if t.blind != nil && opt.Shard.N > 1 {
		return errors.New("tournament: a blind run cannot be sharded (each shard would draw its own secret decks)")
	}
	total := t.Games(opt.Shard)
	if opt.Skip > total {
		return fmt.Errorf("tournament: %d games recorded, more than the %d of the run", opt.Skip, total)
	}
	chunk := chunkSize(total, workers)
	for _, c := range t.cells {
		if b := c.Entrant.batch(); c.Applicable && b > 1 {
			// Several batches a job keep batch games in play until near
			// its end (solver.PlayOptions.Window): fewer, fuller rounds.
			chunk = max(chunk, 4*b)
		}
	}
	window := 4 * workers
	free := make(chan *job, window)
	for range window {
		free <- &job{}
	}
	jobs := make(chan *job)
	done := make(chan *job, window)

	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)

	// stopped is set by the producer when Stop ended it with games left; it
	// is read after done is closed, which the producer's return precedes.
	// stopC is Stop once the first chunk is handed out, nil (never ready)
	// before.
	var stopped atomic.Bool
	var stopC <-chan struct{}
	stop := func() {
		stopped.Store(true)
		if opt.Stopping != nil {
			opt.Stopping()
		}
	}
	stopNow := func() bool {
		select {
		case <-stopC:
			stop()
			return true
		default:
			return false
		}
	}

	// The producer walks the cells and their decks in order and hands out
	// chunks; generated corpora are generated here, once per cell.
	go func() {
		defer close(jobs)
		seq, game := 0, 0
		for ci := range t.cells {
			c := &t.cells[ci]
			if !c.Applicable {
				continue
			}
			n := opt.Shard.count(c.Corpus.Len)
			if game+n <= opt.Skip || opt.Only != nil && opt.Only[ci] == nil {
				game += n
				continue
			}
			var j *job
			send := func() bool {
				if stopNow() {
					return false
				}
				select {
				case jobs <- j:
					j = nil
					stopC = opt.Stop
					return true
				case <-ctx.Done():
					return false
				case <-stopC:
					stop()
					return false
				}
			}
			quit := false
			t.walk(c.Corpus)(func(i int, d *solver.Deck) bool {
				if !opt.Shard.Has(i) {
					return true
				}
				game++
				if game <= opt.Skip || opt.Only != nil && !opt.Only[ci].Has(i) {
					return true
				}
				if j == nil {
					if stopNow() {
						quit = true
						return false
					}
					select {
					case j = <-free:
					case <-ctx.Done():
						quit = true
						return false
					case <-stopC:
						stop()
						quit = true
						return false
					}
					j.seq, j.cell = seq, ci
					j.decks, j.index = j.decks[:0], j.index[:0]
					seq++
				}
				j.decks = append(j.decks, *d)
				j.index = append(j.index, i)
				if len(j.decks) == chunk && !send() {
					quit = true
					return false
				}
				return true
			})
			if err := c.Corpus.Err(); err != nil {
				cancel(err) // a corpus file that changed while it was played
				return
			}
			if quit || (j != nil && !send()) {
				return
			}
		}
	}()

	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			w := runner{t: t, opt: opt}
			defer w.close()
			for j := range jobs {
				if ctx.Err() != nil {
					continue
				}
				if err := w.play(ctx, j); err != nil {
					cancel(err)
					continue
				}
				done <- j
			}
		})
	}
	go func() {
		wg.Wait()
		close(done)
	}()

	// The writer releases the chunks in order.
	pending := map[int]*job{}
	next, written := 0, opt.Skip
	var werr error
	for j := range done {
		pending[j.seq] = j
		for {
			j, ok := pending[next]
			if !ok {
				break
			}
			delete(pending, next)
			next++
			if werr == nil && ctx.Err() == nil {
				if werr = sink.Write(j.recs); werr != nil {
					cancel(werr)
				}
				written += len(j.recs)
				if opt.Progress != nil {
					opt.Progress(written, total)
				}
			}
			free <- j
		}
	}
	if werr != nil {
		return werr
	}
	if ctx.Err() != nil {
		return context.Cause(ctx)
	}
	if stopped.Load() {
		return ErrStopped
	}
	return nil
}

// runner is one worker: a session for the cell it is playing, reused while
// the chunks it takes belong to that cell.
type runner struct {
	t      *Tournament
	opt    RunOptions
	cell   int
	sess   solver.Session
	player solver.Player
	deals  []solver.Deal
}

func (w *runner) close() {
	if w.sess != nil {
		_ = w.sess.Close()
		w.sess = nil
	}
}

func (w *runner) play(ctx context.Context, j *job) error {
	c := &w.t.cells[j.cell]
	if w.sess == nil || w.cell != j.cell {
		w.close()
		sess, err := startSession(ctx, c.Entrant.Strategy, c.Variant.Rules)
		if err != nil {
			return fmt.Errorf("strategy %s, rules %s: %w", c.Entrant.Name, c.Variant.Key(), err)
		}
		w.sess, w.cell = sess, j.cell
		// A fresh Player per cell: solver.Player's buffers, grown by a
		// Chooser's games, are not ready for another session's lockstep
		// batches (a Player reused across the two kinds panics).
		w.player = solver.Player{}
	}
	n := len(j.decks)
	if cap(j.res) < n {
		j.res = make([]solver.Result, n)
		j.recs = make([]Record, n)
	}
	j.res, j.recs = j.res[:n], j.recs[:n]
	batch := c.Entrant.batch()
	// batch games in play at once, a new one starting as one ends; after a
	// panic the rest of the job is played with a fresh session.
	popt := solver.PlayOptions{Record: w.opt.Trace, Budget: c.Variant.Budget, Window: batch}
	w.deals = w.deals[:0]
	for i := range n {
		w.deals = append(w.deals, solver.Deal{Deck: &j.decks[i], Game: w.t.gameID(j.cell, j.index[i]),
			Seed: mix(c.seed ^ uint64(j.index[i]))})
	}
	start := time.Now()
	if err := playChunk(ctx, &w.player, &w.sess, c.Entrant.Strategy, c.Variant.Rules, w.deals, j.res, popt); err != nil {
		return err
	}
	each := float64(time.Since(start).Nanoseconds()) / 1e3 / float64(n)
	key := c.Variant.Key()
	for i := range j.res {
		g := &j.res[i]
		r := Record{V: RecordVersion, Strategy: c.Entrant.Name, Corpus: c.Corpus.Name, CorpusSHA: c.Corpus.Checksum,
			Rules: key, Deck: j.index[i], Won: g.Won, Placed: g.Placed, Failed: g.Failed, End: g.Reason,
			Micros: max(each, 0.01), cell: j.cell}
		if g.Failed && r.End == "" {
			r.End = "failed"
		}
		if g.Trace != nil {
			r.Trace = solver.FormatTrace(g.Trace, c.Variant.Rules)
		}
		j.recs[i] = r
	}
	return nil
}
