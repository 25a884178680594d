package shuffle

import (
	"errors"
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"
	"strings"
)

// This file holds the shuffle models of docs/shuffles-models.md. Each model is a value type
// holding its parameters and implementing Shuffler; Params gathers them all
// with the defaults of Nose & Fukagawa and Ide & Okuda.
//
// Conventions used throughout: deck[0] is the top card (position 1); a packet
// taken "off the top" is a prefix of the slice. Every Shuffle works for any
// n ≥ 0 and, for n ≤ scratchSize, allocates nothing (its scratch space lives on
// the stack), so models are safe to share between goroutines.

// scratchSize is the deck size up to which Shuffle uses a stack buffer.
const scratchSize = 128

// Rounding says how a normally distributed packet size or cut position is
// turned into an integer (docs/shuffles-models.md: "rounded to the nearest integer").
type Rounding int

const (
	// RoundNearest rounds half away from zero (math.Round): the default.
	RoundNearest Rounding = iota
	// RoundFloor rounds down.
	RoundFloor
	// RoundCeil rounds up.
	RoundCeil
)

var roundingNames = [...]string{"nearest", "floor", "ceil"}

func (m Rounding) String() string {
	if m < 0 || int(m) >= len(roundingNames) {
		return fmt.Sprintf("Rounding(%d)", int(m))
	}
	return roundingNames[m]
}

// ParseRounding reads "nearest", "floor" or "ceil".
func ParseRounding(s string) (Rounding, error) {
	for i, name := range roundingNames {
		if s == name {
			return Rounding(i), nil
		}
	}
	return 0, fmt.Errorf("unknown rounding %q (want nearest, floor or ceil)", s)
}

func (m Rounding) apply(x float64) int {
	switch m {
	case RoundFloor:
		x = math.Floor(x)
	case RoundCeil:
		x = math.Ceil(x)
	default:
		x = math.Round(x)
	}
	// Clamp before converting: converting an out-of-range float is
	// implementation-defined in Go.
	const big = 1 << 40
	if x > big {
		return big
	}
	if x < -big {
		return -big
	}
	return int(x)
}

// normalDraw draws N(mean, sd). The product is rounded explicitly so that no
// platform fuses it with the addition into an FMA. NormFloat64 itself is
// identical on every amd64 machine, but its rare slow path (math.Exp,
// math.Log, a float32 comparison the compiler may fuse) is not guaranteed
// bit-identical on other architectures: see docs/shuffles-models.md,
// "Conventions".
func normalDraw(r *rand.Rand, mean, sd float64) float64 {
	return float64(sd*r.NormFloat64()) + mean
}

// Cut is the letter C (Nose & Fukagawa): cut the deck at a normally
// distributed position and put the bottom part on top.
//
// The cut position k (the number of cards in the top part) is drawn from
// N(Centre·n, SD), rounded by Rounding and clamped to 1..n−1, so a cut always
// moves something (for n < 2 the deck is left alone). Seed 000 used n = 60
// with N(n/2, 5); the same SD = 5 is kept for every n unless configured.
type Cut struct {
	Centre   float64  // mean cut position as a fraction of n (0.5: n/2)
	SD       float64  // standard deviation of the cut position, in cards
	Rounding Rounding // how the drawn position becomes an integer
}

func (c Cut) String() string { return "C" }

// Validate reports a parameter that cannot work.
func (c Cut) Validate() error {
	switch {
	case !(c.Centre >= 0 && c.Centre <= 1):
		return fmt.Errorf("cut centre %v: must be a fraction of n in [0, 1]", c.Centre)
	case !(c.SD >= 0) || math.IsInf(c.SD, 0):
		return fmt.Errorf("cut sd %v: must be finite and ≥ 0", c.SD)
	}
	return validRounding(c.Rounding)
}

