package corpus

import (
	"fmt"
	"math/rand/v2"

	"github.com/calcsol/calcsol/decks/cards"
	"github.com/calcsol/calcsol/decks/shuffle"
)

// Generator makes the decks of a corpus from fresh decks.
type Generator interface {
	// Spec names the generator in a corpus header: "shuffle U",
	// "deal players=4,adjust=50,target=pairs". ParseGenerator reads it back.
	Spec() string
	// Supports reports whether the generator can make decks of kind k.
	Supports(k cards.Kind) bool
	// Generate turns deck, a fresh deck (identities 0..n-1 in order), into
	// the next deck of the corpus in place, drawing randomness from r only.
	Generate(deck []int, r *rand.Rand)
}

// ShuffleGenerator makes each deck by applying a shuffle (a Sequence, SPEC §5)
// to a fresh deck. Its spec is "shuffle " followed by the sequence.
type ShuffleGenerator struct{ Shuffle shuffle.Shuffler }

// Spec implements Generator.
func (g ShuffleGenerator) Spec() string { return "shuffle " + g.Shuffle.String() }

// Supports implements Generator: a shuffle works on any deck.
func (g ShuffleGenerator) Supports(cards.Kind) bool { return true }

// Generate implements Generator.
func (g ShuffleGenerator) Generate(deck []int, r *rand.Rand) { g.Shuffle.Shuffle(deck, r) }

// Generate makes count ≥ 1 decks of kind k. One generator shuffle.NewRand(seed) is
// consumed in deck order: deck 1 is made from a fresh deck with the first
// numbers it yields, deck 2 continues where deck 1 stopped, and so on. So deck
// j depends on every deck before it, and the same kind, generator spec and
// seed give the same corpus, byte for byte, on every machine.
func Generate(k cards.Kind, g Generator, seed uint64, count int) (*Corpus, error) {
	if !k.Valid() {
		return nil, fmt.Errorf("invalid deck kind %d", uint8(k))
	}
	if !g.Supports(k) {
		return nil, fmt.Errorf("generator %q cannot make %s decks", g.Spec(), k.Name())
	}
	if count < 1 {
		return nil, fmt.Errorf("count %d: want at least 1 deck", count)
	}
	n := k.Size()
	r := shuffle.NewRand(seed)
	flat := make([]int, count*n)
	c := &Corpus{Kind: k, Generator: g.Spec(), Seed: seed, Decks: make([][]int, count)}
	for j := range c.Decks {
		d := flat[j*n : (j+1)*n : (j+1)*n]
		for i := range d {
			d[i] = i
		}
		g.Generate(d, r)
		c.Decks[j] = d
	}
	return c, nil
}
