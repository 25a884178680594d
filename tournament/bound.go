package tournament

import (
	"fmt"
	"strings"

	"github.com/calcsol/calcsol/solver"
)

// Bound says which decks of a corpus a player who sees the whole stock can
// win under some rules (the clairvoyant bound, docs/clairvoyant.md): every
// deck is winnable, unwinnable, or unknown (not settled by the solver's
// budget). No fair strategy wins an unwinnable deck; its wins among the
// winnable decks say how much of what can be won it wins.
type Bound struct {
	Corpus   string // the corpus's name in the plan
	Checksum string // the corpus the verdicts are about
	Rules    solver.Rules
	Source   string // where the verdicts come from, for reports
	// Winnable and Unwinnable have a bit per deck; a deck in neither is
	// unknown.
	Winnable, Unwinnable Bitset
	Decks                int
}

// NewBound returns the bound of verdicts, one per deck in corpus order: true
// (winnable), false (unwinnable) or nil (unknown).
func NewBound(corpus, checksum string, rules solver.Rules, source string, verdicts []*bool) Bound {
	b := Bound{Corpus: corpus, Checksum: checksum, Rules: rules, Source: source,
		Winnable: NewBitset(len(verdicts)), Unwinnable: NewBitset(len(verdicts)), Decks: len(verdicts)}
	for i, v := range verdicts {
		switch {
		case v == nil:
		case *v:
			b.Winnable.Set(i)
		default:
			b.Unwinnable.Set(i)
		}
	}
	return b
}

// Verdicts writes the bound as one character per deck: 'W' winnable, 'L'
// unwinnable, '?' unknown (the form a report's manifest keeps).
func (b *Bound) Verdicts() string {
	var s strings.Builder
	s.Grow(b.Decks)
	for i := range b.Decks {
		switch {
		case b.Winnable.Has(i):
			s.WriteByte('W')
		case b.Unwinnable.Has(i):
			s.WriteByte('L')
		default:
			s.WriteByte('?')
		}
	}
	return s.String()
}

// ParseVerdicts reads what Verdicts wrote.
func ParseVerdicts(corpus, checksum string, rules solver.Rules, source, verdicts string) (Bound, error) {
	v := make([]*bool, len(verdicts))
	yes, no := true, false
	for i, c := range []byte(verdicts) {
		switch c {
		case 'W':
			v[i] = &yes
		case 'L':
			v[i] = &no
		case '?':
		default:
			return Bound{}, fmt.Errorf("bound of corpus %s, deck %d: verdict %q (want W, L or ?)", corpus, i, c)
		}
	}
	return NewBound(corpus, checksum, rules, source, v), nil
}

// check tells whether b fits the plan: a corpus of the plan with the same
// decks, rules the plan plays, and no second bound for the same.
func (b *Bound) check(plan *Plan, seen map[string]bool) error {
	key := b.Corpus + " " + variantRulesKey(b.Rules)
	if seen[key] {
		return fmt.Errorf("two bounds for corpus %s, rules %s", b.Corpus, variantRulesKey(b.Rules))
	}
	seen[key] = true
	for _, c := range plan.Corpora {
		if c.Name != b.Corpus {
			continue
		}
		if c.Checksum != b.Checksum || c.Len != b.Decks {
			return fmt.Errorf("the bound %s is for other decks (%d decks, sha256 %.12s…) than corpus %s (%d decks, sha256 %.12s…)",
				b.Source, b.Decks, b.Checksum, c.Name, c.Len, c.Checksum)
		}
		return nil
	}
	return fmt.Errorf("the bound %s names corpus %s, which the plan does not have", b.Source, b.Corpus)
}

// variantRulesKey names rules as a Variant's Key does, without a budget.
func variantRulesKey(r solver.Rules) string { return Variant{Rules: r}.Key() }

// bound returns the bound for the corpus and rules of cell c, or nil.
func (t *Tournament) bound(c *Cell) *Bound {
	for i := range t.plan.Bounds {
		b := &t.plan.Bounds[i]
		if b.Corpus == c.Corpus.Name && b.Rules == c.Variant.Rules {
			return b
		}
	}
	return nil
}

// Efficiency counts one strategy's results on b's corpus (as Single returns
// them) by b's verdicts, as a tournament report does for a cell.
func (b *Bound) Efficiency(strategy string, results []DeckResult) Efficiency {
	t := CellTally{Played: NewBitset(b.Decks), Won: NewBitset(b.Decks)}
	for _, r := range results {
		t.Played.Set(r.Deck)
		t.Games++
		if r.Won {
			t.Won.Set(r.Deck)
		}
	}
	return efficiency(Row{Strategy: strategy, Corpus: b.Corpus, Rules: variantRulesKey(b.Rules)}, b, &t)
}
