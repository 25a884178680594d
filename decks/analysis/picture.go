package analysis

import (
	"bufio"
	"fmt"
	"image/color"
	"io"
	"math"
)

// Pictures of a position matrix: the raw matrices as PGM here, the
// pictures for people (axes, title, colour scale) as PNG in figure.go.
// Row i (top to bottom) is the card's start position i+1, column j (left
// to right) its end position j+1, so the unshuffled deck is the black
// diagonal from the top left.

// WritePGMTrial writes one trial as Nose & Fukagawa draws it: an n×n plain PGM
// (P2), pixel (i, j) black (0) when the card that started at position i+1 is
// at position j+1 of deck, white (255) otherwise.
func WritePGMTrial(w io.Writer, deck []int) error {
	n := len(deck)
	grey := make([]uint8, n*n)
	for i := range grey {
		grey[i] = 255
	}
	for j, c := range deck {
		grey[c*n+j] = 0
	}
	return writePGM(w, n, grey, fmt.Sprintf("one trial, n=%d", n))
}

// WritePGMAverage writes the average of the trial pictures over all sets
// (Nose & Fukagawa): the grey of cell (i, j) is 255·(1 − p[i][j]) rounded, black
// where the card always lands, white where it never does. A well-mixed
// deck is almost white everywhere (p = 1/n).
func WritePGMAverage(w io.Writer, m *Matrix) error {
	p := m.Probabilities()
	grey := make([]uint8, len(p))
	for k, x := range p {
		grey[k] = uint8(math.Round(255 * (1 - x)))
	}
	return writePGM(w, m.N, grey, fmt.Sprintf("average over %d sets, n=%d", m.Sets, m.N))
}

func writePGM(w io.Writer, n int, grey []uint8, comment string) error {
	b := bufio.NewWriter(w)
	fmt.Fprintf(b, "P2\n# calcsol %s\n%d %d\n255\n", comment, n, n)
	for i := range n {
		for j := range n {
			if j > 0 {
				b.WriteByte(' ')
			}
			fmt.Fprintf(b, "%d", grey[i*n+j])
		}
		b.WriteByte('\n')
	}
	return b.Flush()
}

// Colours of the blue/white/red picture (BWRFigure), at their deepest.
var (
	ColourBlue  = color.RGBA{R: 0x1f, G: 0x4e, B: 0xd8, A: 0xff}
	ColourWhite = color.RGBA{R: 0xff, G: 0xff, B: 0xff, A: 0xff}
	ColourRed   = color.RGBA{R: 0xd8, G: 0x1f, B: 0x1f, A: 0xff}
)
