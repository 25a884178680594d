// Package stats holds the statistics calcsol reports: the Wilson score
// interval of a success rate, McNemar's test in its exact and χ² forms, the
// paired difference of two rates with Newcombe's interval, Holm's
// correction for many comparisons, and the difference estimate of a rate on
// a population from a paired sample. Each cites its source.
//
// It imports only the standard library and gonum's distributions; the
// tournament, its report, tune and the commands of calcsol compute every
// interval and p-value they print here.
package stats

import (
	"errors"
	"math"
	"slices"

	"gonum.org/v1/gonum/stat/distuv"
)

// Z95 is the standard normal quantile for a two-sided 95 % interval.
const Z95 = 1.959963984540054

// Wilson returns the Wilson score interval for wins successes in n trials
// with normal quantile z (Z95 for 95 %): E. B. Wilson, "Probable inference,
// the law of succession, and statistical inference", JASA 22 (1927) 209–212;
// it is method 3 of R. G. Newcombe, "Two-sided confidence intervals for the
// single proportion: comparison of seven methods", Statistics in Medicine 17
// (1998) 857–872. Unlike the Wald interval p ± z·√(p(1−p)/n) it stays inside
// [0, 1] and keeps its coverage near 0 and 1. With n = 0 it is [0, 1].
func Wilson(wins, n int, z float64) (lo, hi float64) {
	if n <= 0 {
		return 0, 1
	}
	// Products are wrapped in float64() so that no platform fuses them into
	// FMA instructions: the printed figures must be the same everywhere.
	nf := float64(n)
	p := float64(wins) / nf
	z2 := float64(z * z)
	denom := 1 + z2/nf
	center := (p + z2/float64(2*nf)) / denom
	// half is converted too: a product stored in a variable may still be
	// fused into the center-half and center+half below.
	half := float64(z / denom * math.Sqrt(float64(p*(1-p))/nf+z2/float64(float64(4*nf)*nf)))
	lo, hi = center-half, center+half
	// At the ends the interval touches 0 or 1 exactly; rounding must not
	// move it past them.
	if wins <= 0 {
		lo = 0
	}
	if wins >= n {
		hi = 1
	}
	return max(lo, 0), min(hi, 1)
}

// Paired counts the outcomes of two players A and B on the same trials
// (decks): both won, only A, only B, neither; P is the two-sided p-value of
// McNemar's exact test on them (McNemarExact).
type Paired struct {
	Games   int
	Both    int // decks both won
	OnlyA   int // decks A won and B lost
	OnlyB   int // decks B won and A lost
	Neither int // decks both lost
	P       float64
}

// McNemarExact is the two-sided p-value of McNemar's test in its exact form:
// under the null hypothesis (both strategies equally strong) each of the
// n = b + c discordant decks is won by either one with probability 1/2, so
// p = min(1, 2·P[X ≤ min(b, c)]) with X ~ Binomial(n, 1/2).
// Q. McNemar, "Note on the sampling error of the difference between correlated
// proportions or percentages", Psychometrika 12 (1947) 153–157; the exact
// (binomial) form as in A. Agresti, Categorical Data Analysis, 3rd ed. (2013),
// ch. 11. With no discordant deck there is no evidence either way: p = 1.
func McNemarExact(b, c int) float64 {
	n := b + c
	if n <= 0 {
		return 1
	}
	k := min(b, c)
	p := 2 * distuv.Binomial{N: float64(n), P: 0.5}.CDF(float64(k))
	return min(p, 1)
}

// McNemarChi2 is the large-sample form of McNemar's test with Edwards's
// continuity correction, χ² = (|b − c| − 1)² / (b + c) on 1 degree of freedom,
// and its p-value (A. L. Edwards, Psychometrika 13 (1948) 185–187). The exact
// test (McNemarExact) is what calcsol reports; this is for comparison with
// papers that report χ².
func McNemarChi2(b, c int) (chi2, p float64, err error) {
	n := b + c
	if n <= 0 {
		return 0, 1, errors.New("mcnemar: no discordant pairs")
	}
	d := math.Max(math.Abs(float64(b-c))-1, 0)
	chi2 = float64(d*d) / float64(n)
	return chi2, distuv.ChiSquared{K: 1}.Survival(chi2), nil
}