// Shuffle cuts deck once.
func (c Cut) Shuffle(deck []int, r *rand.Rand) {
	n := len(deck)
	if n < 2 {
		return
	}
	k := c.Rounding.apply(normalDraw(r, float64(c.Centre*float64(n)), c.SD))
	k = min(max(k, 1), n-1)
	var arr [scratchSize]int
	tmp := shuffleScratch(&arr, k)
	copy(tmp, deck[:k])
	copy(deck, deck[k:])
	copy(deck[n-k:], tmp)
}

// Hindu is the letter H: packets are taken off the top of the deck
// and each is laid on top of the previous ones, so the packets' order is
// reversed while each packet keeps its own order.
//
// Packet sizes are drawn from N(Mean, SD), rounded by Rounding, then raised
// to at least Min and cut down to at most the cards left. Seed 001 uses
// N(10, 5/3); Nose & Fukagawa uses N(h, h/6) for h = 5, 10, 20.
type Hindu struct {
	Mean     float64
	SD       float64
	Rounding Rounding
	Min      int // smallest packet (≥ 1)
}

func (h Hindu) String() string { return "H" }

// Validate reports a parameter that cannot work.
func (h Hindu) Validate() error {
	switch {
	case math.IsNaN(h.Mean) || math.IsInf(h.Mean, 0):
		return fmt.Errorf("hindu mean %v: must be finite", h.Mean)
	case !(h.SD >= 0) || math.IsInf(h.SD, 0):
		return fmt.Errorf("hindu sd %v: must be finite and ≥ 0", h.SD)
	case h.Min < 1:
		return fmt.Errorf("hindu min %d: a packet holds at least 1 card", h.Min)
	}
	return validRounding(h.Rounding)
}

// Shuffle does one Hindu shuffle of deck.
func (h Hindu) Shuffle(deck []int, r *rand.Rand) {
	n := len(deck)
	var arr [scratchSize]int
	tmp := shuffleScratch(&arr, n)
	end := n // the packets fill tmp from the bottom up
	for start := 0; start < n; {
		s := h.Rounding.apply(normalDraw(r, h.Mean, h.SD))
		s = min(max(s, h.Min, 1), n-start)
		copy(tmp[end-s:end], deck[start:start+s])
		end -= s
		start += s
	}
	copy(deck, tmp)
}

// HinduPackets does a Hindu shuffle with the given packet sizes (taken off
// the top in this order; the last one is cut down to the cards left, and
// cards still left after the list form one last packet). It is the
// deterministic core of Hindu, used for the worked example of docs/shuffles-models.md.
func HinduPackets(deck []int, sizes []int) {
	n := len(deck)
	tmp := make([]int, n)
	end, start := n, 0
	for i := 0; start < n; i++ {
		s := n - start
		if i < len(sizes) {
			s = min(max(sizes[i], 1), n-start)
		}
		copy(tmp[end-s:end], deck[start:start+s])
		end -= s
		start += s
	}
	copy(deck, tmp)
}

// Riffle is the letter R: the Gilbert–Shannon–Reeds model, or for
// Packets = a > 2 the GSR a-shuffle of Bayer & Diaconis (1992) (k riffles
// are one 2^k-shuffle).
//
// Two simulations of the same distribution are offered:
//
//   - Drop = true follows docs/shuffles-models.md literally: the top packet A gets
//     Binomial(n, 1/2) cards (multinomial sizes for a > 2); then, with a and
//     b cards left in A and B, the next card comes from A with probability
//     a/(a+b) (from each packet with probability proportional to the cards
//     left in it). One random draw per card.
//   - Drop = false (default), the "digits" form of Bayer & Diaconis: n
//     independent uniform digits in 0..a−1, one per position from the top,
//     give both the packet sizes (the count of each digit: Binomial(n, 1/2)
//     for a = 2) and which packet each position takes its next card from.
//     Given the sizes, every interleaving is equally likely — exactly as
//     with the dropping rule — so the two are the same model. For a = 2 the
//     digits are the bits of one 64-bit draw per 64 cards, which makes it
//     about six times faster (docs/shuffles-models.md, Benchmarks).
//
// Cards are dealt into the new deck from the top down; dropping from the
// bottom gives the same distribution (every interleaving equally likely).
// The same seed gives different decks with Drop and without it.
type Riffle struct {
	Packets int  // a: number of packets (2 for the ordinary riffle)
	Drop    bool // simulate card by card with the a/(a+b) rule
}

