package tune

// The tuner's corpora come through package corpus, as every other
// command's: the same files, shipped corpora and generators, with the same
// checksums.

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/calcsol/calcsol/configs/yamldecode"
	deckcorpus "github.com/calcsol/calcsol/decks/corpus"
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

// ParseCorpusSpec reads a corpus spec from YAML; file names it in errors
// ("corpus spec x.yaml:4: colour: unknown key (want deck, ...)").
func ParseCorpusSpec(data []byte, file string) (CorpusSpec, error) {
	var s CorpusSpec
	if err := yamldecode.Decode(data, file, &s); err != nil {
		return s, fmt.Errorf("corpus spec %w", err)
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
// `calcsol corpus generate --deck standard52 --shuffle S --count N --seed X`
// writes, with its checksum (through deckcorpus.GenerateCalculation, the one
// generator of corpora made on the fly).
func (s CorpusSpec) Generate(name string) (*Corpus, error) {
	if s.Deck != "standard52" {
		return nil, fmt.Errorf("corpus spec %s: deck kind %s: Calculation needs standard52", name, s.Deck)
	}
	tc, err := deckcorpus.GenerateCalculation(name, "shuffle "+s.Shuffle, s.Seed, s.Count)
	if err != nil {
		return nil, fmt.Errorf("corpus spec %s: %w", name, err)
	}
	about := fmt.Sprintf("standard52, shuffle %s, %d decks, seed %d", s.Shuffle, s.Count, s.Seed)
	return &Corpus{Name: name, About: about, Checksum: tc.Checksum, Decks: tc.Decks()}, nil
}

// LoadCorpus reads the corpus arg names: a corpus spec (a .yaml or .yml
// file, or a spec shipped under that name through specs), a corpus file, or
// a corpus built into calcsol ("uniform-30000").
func LoadCorpus(arg string, specs func(name string) ([]byte, bool)) (*Corpus, error) {
	if strings.HasSuffix(arg, ".yaml") || strings.HasSuffix(arg, ".yml") {
		data, err := readSpec(arg)
		if err != nil {
			return nil, err
		}
		s, err := ParseCorpusSpec(data, arg)
		if err != nil {
			return nil, err
		}
		return s.Generate(arg)
	}
	if _, err := os.Stat(arg); err != nil && specs != nil {
		if b, ok := specs(arg); ok {
			s, err := ParseCorpusSpec(b, arg)
			if err != nil {
				return nil, err
			}
			return s.Generate(arg)
		}
	}
	tc, err := deckcorpus.OpenCalculation(arg, arg)
	if err != nil {
		return nil, err
	}
	about := fmt.Sprintf("standard52, %d decks, %s", tc.Len, tc.Source)
	ds := tc.Decks()
	if err := tc.Err(); err != nil {
		return nil, err
	}
	return &Corpus{Name: arg, About: about, Checksum: tc.Checksum, Decks: ds}, nil
}

// maxSpec is the largest corpus spec read: a spec is a few lines.
const maxSpec = 1 << 20

// readSpec reads a corpus spec file, no more than maxSpec bytes of it.
func readSpec(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxSpec+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxSpec {
		return nil, fmt.Errorf("%s: more than %d bytes: not a corpus spec", path, maxSpec)
	}
	return data, nil
}
