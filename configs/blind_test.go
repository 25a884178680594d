package configs

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/calcsol/calcsol/tournament"
)

const deckLine = "2C 9D KH JH 4S 6C 7H 8H 3C 9S 6S JD JS 7S 9H 4C 0H 5H 3D QS 4D 9C KD 5S 7D 2H JC 0S 8S 6H QH AC AS 3H AD 3S 2D KS 2S 6D 0D AH 8C QC 5D KC 4H 8D 5C 7C QD 0C"

func TestBlindSource(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	tests := []struct {
		name, arg, spec string
		count           int
		err             string
	}{
		{"shipped", "uniform-1000", "shuffle U", 1000, ""},
		{"shipped large", "uniform-30000", "shuffle U", 30000, ""},
		{"file with count", write("c.txt", "# generator shuffle R^4\n# seed 3\n# count 7\n"+deckLine+"\n"), "shuffle R^4", 7, ""},
		{"file counted", write("n.txt", "# generator deal players=4,adjust=50,target=pairs\n"+deckLine+"\n\n"+deckLine+"\n"), "deal players=4,adjust=50,target=pairs", 2, ""},
		{"no generator", write("g.txt", "# seed 1\n"+deckLine+"\n"), "", 0, "no \"# generator\" line: a fixed list of decks"},
		{"other kind", write("k.txt", "# kind tcg60\n# generator shuffle U\n"), "", 0, "k.txt line 1: deck kind tcg60"},
		{"bad count", write("b.txt", "# generator shuffle U\n# count x\n"), "", 0, "b.txt line 2: count \"x\""},
		{"no decks", write("e.txt", "# generator shuffle U\n"), "", 0, "no deck lines"},
		{"missing", filepath.Join(dir, "none"), "", 0, "no such file"},
		{"directory", dir, "", 0, "a directory"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			spec, count, err := BlindSource(tc.arg)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Errorf("error %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil || spec != tc.spec || count != tc.count {
				t.Errorf("BlindSource = %q, %d, %v; want %q, %d", spec, count, err, tc.spec, tc.count)
			}
		})
	}
}

// The blind key is read and written back; a blind config draws each
// corpus with its secret and refuses bounds and fixed files.
func TestBlindConfig(t *testing.T) {
	dir := t.TempDir()
	fixed := filepath.Join(dir, "fixed.txt")
	if err := os.WriteFile(fixed, []byte(deckLine+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	base := "strategies: [{name: greedy, strategy: greedy}]\nrules: [{stacks: 4}]\n"
	secret, err := tournament.ParseBlindSeed(strings.Repeat("ab", 32))
	if err != nil {
		t.Fatal(err)
	}
	cfg := "blind: true\n" + base + "corpora:\n  - uniform-1000\n  - {name: g, generator: shuffle R^4, seed: 9, count: 20}\n"
	c, err := ParseTournament([]byte(cfg), "b.yaml")
	if err != nil || !c.Blind || !strings.HasPrefix(string(c.Format()), "blind: true\n") {
		t.Fatalf("blind config: %v, %+v", err, c)
	}
	tt, _, err := LoadTournamentBlind(context.Background(), []byte(cfg), "b.yaml", Strategies(), false, secret)
	if err != nil {
		t.Fatal(err)
	}
	if tt.Blind() != secret {
		t.Error("the tournament is not blind with the secret given")
	}
	cs := tt.Plan().Corpora
	if cs[0].Len != 1000 || cs[0].Checksum == "36cb8dc617403b8ae8fb97e1ae1b91879bc149250dee218dc6696fd9870621e7" || cs[1].Len != 20 {
		t.Errorf("corpora drawn: %d decks (sha256 %.12s…), %d", cs[0].Len, cs[0].Checksum, cs[1].Len)
	}
	if len(tt.Plan().Bounds) != 0 {
		t.Error("a blind plan got the shipped bounds")
	}
	// --blind on a public config; a public one stays public.
	pub := base + "corpora: [uniform-1000]\n"
	if tt, _, err := LoadTournamentBlind(context.Background(), []byte(pub), "p.yaml", Strategies(), true, nil); err != nil || tt.Blind() == nil {
		t.Errorf("--blind: %v", err)
	}
	if tt, _, err := LoadTournament(context.Background(), []byte(pub), "p.yaml", Strategies()); err != nil || tt.Blind() != nil {
		t.Errorf("public: %v", err)
	}
	for _, tc := range []struct{ name, corpora, want string }{
		{"fixed file", "[{name: f, file: " + fixed + "}]", "b.yaml:4: corpora[0] (f): corpus " + fixed + ": no \"# generator\" line"},
		{"bounds", "[{name: u, shipped: uniform-1000, bounds: [x.json]}]", "b.yaml:4: corpora[0] (u): bounds: a bound is for the decks"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := LoadTournamentBlind(context.Background(), []byte("blind: true\n"+base+"corpora: "+tc.corpora+"\n"), "b.yaml", Strategies(), false, nil)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want %q", err, tc.want)
			}
		})
	}
}

// BlindSource reads any header without failing other than with an error.
func FuzzBlindSource(f *testing.F) {
	for _, s := range []string{"# generator shuffle U\n# count 3\n", "# kind standard52\n" + deckLine, "#\n#generator\n# count -1\n", ""} {
		f.Add(s)
	}
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, body string) {
		path := filepath.Join(dir, "c.txt")
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		spec, count, err := BlindSource(path)
		if err == nil && (spec == "" || count < 1) {
			t.Errorf("%q: spec %q, count %d, no error", body, spec, count)
		}
	})
}
