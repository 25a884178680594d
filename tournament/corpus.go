package tournament

// This file is the only one of package tournament that uses the decks
// packages: corpus files, the shipped corpora and the deck generators.

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"strings"

	"github.com/calcsol/calcsol/decks/cards"
	"github.com/calcsol/calcsol/decks/corpora"
	"github.com/calcsol/calcsol/decks/corpus"
	"github.com/calcsol/calcsol/decks/shuffle"
	"github.com/calcsol/calcsol/solver"
)

// Corpus is a list of decks a tournament plays, identified by the SHA-256 of
// its deck lines (the checksum a corpus file carries). Its decks are either
// held in memory (a corpus file) or generated again each time they are
// walked (a generator spec), so that a generated corpus of any size costs no
// memory.
type Corpus struct {
	Name     string
	Checksum string // hex SHA-256 of the deck lines, as in a corpus file's header
	Len      int    // number of decks
	// Source says where the decks come from: "shipped uniform-1000",
	// "file my.txt", "generator shuffle U seed 1 count 300000".
	Source string

	decks []solver.Deck
	gen   func(yield func(*solver.Deck) bool)
}

// each calls yield with every deck in order until it returns false.
func (c *Corpus) each(yield func(i int, d *solver.Deck) bool) {
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

// NewCorpus makes a corpus of decks held in memory. Its checksum is the
// SHA-256 of the decks written as rank-only lines ("603K0443…").
func NewCorpus(name string, ds []solver.Deck) (*Corpus, error) {
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
	return &Corpus{Name: name, Checksum: hex.EncodeToString(h.Sum(nil)), Len: len(ds), Source: "decks in memory", decks: ds}, nil
}

// ShippedCorpora lists the corpora built into calcsol.
func ShippedCorpora() []string { return corpora.Names() }

// LoadCorpus reads a corpus file, or, when no file of that name exists, the
// shipped corpus of that name (ShippedCorpora). name labels it in reports.
func LoadCorpus(name, fileOrShipped string) (*Corpus, error) {
	data, err := corpus.Resolve(fileOrShipped)
	if err != nil {
		return nil, err
	}
	source := "file " + fileOrShipped
	if _, serr := os.Stat(fileOrShipped); serr != nil {
		source = "shipped " + strings.TrimSuffix(fileOrShipped, ".txt")
	}
	c, err := corpus.Read(bytes.NewReader(data), fileOrShipped)
	if err != nil {
		return nil, fmt.Errorf("corpus %w", err)
	}
	if c.Kind != cards.Standard52 {
		return nil, fmt.Errorf("corpus %s: deck kind %s: Calculation needs standard52", fileOrShipped, c.Kind.Name())
	}
	if len(c.Decks) == 0 {
		return nil, fmt.Errorf("corpus %s: no decks", fileOrShipped)
	}
	ds := make([]solver.Deck, len(c.Decks))
	for i, d := range c.Decks {
		toDeck(&ds[i], d)
	}
	return &Corpus{Name: name, Checksum: c.Checksum, Len: len(ds), Source: source, decks: ds}, nil
}

// GenerateCorpus is a corpus made on the fly by a generator of package decks
// ("shuffle U", "shuffle RRRRRRR", "deal players=4,adjust=50,target=pairs"):
// the same decks, in the same order, and the same checksum as
// `calcsol corpus generate --deck standard52` with that generator, seed and
// count would write. The decks are generated once to compute the checksum
// and again each time the corpus is played; none is kept.
func GenerateCorpus(name, spec string, seed uint64, count int) (*Corpus, error) {
	if count < 1 {
		return nil, fmt.Errorf("corpus %s: count %d: want at least 1 deck", name, count)
	}
	g, err := corpus.ParseGenerator(spec, shuffle.DefaultParams())
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
	c := &Corpus{Name: name, Checksum: hex.EncodeToString(h.Sum(nil)), Len: count,
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

// Decks returns the corpus's decks (generated ones are generated now).
func (c *Corpus) Decks() []solver.Deck {
	if c.gen == nil {
		return c.decks
	}
	out := make([]solver.Deck, 0, c.Len)
	c.each(func(_ int, d *solver.Deck) bool {
		out = append(out, *d)
		return true
	})
	return out
}

// toDeck turns card identities into the ranks Calculation plays.
func toDeck(d *solver.Deck, ids []int) {
	for i, id := range ids {
		d[i] = cards.RankOf(id)
	}
}
