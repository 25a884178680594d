package corpus

import (
	"fmt"
	"strings"

	"github.com/calcsol/calcsol/decks/cards"
	"github.com/calcsol/calcsol/decks/deal"
	"github.com/calcsol/calcsol/decks/shuffle"
)

// ParseGenerator reads a generator spec as written in a corpus header:
//
//	shuffle SEQUENCE   a shuffle sequence (docs/shuffles-models.md: "shuffle U", "shuffle HDHRDHH"),
//	                   its models built from p
//	deal PARAMS          a deal generator (docs/corpora.md: "deal players=4,adjust=50,target=pairs"),
//	                   see deal.ParseSpec
func ParseGenerator(spec string, p shuffle.Params) (Generator, error) {
	word, rest, _ := strings.Cut(strings.TrimSpace(spec), " ")
	rest = strings.TrimSpace(rest)
	switch word {
	case "shuffle":
		seq, err := shuffle.ParseSequence(rest, p)
		if err != nil {
			return nil, err
		}
		return ShuffleGenerator{seq}, nil
	case "deal":
		return deal.ParseSpec(rest)
	}
	return nil, fmt.Errorf("generator %q: want \"shuffle SEQUENCE\" or \"deal PARAMS\"", spec)
}

// Regenerate makes the corpus that c's header names: same kind, generator
// spec (its shuffle models built from p) and seed, as many decks as c holds.
func Regenerate(c *Corpus, p shuffle.Params) (*Corpus, error) {
	if c.Generator == "" {
		return nil, fmt.Errorf("no generator in the header: nothing to regenerate from")
	}
	g, err := ParseGenerator(c.Generator, p)
	if err != nil {
		if c.GeneratorLine > 0 {
			return nil, fmt.Errorf("line %d: generator %q: %w", c.GeneratorLine, c.Generator, err)
		}
		return nil, fmt.Errorf("generator %q: %w", c.Generator, err)
	}
	out, err := Generate(c.Kind, g, c.Seed, len(c.Decks))
	if err != nil {
		return nil, err
	}
	out.RankOnly = c.RankOnly
	return out, nil
}

// Verify re-derives c from its header (Regenerate) and compares the decks:
// nil when every deck line is what the generator makes. The reader has
// already checked the count and the checksum of the file. For a rank-only
// corpus only the ranks are compared, since the suits were not written.
func Verify(c *Corpus, p shuffle.Params) error {
	want, err := Regenerate(c, p)
	if err != nil {
		return err
	}
	return sameDecks(c, want)
}

// sameDecks compares c with want, the corpus its header names.
func sameDecks(c, want *Corpus) error {
	if spec := want.Generator; spec != c.Generator {
		return fmt.Errorf("generator %q is written %q in canonical form; regenerated decks cannot match byte for byte", c.Generator, spec)
	}
	for j := range c.Decks {
		got, w := c.Decks[j], want.Decks[j]
		for i := range got {
			same := got[i] == w[i]
			if c.RankOnly {
				same = got[i]%13 == w[i]%13
			}
			if !same {
				return fmt.Errorf("deck %d card %d: %s in the file, %s regenerated from %q seed %d",
					j+1, i+1, c.cardString(got[i]), c.cardString(w[i]), c.Generator, c.Seed)
			}
		}
	}
	return nil
}

func (c *Corpus) cardString(id int) string {
	if c.RankOnly {
		return string(cards.RankOf(id).String()[0])
	}
	return c.Kind.FormatCard(id)
}
