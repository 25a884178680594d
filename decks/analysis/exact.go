package analysis

import (
	"fmt"
	"math"
	"math/big"
)

// GSRKernel is the exact one-step transition matrix of a single card's
// position under one Gilbert–Shannon–Reeds riffle of n cards (row-major,
// 0-based: K[i*n+j] = P(card at position i+1 goes to position j+1)).
//
// Derivation. A GSR riffle is uniform over the 2^n words w ∈ {A,B}^n giving,
// for each final position, the packet its card comes from (Bayer & Diaconis
// 1992, §2: cut c ~ Binomial(n, 1/2), then every interleaving of the packets
// equally likely, is the same as a uniform word with c letters A). Packet A
// is the top c cards, laid into the A positions in order; packet B the rest.
// With 1-based positions, a card starting at i:
//
//   - is the i-th A (so c ≥ i) and lands on j when w has i−1 A's among its
//     first j−1 letters, A at j, and anything after: C(j−1, i−1)·2^(n−j)
//     words, probability C(j−1, i−1)/2^j (j ≥ i);
//   - is the (i−c)-th B (c < i) and lands on j when the first j−1 letters
//     hold i−c−1 B's, w_j = B, and the last n−j letters hold the remaining
//     i−j A's; summing over c = 0..i−1 frees the first j−1 letters:
//     2^(j−1)·C(n−j, i−j) words, probability C(n−j, i−j)/2^(n−j+1) (j ≤ i).
//
// K(i,j) is the sum of the two terms; row i sums to P(c ≥ i) + P(c < i) = 1.
func GSRKernel(n int) []float64 {
	k := make([]float64, n*n)
	for i := 1; i <= n; i++ {
		for j := 1; j <= n; j++ {
			p := 0.0
			if j >= i {
				p += math.Exp(logBinom(j-1, i-1) - float64(j)*math.Ln2)
			}
			if j <= i {
				p += math.Exp(logBinom(n-j, i-j) - float64(n-j+1)*math.Ln2)
			}
			k[(i-1)*n+j-1] = p
		}
	}
	return k
}

// GSRKernelRat is GSRKernel in exact rational arithmetic (for tests and
// small n).
func GSRKernelRat(n int) []*big.Rat {
	k := make([]*big.Rat, n*n)
	for i := 1; i <= n; i++ {
		for j := 1; j <= n; j++ {
			p := new(big.Rat)
			if j >= i {
				p.Add(p, new(big.Rat).SetFrac(new(big.Int).Binomial(int64(j-1), int64(i-1)), pow2(j)))
			}
			if j <= i {
				p.Add(p, new(big.Rat).SetFrac(new(big.Int).Binomial(int64(n-j), int64(i-j)), pow2(n-j+1)))
			}
			k[(i-1)*n+j-1] = p
		}
	}
	return k
}

func pow2(e int) *big.Int { return new(big.Int).Lsh(big.NewInt(1), uint(e)) }

func logBinom(n, k int) float64 {
	a, _ := math.Lgamma(float64(n + 1))
	b, _ := math.Lgamma(float64(k + 1))
	c, _ := math.Lgamma(float64(n - k + 1))
	return a - b - c
}

// RiffleMatrix is the exact single-card position matrix after k GSR
// riffles: the k-th power of GSRKernel(n), computed in float64 (the entries
// are probabilities, rounding error is ~1e-15). k = 0 gives the identity.
func RiffleMatrix(n, k int) []float64 {
	step := GSRKernel(n)
	m := make([]float64, n*n)
	for i := range n {
		m[i*n+i] = 1
	}
	for range k {
		m = matMul(m, step, n)
	}
	return m
}

func matMul(a, b []float64, n int) []float64 {
	c := make([]float64, n*n)
	for i := range n {
		for l := range n {
			x := a[i*n+l]
			if x == 0 {
				continue
			}
			row := c[i*n : (i+1)*n]
			for j, y := range b[l*n : (l+1)*n] {
				row[j] += float64(x * y) // explicit rounding: no FMA, same bits everywhere
			}
		}
	}
	return c
}

// Eulerian returns the Eulerian numbers A(n, 0..n−1): A(n, m) permutations of
// n cards have m descents, i.e. m+1 rising sequences (their inverses do;
// inversion is a bijection). Recurrence A(n,m) = (m+1)A(n−1,m) + (n−m)A(n−1,m−1).
func Eulerian(n int) []*big.Int {
	row := []*big.Int{big.NewInt(1)} // n = 1
	for size := 2; size <= n; size++ {
		next := make([]*big.Int, size)
		for m := range size {
			v := new(big.Int)
			if m < size-1 {
				v.Mul(big.NewInt(int64(m+1)), row[m])
			}
			if m > 0 {
				v.Add(v, new(big.Int).Mul(big.NewInt(int64(size-m)), row[m-1]))
			}
			next[m] = v
		}
		row = next
	}
	return row
}

// RiffleTV is the exact total variation distance between k GSR riffles of n
// cards and the uniform distribution (Bayer & Diaconis 1992, Theorem 1 and
// §3): k riffles are one a-shuffle with a = 2^k, which gives every
// permutation with r rising sequences probability C(n+a−r, n)/a^n, and A(n,
// r−1) permutations have r rising sequences, so
//
//	TV = ½ Σ_{r=1..n} A(n, r−1) · |C(n+a−r, n)/a^n − 1/n!|.
//
// Computed exactly in math/big.
func RiffleTV(n, k int) (*big.Rat, error) {
	if n < 1 || k < 0 {
		return nil, fmt.Errorf("riffle TV: need n ≥ 1 and k ≥ 0, got n=%d k=%d", n, k)
	}
	if k > 62 {
		return nil, fmt.Errorf("riffle TV: k=%d riffles is too many for a = 2^k", k)
	}
	a := int64(1) << uint(k)
	an := new(big.Int).Exp(big.NewInt(a), big.NewInt(int64(n)), nil)
	nfact := new(big.Int).MulRange(1, int64(n))
	// Over the common denominator a^n·n!, the term for r is
	// A(n,r−1)·|C(n+a−r, n)·n! − a^n|.
	sum := new(big.Int)
	t := new(big.Int)
	for r, e := range Eulerian(n) {
		rr := int64(r + 1)
		t.SetInt64(0)
		if rr <= a {
			t.Binomial(int64(n)+a-rr, int64(n))
			t.Mul(t, nfact)
		}
		t.Sub(t, an)
		t.Abs(t)
		t.Mul(t, e)
		sum.Add(sum, t)
	}
	den := new(big.Int).Mul(an, nfact)
	den.Lsh(den, 1)
	return new(big.Rat).SetFrac(sum, den), nil
}
