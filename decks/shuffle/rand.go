// Package shuffle holds the shuffle models C H R F D O U, sequences of them,
// their time costs, and the project's seeded random generator.
package shuffle

import "math/rand/v2"

// PCGStream is the PCG stream (increment) used with every seed, so that a
// seed alone names a random sequence. Changing it changes every corpus.
const PCGStream = 0x9e3779b97f4a7c15

// NewRand returns the project's seeded generator: PCG (math/rand/v2) with the
// given seed and a fixed stream. The same seed gives the same numbers on every
// machine and Go version that keeps math/rand/v2's PCG stable.
func NewRand(seed uint64) *rand.Rand {
	return rand.New(rand.NewPCG(seed, PCGStream))
}

// Shuffler permutes a deck in place. deck[0] is the top card (position 1 of
// docs/shuffles-models.md); the values are card identities, 0..n-1 for a fresh deck.
type Shuffler interface {
	Shuffle(deck []int, r *rand.Rand)
	// String names the shuffle in sequence notation ("R", "HDHRDHH", "D^1R^4").
	String() string
}
