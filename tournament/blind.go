package tournament

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"iter"
	mrand "math/rand/v2"
	"os"
	"path/filepath"
	"strings"

	"github.com/calcsol/calcsol/decks/corpus"
	"github.com/calcsol/calcsol/solver"
)

// Blind play (docs/tournament.md, "Blind play") is for strategies that are
// not trusted: a strategy that links calcsol can read the shipped corpora,
// and a game id that is the deck's index, or the first few cards drawn,
// tell it which deck it plays and so the whole stock. A blind run draws
// every corpus fresh from its generator with a seed no strategy can know,
// plays each corpus's decks in a secret order and shows the strategies
// opaque game ids. The seed is committed (its SHA-256) in the manifest
// before the first game and revealed in the finished report, so that anyone
// can regenerate the decks and check them (VerifyBlind).

// BlindSeedFile is the file of a blind run's report directory that keeps the
// secret seed while the run is unfinished, so that --resume can continue it
// (mode 0600; docs/tournament.md says what that protects and what not).
const BlindSeedFile = "blind-seed"

// Blind is the secret of a blind run: 32 bytes from a cryptographic source,
// from which the decks of every corpus, their order of play, the game ids
// and the games' seeds derive.
type Blind struct {
	secret [32]byte
	draws  map[string]BlindDraw // the corpora Draw made, by checksum
}

// NewBlind draws a new secret from crypto/rand.
func NewBlind() (*Blind, error) {
	var b Blind
	if _, err := rand.Read(b.secret[:]); err != nil {
		return nil, fmt.Errorf("blind: drawing the secret seed: %w", err)
	}
	return &b, nil
}

// ParseBlindSeed reads a seed as Seed writes it (64 hex digits).
func ParseBlindSeed(s string) (*Blind, error) {
	raw, err := hex.DecodeString(strings.TrimSpace(s))
	if err != nil || len(raw) != 32 {
		return nil, errors.New("blind seed: want 64 hex digits")
	}
	var b Blind
	copy(b.secret[:], raw)
	return &b, nil
}

// Seed is the secret as 64 hex digits.
func (b *Blind) Seed() string { return hex.EncodeToString(b.secret[:]) }

// Commitment is the hex SHA-256 of the secret's 32 bytes: published before
// the first game, it binds the run to its seed without revealing it.
func (b *Blind) Commitment() string {
	sum := sha256.Sum256(b.secret[:])
	return hex.EncodeToString(sum[:])
}

// derive is a key for one purpose: SHA-256 of a label, the name it is for
// and the secret.
func (b *Blind) derive(purpose, name string) [32]byte {
	h := sha256.New()
	h.Write([]byte("calcsol blind " + purpose + "\x00" + name + "\x00"))
	h.Write(b.secret[:])
	var k [32]byte
	h.Sum(k[:0])
	return k
}

func (b *Blind) derive64(purpose, name string) uint64 {
	k := b.derive(purpose, name)
	return binary.BigEndian.Uint64(k[:8])
}

// CorpusSeed is the generator seed of the corpus named name: the first 8
// bytes, big-endian, of SHA-256("calcsol blind corpus\0" name "\0" secret).
func (b *Blind) CorpusSeed(name string) uint64 { return b.derive64("corpus", name) }

// Draw makes the corpus named name afresh: count decks of generator spec,
// seeded by CorpusSeed. of says what it stands in for ("shipped
// uniform-1000"). Its Source names the generator and the count but not the
// seed, which the manifest may not show before the end.
func (b *Blind) Draw(name, spec string, count int, of string) (*Corpus, error) {
	seed := b.CorpusSeed(name)
	c, err := corpus.GenerateCalculation(name, spec, seed, count)
	if err != nil {
		return nil, err
	}
	src := strings.Replace(c.Source, fmt.Sprintf(" seed %d ", seed), " ", 1)
	c.Source = "blind " + src
	if of != "" {
		c.Source += " in place of " + of
	}
	if b.draws == nil {
		b.draws = map[string]BlindDraw{}
	}
	b.draws[c.Checksum] = BlindDraw{Generator: spec, Count: count, Checksum: c.Checksum}
	return c, nil
}

