package analysis

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/calcsol/calcsol/decks/shuffle"
)

// NewSteps makes, for one worker, one shuffler per method of a search (in
// the order of the methods). Each is applied as one step of a sequence.
type NewSteps func() ([]shuffle.Shuffler, error)

// SearchOptions says which sequences to try.
type SearchOptions struct {
	Options
	MinLen, MaxLen int // sequence lengths m to measure, 1 ≤ MinLen ≤ MaxLen
}

// Scored is one sequence of a search with its position matrix.
type Scored struct {
	Steps  []int  // method indices, first applied first
	Name   string // sequence notation, e.g. "HDHRDHH" or "H^86"
	Matrix *Matrix
}

// maxSearchCells bounds the per-worker counters (int32 cells).
const maxSearchCells = 1 << 28

// Search measures every sequence of length MinLen..MaxLen over the given
// methods (k methods give k^m sequences of length m) and returns them in the
// order of their method indices, shortest first.
//
// Sequences share prefixes, so the search walks the tree of prefixes once:
// each node costs one shuffle step per set instead of m. Set i is still
// shuffled with its own generator shuffle.NewRand(SetSeed(Seed, i)), whose
// state is saved at every depth of the walk, so every sequence's matrix is
// exactly what Measure gives for that sequence alone (a test checks this).
// Sets are processed in blocks so the decks of one block stay in cache.
func Search(newSteps NewSteps, names []string, o SearchOptions) ([]Scored, error) {
	if err := o.Check(); err != nil {
		return nil, err
	}
	k := len(names)
	if k == 0 {
		return nil, fmt.Errorf("search: no methods")
	}
	if o.MinLen < 1 || o.MaxLen < o.MinLen {
		return nil, fmt.Errorf("search: lengths %d..%d, need 1 ≤ min ≤ max", o.MinLen, o.MaxLen)
	}
	n := o.N
	// Node numbering: depth d (1-based) holds k^d nodes; only depths ≥ MinLen
	// get a matrix, numbered depth by depth.
	offset := make([]int, o.MaxLen+2)
	width := 1
	total := 0
	for d := 1; d <= o.MaxLen; d++ {
		width *= k
		if width > maxSearchCells {
			return nil, fmt.Errorf("search: %d methods at length %d is too many sequences", k, d)
		}
		offset[d] = total
		if d >= o.MinLen {
			total += width
		}
	}
	if int64(total)*int64(n*n) > maxSearchCells {
		return nil, fmt.Errorf("search: %d sequences × %d cells: too many counters", total, n*n)
	}
	offset[o.MaxLen+1] = total

	// Blocks of sets; small enough that MaxLen+1 levels of decks fit in cache.
	block := int64(max(16, min(512, (1<<17)/((o.MaxLen+1)*n))))
	blocks := (o.Sets + block - 1) / block
	nw := o.workers()
	var next atomic.Int64
	counts := make([][]int32, nw)
	errs := make([]error, nw)
	var wg sync.WaitGroup
	for wi := range nw {
		wg.Add(1)
		go func() {
			defer wg.Done()
			steps, err := newSteps()
			if err != nil {
				errs[wi] = err
				return
			}
			if len(steps) != k {
				errs[wi] = fmt.Errorf("search: %d shufflers for %d methods", len(steps), k)
				return
			}
			w := newWorker(n, total)
			t := &tree{w: w, steps: steps, n: n, minLen: o.MinLen, maxLen: o.MaxLen, offset: offset}
			t.decks = make([][]int, o.MaxLen+1)
			t.states = make([][]rand.PCG, o.MaxLen+1)
			for d := range t.decks {
				t.decks[d] = make([]int, int(block)*n)
				t.states[d] = make([]rand.PCG, block)
			}
			for {
				b := next.Add(1) - 1
				if b >= blocks {
					break
				}
				if err := o.stopped(); err != nil {
					errs[wi] = err
					return
				}
				lo := b * block
				hi := min(lo+block, o.Sets)
				t.sets = int(hi - lo)
				for s := range t.sets {
					copy(t.decks[0][s*n:(s+1)*n], w.ident)
					t.states[0][s].Seed(SetSeed(o.Seed, lo+int64(s)), pcgStream)
				}
				if err := t.walk(0, 0); err != nil {
					errs[wi] = fmt.Errorf("search, sets %d..%d: %w", lo, hi-1, err)
					return
				}
				o.done(hi - lo)
			}
			counts[wi] = w.counts
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	out := make([]Scored, 0, total)
	width = 1
	for d := 1; d <= o.MaxLen; d++ {
		width *= k
		if d < o.MinLen {
			continue
		}
		for idx := range width {
			node := offset[d] + idx
			m := NewMatrix(n)
			m.Sets = o.Sets
			for _, c := range counts {
				for q, v := range c[node*n*n : (node+1)*n*n] {
					m.Count[q] += int64(v)
				}
			}
			steps := make([]int, d)
			x := idx
			for p := d - 1; p >= 0; p-- {
				steps[p] = x % k
				x /= k
			}
			out = append(out, Scored{Steps: steps, Name: SequenceName(names, steps), Matrix: m})
		}
	}
	return out, nil
}

// tree is one worker's walk over the prefix tree for a block of sets.
type tree struct {
	w              *worker
	steps          []shuffle.Shuffler
	n              int
	minLen, maxLen int
	offset         []int
	sets           int
	decks          [][]int      // decks[d]: the block's decks after d steps
	states         [][]rand.PCG // states[d]: their generators after d steps
}

// walk applies every method to the decks at depth d (path index idx within
// the depth) and recurses.
func (t *tree) walk(d, idx int) error {
	n := t.n
	w := t.w
	src, dst := t.decks[d], t.decks[d+1]
	for mi, sh := range t.steps {
		child := idx*len(t.steps) + mi
		record := d+1 >= t.minLen
		node := t.offset[d+1] + child
		for s := range t.sets {
			deck := dst[s*n : (s+1)*n]
			copy(deck, src[s*n:(s+1)*n])
			*w.pcg = t.states[d][s]
			sh.Shuffle(deck, w.r)
			t.states[d+1][s] = *w.pcg
			if s == 0 {
				if err := w.checkPerm(deck); err != nil {
					return fmt.Errorf("%s: %w", sh, err)
				}
			}
			if record {
				w.accumulate(node, deck)
			}
		}
		if d+1 < t.maxLen {
			if err := t.walk(d+1, child); err != nil {
				return err
			}
		}
	}
	return nil
}

// SequenceName writes a sequence of method indices in docs/shuffles-models.md notation:
// letters in order ("HDHRDHH"), or with runs raised to a count ("H^86")
// when the plain form would be longer than 12 letters.
func SequenceName(names []string, steps []int) string {
	var plain strings.Builder
	for _, s := range steps {
		plain.WriteString(names[s])
	}
	if plain.Len() <= 12 {
		return plain.String()
	}
	var b strings.Builder
	for i := 0; i < len(steps); {
		j := i
		for j < len(steps) && steps[j] == steps[i] {
			j++
		}
		b.WriteString(names[steps[i]])
		if j-i > 1 {
			b.WriteString("^" + strconv.Itoa(j-i))
		}
		i = j
	}
	return b.String()
}

// Ranked is a search result scored against e_max.
type Ranked struct {
	Scored
	Class   Classification
	MaxAbsE float64
}

// SortByC scores each sequence against e_max and orders them by length,
// then best first: more white cells, then smaller max|e|, then name.
func SortByC(all []Scored, emax float64) []Ranked {
	out := make([]Ranked, len(all))
	for i, s := range all {
		out[i] = Ranked{Scored: s, Class: s.Matrix.Classify(emax), MaxAbsE: s.Matrix.MaxAbsE()}
	}
	slices.SortStableFunc(out, func(a, b Ranked) int {
		return cmp.Or(
			cmp.Compare(len(a.Steps), len(b.Steps)),
			cmp.Compare(b.Class.White, a.Class.White),
			cmp.Compare(a.MaxAbsE, b.MaxAbsE),
			strings.Compare(a.Name, b.Name),
		)
	})
	return out
}

// ParseLengths reads a range of sequence lengths: "7" (just 7) or "1..7".
func ParseLengths(s string) (lo, hi int, err error) {
	return ParseRange(s, 1, math.MaxInt)
}

// ParseRange reads "k" or "k1..k2" with min ≤ k1 ≤ k2 ≤ max.
func ParseRange(s string, min, max int) (lo, hi int, err error) {
	a, b, isRange := strings.Cut(s, "..")
	lo, err = strconv.Atoi(a)
	if err != nil {
		return 0, 0, fmt.Errorf("range %q: %q is not a number", s, a)
	}
	hi = lo
	if isRange {
		if hi, err = strconv.Atoi(b); err != nil {
			return 0, 0, fmt.Errorf("range %q: %q is not a number", s, b)
		}
	}
	if lo < min || hi < lo || hi > max {
		if max == math.MaxInt {
			return 0, 0, fmt.Errorf("range %q: want %d ≤ min ≤ max", s, min)
		}
		return 0, 0, fmt.Errorf("range %q: want k or k1..k2 with %d ≤ k1 ≤ k2 ≤ %d", s, min, max)
	}
	return lo, hi, nil
}

// FormatLengths writes a range as ParseLengths reads it.
func FormatLengths(lo, hi int) string {
	if lo == hi {
		return strconv.Itoa(lo)
	}
	return strconv.Itoa(lo) + ".." + strconv.Itoa(hi)
}
