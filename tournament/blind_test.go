package tournament

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/calcsol/calcsol/decks/corpus"
	"github.com/calcsol/calcsol/solver"
	"github.com/calcsol/calcsol/tournament/stats"
)

const (
	testSeedA = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff"
	testSeedB = "ffeeddccbbaa99887766554433221100ffeeddccbbaa99887766554433221100"
)

func testBlind(t *testing.T, seed string) *Blind {
	t.Helper()
	b, err := ParseBlindSeed(seed)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestBlindSeed(t *testing.T) {
	b := testBlind(t, testSeedA)
	if b.Seed() != testSeedA {
		t.Errorf("Seed() = %s, want %s", b.Seed(), testSeedA)
	}
	// sha256 of the 32 bytes, as `xxd -r -p | sha256sum` gives it.
	if got, want := b.Commitment(), "4773d12e2371bb935b9a0f5439b4a1c3ad3f2414b86980f8418d1cfabdfadfef"; got != want {
		t.Errorf("Commitment() = %s, want %s", got, want)
	}
	for _, bad := range []string{"", "00", strings.Repeat("zz", 32), testSeedA + "00"} {
		if _, err := ParseBlindSeed(bad); err == nil {
			t.Errorf("ParseBlindSeed(%q): no error", bad)
		}
	}
	n1, err := NewBlind()
	if err != nil {
		t.Fatal(err)
	}
	n2, _ := NewBlind()
	if n1.Seed() == n2.Seed() {
		t.Error("two new secrets are equal")
	}
}

// A corpus drawn blind is the generator's corpus with the derived seed,
// other for another secret or name, and its source does not show the seed.
func TestBlindDraw(t *testing.T) {
	a, b := testBlind(t, testSeedA), testBlind(t, testSeedB)
	ca, err := a.Draw("u", "shuffle U", 50, "shipped uniform-1000")
	if err != nil {
		t.Fatal(err)
	}
	want, err := corpus.GenerateCalculation("u", "shuffle U", a.CorpusSeed("u"), 50)
	if err != nil {
		t.Fatal(err)
	}
	if ca.Checksum != want.Checksum || ca.Len != 50 {
		t.Errorf("drawn corpus sha256 %s, want the generator's %s", ca.Checksum, want.Checksum)
	}
	if strings.Contains(ca.Source, "seed") || !strings.Contains(ca.Source, "shuffle U count 50") {
		t.Errorf("source %q shows the seed or hides the generator", ca.Source)
	}
	cb, _ := b.Draw("u", "shuffle U", 50, "")
	cv, _ := a.Draw("v", "shuffle U", 50, "")
	if cb.Checksum == ca.Checksum || cv.Checksum == ca.Checksum {
		t.Error("another secret or corpus name draws the same decks")
	}
	if _, err := a.Draw("x", "shuffle Q", 5, ""); err == nil {
		t.Error("a bad generator: no error")
	}
}

// The game ids of a cell are a permutation: no two decks share one, and
// they are not the deck indices.
func TestBlindGameIDs(t *testing.T) {
	ids := testBlind(t, testSeedA).GameIDs("cell")
	seen := map[solver.GameID]int{}
	small := 0
	for d := range 20_000 {
		id := ids(d)
		if prev, dup := seen[id]; dup {
			t.Fatalf("decks %d and %d share id %d", prev, d, id)
		}
		seen[id] = d
		if id < 1<<32 {
			small++
		}
	}
	if small > 5 { // about 0.005 expected from a random permutation
		t.Errorf("%d of 20000 ids below 2^32", small)
	}
}

// recorder is greedy, and records the game ids and seeds it is asked about.
type recorder struct {
	mu    sync.Mutex
	ids   map[solver.GameID]bool
	seeds map[uint64]bool
}

func (r *recorder) Info() solver.Info { return solver.Info{Name: "recorder"} }
func (r *recorder) Start(context.Context, solver.Rules) (solver.Session, error) {
	return &recording{r: r}, nil
}

type recording struct{ r *recorder }

func (s *recording) Decide(_ context.Context, reqs []solver.Request, out []solver.Decision) error {
	s.r.mu.Lock()
	for _, rq := range reqs {
		s.r.ids[rq.Game] = true
		s.r.seeds[rq.Seed] = true
	}
	s.r.mu.Unlock()
	for i := range reqs {
		m, _ := greedy{}.Choose(reqs[i].Position)
		out[i] = solver.Decision{Move: m}
	}
	return nil
}
func (s *recording) End(context.Context, []solver.GameID) error { return nil }
func (s *recording) Close() error                               { return nil }

func blindPlan(t *testing.T, b *Blind, rec *recorder) Plan {
	t.Helper()
	c, err := b.Draw("u", "shuffle U", 300, "")
	if err != nil {
		t.Fatal(err)
	}
	return Plan{Entrants: []Entrant{{Name: "greedy", Strategy: newGreedy()}, {Name: "rec", Strategy: rec, Batch: 8}},
		Corpora: []*Corpus{c}, Variants: []Variant{{Rules: solver.Rules{Stacks: 4}}}, Blind: b}
}

func records(t *testing.T, tt *Tournament, opt RunOptions) []Record {
	t.Helper()
	var out []Record
	if err := tt.Run(context.Background(), SinkFunc(func(recs []Record) error {
		for _, r := range recs {
			r.Micros = 0
			out = append(out, r)
		}
		return nil
	}), opt); err != nil {
		t.Fatal(err)
	}
	return out
}

// A blind tournament plays each deck once, in a secret order, shows no
// strategy a deck index, and a resumed run ends with the same records.
func TestBlindTournament(t *testing.T) {
	b := testBlind(t, testSeedA)
	rec := &recorder{ids: map[solver.GameID]bool{}, seeds: map[uint64]bool{}}
	tt, err := New(context.Background(), blindPlan(t, b, rec), 1)
	if err != nil {
		t.Fatal(err)
	}
	all := records(t, tt, RunOptions{Workers: 2})
	if len(all) != 600 {
		t.Fatalf("%d records, want 600", len(all))
	}
	var decks []int
	for _, r := range all[:300] {
		decks = append(decks, r.Deck)
	}
	sorted := slices.Sorted(slices.Values(decks))
	for i, d := range sorted {
		if d != i {
			t.Fatalf("decks played: not each of 0..299 once (%d at %d)", d, i)
		}
	}
	if slices.Equal(decks, sorted) {
		t.Error("decks played in ascending order")
	}
	if len(rec.ids) != 300 {
		t.Errorf("%d distinct game ids for 300 games", len(rec.ids))
	}
	for id := range rec.ids {
		if id < 300 {
			t.Errorf("game id %d: a deck index", id)
		}
	}
	// The same plan with another run seed gives the same records; a resumed
	// run continues them exactly.
	tt2, err := New(context.Background(), blindPlan(t, testBlind(t, testSeedA), &recorder{ids: map[solver.GameID]bool{}, seeds: map[uint64]bool{}}), 1)
	if err != nil {
		t.Fatal(err)
	}
	rest := records(t, tt2, RunOptions{Workers: 1, Skip: 217})
	if !slices.Equal(append(slices.Clone(all[:217]), rest...), all) {
		t.Error("a resumed blind run does not end with the records of the whole run")
	}
	// A shard of a blind run would draw its own decks: refused.
	err = tt.Run(context.Background(), SinkFunc(func([]Record) error { return nil }), RunOptions{Shard: Shard{1, 2}})
	if err == nil || !strings.Contains(err.Error(), "cannot be sharded") {
		t.Errorf("sharded blind run: %v", err)
	}
}

// A blind plan's corpora must be drawn by its secret.
func TestBlindPlanChecks(t *testing.T) {
	a, b := testBlind(t, testSeedA), testBlind(t, testSeedB)
	plan := blindPlan(t, a, &recorder{})
	plan.Blind = b
	if _, err := New(context.Background(), plan, 1); err == nil || !strings.Contains(err.Error(), "not drawn by the run's secret") {
		t.Errorf("corpus of another secret: %v", err)
	}
	public, err := NewCorpus("p", testDecks(5, 1))
	if err != nil {
		t.Fatal(err)
	}
	plan = blindPlan(t, a, &recorder{})
	plan.Corpora = append(plan.Corpora, public)
	if _, err := New(context.Background(), plan, 1); err == nil {
		t.Error("a public corpus in a blind plan: no error")
	}
}

// A finished blind manifest verifies; a changed seed, checksum or count,
// or an unfinished run, does not.
func TestVerifyBlind(t *testing.T) {
	b := testBlind(t, testSeedA)
	tt, err := New(context.Background(), blindPlan(t, b, &recorder{}), 1)
	if err != nil {
		t.Fatal(err)
	}
	m := tt.Manifest("cfg", Shard{}, false)
	if m.Blind == nil || m.Blind.Seed != "" || m.Blind.SeedSHA256 != b.Commitment() || strings.Contains(m.Corpora[0].Source, "seed") {
		t.Fatalf("manifest before the end: %+v, corpus source %q", m.Blind, m.Corpora[0].Source)
	}
	if _, err := VerifyBlind(m); err == nil || !strings.Contains(err.Error(), "not finished") {
		t.Errorf("unfinished: %v", err)
	}
	if err := m.Reveal(testBlind(t, testSeedB)); err == nil {
		t.Error("Reveal of another secret: no error")
	}
	if err := m.Reveal(b); err != nil {
		t.Fatal(err)
	}
	cmds, err := VerifyBlind(m)
	if err != nil {
		t.Fatal(err)
	}
	if want := "calcsol corpus generate --shuffle 'U' --seed "; len(cmds) != 1 || !strings.HasPrefix(cmds[0], want) || !strings.HasSuffix(cmds[0], " \\\n    --count 300 --out blind-u.txt") {
		t.Errorf("commands %q", cmds)
	}
	for _, tc := range []struct {
		name string
		edit func(m *Manifest)
		want string
	}{
		{"seed", func(m *Manifest) { m.Blind.Seed = testSeedB }, "not the one the manifest committed to"},
		{"checksum", func(m *Manifest) { m.Corpora[0].SHA = strings.Repeat("0", 64) }, "the run played"},
		{"count", func(m *Manifest) { m.Blind.Corpora[0].Count = 299 }, "the run played"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bad := m
			bad.Blind = &ManifestBlind{SeedSHA256: m.Blind.SeedSHA256, Seed: m.Blind.Seed, Corpora: slices.Clone(m.Blind.Corpora)}
			bad.Corpora = slices.Clone(m.Corpora)
			tc.edit(&bad)
			if _, err := VerifyBlind(bad); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want %q", err, tc.want)
			}
		})
	}
	if _, err := m.Skeleton(); err == nil {
		t.Error("Skeleton of a blind manifest: no error")
	}
}

