// Package analysis measures how well a shuffle mixes a deck: the
// position matrix over many independent sets, the blue/white/red
// classification and the convergence rate C of Ide & Okuda, the e_max
// calibration, per-deck statistics (rising sequences, adjacent pairs, the
// guess-the-next-card score), a χ² test, pictures, an exhaustive search over
// short sequences of methods, and exact results for the Gilbert–Shannon–Reeds
// riffle (the single-card Markov chain and the Bayer–Diaconis total variation
// distance).
//
// It depends only on package shuffle (the Shuffler interface and NewRand), the
// standard library and gonum's distributions.
package analysis

import (
	"fmt"
	"math"
)

// Matrix is a position matrix: Count[i*N+j] is the number of sets in
// which the card that started at position i+1 ended at position j+1.
// Positions are numbered from the top; row i is the card's start, column j its
// end.
type Matrix struct {
	N     int
	Sets  int64
	Count []int64
}

// NewMatrix returns an empty n×n position matrix.
func NewMatrix(n int) *Matrix {
	return &Matrix{N: n, Count: make([]int64, n*n)}
}

// P is p[i][j] = t[i][j]/s, the observed probability that the card starting
// at position i+1 ends at position j+1.
func (m *Matrix) P(i, j int) float64 {
	if m.Sets == 0 {
		return 0
	}
	return float64(m.Count[i*m.N+j]) / float64(m.Sets)
}

// E is e[i][j] = p[i][j] − 1/n, the deviation from a perfectly mixed deck.
func (m *Matrix) E(i, j int) float64 {
	return m.P(i, j) - 1/float64(m.N)
}

// MaxAbsE is max over all cells of |e[i][j]|.
func (m *Matrix) MaxAbsE() float64 {
	return MaxAbsE(m.Probabilities())
}

// Probabilities returns p as a row-major n×n slice.
func (m *Matrix) Probabilities() []float64 {
	p := make([]float64, len(m.Count))
	for k, c := range m.Count {
		p[k] = float64(c) / float64(m.Sets)
	}
	return p
}

// MaxAbsE is max |p[k] − 1/n| over a row-major n×n probability matrix.
func MaxAbsE(p []float64) float64 {
	n := int(math.Round(math.Sqrt(float64(len(p)))))
	u := 1 / float64(n)
	worst := 0.0
	for _, x := range p {
		worst = max(worst, math.Abs(x-u))
	}
	return worst
}

// Cell colours of Ide & Okuda's picture.
const (
	White = 0 // |e| ≤ e_max
	Blue  = 1 // e < −e_max: the card lands there too rarely
	Red   = 2 // e > e_max: the card lands there too often
)

// Classification counts the blue, white and red cells against e_max.
type Classification struct {
	N     int
	Emax  float64
	White int
	Blue  int
	Red   int
}

// Classify colours a row-major n×n probability matrix against e_max
// (Ide & Okuda): white |e| ≤ e_max, blue e < −e_max, red e > e_max.
func Classify(p []float64, n int, emax float64) Classification {
	c := Classification{N: n, Emax: emax}
	u := 1 / float64(n)
	for _, x := range p {
		switch colour(x-u, emax) {
		case White:
			c.White++
		case Blue:
			c.Blue++
		default:
			c.Red++
		}
	}
	return c
}

func colour(e, emax float64) int {
	switch {
	case e < -emax:
		return Blue
	case e > emax:
		return Red
	}
	return White
}

// Classify colours the matrix's cells against e_max.
func (m *Matrix) Classify(emax float64) Classification {
	return Classify(m.Probabilities(), m.N, emax)
}

// CMilli is the convergence rate C = white/n² truncated to three decimals,
// in thousandths (978 for C = 0.978). Integer arithmetic, so a matrix is
// only called 1.000 when every cell is white.
func (c Classification) CMilli() int {
	return int(int64(c.White) * 1000 / int64(c.N*c.N))
}

// C is the convergence rate truncated to three decimals (Ide & Okuda).
func (c Classification) C() float64 {
	return float64(c.CMilli()) / 1000
}

// String formats C as Ide & Okuda does: "C = 0.978(2646)".
func (c Classification) String() string {
	return "C = " + c.CText()
}

// CText is C without the "C = " prefix: "0.978(2646)".
func (c Classification) CText() string {
	k := c.CMilli()
	return fmt.Sprintf("%d.%03d(%d)", k/1000, k%1000, c.White)
}

// Add adds o's counts to m; both must have the same size.
func (m *Matrix) Add(o *Matrix) {
	m.Sets += o.Sets
	for k, c := range o.Count {
		m.Count[k] += c
	}
}