func (f Riffle) String() string { return "R" }

// Validate reports a parameter that cannot work.
func (f Riffle) Validate() error {
	if f.Packets < 2 || f.Packets > scratchSize {
		return fmt.Errorf("riffle packets %d: must be 2..%d", f.Packets, scratchSize)
	}
	return nil
}

// Shuffle does one riffle (or a-shuffle) of deck.
func (f Riffle) Shuffle(deck []int, r *rand.Rand) {
	switch {
	case f.Drop && f.Packets <= 2:
		riffleDrop2(deck, r)
	case f.Drop:
		riffleDropA(deck, f.Packets, r)
	case f.Packets <= 2:
		riffleBits(deck, r)
	default:
		riffleDigits(deck, f.Packets, r)
	}
}

// riffleDrop2 is the shuffle models' wording: cut by Binomial(n, 1/2), then drop from
// A with probability a/(a+b).
func riffleDrop2(deck []int, r *rand.Rand) {
	n := len(deck)
	k := binomialHalf(n, r)
	var arr [scratchSize]int
	tmp := shuffleScratch(&arr, n)
	copy(tmp, deck)
	ia, ib := 0, k // next card of A = tmp[ia:k], of B = tmp[ib:n]
	for j := range n {
		a, b := k-ia, n-ib
		if r.IntN(a+b) < a {
			deck[j] = tmp[ia]
			ia++
		} else {
			deck[j] = tmp[ib]
			ib++
		}
	}
}

// riffleDropA cuts into a packets of multinomial sizes and drops from each
// with probability proportional to the cards left in it.
func riffleDropA(deck []int, a int, r *rand.Rand) {
	n := len(deck)
	var arr [scratchSize]int
	tmp := shuffleScratch(&arr, n)
	copy(tmp, deck)
	var next, left [scratchSize]int // per packet: index of its next card, cards left
	for range n {
		left[r.IntN(a)]++
	}
	start := 0
	for p := range a {
		next[p] = start
		start += left[p]
	}
	for j := range n {
		x := r.IntN(n - j) // n−j cards are left in all packets
		p := 0
		for x >= left[p] {
			x -= left[p]
			p++
		}
		deck[j] = tmp[next[p]]
		next[p]++
		left[p]--
	}
}

// riffleBits is the 2-shuffle in digit form with the digits packed in
// 64-bit words: bit j = 0 takes position j from A, 1 from B.
func riffleBits(deck []int, r *rand.Rand) {
	n := len(deck)
	var warr [scratchSize / 64]uint64
	var words []uint64
	if nw := (n + 63) / 64; nw <= len(warr) {
		words = warr[:nw]
	} else {
		words = make([]uint64, nw)
	}
	ones := 0
	for i := range words {
		w := r.Uint64()
		if rem := n - 64*i; rem < 64 {
			w &= 1<<uint(rem) - 1
		}
		words[i] = w
		ones += bits.OnesCount64(w)
	}
	var arr [scratchSize]int
	tmp := shuffleScratch(&arr, n)
	copy(tmp, deck)
	// idx[0] walks A = tmp[:n-ones], idx[1] walks B = tmp[n-ones:].
	idx := [2]int{0, n - ones}
	for j := range n {
		b := (words[j>>6] >> uint(j&63)) & 1
		deck[j] = tmp[idx[b]]
		idx[b]++
	}
}

