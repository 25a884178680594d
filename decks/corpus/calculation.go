package corpus

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"iter"
	"os"
	"strings"

	"github.com/calcsol/calcsol/decks/cards"
	"github.com/calcsol/calcsol/decks/corpora"
	"github.com/calcsol/calcsol/decks/shuffle"
	"github.com/calcsol/calcsol/solver"
)

// Calculation is a corpus of Calculation decks as a player plays it: named,
// identified by the SHA-256 of its deck lines (the checksum a corpus file
// carries), its decks either held in memory (a corpus file, decks given) or
// generated again each time they are walked (a generator spec), so that a
// generated corpus of any size costs no memory. Tournaments, evaluations,
// the tuner and the clairvoyant solver all read their corpora as one.
type Calculation struct {
	Name     string
	Checksum string // hex SHA-256 of the deck lines, as in a corpus file's header
	Len      int    // number of decks
	// Source says where the decks come from: "shipped uniform-1000",
	// "file my.txt", "generator shuffle U seed 1 count 300000".
	Source string

	decks []solver.Deck
	gen   func(yield func(*solver.Deck) bool)
}

// All yields every deck with its 0-based index, in order. The deck is the
// corpus's own (or, when generated, reused for the next one): copy it to
// keep it.
func (c *Calculation) All() iter.Seq2[int, *solver.Deck] {
	return func(yield func(i int, d *solver.Deck) bool) {
		if c.gen == nil {
			for i := range c.decks {
				if !yield(i, &c.decks[i]) {
					return
				}
			}
			return
		}
		i := 0
		c.gen(func(d *solver.Deck) bool {
			ok := yield(i, d)
			i++
			return ok
		})
	}
}

// Decks returns the corpus's decks (generated ones are generated now).
func (c *Calculation) Decks() []solver.Deck {
	if c.gen == nil {
		return c.decks
	}
	out := make([]solver.Deck, 0, c.Len)
	for _, d := range c.All() {
		out = append(out, *d)
	}
	return out
}

// NewCalculation makes a corpus of decks held in memory. Its checksum is
// the SHA-256 of the decks written as rank-only lines ("603K0443…").
func NewCalculation(name string, ds []solver.Deck) (*Calculation, error) {
	if len(ds) == 0 {
		return nil, fmt.Errorf("corpus %s: no decks", name)
	}
	h := sha256.New()
	line := make([]byte, 0, solver.DeckSize+1)
	for i := range ds {
		if err := ds[i].Validate(); err != nil {
			return nil, fmt.Errorf("corpus %s: deck %d: %w", name, i, err)
		}
		line = line[:0]
		for _, r := range ds[i] {
			line = append(line, r.String()[0])
		}
		h.Write(append(line, '\n'))
	}
	return &Calculation{Name: name, Checksum: hex.EncodeToString(h.Sum(nil)), Len: len(ds), Source: "decks in memory", decks: ds}, nil
}

// Shipped lists the corpora built into calcsol.
func Shipped() []string { return corpora.Names() }

// OpenCalculation reads the corpus arg names, a file or else a shipped
// corpus (as Resolve finds it), as Calculation decks with every check of
// Read; name labels it in reports. A file is read line by line as it is
// parsed, never held whole. Errors say the file and the line ("corpus
// my.txt line 17: card 5: duplicate card 0H (also card 2)").
func OpenCalculation(name, arg string) (*Calculation, error) {
	src, source, closeFile, err := open(arg)
	if err != nil {
		return nil, err
	}
	defer closeFile()
	var ds []solver.Deck
	h, sum, err := scanCorpus(src, arg, true, func(ids []int, _ bool) error {
		if len(ids) != solver.DeckSize {
			return nil // the kind is refused below, once the file has been checked
		}
		var d solver.Deck
		toDeck(&d, ids)
		ds = append(ds, d)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("corpus %w", err)
	}
	if h.kind != cards.Standard52 {
		return nil, fmt.Errorf("corpus %s: deck kind %s: Calculation needs standard52", arg, h.kind.Name())
	}
	return &Calculation{Name: name, Checksum: sum, Len: len(ds), Source: source, decks: ds}, nil
}

// open finds the corpus arg names as Resolve does, and gives its lines, the
// Source of a Calculation read from it and what closes it.
func open(arg string) (src lines, source string, closeFile func(), err error) {
	nothing := func() {}
	if st, err := os.Stat(arg); err == nil && st.IsDir() {
		return nil, "", nothing, fmt.Errorf("corpus %s: a directory, not a corpus file", arg)
	}
	f, err := os.Open(arg)
	if err == nil {
		return readerLines(f, arg), "file " + arg, func() { _ = f.Close() }, nil
	}
	if !errors.Is(err, os.ErrNotExist) {
		return nil, "", nothing, fmt.Errorf("corpus: %w", err)
	}
	if b, cerr := corpora.Bytes(arg); cerr == nil {
		return bytesLines(b), "shipped " + strings.TrimSuffix(arg, ".txt"), nothing, nil
	}
	return nil, "", nothing, notFound(arg)
}

// GenerateCalculation is a corpus made on the fly by a generator ("shuffle
// U", "shuffle RRRRRRR", "deal players=4,adjust=50,target=pairs"): the same
// decks, in the same order, and the same checksum as `calcsol corpus
// generate --deck standard52` with that generator, seed and count would
// write. The decks are generated once to compute the checksum and again
// each time the corpus is walked; none is kept.
func GenerateCalculation(name, spec string, seed uint64, count int) (*Calculation, error) {
	if count < 1 {
		return nil, fmt.Errorf("corpus %s: count %d: want at least 1 deck", name, count)
	}
	g, err := ParseGenerator(spec, shuffle.DefaultParams())
	if err != nil {
		return nil, fmt.Errorf("corpus %s: %w", name, err)
	}
	if !g.Supports(cards.Standard52) {
		return nil, fmt.Errorf("corpus %s: generator %q cannot make standard52 decks", name, spec)
	}
	gen := func(yield func(ids []int) bool) {
		r := shuffle.NewRand(seed)
		ids := make([]int, solver.DeckSize)
		for range count {
			for i := range ids {
				ids[i] = i
			}
			g.Generate(ids, r)
			if !yield(ids) {
				return
			}
		}
	}
	h := sha256.New()
	line := make([]byte, 0, 3*solver.DeckSize)
	gen(func(ids []int) bool {
		line = cards.Standard52.AppendDeck(line[:0], ids)
		h.Write(append(line, '\n'))
		return true
	})
	c := &Calculation{Name: name, Checksum: hex.EncodeToString(h.Sum(nil)), Len: count,
		Source: fmt.Sprintf("generator %s seed %d count %d", g.Spec(), seed, count)}
	c.gen = func(yield func(*solver.Deck) bool) {
		var d solver.Deck
		gen(func(ids []int) bool {
			toDeck(&d, ids)
			return yield(&d)
		})
	}
	return c, nil
}

// toDeck turns card identities into the ranks Calculation plays.
func toDeck(d *solver.Deck, ids []int) {
	for i, id := range ids {
		d[i] = cards.RankOf(id)
	}
}
