package tournament

import (
	"fmt"
	"strings"
)

// DefaultMaxFailedShare is the share of its games a strategy may fail in a
// run before the run counts as failed. A strategy that fails more than half
// of its games is not a weak player but one that did not play — a plugin
// that is missing or never starts, a table that errors on every move — and
// a run whose report shows it at 0 % must not look like a success.
const DefaultMaxFailedShare = 0.5

// FailedGames is how many of its games one strategy failed in a run, and
// the first of them in the run's order: its corpus, rules and deck, and
// why it failed.
type FailedGames struct {
	Strategy      string
	Failed, Games int
	Corpus, Rules string
	Deck          int
	Reason        string
}

// TooMany reports whether f failed more than maxShare of its games, or all
// of them (whatever maxShare says: a share of 1 fails only such a run).
func (f FailedGames) TooMany(maxShare float64) bool {
	return f.Games > 0 && (float64(f.Failed) > maxShare*float64(f.Games) || f.Failed == f.Games)
}

// FailuresError is a run in which some strategies failed too many of their
// games (FailedGames.TooMany): its message has one line for each, with the
// first failure's reason.
type FailuresError struct {
	MaxShare   float64
	Strategies []FailedGames
}

func (e *FailuresError) Error() string {
	lines := make([]string, len(e.Strategies))
	for i, f := range e.Strategies {
		lines[i] = fmt.Sprintf("strategy %s failed %d of %d games (%s, more than the %s allowed); the first, deck %d of %s under %s: %s",
			f.Strategy, f.Failed, f.Games, percent(float64(f.Failed)/float64(f.Games)), percent(e.MaxShare),
			f.Deck, f.Corpus, f.Rules, oneLine(f.Reason))
	}
	return strings.Join(lines, "\n")
}

// percent writes a share as a percentage, with decimals only when needed
// (50 %, 12.5 %).
func percent(share float64) string {
	return strings.TrimSuffix(strings.TrimRight(fmt.Sprintf("%.2f", 100*share), "0"), ".") + " %"
}

// oneLine joins the lines of a reason (a plugin's stderr may have several).
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// CheckFailures returns a *FailuresError naming every strategy of fs that
// failed too many of its games (FailedGames.TooMany), or nil if none did.
// maxShare must be within [0, 1].
func CheckFailures(fs []FailedGames, maxShare float64) error {
	if maxShare < 0 || maxShare > 1 {
		return fmt.Errorf("failed share %v: want 0 to 1", maxShare)
	}
	var bad []FailedGames
	for _, f := range fs {
		if f.TooMany(maxShare) {
			bad = append(bad, f)
		}
	}
	if len(bad) == 0 {
		return nil
	}
	return &FailuresError{MaxShare: maxShare, Strategies: bad}
}

// FailedGames counts the games each strategy of the tally failed, over all
// its cells, strategies in the plan's order; the first failure is the first
// in the run's order (cells in order, decks ascending).
func (ta *Tally) FailedGames() []FailedGames {
	var fs []FailedGames
	at := map[string]int{}
	for i, c := range ta.cells {
		t := &ta.tally[i]
		j, ok := at[c.Entrant.Name]
		if !ok {
			j = len(fs)
			at[c.Entrant.Name] = j
			fs = append(fs, FailedGames{Strategy: c.Entrant.Name})
		}
		f := &fs[j]
		if t.Failures > 0 && f.Failed == 0 {
			f.Corpus, f.Rules, f.Deck, f.Reason = c.Corpus.Name, c.Variant.Key(), t.FirstFailed, t.FirstReason
		}
		f.Failed += t.Failures
		f.Games += t.Games
	}
	return fs
}

// FailedGames counts the games the session's run failed, strategy by
// strategy, the records of the run it resumed included (Tally.FailedGames).
func (s *Session) FailedGames() []FailedGames { return s.tally.FailedGames() }

// FailedGames counts the games v's strategy failed on corpus.
func (v VariantResult) FailedGames(corpus string) FailedGames {
	f := FailedGames{Strategy: v.Label, Games: len(v.Results), Corpus: corpus, Rules: Variant{Rules: v.Rules}.Key()}
	for _, r := range v.Results {
		if r.Failed {
			if f.Failed == 0 {
				f.Deck, f.Reason = r.Deck, r.Reason
			}
			f.Failed++
		}
	}
	return f
}

// FailedGames counts the games each side of the match failed among the
// decks counted, the first in the order of play.
func (m *MatchResult) FailedGames() []FailedGames {
	rules := Variant{Rules: m.Rules}.Key()
	var fs []FailedGames
	for _, s := range []MatchSide{m.A, m.B} {
		fs = append(fs, FailedGames{Strategy: s.Name, Failed: s.Failures, Games: m.Decks, Corpus: m.Corpus, Rules: rules,
			Deck: s.FirstFailure.Deck, Reason: s.FirstFailure.Reason})
	}
	return fs
}