// riffleDigits is the a-shuffle in digit form for a > 2.
func riffleDigits(deck []int, a int, r *rand.Rand) {
	n := len(deck)
	var arr, darr [scratchSize]int
	tmp := shuffleScratch(&arr, n)
	digit := shuffleScratch(&darr, n)
	var next [scratchSize]int // next[p]: index in tmp of packet p's next card
	for j := range digit {
		d := r.IntN(a)
		digit[j] = d
		next[d]++
	}
	// Packet sizes → start indices (packet 0 is the top one).
	start := 0
	for p := range a {
		c := next[p]
		next[p] = start
		start += c
	}
	copy(tmp, deck)
	for j, d := range digit {
		deck[j] = tmp[next[d]]
		next[d]++
	}
}

// binomialHalf draws Binomial(n, 1/2) as the number of ones among n fair bits.
func binomialHalf(n int, r *rand.Rand) int {
	k := 0
	for ; n >= 64; n -= 64 {
		k += bits.OnesCount64(r.Uint64())
	}
	if n > 0 {
		k += bits.OnesCount64(r.Uint64() & (1<<uint(n) - 1))
	}
	return k
}

// Faro is the letter F: a perfect riffle. The deck is cut into
// halves and the halves interleaved card by card.
//
// Out-shuffle (default): the top card stays on top. In-shuffle (In = true):
// the top card goes to position 2. For odd n the top half gets the extra
// card in an out-shuffle (the top and the bottom card both stay in place)
// and the bottom half gets it in an in-shuffle (the top card goes to
// position 2 and the bottom card stays at the bottom), so the interleaving is
// always perfect.
type Faro struct {
	In bool
}

func (f Faro) String() string { return "F" }

// Shuffle does one perfect shuffle of deck.
func (f Faro) Shuffle(deck []int, _ *rand.Rand) {
	n := len(deck)
	var arr [scratchSize]int
	tmp := shuffleScratch(&arr, n)
	copy(tmp, deck)
	var first, second []int // first supplies positions 1, 3, 5, …
	if f.In {
		h := n / 2
		first, second = tmp[h:], tmp[:h]
	} else {
		h := (n + 1) / 2
		first, second = tmp[:h], tmp[h:]
	}
	for i, c := range first {
		deck[2*i] = c
	}
	for i, c := range second {
		deck[2*i+1] = c
	}
}

// PileOrder says in which order the piles of a Deal are stacked.
type PileOrder int

const (
	// PilesOddEven stacks piles 1, 3, 5, …, then 2, 4, 6, … from the top
	// (Ide & Okuda: 1,3,5,7,9,2,4,6,8,10 for d = 10).
	PilesOddEven PileOrder = iota
	// PilesNatural stacks piles 1, 2, …, d from the top (Nose & Fukagawa).
	PilesNatural
	// PilesCustom stacks the piles in the order of Deal.Custom.
	PilesCustom
)

var pileOrderNames = [...]string{"odd-even", "natural", "custom"}

func (o PileOrder) String() string {
	if o < 0 || int(o) >= len(pileOrderNames) {
		return fmt.Sprintf("PileOrder(%d)", int(o))
	}
	return pileOrderNames[o]
}

// ParsePileOrder reads "odd-even", "natural" or "custom".
func ParsePileOrder(s string) (PileOrder, error) {
	for i, name := range pileOrderNames {
		if s == name {
			return PileOrder(i), nil
		}
	}
	return 0, fmt.Errorf("unknown pile order %q (want odd-even, natural or custom)", s)
}

// MaxPiles is the largest number of piles a Deal accepts. Piles beyond the
// number of cards n stay empty, so a deal onto d > n piles is the deal onto
// n piles (each card on a pile of its own), restricted to the non-empty piles
// in the stacking order; Shuffle costs O(n) for the odd-even and natural
// orders whatever d is, and O(n + d) for a custom order.
const MaxPiles = 1000

