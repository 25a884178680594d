package shuffle

import (
	"fmt"
	"math/big"
	"slices"
	"strings"
)

// Costs are the times, in seconds, that one shuffle of each letter takes by
// hand (Nose & Fukagawa, Table 1). Zero means "not costed": the cost
// generators refuse such a letter.
type Costs struct {
	C, H, R, F, D, O, U int
}

// DefaultCosts returns Nose & Fukagawa's Table 1: C 2 s, H 3 s, F 7 s, D 30 s. The
// riffle R is not in the table and is costed as the faro F. O and U
// are not in the paper and have no cost.
func DefaultCosts() Costs {
	return Costs{C: 2, H: 3, R: 7, F: 7, D: 30}
}

func (c *Costs) field(letter byte) *int {
	switch letter {
	case 'C':
		return &c.C
	case 'H':
		return &c.H
	case 'R':
		return &c.R
	case 'F':
		return &c.F
	case 'D':
		return &c.D
	case 'O':
		return &c.O
	case 'U':
		return &c.U
	}
	return nil
}

// Of returns the cost of one shuffle of letter; ok is false when the letter
// is unknown or not costed.
func (c Costs) Of(letter byte) (seconds int, ok bool) {
	f := c.field(letter)
	if f == nil || *f <= 0 {
		return 0, false
	}
	return *f, true
}

// Set sets the cost of letter; it reports an unknown letter.
func (c *Costs) Set(letter byte, seconds int) error {
	f := c.field(letter)
	if f == nil {
		return fmt.Errorf("unknown shuffle letter %q (want one of %s)", string(rune(letter)), Letters)
	}
	*f = seconds
	return nil
}

// Validate refuses negative costs.
func (c Costs) Validate() error {
	for i := range len(Letters) {
		if v := *c.field(Letters[i]); v < 0 {
			return fmt.Errorf("cost of %c: %d s is negative", Letters[i], v)
		}
	}
	return nil
}

// Term is one letter with its count in a combination: "R^4".
type Term struct {
	Letter byte
	Count  int
}

// String writes the term with its count always shown, as docs/shuffles-models.md does ("D^1", "D^0").
func (t Term) String() string { return fmt.Sprintf("%c^%d", t.Letter, t.Count) }

// Combination is a multiset of shuffles, written as docs/shuffles-models.md does: "D^1R^3H^3".
// Its orderings are the sequences that use exactly these shuffles.
type Combination []Term

func (c Combination) String() string {
	var b strings.Builder
	for _, t := range c {
		b.WriteString(t.String())
	}
	return b.String()
}

// Len is the number of single shuffles.
func (c Combination) Len() int {
	n := 0
	for _, t := range c {
		n += t.Count
	}
	return n
}

// Cost is the total time of the combination under costs (0 for uncosted letters).
func (c Combination) Cost(costs Costs) int {
	s := 0
	for _, t := range c {
		v, _ := costs.Of(t.Letter)
		s += v * t.Count
	}
	return s
}

// NumOrderings is the number of distinct orderings: the multinomial
// coefficient (Σk)! / Π k!.
func (c Combination) NumOrderings() *big.Int {
	num := new(big.Int).MulRange(1, int64(c.Len()))
	if c.Len() == 0 {
		num.SetInt64(1)
	}
	for _, t := range c {
		if t.Count > 1 {
			num.Quo(num, new(big.Int).MulRange(1, int64(t.Count)))
		}
	}
	return num
}

// EachOrdering calls f with every distinct ordering of the combination,
// spelled out letter by letter ("DRRRR", "RDRRR", …), in lexicographic
// order, until f returns false. There are NumOrderings of them.
func (c Combination) EachOrdering(f func(seq string) bool) {
	var letters []byte
	for _, t := range c {
		for range t.Count {
			letters = append(letters, t.Letter)
		}
	}
	slices.Sort(letters)
	for {
		if !f(string(letters)) {
			return
		}
		if !nextPermutation(letters) {
			return
		}
	}
}

// nextPermutation rearranges s into the next lexicographic permutation,
// skipping duplicates; it returns false after the last one.
func nextPermutation(s []byte) bool {
	i := len(s) - 2
	for i >= 0 && s[i] >= s[i+1] {
		i--
	}
	if i < 0 {
		return false
	}
	j := len(s) - 1
	for s[j] <= s[i] {
		j--
	}
	s[i], s[j] = s[j], s[i]
	slices.Reverse(s[i+1:])
	return true
}

// Repeat is the first generator of docs/shuffles-models.md: letter repeated as often as it
// fits in limit seconds (T = 60: C^30, H^20, F^8, D^2; T = 12: C^6, H^4,
// F^1, D^0).
func (c Costs) Repeat(letter byte, limit int) (Term, error) {
	cost, ok := c.Of(letter)
	if !ok {
		return Term{}, fmt.Errorf("shuffle %q has no time cost (costed: %s)", string(rune(letter)), c.costed())
	}
	if limit < 0 {
		return Term{}, fmt.Errorf("time limit %d s is negative", limit)
	}
	return Term{Letter: letter, Count: limit / cost}, nil
}

// Repeat is Costs.Repeat with DefaultCosts.
func Repeat(letter byte, limit int) (Term, error) {
	return DefaultCosts().Repeat(letter, limit)
}