// order is the secret order in which a corpus's decks are played.
func (b *Blind) order(name string, n int) []int {
	k := b.derive("order", name)
	rng := mrand.New(mrand.NewPCG(binary.BigEndian.Uint64(k[:8]), binary.BigEndian.Uint64(k[8:16])))
	return rng.Perm(n)
}

// gameKeys are the round keys of the opaque game ids of one cell.
type gameKeys [4]uint64

func (b *Blind) gameKeys(cell string) gameKeys {
	k := b.derive("ids", cell)
	var g gameKeys
	for i := range g {
		g[i] = binary.BigEndian.Uint64(k[8*i:])
	}
	return g
}

// id is the opaque game id of deck d: a four-round Feistel network over 64
// bits keyed by the cell's keys (Luby & Rackoff, "How to construct
// pseudorandom permutations from pseudorandom functions", SIAM J. Comput.
// 17(2), 1988), a permutation, so that no two decks of a cell share an id.
func (g gameKeys) id(d int) solver.GameID {
	l, r := uint32(uint64(d)>>32), uint32(d)
	for _, k := range g {
		l, r = r, l^uint32(mix(uint64(r)^k)>>32)
	}
	return solver.GameID(uint64(l)<<32 | uint64(r))
}

// blindPlay is what a blind tournament keeps to play: each corpus's decks
// (in memory, so that they can be played in any order) and their order, and
// each cell's game-id keys.
type blindPlay struct {
	b     *Blind
	decks map[*Corpus][]solver.Deck
	order map[*Corpus][]int
	ids   []gameKeys // by cell
}

func newBlindPlay(b *Blind, t *Tournament) *blindPlay {
	bp := &blindPlay{b: b, decks: map[*Corpus][]solver.Deck{}, order: map[*Corpus][]int{}}
	for _, c := range t.plan.Corpora {
		bp.decks[c] = c.Decks()
		bp.order[c] = b.order(c.Name, c.Len)
	}
	for _, c := range t.cells {
		bp.ids = append(bp.ids, b.gameKeys(c.Entrant.Name+"\x00"+c.Corpus.Name+"\x00"+c.Variant.Key()))
	}
	return bp
}

// checkBlind checks that every corpus of a blind plan was drawn by its
// Blind, and that it has no bounds (they are for public decks).
func checkBlind(plan Plan) error {
	if plan.Blind == nil {
		return nil
	}
	for _, c := range plan.Corpora {
		if _, ok := plan.Blind.draws[c.Checksum]; !ok {
			return fmt.Errorf("blind: corpus %s was not drawn by the run's secret (Blind.Draw)", c.Name)
		}
	}
	if len(plan.Bounds) > 0 {
		return errors.New("blind: a clairvoyant bound is for decks known in advance, not for decks drawn blind")
	}
	return nil
}

// Blind is the secret of a blind tournament, nil for one on public corpora.
func (t *Tournament) Blind() *Blind {
	if t.blind == nil {
		return nil
	}
	return t.blind.b
}

// deckOrder is the order the decks of corpus c are played in: nil, ascending
// (the corpus's own order), except in a blind run.
func (t *Tournament) deckOrder(c *Corpus) []int {
	if t.blind == nil {
		return nil
	}
	return t.blind.order[c]
}

// walk yields the decks of c with their indices in the order of play.
func (t *Tournament) walk(c *Corpus) iter.Seq2[int, *solver.Deck] {
	if t.blind == nil {
		return c.All()
	}
	decks, order := t.blind.decks[c], t.blind.order[c]
	return func(yield func(int, *solver.Deck) bool) {
		for _, d := range order {
			if !yield(d, &decks[d]) {
				return
			}
		}
	}
}

