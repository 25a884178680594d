package tournament

import (
	"fmt"
	"math/bits"
)

// Bitset is one bit per deck.
type Bitset []uint64

// NewBitset returns a bitset for n decks.
func NewBitset(n int) Bitset { return make(Bitset, (n+63)/64) }

// Set sets bit i.
func (b Bitset) Set(i int) { b[i/64] |= 1 << (i % 64) }

// Has reports bit i.
func (b Bitset) Has(i int) bool { return i/64 < len(b) && b[i/64]&(1<<(i%64)) != 0 }

// Count is the number of bits set.
func (b Bitset) Count() int {
	n := 0
	for _, w := range b {
		n += bits.OnesCount64(w)
	}
	return n
}

// CellTally is what the records of one cell amount to: counters, and the
// decks played and won as bitsets, so that two strategies can be compared
// deck by deck at a cost of 2 bits per deck.
type CellTally struct {
	Games, Wins, Failures int
	Placed                int64
	Micros                float64 // the games' time, summed
	Played, Won           Bitset
	// FirstFailed is the lowest deck of the games failed (Failures > 0),
	// FirstReason why it failed: the first failure in the run's order,
	// whatever order the records were counted in.
	FirstFailed int
	FirstReason string
}

// Tally counts the records of a tournament, cell by cell, in memory that does
// not grow with the number of games beyond the bitsets.
type Tally struct {
	cells  []Cell
	tally  []CellTally
	bounds []*Bound // per cell, nil where the plan has no bound
	index  map[cellKey]int
}

type cellKey struct{ strategy, corpus, rules string }

// NewTally returns an empty tally of t's cells.
func (t *Tournament) NewTally() *Tally {
	ta := &Tally{cells: t.cells, tally: make([]CellTally, len(t.cells)), bounds: make([]*Bound, len(t.cells)), index: map[cellKey]int{}}
	for i, c := range t.cells {
		ta.index[cellKey{c.Entrant.Name, c.Corpus.Name, c.Variant.Key()}] = i
		ta.bounds[i] = t.bound(&t.cells[i])
		ta.tally[i].Played = NewBitset(c.Corpus.Len)
		ta.tally[i].Won = NewBitset(c.Corpus.Len)
	}
	return ta
}

// Cell returns the index of the cell a record belongs to, checking that the
// record fits the tournament (its corpus checksum, its deck in range).
func (ta *Tally) Cell(r *Record) (int, error) {
	i, ok := ta.index[cellKey{r.Strategy, r.Corpus, r.Rules}]
	if !ok {
		return 0, fmt.Errorf("record of strategy %s, corpus %s, rules %s: not in this tournament", r.Strategy, r.Corpus, r.Rules)
	}
	c := &ta.cells[i]
	switch {
	case r.CorpusSHA != c.Corpus.Checksum:
		return 0, fmt.Errorf("record of corpus %s has checksum %s; the corpus has %s", r.Corpus, r.CorpusSHA, c.Corpus.Checksum)
	case r.Deck >= c.Corpus.Len:
		return 0, fmt.Errorf("record of deck %d; corpus %s has %d decks", r.Deck, r.Corpus, c.Corpus.Len)
	case !c.Applicable:
		return 0, fmt.Errorf("record of strategy %s under rules %s, which it cannot play", r.Strategy, r.Rules)
	}
	return i, nil
}

// Add counts r. A second record of the same game is an error.
func (ta *Tally) Add(r *Record) error {
	i := r.cell
	if i < 0 || i >= len(ta.cells) || ta.cells[i].Entrant.Name != r.Strategy || ta.cells[i].Corpus.Name != r.Corpus || ta.cells[i].Variant.Key() != r.Rules {
		var err error
		if i, err = ta.Cell(r); err != nil {
			return err
		}
	}
	c := &ta.tally[i]
	if c.Played.Has(r.Deck) {
		return fmt.Errorf("two records of strategy %s, corpus %s, rules %s, deck %d", r.Strategy, r.Corpus, r.Rules, r.Deck)
	}
	c.Played.Set(r.Deck)
	c.Games++
	if r.Won {
		c.Wins++
		c.Won.Set(r.Deck)
	}
	if r.Failed {
		if c.Failures == 0 || r.Deck < c.FirstFailed {
			c.FirstFailed, c.FirstReason = r.Deck, r.End
		}
		c.Failures++
	}
	c.Placed += int64(r.Placed)
	c.Micros += r.Micros
	return nil
}

// Sink returns a Sink that counts records and then passes them to next (if any).
func (ta *Tally) Sink(next Sink) Sink {
	return SinkFunc(func(recs []Record) error {
		for i := range recs {
			if err := ta.Add(&recs[i]); err != nil {
				return err
			}
		}
		if next != nil {
			return next.Write(recs)
		}
		return nil
	})
}

// Tallies returns the counts, one per cell, in the order of Cells.
func (ta *Tally) Tallies() []CellTally { return ta.tally }
