package analysis

import (
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/stat/distuv"
)

// ReferenceEmax is Ide & Okuda's calibrated e_max for n = 52 and s = 10^6
// , quoted from the paper: the **reference** value, not one
// calcsol measured. Valid only for that n and s.
const ReferenceEmax = 5.86e-4

// Calibration is the result of Ide & Okuda's e_max procedure.
type Calibration struct {
	N       int
	Sets    int64
	Repeats int
	Dropped int       // top values dropped: floor(5 % of Repeats)
	Values  []float64 // max|e| of each repeat, sorted ascending
	Emax    float64   // largest value left after dropping the top 5 %
}

// Calibrate runs Ide & Okuda's e_max procedure: shuffle uniformly
// o.Sets sets and take max|e| of the position matrix; repeat `repeats` times;
// drop the top 5 % (floor(0.05·repeats) values); the largest remaining value
// is e_max, i.e. an empirical 95 % quantile of max|e|. Repeat r is the
// o.Seed-run of Measure with seed SetSeed(o.Seed, −1−r), so repeats are
// independent and reproducible. uniform must be a uniform shuffle (U).
func Calibrate(uniform NewShuffler, o Options, repeats int) (*Calibration, error) {
	if repeats < 1 {
		return nil, fmt.Errorf("e_max calibration: repeats %d, need at least 1", repeats)
	}
	c := &Calibration{N: o.N, Sets: o.Sets, Repeats: repeats, Dropped: repeats * 5 / 100}
	for r := range repeats {
		or := o
		or.Seed = SetSeed(o.Seed, int64(-1-r))
		or.Stats = false
		res, err := Measure(uniform, or)
		if err != nil {
			return nil, fmt.Errorf("e_max calibration, repeat %d: %w", r+1, err)
		}
		c.Values = append(c.Values, res.Matrix.MaxAbsE())
	}
	slices.Sort(c.Values)
	c.Emax = c.Values[repeats-1-c.Dropped]
	return c, nil
}

// ApproxEmax approximates the calibration without simulating: each cell's
// count is close to Normal(s/n, s·(1/n)(1−1/n)), and treating the cells as
// `cells` independent ones, max|e| ≤ z·σ with probability q when
// (1 − 2·Φ̄(z))^cells = q. cells = n² − (2n − 1) = (n−1)² counts the free
// cells (rows and columns sum to s). With q = 0.95 this is the 95 % quantile
// that Ide & Okuda's procedure estimates; for n = 52, s = 10^6 it gives
// 5.862e-4 against the paper's 5.86e-4 (see docs/shuffles-analysis.md for the
// simulated check).
func ApproxEmax(n int, sets int64, q float64) float64 {
	cells := float64((n - 1) * (n - 1))
	// Per-cell tail: 2Φ̄(z) = 1 − q^(1/cells), computed without cancellation.
	tail := -math.Expm1(math.Log(q) / cells)
	z := distuv.UnitNormal.Quantile(1 - tail/2)
	p := 1 / float64(n)
	return z * math.Sqrt(p*(1-p)/float64(sets))
}
