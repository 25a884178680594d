package strategies

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"

	"github.com/calcsol/calcsol/solver"
)

// Fingerprinter is a strategy whose games depend on more than its spec
// says: on the content of files it reads (a priority table, a plugin's
// program). WriteFingerprint writes that content for the rules the strategy
// will play, in a canonical form where the file has one (a table as parsed,
// so that a comment-only edit changes nothing).
type Fingerprinter interface {
	WriteFingerprint(w io.Writer, rules []solver.Rules) error
}

// Wrapper is a strategy built around a base strategy (a wrapper kind's):
// the fingerprint covers the base too.
type Wrapper interface {
	Unwrap() solver.Strategy
}

// Fingerprint identifies everything that decides a strategy's games under
// rules: its canonical spec and what every layer, from the outermost
// wrapper to the base, reads (Fingerprinter). Equal fingerprints mean the
// same games; a changed table or plugin program changes it however deeply
// it is wrapped. It is 16 hex digits of a SHA-256.
func Fingerprint(s solver.Strategy, spec string, rules []solver.Rules) (string, error) {
	h := sha256.New()
	fmt.Fprintf(h, "%s\n", spec)
	if err := WriteLayers(h, s, rules); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil))[:16], nil
}

// WriteLayers writes the fingerprint content of s and of each base it wraps,
// outermost first: what a wrapper that plays other strategies (the sampling
// player's alternative tables) writes for them.
func WriteLayers(w io.Writer, s solver.Strategy, rules []solver.Rules) error {
	for s != nil {
		if f, ok := s.(Fingerprinter); ok {
			if err := f.WriteFingerprint(w, rules); err != nil {
				return fmt.Errorf("fingerprint of %s: %w", s.Info().Name, err)
			}
		}
		u, ok := s.(Wrapper)
		if !ok {
			return nil
		}
		s = u.Unwrap()
	}
	return nil
}

// WriteCanonical writes what of t decides a game — its stacks, options and
// operations — one line each; its name and source text do not.
func (t *Table) WriteCanonical(w io.Writer) {
	fmt.Fprintf(w, "table stacks=%s %s\n", t.Stacks, t.Options)
	for k := solver.Rank(1); k <= solver.NumRanks; k++ {
		fmt.Fprintf(w, "%s: %s\n", k, FormatOps(t.Ops[k]))
	}
}
