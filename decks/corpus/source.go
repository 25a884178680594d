package corpus

import (
	"bytes"
	"errors"
	"fmt"
	"io"
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
// or a name that is neither, is an error; the latter wraps ErrNotFound. A
// file is checked line by line as it is read, with every check of Read, so
// that input that is not a corpus (binary data, /dev/zero) is refused at its
// first bad line and never read whole.
// Every command that takes "FILE or NAME" reads it through Resolve, Load,
// LoadCalculationDecks or OpenCalculation.
func Resolve(arg string) ([]byte, error) {
	return readNamed(arg, true, func(src lines) error {
		_, _, err := scanCorpus(src, arg, true, func([]int, bool) error { return nil })
		return err
	})
}

// readNamed reads the corpus arg names (see Resolve), giving its lines to
// scan as they are read, and returns its bytes when keep is set; an error
// of scan stops the reading and is returned.
func readNamed(arg string, keep bool, scan func(src lines) error) ([]byte, error) {
	f, b, err := open(arg)
	if err != nil {
		return nil, err
	}
	if f == nil {
		if err := scan(bytesLines(b)); err != nil {
			return nil, err
		}
		return b, nil
	}
	defer f.Close()
	if !keep {
		return nil, scan(readerLines(f, arg))
	}
	var data bytes.Buffer
	if err := scan(readerLines(io.TeeReader(f, &data), arg)); err != nil {
		return nil, err
	}
	return data.Bytes(), nil
}

// open finds the corpus arg names: the file, opened, when there is one,
// else the bytes of the shipped corpus of that name. A directory, or a name
// that is neither, is an error.
func open(arg string) (*os.File, []byte, error) {
	f, err := os.Open(arg)
	if errors.Is(err, os.ErrNotExist) {
		b, err := corpora.Bytes(arg)
		if err != nil {
			return nil, nil, notFound(arg)
		}
		return nil, b, nil
	}
	if err != nil {
		return nil, nil, fmt.Errorf("corpus: %w", err)
	}
	if st, err := f.Stat(); err == nil && st.IsDir() {
		f.Close()
		return nil, nil, fmt.Errorf("corpus %s: a directory, not a corpus file", arg)
	}
	return f, nil, nil
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
	var c *Corpus
	data, err := readNamed(arg, true, func(src lines) error {
		var err error
		c, err = parseLines(src, arg, 0)
		return err
	})
	if err != nil {
		return nil, nil, err
	}
	return c, data, nil
}

// LoadCalculationDecks reads the Calculation decks of the standard52 corpus
// arg names (see Resolve), with every check of ReadCalculationDecks: what
// an evaluation plays.
func LoadCalculationDecks(arg string) ([]solver.Deck, error) {
	var ds []solver.Deck
	_, err := readNamed(arg, false, func(src lines) error {
		var err error
		ds, err = calculationDecks(src, arg, 0)
		return err
	})
	return ds, err
}