// Deal is the letter D: deal the cards one by one from the top onto
// Piles piles (card 1 on pile 1, card 2 on pile 2, …, card d+1 on pile 1
// again), then stack the piles, the first pile of the order on top.
//
// Dealing face down (the default, FaceUp false) puts each card on top of its
// pile, so a pile holds its cards in reverse: with n = 10 and d = 3, pile 1 is
// 10 7 4 1 from its top. Stacking piles 1, 2, 3 from the top then gives the
// deck 10 7 4 1 8 5 2 9 6 3, that is π = (4 7 10 3 6 9 2 5 8 1) of docs/shuffles-models.md.
//
// With FaceUp the cards are dealt face up and each pile is turned over before
// stacking, so a pile holds its cards in the order dealt (pile 1 is 1 4 7 10
// from its top) and the same example gives 1 4 7 10 2 5 8 3 6 9.
type Deal struct {
	Piles  int
	Order  PileOrder
	Custom []int // 1-based pile numbers, top first; used when Order == PilesCustom
	FaceUp bool  // each pile keeps the order dealt (first card on top)
}

func (d Deal) String() string { return "D" }

// Validate reports a parameter that cannot work.
func (d Deal) Validate() error {
	if d.Piles < 1 || d.Piles > MaxPiles {
		return fmt.Errorf("deal piles %d: must be 1..%d", d.Piles, MaxPiles)
	}
	switch d.Order {
	case PilesOddEven, PilesNatural:
		return nil
	case PilesCustom:
		if len(d.Custom) != d.Piles {
			return fmt.Errorf("deal order %v: lists %d piles, want all %d", d.Custom, len(d.Custom), d.Piles)
		}
		seen := make([]bool, d.Piles+1)
		for _, p := range d.Custom {
			if p < 1 || p > d.Piles {
				return fmt.Errorf("deal order %v: pile %d is not in 1..%d", d.Custom, p, d.Piles)
			}
			if seen[p] {
				return fmt.Errorf("deal order %v: pile %d twice", d.Custom, p)
			}
			seen[p] = true
		}
		return nil
	}
	return fmt.Errorf("deal order %v: unknown", d.Order)
}

// Stacking returns the 1-based pile numbers in stacking order, top first.
func (d Deal) Stacking() []int {
	out := make([]int, 0, min(max(d.Piles, 0), MaxPiles))
	d.eachPile(min(d.Piles, MaxPiles), func(p int) { out = append(out, p+1) })
	return out
}

// eachPile calls f with the 0-based piles in stacking order, top first,
// leaving out the piles from upto on (for the odd-even and natural orders
// the order of the piles below upto does not depend on the number of piles).
func (d Deal) eachPile(upto int, f func(p int)) {
	switch d.Order {
	case PilesCustom:
		for _, p := range d.Custom {
			if p-1 < upto {
				f(p - 1)
			}
		}
	case PilesNatural:
		for p := range upto {
			f(p)
		}
	default:
		for p := 0; p < upto; p += 2 {
			f(p)
		}
		for p := 1; p < upto; p += 2 {
			f(p)
		}
	}
}

// Shuffle deals deck onto the piles and gathers them. It uses no randomness.
func (d Deal) Shuffle(deck []int, _ *rand.Rand) {
	n := len(deck)
	if n == 0 || d.Piles < 1 {
		return
	}
	var arr [scratchSize]int
	tmp := shuffleScratch(&arr, n)
	copy(tmp, deck)
	j := 0
	// Piles from n on are empty: leave them out.
	d.eachPile(min(d.Piles, n), func(p int) {
		// Pile p holds deck indices p, p+d, p+2d, …; face down its top
		// card is the last one dealt, face up the first.
		last := p + (n-1-p)/d.Piles*d.Piles
		if d.FaceUp {
			for i := p; i <= last; i += d.Piles {
				deck[j] = tmp[i]
				j++
			}
			return
		}
		for i := last; i >= p; i -= d.Piles {
			deck[j] = tmp[i]
			j++
		}
	})
}

