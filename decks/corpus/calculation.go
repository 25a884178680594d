package corpus

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"iter"
	"os"
	"strings"
	"sync"

	"github.com/calcsol/calcsol/decks/cards"
	"github.com/calcsol/calcsol/decks/corpora"
	"github.com/calcsol/calcsol/decks/shuffle"
	"github.com/calcsol/calcsol/solver"
)

// Calculation is a corpus of Calculation decks as a player plays it: named,
// identified by the SHA-256 of its deck lines (the checksum a corpus file
// carries), its decks either held in memory (a shipped corpus, decks given,
// a pipe), read again from their file each time they are walked (a corpus
// file), or generated again each time (a generator spec), so that a corpus
// file or a generated corpus of any size costs no memory. Tournaments,
// evaluations, the tuner and the clairvoyant solver all read their corpora
// as one.
type Calculation struct {
	Name     string
	Checksum string // hex SHA-256 of the deck lines, as in a corpus file's header
	Len      int    // number of decks
	// Source says where the decks come from: "shipped uniform-1000",
	// "file my.txt", "generator shuffle U seed 1 count 300000".
	Source string

	decks []solver.Deck
	gen   func(yield func(*solver.Deck) bool)
	fail  *walkError // set for a corpus read again from its file
}

// walkError is the first error a walk of a Calculation met.
type walkError struct {
	mu  sync.Mutex
	err error
}

// Err is the first error a walk of the corpus met (All, Decks): a corpus
// file that changed or could not be read again since OpenCalculation read
// it. Such a walk stops early, so a caller that walks a corpus file checks
// Err after the walk; a corpus in memory or generated never fails.
func (c *Calculation) Err() error {
	if c.fail == nil {
		return nil
	}
	c.fail.mu.Lock()
	defer c.fail.mu.Unlock()
	return c.fail.err
}

func (c *Calculation) setErr(err error) {
	if err == nil || c.fail == nil {
		return
	}
	c.fail.mu.Lock()
	defer c.fail.mu.Unlock()
	if c.fail.err == nil {
		c.fail.err = err
	}
}

// All yields every deck with its 0-based index, in order. The deck is the
// corpus's own (or, when read again or generated, reused for the next one):
// copy it to keep it. A walk of a corpus file that meets an error stops
// there: see Err.
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

// Decks returns the corpus's decks (generated ones are generated now, a
// corpus file is read again). It returns nil when reading the file again
// failed; Err says why.
func (c *Calculation) Decks() []solver.Deck {
	if c.gen == nil {
		return c.decks
	}
	out := make([]solver.Deck, 0, c.Len)
	for _, d := range c.All() {
		out = append(out, *d)
	}
	if len(out) != c.Len {
		return nil
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
// checked, and input that is not a corpus is refused at its first bad line.
// The decks of a regular file are not kept: each walk reads the file again
// (All, Decks), so memory does not grow with the number of decks, and checks
// that it is still the file that was read (the same file, size, time of
// modification, and in the end checksum; see Err). Those of a pipe or a
// device are read once and held, as are a shipped corpus's. Errors say the
// file and the line ("corpus my.txt line 17: card 5: duplicate card 0H (also
// card 2)").
func OpenCalculation(name, arg string) (*Calculation, error) {
	f, b, err := open(arg)
	if err != nil {
		return nil, err
	}
	if f == nil {
		return readCalculation(name, arg, bytesLines(b), "shipped "+strings.TrimSuffix(arg, ".txt"))
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("corpus: %w", err)
	}
	if !st.Mode().IsRegular() {
		return readCalculation(name, arg, readerLines(f, arg), "file "+arg)
	}
	n, sum, err := scanCalculation(readerLines(f, arg), arg, func(*solver.Deck) bool { return true })
	if err != nil {
		return nil, err
	}
	c := &Calculation{Name: name, Checksum: sum, Len: n, Source: "file " + arg, fail: &walkError{}}
	c.gen = func(yield func(*solver.Deck) bool) { c.setErr(walkFile(arg, st, sum, n, yield)) }
	return c, nil
}

// readCalculation reads a corpus from src into memory.
func readCalculation(name, arg string, src lines, source string) (*Calculation, error) {
	var ds []solver.Deck
	n, sum, err := scanCalculation(src, arg, func(d *solver.Deck) bool {
		ds = append(ds, *d)
		return true
	})
	if err != nil {
		return nil, err
	}
	return &Calculation{Name: name, Checksum: sum, Len: n, Source: source, decks: ds}, nil
}

// errStop stops a scan whose walker wants no more decks.
var errStop = errors.New("stopped")

// scanCalculation reads the standard52 corpus in src (arg for messages) and
// gives each deck to deck, until deck returns false; it returns the number
// of decks and the checksum of the file when it read it to the end (then
// with every check of Read), 0 and "" when deck stopped it.
func scanCalculation(src lines, arg string, deck func(*solver.Deck) bool) (int, string, error) {
	var d solver.Deck
	n := 0
	h, sum, err := scanCorpus(src, arg, true, func(ids []int, _ bool) error {
		if len(ids) != solver.DeckSize {
			return nil // the kind is refused below, once the file has been checked
		}
		toDeck(&d, ids)
		n++
		if !deck(&d) {
			return errStop
		}
		return nil
	})
	if errors.Is(err, errStop) {
		return 0, "", nil
	}
	if err != nil {
		return 0, "", fmt.Errorf("corpus %w", err)
	}
	if h.kind != cards.Standard52 {
		return 0, "", fmt.Errorf("corpus %s: deck kind %s: Calculation needs standard52", arg, h.kind.Name())
	}
	return n, sum, nil
}

// walkFile reads the corpus file path again and yields its decks, checking
// that it is the file first read (st0, with n decks and checksum sum).
func walkFile(path string, st0 os.FileInfo, sum string, n int, yield func(*solver.Deck) bool) error {
	changed := func(how string) error {
		return fmt.Errorf("corpus %s: %s since it was first read: a corpus file must not change while it is played", path, how)
	}
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("corpus %s: reading it again: %w", path, err)
	}
	defer f.Close()
	st, err := f.Stat()
	switch {
	case err != nil:
		return fmt.Errorf("corpus %s: reading it again: %w", path, err)
	case !os.SameFile(st, st0):
		return changed("replaced by another file")
	case st.Size() != st0.Size() || !st.ModTime().Equal(st0.ModTime()):
		return changed("written to")
	}
	got, gotSum, err := scanCalculation(readerLines(f, path), path, yield)
	switch {
	case err != nil:
		return fmt.Errorf("%w (it changed since it was first read: a corpus file must not change while it is played)", err)
	case gotSum != "" && (got != n || gotSum != sum):
		return changed("written to")
	}
	return nil
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
