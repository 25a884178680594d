package clairvoyant_test

import (
	"bytes"
	"testing"
)

type bytesBuffer = bytes.Buffer

// scale multiplies the number of cases the tests check: 10 with -tags slow.
var scale = 1

// cases returns n cases, scaled, and fewer with -short.
func cases(n int) int {
	if testing.Short() {
		return max(n/3, 1)
	}
	return n * scale
}