// Overhand is the letter O: the overhand shuffle in the model of R. Pemantle,
// "Randomization time for the overhand shuffle", J. Theoretical Probability
// 2(1):37–49, 1989. Each of the n−1 gaps between adjacent cards is cut
// independently with probability P; the packets so formed are put in reverse
// order, each keeping its own order. (This is the Hindu shuffle with
// geometric packet sizes of mean 1/P.)
type Overhand struct {
	P float64
}

func (o Overhand) String() string { return "O" }

// Validate reports a parameter that cannot work.
func (o Overhand) Validate() error {
	if !(o.P >= 0 && o.P <= 1) {
		return fmt.Errorf("overhand p %v: must be a probability in [0, 1]", o.P)
	}
	return nil
}

// Shuffle does one overhand shuffle of deck.
func (o Overhand) Shuffle(deck []int, r *rand.Rand) {
	n := len(deck)
	var arr [scratchSize]int
	tmp := shuffleScratch(&arr, n)
	end, start := n, 0
	for i := 0; i < n; i++ {
		// A packet ends after card i at the bottom of the deck or at a cut.
		if i == n-1 || r.Float64() < o.P {
			s := i + 1 - start
			copy(tmp[end-s:end], deck[start:i+1])
			end -= s
			start = i + 1
		}
	}
	copy(deck, tmp)
}

// Uniform is the letter U: a uniformly random permutation (Fisher–Yates).
type Uniform struct{}

func (Uniform) String() string { return "U" }

// Shuffle permutes deck uniformly at random.
func (Uniform) Shuffle(deck []int, r *rand.Rand) {
	for i := len(deck) - 1; i > 0; i-- {
		j := r.IntN(i + 1)
		deck[i], deck[j] = deck[j], deck[i]
	}
}

// shuffleScratch returns n ints of arr, or a fresh slice when arr is too small.
func shuffleScratch(arr *[scratchSize]int, n int) []int {
	if n <= len(arr) {
		return arr[:n]
	}
	return make([]int, n)
}

func validRounding(m Rounding) error {
	if m < 0 || int(m) >= len(roundingNames) {
		return fmt.Errorf("rounding %v: unknown", m)
	}
	return nil
}

// Params gathers the parameters of every shuffle model and their time costs.
// DefaultParams gives the docs/shuffles-models.md defaults; configs.LoadShuffleParams reads
// them from YAML.
type Params struct {
	Cut      Cut
	Hindu    Hindu
	Riffle   Riffle
	Faro     Faro
	Deal     Deal
	Overhand Overhand
	Costs    Costs
}

// DefaultParams returns the defaults of docs/shuffles-models.md:
//   - C: N(n/2, 5), nearest (Nose & Fukagawa, n = 60; sd 5 kept for every n);
//   - H: N(10, 5/3), nearest, packets ≥ 1 (Ide & Okuda);
//   - R: 2 packets (GSR), simulated in digit form;
//   - F: out-shuffle;
//   - D: 10 piles dealt face down, stacked odd then even, 1,3,5,7,9,2,4,6,8,10
//     from the top (Ide & Okuda);
//   - O: p = 1/10, so its mean packet (10 cards) matches H (not in the seeds);
//   - costs: C 2 s, H 3 s, R = F 7 s, D 30 s, O and U uncosted (Nose & Fukagawa, Table 1).
func DefaultParams() Params {
	return Params{
		Cut:      Cut{Centre: 0.5, SD: 5, Rounding: RoundNearest},
		Hindu:    Hindu{Mean: 10, SD: 5.0 / 3, Rounding: RoundNearest, Min: 1},
		Riffle:   Riffle{Packets: 2},
		Faro:     Faro{In: false},
		Deal:     Deal{Piles: 10, Order: PilesOddEven},
		Overhand: Overhand{P: 0.1},
		Costs:    DefaultCosts(),
	}
}

// Letters lists the shuffle letters in the order of docs/shuffles-models.md.
const Letters = "CHRFDOU"

