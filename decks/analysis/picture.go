package analysis

import (
	"bufio"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"math"
)

// Pictures of a position matrix. Row i (top to bottom) is the
// card's start position i+1, column j (left to right) its end position j+1,
// so the unshuffled deck is the black diagonal from the top left.

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

// CellPixels is the side in pixels of one matrix cell in the PNG pictures:
// about 320 pixels across whatever n is.
func CellPixels(n int) int { return max(1, 320/n) }

// GreyImage draws the probability matrix p (row-major n×n) in grey with more
// contrast than the PGM average: black at p ≥ 4/n, white at p = 0, linear in
// between, so a uniform cell (p = 1/n) is light grey (191) and structure
// shows up; each cell is CellPixels(n) pixels square.
func GreyImage(p []float64, n int) *image.Gray {
	c := CellPixels(n)
	img := image.NewGray(image.Rect(0, 0, n*c, n*c))
	for i := range n {
		for j := range n {
			v := 255 * (1 - min(1, p[i*n+j]*float64(n)/4))
			fill(img, i, j, c, color.Gray{Y: uint8(math.Round(v))})
		}
	}
	return img
}

// Colours of the blue/white/red picture.
var (
	ColourBlue  = color.RGBA{R: 0x1f, G: 0x4e, B: 0xd8, A: 0xff}
	ColourWhite = color.RGBA{R: 0xff, G: 0xff, B: 0xff, A: 0xff}
	ColourRed   = color.RGBA{R: 0xd8, G: 0x1f, B: 0x1f, A: 0xff}
)

// BWRImage draws Ide & Okuda's picture of p against e_max: blue where
// e < −e_max (the card lands there too rarely), white where |e| ≤ e_max, red
// where e > e_max (too often).
func BWRImage(p []float64, n int, emax float64) *image.RGBA {
	c := CellPixels(n)
	img := image.NewRGBA(image.Rect(0, 0, n*c, n*c))
	u := 1 / float64(n)
	for i := range n {
		for j := range n {
			col := ColourWhite
			switch colour(p[i*n+j]-u, emax) {
			case Blue:
				col = ColourBlue
			case Red:
				col = ColourRed
			}
			fill(img, i, j, c, col)
		}
	}
	return img
}

func fill(img interface{ Set(x, y int, c color.Color) }, i, j, c int, col color.Color) {
	for y := i * c; y < (i+1)*c; y++ {
		for x := j * c; x < (j+1)*c; x++ {
			img.Set(x, y, col)
		}
	}
}

// WritePNG encodes an image as PNG.
func WritePNG(w io.Writer, img image.Image) error {
	return png.Encode(w, img)
}
