package shuffle

// What "calcsol shuffle apply" and "calcsol shuffle costs" print.

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"math/big"
	"strconv"

	"github.com/calcsol/calcsol/internal/textblock"
)

// WriteApply writes to w, one line each, the decks Apply makes, or with
// perm their permutations, 1-based as docs/shuffles-models.md writes them:
// "π(1) π(2) … π(n)" or the cards from the top. It stops when ctx is done.
func WriteApply(ctx context.Context, w io.Writer, s Shuffler, n int, seed uint64, sets int, perm bool) error {
	bw := bufio.NewWriter(w)
	err := Apply(s, n, seed, sets, perm, func(out []int) error {
		for i, x := range out {
			if i > 0 {
				bw.WriteByte(' ')
			}
			bw.WriteString(strconv.Itoa(x + 1))
		}
		bw.WriteByte('\n')
		return ctx.Err()
	})
	if ferr := bw.Flush(); err == nil {
		err = ferr
	}
	return err
}

// RepeatRows are the table rows of repeated shuffles: the plan, the
// seconds each shuffle takes and the seconds used.
func (c Costs) RepeatRows(terms []Term) [][]string {
	var rows [][]string
	for _, t := range terms {
		each, _ := c.Of(t.Letter)
		rows = append(rows, []string{t.String(), strconv.Itoa(each), strconv.Itoa(t.Count * each)})
	}
	return rows
}

// CombinationRows are the table rows of combinations: each with its number
// of shuffles, the seconds used and its number of orderings; and the
// footer, their count and all their orderings.
func (c Costs) CombinationRows(combs []Combination) (rows [][]string, footer []string) {
	for _, comb := range combs {
		rows = append(rows, []string{comb.String(), strconv.Itoa(comb.Len()), strconv.Itoa(comb.Cost(c)), comb.NumOrderings().String()})
	}
	return rows, []string{"total", textblock.Plural(len(combs), "combination"), "", TotalOrderings(combs).String()}
}

// MaxListOrderings caps WriteOrderings: one line per ordering.
const MaxListOrderings = 1_000_000

// ErrTooManyOrderings is WriteOrderings' error for more than
// MaxListOrderings orderings.
var ErrTooManyOrderings = fmt.Errorf("more than %d", MaxListOrderings)

// WriteOrderings writes every ordering of every combination, one a line,
// or, when there are more than MaxListOrderings, nothing and an error that
// is ErrTooManyOrderings.
func WriteOrderings(w io.Writer, combs []Combination) error {
	if total := TotalOrderings(combs); total.Cmp(big.NewInt(MaxListOrderings)) > 0 {
		return fmt.Errorf("%s orderings, %w", total, ErrTooManyOrderings)
	}
	var err error
	for _, c := range combs {
		c.EachOrdering(func(s string) bool {
			_, err = fmt.Fprintln(w, s)
			return err == nil
		})
	}
	return err
}
