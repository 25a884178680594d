package corpus

import (
	"testing"

	"github.com/calcsol/calcsol/decks/shuffle"
)

// FuzzParseGenerator: a generator spec that parses has a canonical form
// (Spec) that parses to a generator with the same Spec, and that canonical
// form is a fixed point; nothing panics.
func FuzzParseGenerator(f *testing.F) {
	for _, s := range []string{
		"shuffle U", "shuffle HDHRDHH", "shuffle D^1R^4", "shuffle  r^2 h ",
		"deal players=4,adjust=50,target=pairs", "deal count=swaps,adjust=-3,target=runs>pairs",
		"deal", "shuffle", "stir U", "shuffle HX", "deal players=9",
	} {
		f.Add(s)
	}
	p := shuffle.DefaultParams()
	f.Fuzz(func(t *testing.T, spec string) {
		g, err := ParseGenerator(spec, p)
		if err != nil {
			return
		}
		canon := g.Spec()
		g2, err := ParseGenerator(canon, p)
		if err != nil {
			t.Fatalf("ParseGenerator(%q) → %q does not parse: %v", spec, canon, err)
		}
		if g2.Spec() != canon {
			t.Fatalf("round trip %q → %q → %q", spec, canon, g2.Spec())
		}
	})
}