// The seed file is the owner's alone, and read back only if it is the
// seed committed to.
func TestBlindSeedFile(t *testing.T) {
	dir := t.TempDir()
	b := testBlind(t, testSeedA)
	if err := WriteBlindSeed(dir, b); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(filepath.Join(dir, BlindSeedFile))
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want 0600", st.Mode().Perm())
	}
	m := Manifest{Blind: &ManifestBlind{SeedSHA256: b.Commitment()}}
	got, err := ReadBlindSeed(dir, m)
	if err != nil || got.Seed() != b.Seed() {
		t.Fatalf("ReadBlindSeed: %v", err)
	}
	m.Blind.SeedSHA256 = testBlind(t, testSeedB).Commitment()
	if _, err := ReadBlindSeed(dir, m); err == nil {
		t.Error("a seed file of another commitment: no error")
	}
	if _, err := ReadBlindSeed(t.TempDir(), Manifest{Blind: &ManifestBlind{SeedSHA256: b.Commitment()}}); err == nil || !strings.Contains(err.Error(), "cannot go on") {
		t.Errorf("no seed file: %v", err)
	}
}

// For an honest deterministic strategy blind play changes nothing but the
// order and the ids: Single, blind or not, on the same drawn decks gives the
// same results in deck order; a blind match shows opaque ids only.
func TestBlindSingleAndMatch(t *testing.T) {
	b := testBlind(t, testSeedA)
	c, err := b.Draw("u", "shuffle U", 200, "")
	if err != nil {
		t.Fatal(err)
	}
	e := Entrant{Name: "greedy", Strategy: newGreedy()}
	v := Variant{Rules: solver.Rules{Stacks: 4}}
	_, public, err := Single(context.Background(), e, c, v, RunOptions{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	_, blind, err := Single(context.Background(), e, c, v, RunOptions{Workers: 2, Blind: b})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(public, blind) {
		t.Error("blind Single: other results, or not in deck order")
	}
	rec := &recorder{ids: map[solver.GameID]bool{}, seeds: map[uint64]bool{}}
	m, err := Match(context.Background(), rec, newGreedy(), [2]string{"rec", "greedy"},
		MatchOptions{Rules: v.Rules, Corpus: c, Test: stats.DefaultSPRT, Max: 100, OrderSeed: b.MatchOrderSeed(), GameIDs: b.GameIDs("match"), Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.ids) != m.Played {
		t.Errorf("%d distinct ids for %d decks played", len(rec.ids), m.Played)
	}
	for id := range rec.ids {
		if id < 1000 {
			t.Errorf("match game id %d: small enough to be an index", id)
		}
	}
}