// Model returns the shuffle for one letter of docs/shuffles-models.md with these parameters.
func (p Params) Model(letter byte) (Shuffler, error) {
	var s Shuffler
	var err error
	switch letter {
	case 'C':
		s, err = p.Cut, p.Cut.Validate()
	case 'H':
		s, err = p.Hindu, p.Hindu.Validate()
	case 'R':
		s, err = p.Riffle, p.Riffle.Validate()
	case 'F':
		s = p.Faro
	case 'D':
		s, err = p.Deal, p.Deal.Validate()
	case 'O':
		s, err = p.Overhand, p.Overhand.Validate()
	case 'U':
		s = Uniform{}
	default:
		return nil, fmt.Errorf("unknown shuffle letter %q (want one of %s)", string(rune(letter)), Letters)
	}
	if err != nil {
		return nil, err
	}
	return s, nil
}

// Models returns the shuffle for each letter of letters, in order.
func (p Params) Models(letters string) ([]Shuffler, error) {
	out := make([]Shuffler, 0, len(letters))
	for i := 0; i < len(letters); i++ {
		m, err := p.Model(letters[i])
		if err != nil {
			return nil, err
		}
		out = append(out, m)
	}
	return out, nil
}

// Validate checks every model's parameters and the costs.
func (p Params) Validate() error {
	var errs []error
	for i := range len(Letters) {
		if _, err := p.Model(Letters[i]); err != nil {
			errs = append(errs, err)
		}
	}
	if err := p.Costs.Validate(); err != nil {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// Permutation returns π for a shuffled deck whose cards started at positions
// 0..n−1: π[c] is the 0-based position where card c ended. It panics if deck
// is not a permutation of 0..n−1.
func Permutation(deck []int) []int {
	pi := make([]int, len(deck))
	for i := range pi {
		pi[i] = -1
	}
	for j, c := range deck {
		if c < 0 || c >= len(deck) || pi[c] >= 0 {
			panic(fmt.Sprintf("shuffle.Permutation: %v is not a permutation", deck))
		}
		pi[c] = j
	}
	return pi
}

// Unshuffled returns the unshuffled deck 0, 1, …, n−1 (card i at position i+1).
func Unshuffled(n int) []int {
	d := make([]int, n)
	for i := range d {
		d[i] = i
	}
	return d
}

// Apply shuffles sets fresh decks of n cards with s, one after the other,
// all drawing from one NewRand(seed), and calls each with the shuffled deck
// (top first) or, with perm, its Permutation. The same arguments give the
// same decks on every machine. It stops at the first error of each.
func Apply(s Shuffler, n int, seed uint64, sets int, perm bool, each func([]int) error) error {
	r := NewRand(seed)
	for range sets {
		deck := Unshuffled(n)
		s.Shuffle(deck, r)
		if perm {
			deck = Permutation(deck)
		}
		if err := each(deck); err != nil {
			return err
		}
	}
	return nil
}

// ParseMethods reads a set of distinct shuffle letters ("HRD", case
// ignored) and returns them one per string, in the order given: the methods
// a search combines.
func ParseMethods(s string) ([]string, error) {
	var names []string
	for _, c := range strings.ToUpper(s) {
		l := string(c)
		if c > 'Z' || !strings.Contains(Letters, l) {
			return nil, fmt.Errorf("methods %q: %q is not a shuffle letter of %s", s, l, Letters)
		}
		if slices.Contains(names, l) {
			return nil, fmt.Errorf("methods %q: %s twice", s, l)
		}
		names = append(names, l)
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("methods: empty")
	}
	return names, nil
}

// EachPermutation calls f with every permutation of 0..n-1 (n! calls, for
// exact checks on small decks). The slice is reused: f must not keep it.
func EachPermutation(n int, f func([]int)) {
	p := Unshuffled(n)
	var rec func(k int)
	rec = func(k int) {
		if k == n {
			f(p)
			return
		}
		for i := k; i < n; i++ {
			p[k], p[i] = p[i], p[k]
			rec(k + 1)
			p[k], p[i] = p[i], p[k]
		}
	}
	rec(0)
}
