package tune

// Every use of package decks in tune is in this file, so that the tuner
// follows the corpus code wherever it moves.

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/calcsol/calcsol/decks"
	"github.com/calcsol/calcsol/decks/corpora"
	"github.com/calcsol/calcsol/solver"
)

// Corpus is a list of decks the tuner plays, with what identifies them.
type Corpus struct {
	Name string // the spec file, corpus file or built-in name it was loaded from
	// About says how the decks were made: "standard52, shuffle U, 30000 decks, seed 7".
	About string
	// Checksum is the SHA-256 of the deck lines, as in a corpus file's header
	// ("# sha256"): the same decks give the same checksum everywhere.
	Checksum string
	Decks    []solver.Deck
}

// CorpusSpec says how to make a corpus, as `calcsol corpus generate` does:
// deck kind, shuffle sequence, count and seed. The tuner's corpora are
// shipped as specs (configs/tune/*.yaml) and made on the fly.
type CorpusSpec struct {
	Deck    string `yaml:"deck"`    // deck kind; Calculation needs standard52
	Shuffle string `yaml:"shuffle"` // shuffle sequence, e.g. U
	Count   int    `yaml:"count"`
	Seed    uint64 `yaml:"seed"`
	Doc     string `yaml:"doc"` // what the corpus is for
}

// ParseCorpusSpec reads a corpus spec from YAML; file names it in errors.
func ParseCorpusSpec(data []byte, file string) (CorpusSpec, error) {
	var s CorpusSpec
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&s); err != nil {
		return s, fmt.Errorf("corpus spec %s: %w", file, err)
	}
	if s.Deck == "" {
		s.Deck = "standard52"
	}
	if s.Shuffle == "" || s.Count < 1 {
		return s, fmt.Errorf("corpus spec %s: want shuffle, a count of at least 1 and a seed", file)
	}
	return s, nil
}

// Generate makes the corpus the spec names, byte for byte the corpus
// `calcsol corpus generate --deck D --shuffle S --count N --seed X` writes.
func (s CorpusSpec) Generate(name string) (*Corpus, error) {
	kind, err := decks.ParseKind(s.Deck)
	if err != nil {
		return nil, fmt.Errorf("corpus spec %s: %w", name, err)
	}
	seq, err := decks.ParseSequence(s.Shuffle, decks.DefaultParams())
	if err != nil {
		return nil, fmt.Errorf("corpus spec %s: %w", name, err)
	}
	c, err := decks.GenerateCorpus(kind, decks.ShuffleGenerator{Shuffle: seq}, s.Seed, s.Count)
	if err != nil {
		return nil, fmt.Errorf("corpus spec %s: %w", name, err)
	}
	text, err := c.MarshalText()
	if err != nil {
		return nil, fmt.Errorf("corpus spec %s: %w", name, err)
	}
	// Read back what calcsol would write: the checksum and every check of a corpus file.
	c, err = decks.ReadCorpus(bytes.NewReader(text), name)
	if err != nil {
		return nil, err
	}
	return fromCorpus(c, name)
}

// LoadCorpus reads the corpus arg names: a corpus spec (a .yaml or .yml
// file, or a spec shipped under that name through specs), a corpus file, or
// a corpus built into calcsol ("uniform-30000").
func LoadCorpus(arg string, specs func(name string) ([]byte, bool)) (*Corpus, error) {
	if strings.HasSuffix(arg, ".yaml") || strings.HasSuffix(arg, ".yml") {
		data, err := os.ReadFile(arg)
		if err != nil {
			return nil, err
		}
		s, err := ParseCorpusSpec(data, arg)
		if err != nil {
			return nil, err
		}
		return s.Generate(arg)
	}
	data, err := os.ReadFile(arg)
	switch {
	case err == nil:
	case errors.Is(err, fs.ErrNotExist):
		if specs != nil {
			if b, ok := specs(arg); ok {
				s, err := ParseCorpusSpec(b, arg)
				if err != nil {
					return nil, err
				}
				return s.Generate(arg)
			}
		}
		b, eerr := corpora.Bytes(arg)
		if eerr != nil {
			return nil, fmt.Errorf("corpus %s: no such file, spec or built-in corpus (%v)", arg, eerr)
		}
		data = b
	default:
		return nil, err
	}
	c, err := decks.ReadCorpus(bytes.NewReader(data), arg)
	if err != nil {
		return nil, err
	}
	return fromCorpus(c, arg)
}

// fromCorpus turns a standard52 corpus into Calculation decks.
func fromCorpus(c *decks.Corpus, name string) (*Corpus, error) {
	if c.Kind != decks.Standard52 {
		return nil, fmt.Errorf("corpus %s: deck kind %s: Calculation needs standard52", name, c.Kind.Name())
	}
	about := fmt.Sprintf("%s, %d decks", c.Kind.Name(), len(c.Decks))
	if c.Generator != "" {
		about = fmt.Sprintf("%s, %s, %d decks, seed %d", c.Kind.Name(), c.Generator, len(c.Decks), c.Seed)
	}
	out := &Corpus{Name: name, About: about, Checksum: c.Checksum, Decks: make([]solver.Deck, len(c.Decks))}
	for j, d := range c.Decks {
		for i, id := range d {
			out.Decks[j][i] = solver.Rank(id%13 + 1)
		}
	}
	return out, nil
}
