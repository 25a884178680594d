package analysis

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/calcsol/calcsol/decks/shuffle"
)

// pcgStream is shuffle.NewRand's stream, so that the generator of set i is
// exactly shuffle.NewRand(SetSeed(seed, i)). The analysis reseeds one PCG per
// worker instead of allocating a new generator for each of the millions of
// sets.
const pcgStream = shuffle.PCGStream

// chunkSize is how many consecutive sets a worker takes at a time. It only
// affects scheduling: every set has its own generator, so results do not
// depend on the number of workers or on the chunking.
const chunkSize = 4096

// splitmix64 is Steele, Lea & Flood's SplitMix64 finaliser: a bijective
// mixer that turns consecutive integers into unrelated seeds.
func splitmix64(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// SetSeed is the seed of set i of a run seeded with seed: set i is shuffled
// with shuffle.NewRand(SetSeed(seed, i)), alone, from the unshuffled deck. So a
// set's result depends only on (seed, i), never on workers or scheduling, and
// the exhaustive search reproduces analyze's matrices exactly.
func SetSeed(seed uint64, i int64) uint64 {
	return splitmix64(seed ^ splitmix64(uint64(i)))
}

// Options says how many sets to run and how.
type Options struct {
	N       int    // deck size
	Sets    int64  // number of independent sets s
	Seed    uint64 // base seed; set i uses SetSeed(Seed, i)
	Workers int    // goroutines, 0..MaxWorkers; 0 means runtime.GOMAXPROCS(0)
	// Stats also gathers the per-deck statistics (rising sequences, adjacent
	// pairs, guess score); the matrix alone is cheaper.
	Stats bool
	// Context, if set, stops the run with its error once it is done
	// (checked between chunks of sets).
	Context context.Context
	// Progress, if set, is told how many more sets were done, from the
	// worker goroutines, after each chunk (progress.Bar.Add fits).
	Progress func(sets int64)
}

// stopped returns the context's error, if any.
func (o Options) stopped() error {
	if o.Context == nil {
		return nil
	}
	return o.Context.Err()
}

// done reports sets done to Progress.
func (o Options) done(sets int64) {
	if o.Progress != nil {
		o.Progress(sets)
	}
}

// MaxN, MaxSets and MaxWorkers bound Options: a position matrix of MaxN
// cards takes 64 MiB of int32 counts per worker, and counts are int32.
const (
	MaxN       = 4096
	MaxSets    = 1<<31 - 1
	MaxWorkers = 4096
)

// Check says whether the options describe a run Measure and Search accept;
// a command calls it before any other work, to refuse bad sizes at once.
func (o Options) Check() error {
	switch {
	case o.N < 2 || o.N > MaxN:
		return fmt.Errorf("deck size %d: want 2..%d cards", o.N, MaxN)
	case o.Sets < 1 || o.Sets > MaxSets:
		return fmt.Errorf("sets %d: want 1..2^31-1", o.Sets)
	case o.Workers < 0 || o.Workers > MaxWorkers:
		return fmt.Errorf("workers %d: want 0..%d (0: all CPUs)", o.Workers, MaxWorkers)
	}
	return nil
}

func (o Options) workers() int {
	if o.Workers > 0 {
		return o.Workers
	}
	return runtime.GOMAXPROCS(0)
}

// Result is what Measure gathers.
type Result struct {
	Matrix *Matrix
	// First is the permutation of set 0 (First[j] = card at position j+1),
	// the "one trial" picture of Nose & Fukagawa.
	First []int
	// Sums of the per-deck statistics over all sets (Options.Stats only).
	Rising, Adjacent, Guess DeckStats
}

// DeckStats accumulates one per-deck statistic in integers, so totals do not
// depend on the order sets are added in.
type DeckStats struct {
	N          int64
	Sum, SumSq int64
}

func (d *DeckStats) add(x int) {
	d.N++
	d.Sum += int64(x)
	d.SumSq += int64(x) * int64(x)
}

func (d *DeckStats) merge(o DeckStats) {
	d.N += o.N
	d.Sum += o.Sum
	d.SumSq += o.SumSq
}

// Mean is the average over sets.
func (d DeckStats) Mean() float64 {
	if d.N == 0 {
		return 0
	}
	return float64(d.Sum) / float64(d.N)
}

// StdErr is the standard error of Mean.
func (d DeckStats) StdErr() float64 {
	if d.N < 2 {
		return 0
	}
	mean := d.Mean()
	v := (float64(d.SumSq) - float64(d.N)*mean*mean) / float64(d.N-1)
	return sqrt(max(v, 0) / float64(d.N))
}

// NewShuffler makes one shuffler per worker, so shufflers that keep scratch
// buffers need not be safe for concurrent use.
type NewShuffler func() (shuffle.Shuffler, error)

// Fixed wraps a shuffler that is safe for concurrent use.
func Fixed(s shuffle.Shuffler) NewShuffler {
	return func() (shuffle.Shuffler, error) { return s, nil }
}

// worker holds one goroutine's generator and buffers, reused for every set.
type worker struct {
	n      int
	pcg    *rand.PCG
	r      *rand.Rand
	ident  []int
	deck   []int
	pos    []int
	seen   []bool
	counts []int32
}

func newWorker(n int, matrices int) *worker {
	w := &worker{n: n, pcg: rand.NewPCG(0, 0)}
	w.r = rand.New(w.pcg)
	w.ident = make([]int, n)
	for i := range w.ident {
		w.ident[i] = i
	}
	w.deck = make([]int, n)
	w.pos = make([]int, n)
	w.seen = make([]bool, n)
	w.counts = make([]int32, matrices*n*n)
	return w
}

// seed puts set i's generator in place.
func (w *worker) seed(seed uint64, i int64) {
	w.pcg.Seed(SetSeed(seed, i), pcgStream)
}

// accumulate adds the permutation in deck to matrix k.
func (w *worker) accumulate(k int, deck []int) {
	n := w.n
	t := w.counts[k*n*n : (k+1)*n*n]
	for j, c := range deck {
		t[c*n+j]++
	}
}

var errNotPermutation = errors.New("shuffle did not return a permutation of the deck")

// checkPerm reports whether deck is a permutation of 0..n-1 (one set per
// chunk is checked, so a broken shuffler is caught without slowing the loop).
func (w *worker) checkPerm(deck []int) error {
	clear(w.seen)
	for _, c := range deck {
		if c < 0 || c >= w.n || w.seen[c] {
			return errNotPermutation
		}
		w.seen[c] = true
	}
	return nil
}

// Measure runs o.Sets independent sets of the shuffle, each from the
// unshuffled deck 0..n-1, and returns the position matrix (and, with
// o.Stats, the per-deck statistics). Sets are spread over o.Workers
// goroutines in chunks; set i always uses shuffle.NewRand(SetSeed(o.Seed, i)),
// so the result is the same for any number of workers.
func Measure(newShuffler NewShuffler, o Options) (*Result, error) {
	if err := o.Check(); err != nil {
		return nil, err
	}
	n := o.N
	nw := o.workers()
	chunks := (o.Sets + chunkSize - 1) / chunkSize
	var next atomic.Int64
	type part struct {
		counts                  []int32
		first                   []int
		rising, adjacent, guess DeckStats
		err                     error
	}
	parts := make([]part, nw)
	var wg sync.WaitGroup
	for wi := range nw {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p := &parts[wi]
			sh, err := newShuffler()
			if err != nil {
				p.err = err
				return
			}
			w := newWorker(n, 1)
			for {
				c := next.Add(1) - 1
				if c >= chunks {
					break
				}
				if err := o.stopped(); err != nil {
					p.err = err
					return
				}
				lo := c * chunkSize
				hi := min(lo+chunkSize, o.Sets)
				for i := lo; i < hi; i++ {
					w.seed(o.Seed, i)
					copy(w.deck, w.ident)
					sh.Shuffle(w.deck, w.r)
					if i == lo {
						if err := w.checkPerm(w.deck); err != nil {
							p.err = fmt.Errorf("%s, set %d: %w", sh, i, err)
							return
						}
					}
					w.accumulate(0, w.deck)
					if i == 0 {
						p.first = append([]int(nil), w.deck...)
					}
					if o.Stats {
						p.rising.add(risingSequences(w.deck, w.pos))
						p.adjacent.add(adjacentPairs(w.deck, w.pos))
						p.guess.add(guessScore(w.deck, w.seen))
					}
				}
				o.done(hi - lo)
			}
			p.counts = w.counts
		}()
	}
	wg.Wait()
	res := &Result{Matrix: NewMatrix(n)}
	res.Matrix.Sets = o.Sets
	for _, p := range parts {
		if p.err != nil {
			return nil, p.err
		}
		for k, c := range p.counts {
			res.Matrix.Count[k] += int64(c)
		}
		if p.first != nil {
			res.First = p.first
		}
		res.Rising.merge(p.rising)
		res.Adjacent.merge(p.adjacent)
		res.Guess.merge(p.guess)
	}
	return res, nil
}
