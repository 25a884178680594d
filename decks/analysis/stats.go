package analysis

import (
	"math"

	"gonum.org/v1/gonum/stat/distuv"
)

func sqrt(x float64) float64 { return math.Sqrt(x) }

// RisingSequences counts the rising sequences of a shuffled deck (Bayer &
// Diaconis 1992): maximal runs of consecutive original cards x, x+1, …, x+k
// that still appear in that order (not necessarily next to each other). It is
// 1 + the number of x with card x+1 above card x. A single riffle leaves at
// most 2; a uniform deck has (n+1)/2 on average.
func RisingSequences(deck []int) int {
	return risingSequences(deck, make([]int, len(deck)))
}

func risingSequences(deck, pos []int) int {
	for j, c := range deck {
		pos[c] = j
	}
	r := 1
	for x := 0; x+1 < len(deck); x++ {
		if pos[x+1] < pos[x] {
			r++
		}
	}
	return r
}

// AdjacentPairs counts the originally adjacent pairs still adjacent: the x
// with card x+1 lying directly below card x, in the original order. For a
// uniform deck each of the n−1 pairs survives with probability 1/n, so the
// mean is (n−1)/n.
func AdjacentPairs(deck []int) int {
	return adjacentPairs(deck, make([]int, len(deck)))
}

func adjacentPairs(deck, pos []int) int {
	for j, c := range deck {
		pos[c] = j
	}
	a := 0
	for x := 0; x+1 < len(deck); x++ {
		if pos[x+1] == pos[x]+1 {
			a++
		}
	}
	return a
}

// GuessScore plays the guess-the-next-card game on a shuffled deck and
// returns the number of correct guesses. Cards are turned up one at a time
// from the top; before each, the player names a card, and sees the card
// after guessing. Strategy (after Bayer & Diaconis 1992, §5, who use rising
// sequences this way): guess the original top card first; after card x is
// seen, guess x+1 if it is still unseen (continuing x's rising sequence),
// otherwise the lowest-numbered unseen card (the start of the next
// sequence). Every guess names an unseen card, so on a uniform deck the k-th
// guess is right with probability 1/(n−k+1) and the mean score is
// H_n = 1 + 1/2 + … + 1/n (4.54 for n = 52); the unshuffled deck scores n.
func GuessScore(deck []int) int {
	return guessScore(deck, make([]bool, len(deck)))
}

func guessScore(deck []int, seen []bool) int {
	n := len(deck)
	clear(seen)
	lowest := 0 // lowest card not yet seen
	score := 0
	guess := 0
	for _, c := range deck {
		if c == guess {
			score++
		}
		seen[c] = true
		for lowest < n && seen[lowest] {
			lowest++
		}
		if c+1 < n && !seen[c+1] {
			guess = c + 1
		} else {
			guess = lowest
		}
	}
	return score
}

// Harmonic is H_n = 1 + 1/2 + … + 1/n, the uniform deck's mean guess score.
func Harmonic(n int) float64 {
	h := 0.0
	for k := n; k >= 1; k-- {
		h += 1 / float64(k)
	}
	return h
}

// ChiSquare is the χ² test of a position matrix against the uniform
// expectation s/n in every cell.
type ChiSquare struct {
	// Pearson is Σ (t − s/n)² / (s/n) over the n² cells.
	Pearson float64
	// Stat is Pearson·(n−1)/n, the statistic tested. Each set adds a
	// permutation matrix, so rows and columns always sum to s and the
	// deviations live in an (n−1)²-dimensional space; on it a uniform
	// permutation matrix has covariance I/(n−1) (not I/n as for independent
	// cells), so Pearson ≈ n/(n−1)·χ²((n−1)²) and Stat ≈ χ²((n−1)²).
	Stat float64
	DF   int     // (n−1)²
	P    float64 // P(χ²(DF) ≥ Stat): small means "not uniform"
}

// ChiSquareTest tests whether the matrix is consistent with a uniformly
// mixed deck. Derivation of the degrees of freedom and of the (n−1)/n
// factor: see ChiSquare.Stat; TestChiSquareUniform checks the calibration
// (mean (n−1)², p-values uniform) on uniform shuffles.
func (m *Matrix) ChiSquareTest() ChiSquare {
	n := m.N
	want := float64(m.Sets) / float64(n)
	x := 0.0
	for _, c := range m.Count {
		d := float64(c) - want
		x += float64(d*d) / want
	}
	df := (n - 1) * (n - 1)
	stat := x * float64(n-1) / float64(n)
	return ChiSquare{
		Pearson: x,
		Stat:    stat,
		DF:      df,
		P:       distuv.ChiSquared{K: float64(df)}.Survival(stat),
	}
}