// RepeatAll is Repeat for each letter of methods (case ignored), or for
// every costed letter when methods is empty: the plans of "calcsol shuffle
// costs --repeat".
func (c Costs) RepeatAll(methods string, limit int) ([]Term, error) {
	if methods == "" {
		methods = c.costed()
	}
	var out []Term
	for i := range len(methods) {
		t, err := c.Repeat(upper(methods[i]), limit)
		if err != nil {
			return nil, fmt.Errorf("methods %q: %w", methods, err)
		}
		out = append(out, t)
	}
	return out, nil
}

// TotalOrderings is the number of orderings of all the combinations.
func TotalOrderings(combs []Combination) *big.Int {
	total := new(big.Int)
	for _, c := range combs {
		total.Add(total, c.NumOrderings())
	}
	return total
}

func upper(l byte) byte {
	if l >= 'a' && l <= 'z' {
		l -= 'a' - 'A'
	}
	return l
}

func (c Costs) costed() string {
	var b strings.Builder
	for i := range len(Letters) {
		if _, ok := c.Of(Letters[i]); ok {
			b.WriteByte(Letters[i])
		}
	}
	return b.String()
}

// Limits of Maximal, so that no input makes it run unbounded: the time limit
// is at most MaxCostLimit seconds (one hour; the seeds use 12 and 60), and
// at most MaxCombinations maximal combinations are listed. Beyond that
// Maximal returns an error instead of enumerating (with costs 3, 7, 7, 2, 30
// for CHRFD, T = 600 already gives about 10^6 combinations).
const (
	MaxCostLimit    = 3600
	MaxCombinations = 100_000
)

// Maximal is the second generator of docs/shuffles-models.md: every maximal combination of
// the given letters whose total time is at most limit — maximal meaning that
// no further shuffle of any of the letters fits. With oneDeal, D is used
// exactly once (it is added if methods lacks it) and maximality concerns the
// other letters.
//
// Terms are listed by decreasing cost (ties in the order of Letters) and
// zero counts are left out; combinations come with the first term's count
// decreasing, then the next one's, and so on. For methods "HRD", limit 60
// and oneDeal this gives D^1R^4, D^1R^3H^3, D^1R^2H^5, D^1R^1H^7, D^1H^10,
// with 5 + 140 + 168 + 72 + 11 = 396 orderings.
//
// It refuses a limit above MaxCostLimit and stops with an error once more
// than MaxCombinations combinations are found; its work is proportional to
// the number of combinations (times the number of letters).
func (c Costs) Maximal(methods string, limit int, oneDeal bool) ([]Combination, error) {
	if limit < 0 {
		return nil, fmt.Errorf("time limit %d s is negative", limit)
	}
	if limit > MaxCostLimit {
		return nil, fmt.Errorf("time limit %d s: at most %d s", limit, MaxCostLimit)
	}
	var free, seen []byte
	for i := range len(methods) {
		l := upper(methods[i])
		if strings.IndexByte(Letters, l) < 0 {
			return nil, fmt.Errorf("methods %q: unknown shuffle letter %q (want some of %s)", methods, string(rune(methods[i])), Letters)
		}
		if _, ok := c.Of(l); !ok {
			return nil, fmt.Errorf("methods %q: shuffle %c has no time cost (costed: %s)", methods, l, c.costed())
		}
		if slices.Contains(seen, l) {
			return nil, fmt.Errorf("methods %q: %c given twice", methods, l)
		}
		seen = append(seen, l)
		if oneDeal && l == 'D' {
			continue
		}
		free = append(free, l)
	}
	budget := limit
	var fixed Combination
	if oneDeal {
		d, ok := c.Of('D')
		if !ok {
			return nil, fmt.Errorf("one deal: shuffle D has no time cost")
		}
		if d > limit {
			return nil, fmt.Errorf("nothing fits: the deal D alone takes %d s, more than the limit of %d s", d, limit)
		}
		budget -= d
		fixed = Combination{{Letter: 'D', Count: 1}}
	}
	if len(free) == 0 {
		if oneDeal {
			return []Combination{fixed}, nil
		}
		return nil, fmt.Errorf("no methods given")
	}
	slices.SortStableFunc(free, func(a, b byte) int {
		ca, _ := c.Of(a)
		cb, _ := c.Of(b)
		if ca != cb {
			return cb - ca
		}
		return strings.IndexByte(Letters, a) - strings.IndexByte(Letters, b)
	})
	cheapest, _ := c.Of(free[len(free)-1])
	var out []Combination
	tooMany := false
	counts := make([]int, len(free))
	var rec func(k, left int)
	rec = func(k, left int) {
		if tooMany {
			return
		}
		if k == len(free) {
			if left < cheapest { // nothing more fits
				if len(out) == MaxCombinations {
					tooMany = true
					return
				}
				comb := slices.Clone(fixed)
				for i, n := range counts {
					if n > 0 {
						comb = append(comb, Term{Letter: free[i], Count: n})
					}
				}
				out = append(out, comb)
			}
			return
		}
		cost, _ := c.Of(free[k])
		lowest := 0
		if k == len(free)-1 {
			// The last letter is the cheapest: only its largest count
			// leaves less than the cheapest cost, so every call of the
			// level above ends in exactly one combination.
			lowest = left / cost
		}
		for n := left / cost; n >= lowest; n-- {
			counts[k] = n
			rec(k+1, left-n*cost)
		}
		counts[k] = 0
	}
	rec(0, budget)
	if tooMany {
		return nil, fmt.Errorf("methods %q, time limit %d s: more than %d maximal combinations; use fewer methods or a smaller limit", methods, limit, MaxCombinations)
	}
	return out, nil
}
