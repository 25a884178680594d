package clairvoyant

import (
	"fmt"

	"github.com/calcsol/calcsol/clairvoyant/lines"
	"github.com/calcsol/calcsol/solver"
)

// BoundCheck is what VerifyBound found.
type BoundCheck struct {
	Decks      int `json:"decks"`
	Winnable   int `json:"winnable"`   // verdicts true
	Verified   int `json:"verified"`   // of them, with a line that wins
	Unwinnable int `json:"unwinnable"` // verdicts false: no certificate to check
	Unknown    int `json:"unknown"`
	Moves      int `json:"moves"`      // moves replayed, over every line
	LineBytes  int `json:"line_bytes"` // encoded lines, in bytes
	Failed     int `json:"failed"`     // decks whose verdict and line disagree
	// First is the first deck that failed, nil when none did.
	First *DeckFailure `json:"first_failure,omitempty"`
}

// DeckFailure says why a deck of a bound file failed the check.
type DeckFailure struct {
	Deck   int    `json:"deck"` // 0-based, corpus order
	Reason string `json:"reason"`
}

func (f *DeckFailure) Error() string { return fmt.Sprintf("deck %d: %s", f.Deck, f.Reason) }

// OK reports whether every winnable verdict was verified.
func (c *BoundCheck) OK() bool { return c.Failed == 0 && c.Verified == c.Winnable }

// VerifyBound checks bound file b and its lines lf against the corpus decks
// (whose sha256 is checksum) with the rules alone: every deck marked
// winnable must have a line that, decoded (lines.Decode) and replayed
// (solver.Replay), wins it; a deck marked unwinnable or unknown must have
// none. The search plays no part. An error is returned when the files do
// not fit together (another corpus, other rules, other counts, no lines:
// ErrNoLines); a deck that fails is counted in the check. progress, if not
// nil, is told the number of decks checked so far.
func VerifyBound(b *BoundFile, lf *lines.File, checksum string, decks []solver.Deck, progress func(done int)) (*BoundCheck, error) {
	if lf == nil {
		return nil, ErrNoLines
	}
	if b.Checksum != checksum || len(decks) != b.Decks {
		return nil, fmt.Errorf("the bound file is for %d decks of corpus sha256 %.12s…, not these %d decks (sha256 %.12s…)",
			b.Decks, b.Checksum, len(decks), checksum)
	}
	if err := b.matches(lf); err != nil {
		return nil, err
	}
	rules := b.Rules()
	c := &BoundCheck{Decks: len(decks)}
	fail := func(i int, format string, args ...any) {
		c.Failed++
		if c.First == nil {
			c.First = &DeckFailure{Deck: i, Reason: fmt.Sprintf(format, args...)}
		}
	}
	for i, v := range b.Winnable {
		l := lf.Lines[i]
		c.LineBytes += len(l)
		switch {
		case v == nil:
			c.Unknown++
			if l != nil {
				fail(i, "a winning line for a deck marked unknown")
			}
		case !*v:
			c.Unwinnable++
			if l != nil {
				fail(i, "a winning line for a deck marked unwinnable")
			}
		default:
			c.Winnable++
			if l == nil {
				fail(i, "marked winnable, but has no winning line")
				break
			}
			tr, err := ReplayLine(&decks[i], rules, l)
			if err != nil {
				fail(i, "marked winnable, but its line does not win: %v", err)
				break
			}
			c.Verified++
			c.Moves += len(tr)
		}
		if progress != nil {
			progress(i + 1)
		}
	}
	return c, nil
}
