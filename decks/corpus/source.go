package corpus

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/calcsol/calcsol/decks/corpora"
	"github.com/calcsol/calcsol/solver"
)

// ErrNotFound is what Resolve returns, wrapped, when arg is neither a file
// nor the name of a shipped corpus.
var ErrNotFound = errors.New("no such corpus")

// Resolve returns the bytes of the corpus arg names: the file at path arg
// when one exists — an existing file wins over a shipped name — else the
// shipped corpus of that name (package corpora: "uniform-30000", ".txt"
// optional), whose bytes are shared and must not be modified. A directory,
// or a name that is neither, is an error; the latter wraps ErrNotFound.
// Every command that takes "FILE or NAME" reads it through Resolve, Load or
// LoadCalculationDecks.
func Resolve(arg string) ([]byte, error) {
	if st, err := os.Stat(arg); err == nil && st.IsDir() {
		return nil, fmt.Errorf("corpus %s: a directory, not a corpus file", arg)
	}
	data, err := os.ReadFile(arg)
	if err == nil {
		return data, nil
	}
	if !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("corpus: %w", err)
	}
	if b, cerr := corpora.Bytes(arg); cerr == nil {
		return b, nil
	}
	return nil, notFound(arg)
}

// notFound is ErrNotFound for one name, said in full.
type notFound string

func (e notFound) Error() string {
	return fmt.Sprintf("corpus %s: no such file, and no shipped corpus of that name (have %s)", string(e), strings.Join(corpora.Names(), ", "))
}

func (e notFound) Is(target error) bool { return target == ErrNotFound }

// Load reads the corpus arg names (see Resolve) with every check of Read;
// it returns the raw bytes too, for comparisons byte by byte.
func Load(arg string) (*Corpus, []byte, error) {
	data, err := Resolve(arg)
	if err != nil {
		return nil, nil, err
	}
	c, err := Parse(data, arg)
	if err != nil {
		return nil, nil, err
	}
	return c, data, nil
}

// LoadCalculationDecks reads the Calculation decks of the standard52 corpus
// arg names (see Resolve), with every check of ReadCalculationDecks: what
// an evaluation plays.
func LoadCalculationDecks(arg string) ([]solver.Deck, error) {
	data, err := Resolve(arg)
	if err != nil {
		return nil, err
	}
	return ParseCalculationDecks(data, arg)
}
