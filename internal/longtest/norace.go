//go:build !race

package longtest

// Race is true when the test binary was built with the race detector.
const Race = false