// gameID is the id a strategy sees for deck d of a cell: the deck's index,
// or in a blind run an opaque one.
func (t *Tournament) gameID(cell, d int) solver.GameID {
	if t.blind == nil {
		return solver.GameID(d)
	}
	return t.blind.ids[cell].id(d)
}

// GameIDs returns the opaque game ids of a blind match or evaluation: a
// permutation of the deck indices to 64-bit ids keyed by the secret and
// name.
func (b *Blind) GameIDs(name string) func(deck int) solver.GameID {
	g := b.gameKeys(name)
	return g.id
}

// MatchOrderSeed is the seed of a blind match's order of play (MatchOrder).
func (b *Blind) MatchOrderSeed() uint64 { return b.derive64("match order", "") }

// GameSeedBase is what a blind run mixes into its run seed for the games'
// seeds, so that a strategy cannot tell the deck from its game's seed.
func (b *Blind) GameSeedBase() uint64 { return b.derive64("games", "") }

// ManifestBlind is what a manifest records of a blind run: the commitment
// from the start, the seed once the run is finished, and how each corpus was
// drawn (its generator seed also revealed at the end).
type ManifestBlind struct {
	SeedSHA256 string              `json:"seed_sha256"`
	Seed       string              `json:"seed,omitempty"`
	Corpora    []ManifestBlindDraw `json:"corpora"`
}

// ManifestBlindDraw is one corpus of a blind run: its generator spec and
// count, and, revealed, the generator seed (Blind.CorpusSeed).
type ManifestBlindDraw struct {
	Corpus    string  `json:"corpus"`
	Generator string  `json:"generator"`
	Count     int     `json:"count"`
	Seed      *uint64 `json:"seed,omitempty"`
}

// BlindDraw says how a corpus of a blind plan is drawn.
type BlindDraw struct {
	Generator string
	Count     int
	Checksum  string
}

// manifestBlind is the blind part of t's manifest, seed withheld.
func (t *Tournament) manifestBlind() *ManifestBlind {
	if t.blind == nil {
		return nil
	}
	mb := &ManifestBlind{SeedSHA256: t.blind.b.Commitment()}
	for _, c := range t.plan.Corpora {
		d := t.blind.b.draws[c.Checksum]
		mb.Corpora = append(mb.Corpora, ManifestBlindDraw{Corpus: c.Name, Generator: d.Generator, Count: d.Count})
	}
	return mb
}

// Reveal adds the seed of the blind run b to m, and each corpus's
// generator seed: what a finished report shows. It refuses a seed that is
// not the one m committed to.
func (m *Manifest) Reveal(b *Blind) error {
	if m.Blind == nil {
		return errors.New("blind: not a blind run's manifest")
	}
	if err := checkCommitment(m.Blind.SeedSHA256, b); err != nil {
		return err
	}
	m.Blind.Seed = b.Seed()
	for i := range m.Blind.Corpora {
		s := b.CorpusSeed(m.Blind.Corpora[i].Corpus)
		m.Blind.Corpora[i].Seed = &s
	}
	return nil
}

func checkCommitment(want string, b *Blind) error {
	if subtle.ConstantTimeCompare([]byte(want), []byte(b.Commitment())) != 1 {
		return fmt.Errorf("blind: seed %.12s… is not the one the manifest committed to (sha256 %.12s…)", b.Seed(), want)
	}
	return nil
}

// WriteBlindSeed keeps b in dir/blind-seed, readable by its owner only,
// written whole or not at all.
func WriteBlindSeed(dir string, b *Blind) error {
	f, err := os.CreateTemp(dir, ".blind-seed-*") // mode 0600
	if err != nil {
		return err
	}
	_, werr := f.WriteString(b.Seed() + "\n")
	if werr == nil {
		werr = f.Sync()
	}
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Rename(f.Name(), filepath.Join(dir, BlindSeedFile))
	}
	if werr != nil {
		os.Remove(f.Name())
	}
	return werr
}

