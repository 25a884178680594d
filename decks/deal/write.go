package deal

// What "calcsol deal show" and "calcsol deal stats" print.

import (
	"fmt"
	"io"
	"strconv"

	"github.com/calcsol/calcsol/decks/cards"
	"github.com/calcsol/calcsol/decks/shuffle"
)

// WriteShow deals the first deck of "shuffle U" with seed as d says and
// writes every hand as dealt and as adjusted, with its measures, then the
// stock Generate gathers from them.
func WriteShow(w io.Writer, d Spec, seed uint64) error {
	stock := cards.Standard52.NewDeck()
	after := d.Deal(stock, shuffle.NewRand(seed))
	before := NewTable(stock, d.Players)
	fmt.Fprintf(w, "deal %s, seed %d: %d of %d proposed exchanges swapped cards\n", d, seed, after.Swaps, after.Proposals())
	for p := range d.Players {
		for _, x := range []struct {
			label string
			t     *Table
		}{{"dealt", before}, {"adjusted", after}} {
			h := x.t.Hands[p]
			m := MeasureHand(h)
			fmt.Fprintf(w, "player %d %-8s %-40s pairs %d triples %d quads %d runs %d\n",
				p+1, x.label, FormatHand(h), m.Pairs, m.Triples, m.Quads, m.Runs)
		}
	}
	after.Gather(stock, d.Gather)
	_, err := fmt.Fprintf(w, "stock (gather=%s): %s\n", d.Gather, cards.Standard52.FormatDeck(stock))
	return err
}

// MeansHeader heads the columns of Means.Cells.
var MeansHeader = []string{"adjust", "swaps", "proposals", "pairs", "triples", "quads", "runs", "links", "pair score", "top suit"}

// Cells is m as a table row under MeansHeader.
func (m Means) Cells() []string {
	return []string{strconv.Itoa(m.Adjust), fmt.Sprintf("%.1f", m.Swaps), fmt.Sprintf("%.1f", m.Proposals),
		fmt.Sprintf("%.3f", m.Pairs), fmt.Sprintf("%.3f", m.Triples), fmt.Sprintf("%.3f", m.Quads),
		fmt.Sprintf("%.3f", m.Runs), fmt.Sprintf("%.3f", m.Links),
		fmt.Sprintf("%.3f", m.PairScore), fmt.Sprintf("%.3f", m.TopSuit)}
}