// PairedDiff is the difference p1 − p2 between two success rates
// measured on the same trials (decks), with its 95 % interval by Newcombe's method 10
// (the hybrid score interval built from the two Wilson intervals, with the
// correlation φ of the paired outcomes): R. G. Newcombe, "Improved confidence
// intervals for the difference between binomial proportions based on paired
// data", Statistics in Medicine 17 (1998) 2635–2650 [NewcombePaired1998].
// both trials both succeeded on, onlyA only the first, onlyB only the second,
// neither neither; p1 = (both+onlyA)/n, p2 = (both+onlyB)/n.
func PairedDiff(both, onlyA, onlyB, neither int) (d, lo, hi float64) {
	n := both + onlyA + onlyB + neither
	if n == 0 {
		return 0, -1, 1
	}
	nf := float64(n)
	p1 := float64(both+onlyA) / nf
	p2 := float64(both+onlyB) / nf
	d = p1 - p2
	l1, u1 := Wilson(both+onlyA, n, Z95)
	l2, u2 := Wilson(both+onlyB, n, Z95)
	// φ, the correlation of the two outcomes; 0 when a margin is empty.
	phi := 0.0
	a, b, c, e := float64(both), float64(onlyA), float64(onlyB), float64(neither)
	if den := (a + b) * (c + e) * (a + c) * (b + e); den > 0 {
		phi = (a*e - b*c) / math.Sqrt(den)
	}
	dl := math.Sqrt(max(sq(p1-l1)-2*phi*(p1-l1)*(u2-p2)+sq(u2-p2), 0))
	du := math.Sqrt(max(sq(u1-p1)-2*phi*(u1-p1)*(p2-l2)+sq(p2-l2), 0))
	return d, max(d-dl, -1), min(d+du, 1)
}

func sq(x float64) float64 { return x * x }

// Holm adjusts p-values for multiple comparisons by Holm's step-down
// procedure (S. Holm, "A simple sequentially rejective multiple test
// procedure", Scandinavian Journal of Statistics 6 (1979) 65–70): sorted
// ascending, the i-th smallest (0-based) of m becomes max over j ≤ i of
// min(1, (m − j)·p(j)). Rejecting where the adjusted value is below α holds
// the family-wise error rate at α.
func Holm(p []float64) []float64 {
	m := len(p)
	order := make([]int, m)
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		switch {
		case p[a] < p[b]:
			return -1
		case p[a] > p[b]:
			return 1
		}
		return 0
	})
	out := make([]float64, m)
	run := 0.0
	for i, k := range order {
		run = max(run, min(1, float64(m-i)*p[k]))
		out[k] = run
	}
	return out
}

// MinEstimateSample is the fewest paired decks DifferenceEstimate's normal
// interval should be given on: below a few hundred the differences'
// distribution, mostly zeros, is too far from normal for it.
const MinEstimateSample = 200

// DifferenceEstimate estimates the win rate of a run B on a population of
// decks on which a run A is known in full (winsA of the decks) from a sample
// of them that both played (p, their paired counts there): A's rate on the
// population plus the sample's mean difference B − A, with a 95 % normal
// interval from the differences' variance and the finite population
// correction. It is W. G. Cochran's regression estimate with a preassigned
// b = 1 (Sampling Techniques, 3rd ed., Wiley, 1977, ch. 7), unbiased for a
// simple random sample of the population; a tournament shard, every N-th
// deck of a corpus of random decks, is one in effect. Its interval is much
// narrower than the sample's own Wilson interval for B when A and B win
// mostly the same decks. The estimate and its interval are clipped to
// [0, 1] (the estimate can stray out of it by chance).
func DifferenceEstimate(winsA, decks int, p Paired) (est, lo, hi float64) {
	n := p.Both + p.OnlyA + p.OnlyB + p.Neither
	if n == 0 || decks <= 0 {
		return 0, 0, 1
	}
	nf := float64(n)
	m := float64(p.OnlyB-p.OnlyA) / nf // mean of d = b − a, each −1, 0 or +1
	est = float64(winsA)/float64(decks) + m
	s2 := 0.0 // sample variance of d
	if n > 1 {
		s2 = (float64(p.OnlyA+p.OnlyB) - nf*m*m) / (nf - 1)
	}
	se := math.Sqrt(max(1-nf/float64(decks), 0) * s2 / nf)
	clip := func(x float64) float64 { return min(max(x, 0), 1) }
	return clip(est), clip(est - Z95*se), clip(est + Z95*se)
}