// ReadBlindSeed reads the secret of the blind run whose report directory
// dir is and whose manifest is m: the seed the finished manifest reveals, or
// else dir/blind-seed; either must be the one m committed to.
func ReadBlindSeed(dir string, m Manifest) (*Blind, error) {
	if m.Blind == nil {
		return nil, errors.New("blind: not a blind run's report")
	}
	text := m.Blind.Seed
	if text == "" {
		data, err := os.ReadFile(filepath.Join(dir, BlindSeedFile))
		if err != nil {
			return nil, fmt.Errorf("blind run: its secret seed: %w (without it the run cannot go on)", err)
		}
		text = string(data)
	}
	b, err := ParseBlindSeed(text)
	if err != nil {
		return nil, fmt.Errorf("report %s: %w", dir, err)
	}
	if err := checkCommitment(m.Blind.SeedSHA256, b); err != nil {
		return nil, fmt.Errorf("report %s: %w", dir, err)
	}
	return b, nil
}

// VerifyBlind checks a finished blind run's manifest: that its revealed seed
// is the one committed to, and that every corpus drawn from it has the
// checksum and the number of decks the manifest gave it from the start. It
// returns, for each corpus, the `calcsol corpus generate` command that
// writes its decks.
func VerifyBlind(m Manifest) ([]string, error) {
	if m.Blind == nil {
		return nil, errors.New("not a blind run: its corpora are the ones its manifest names")
	}
	if m.Blind.Seed == "" {
		return nil, errors.New("the blind run is not finished: its seed is not revealed yet")
	}
	b, err := ParseBlindSeed(m.Blind.Seed)
	if err != nil {
		return nil, err
	}
	if err := checkCommitment(m.Blind.SeedSHA256, b); err != nil {
		return nil, err
	}
	sums := map[string]ManifestCorpus{}
	for _, c := range m.Corpora {
		sums[c.Name] = c
	}
	var cmds []string
	for _, d := range m.Blind.Corpora {
		mc, ok := sums[d.Corpus]
		if !ok {
			return nil, fmt.Errorf("blind corpus %s: not among the manifest's corpora", d.Corpus)
		}
		seed := b.CorpusSeed(d.Corpus)
		if d.Seed != nil && *d.Seed != seed {
			return nil, fmt.Errorf("blind corpus %s: seed %d revealed, but the secret gives %d", d.Corpus, *d.Seed, seed)
		}
		c, err := b.Draw(d.Corpus, d.Generator, d.Count, "")
		if err != nil {
			return nil, fmt.Errorf("blind corpus %s: %w", d.Corpus, err)
		}
		if c.Checksum != mc.SHA || c.Len != mc.Decks {
			return nil, fmt.Errorf("blind corpus %s: the seed gives %d decks with sha256 %.12s…; the run played %d with sha256 %.12s…",
				d.Corpus, c.Len, c.Checksum, mc.Decks, mc.SHA)
		}
		cmds = append(cmds, generateCommand(d.Generator, seed, d.Count, blindFile(d.Corpus)))
	}
	return cmds, nil
}

// generateCommand is the `calcsol corpus generate` command line that writes
// count decks of generator spec with seed to file, on two lines (a shell's
// backslash continues the first) so that it fits a terminal.
func generateCommand(spec string, seed uint64, count int, file string) string {
	kind, params, _ := strings.Cut(spec, " ")
	return fmt.Sprintf("calcsol corpus generate --%s '%s' --seed %d \\\n    --count %d --out %s", kind, params, seed, count, file)
}

// GenerateCommand is generateCommand for a blind eval or match: the command
// that writes the decks b drew for corpus name.
func (b *Blind) GenerateCommand(name, spec string, count int) string {
	return generateCommand(spec, b.CorpusSeed(name), count, blindFile(name))
}

// blindFile is the file a generate command writes a blind corpus to.
func blindFile(name string) string {
	return "blind-" + filepath.Base(strings.TrimSuffix(name, ".txt")) + ".txt"
}
