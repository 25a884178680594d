package stats

import (
	"math"
	"testing"
)

// wilsonRounded is Wilson with every operation rounded on its own, as the
// spec of Go requires when each product is converted explicitly: what
// Wilson must give on every platform.
func wilsonRounded(wins, n int, z float64) (lo, hi float64) {
	nf := float64(n)
	p := float64(wins) / nf
	z2 := float64(z * z)
	denom := float64(1 + float64(z2/nf))
	center := float64(float64(p+float64(z2/float64(2*nf))) / denom)
	root := math.Sqrt(float64(float64(float64(p*float64(1-p))/nf) + float64(z2/float64(float64(4*nf)*nf))))
	half := float64(float64(z/denom) * root)
	lo, hi = float64(center-half), float64(center+half)
	if wins <= 0 {
		lo = 0
	}
	if wins >= n {
		hi = 1
	}
	return max(lo, 0), min(hi, 1)
}

// Wilson must not let the compiler fuse a product into the subtraction or
// addition that uses it (arm64 does, amd64 with GOAMD64=v3 too): the
// intervals must be the same to the last bit everywhere. Run it with
// GOAMD64=v3 to see a fusing compiler at work.
func TestWilsonNoFusedMultiplyAdd(t *testing.T) {
	for _, n := range []int{1, 7, 100, 1000, 30000, 1 << 20} {
		for _, wins := range []int{0, 1, n / 3, n / 2, 2 * n / 3, n - 1, n} {
			if wins < 0 || wins > n {
				continue
			}
			lo, hi := Wilson(wins, n, Z95)
			wlo, whi := wilsonRounded(wins, n, Z95)
			if math.Float64bits(lo) != math.Float64bits(wlo) || math.Float64bits(hi) != math.Float64bits(whi) {
				t.Errorf("Wilson(%d, %d) = [%v, %v], want [%v, %v] (a fused multiply-add?)", wins, n, lo, hi, wlo, whi)
			}
		}
	}
}
