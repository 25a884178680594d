package main

import (
	"errors"
	"strings"
	"testing"

	"github.com/calcsol/calcsol/decks/corpus"
	"github.com/calcsol/calcsol/decks/shuffle"
)

// badInput keeps the typed errors it is given, with %v as with %w: a
// caller can still tell a corpus error by its line.
func TestBadInputKeepsTheChain(t *testing.T) {
	_, perr := corpus.Parse([]byte("AS\n"), "c.txt")
	_, serr := shuffle.ParseSequence("HX", shuffle.DefaultParams())
	for _, format := range []string{"%v", "%w", "corpus: %v"} {
		err := badInput(format, perr)
		var pe *corpus.ParseError
		if !errors.As(err, &pe) || pe.Line != 1 {
			t.Errorf("badInput(%q): errors.As finds no *corpus.ParseError in %v", format, err)
		}
		var ie inputError
		if !errors.As(err, &ie) {
			t.Errorf("badInput(%q) is not an input error", format)
		}
	}
	err := badInput("--seq: %v", serr)
	var se *shuffle.SequenceError
	if !errors.As(err, &se) || !strings.HasPrefix(err.Error(), "--seq: ") {
		t.Errorf("badInput(--seq: %%v) = %v: no *shuffle.SequenceError in the chain", err)
	}
}
