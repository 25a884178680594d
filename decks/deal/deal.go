// Package deal deals a 52-card deck to 3..5 players, adjusts the hands toward
// or away from pairs, runs or suits (Shimosawa & Arakawa), measures them, and
// gathers them back into a stock.
package deal

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"github.com/calcsol/calcsol/decks/cards"
	"github.com/calcsol/calcsol/decks/shuffle"
)

// Deal generators (Shimosawa & Arakawa; docs/corpora.md "Deal generators").
//
// A standard52 deck is shuffled uniformly (the U model, so the dealt stock is
// exactly deck j of "shuffle U" with the same seed), dealt round-robin to P
// players (card k, 0-based from the top, goes to player k mod P as the
// player's next slot), then adjusted by |adjust| exchanges, then gathered
// back into a stock.
//
// An exchange is one proposed swap of one card between two players.
// Exchange e (e = 0, 1, …) is proposed by the active player i = e mod P: a
// partner j is drawn uniformly from the other players, a slot of i's hand
// and a slot of j's hand uniformly, in that order. The two cards are swapped
// (each takes the other's slot) only if that moves the target the wanted
// way — its value summed over the two hands goes up for adjust > 0, down
// for adjust < 0 (under a priority, lexicographically); otherwise the
// exchange is refused, and still counts. The draws come from
// ExchangeRand(stock), not from the corpus generator. So the target summed
// over the hands moves monotonically with |adjust| for every deal, the
// effect grows gradually (improving proposals get rarer as the hands get
// biased), and adjust 0 is the deal as dealt.

// Objective is a per-hand quantity a deal adjustment drives up or down.
type Objective uint8

// The objectives. Ranks and suits are those of standard52 identities.
const (
	// Pairs is Σ over ranks of C(c,2), c the number of cards of the rank in
	// the hand: a pair counts 1, a triple 3, a quad 6.
	Pairs Objective = iota + 1
	// Runs counts links: two cards of the same suit with consecutive ranks
	// (A–2 … Q–K; K–A does not wrap). A same-suit run of length L has L−1.
	Runs
	// Suits is Σ over suits of c², c the cards of the suit: concentration in
	// few suits, the reading of Shimosawa & Arakawa's "keep the most common suit".
	Suits
)

var objectiveNames = [...]string{Pairs: "pairs", Runs: "runs", Suits: "suits"}

func (o Objective) String() string {
	if o < Pairs || o > Suits {
		return fmt.Sprintf("Objective(%d)", uint8(o))
	}
	return objectiveNames[o]
}

// Target is what an adjustment optimises: one or more objectives, either
// summed with equal weight ("pairs+runs") or by priority ("pairs>runs": the
// first decides, the next only breaks its ties).
type Target struct {
	Objectives []Objective
	Priority   bool
}

// ParseTarget reads a target: an objective (pairs, runs, suits), several
// joined by '+' (summed) or by '>' (priority, first highest), or "both" for
// pairs+runs.
func ParseTarget(s string) (Target, error) {
	if s == "both" {
		return Target{Objectives: []Objective{Pairs, Runs}}, nil
	}
	sep := "+"
	if strings.Contains(s, ">") {
		if strings.Contains(s, "+") {
			return Target{}, fmt.Errorf("target %q: use either + (sum) or > (priority), not both", s)
		}
		sep = ">"
	}
	var t Target
	t.Priority = sep == ">"
	for _, name := range strings.Split(s, sep) {
		o := Objective(0)
		for k := Pairs; k <= Suits; k++ {
			if objectiveNames[k] == name {
				o = k
			}
		}
		if o == 0 {
			return Target{}, fmt.Errorf("target %q: unknown objective %q (want pairs, runs, suits, or both)", s, name)
		}
		for _, prev := range t.Objectives {
			if prev == o {
				return Target{}, fmt.Errorf("target %q: %s named twice", s, name)
			}
		}
		t.Objectives = append(t.Objectives, o)
	}
	return t, nil
}

func (t Target) String() string {
	sep := "+"
	if t.Priority {
		sep = ">"
	}
	names := make([]string, len(t.Objectives))
	for i, o := range t.Objectives {
		names[i] = o.String()
	}
	return strings.Join(names, sep)
}

// Gather says how adjusted hands go back into a stock.
type Gather uint8

const (
	// GatherHands stacks the hands: player 1's slots in order, then player 2's, …
	GatherHands Gather = iota + 1
	// GatherInterleave undoes the deal: stock card k is slot k/P of player
	// k mod P, so with no exchange the stock is the shuffled deck itself.
	GatherInterleave
)

func (g Gather) String() string {
	switch g {
	case GatherHands:
		return "hands"
	case GatherInterleave:
		return "interleave"
	}
	return fmt.Sprintf("Gather(%d)", uint8(g))
}

// Limits of a deal spec.
const (
	MinPlayers = 3
	MaxPlayers = 5
	MaxAdjust  = 100
)

// MaxProposals bounds the exchanges proposed in one adjustment with
// count=swaps (CountSwaps).
const MaxProposals = 10_000

// Count says what the adjust value of a deal counts.
type Count uint8

const (
	// CountProposals counts every proposed exchange, swapped or refused
	// (the default).
	CountProposals Count = iota
	// CountSwaps counts only exchanges that swapped cards, proposing at
	// most MaxProposals.
	CountSwaps
)

func (c Count) String() string {
	if c == CountSwaps {
		return "swaps"
	}
	return "proposals"
}

// ParseCount reads "proposals" or "swaps".
func ParseCount(s string) (Count, error) {
	switch s {
	case "proposals":
		return CountProposals, nil
	case "swaps":
		return CountSwaps, nil
	}
	return 0, fmt.Errorf("count=%s: want proposals or swaps", s)
}

// Spec is a deal generator. It implements Generator for
// standard52.
type Spec struct {
	Players int    // 3..5
	Adjust  int    // −100..100: exchanges; > 0 more biased, < 0 less, 0 none
	Target  Target // what the exchanges optimise
	Gather  Gather // how the hands become a stock
	Count   Count  // what Adjust counts: proposed exchanges (default) or swaps
}

// DefaultSpec is players=4,adjust=0,target=pairs,gather=hands.
func DefaultSpec() Spec {
	return Spec{Players: 4, Adjust: 0, Target: Target{Objectives: []Objective{Pairs}}, Gather: GatherHands}
}

// ParseSpec reads comma-separated key=value settings, each optional
// (defaults from DefaultSpec), each at most once:
//
//	players=3..5  adjust=-100..100  target=TARGET (see ParseTarget)  gather=hands|interleave
//	count=proposals|swaps
//
// e.g. "players=4,adjust=50,target=pairs". Spaces around items are ignored.
func ParseSpec(s string) (Spec, error) {
	d := DefaultSpec()
	seen := map[string]bool{}
	if strings.TrimSpace(s) == "" {
		return d, nil
	}
	for _, item := range strings.Split(s, ",") {
		item = strings.TrimSpace(item)
		key, val, ok := strings.Cut(item, "=")
		if !ok {
			return d, fmt.Errorf("deal spec %q: item %q is not key=value", s, item)
		}
		if seen[key] {
			return d, fmt.Errorf("deal spec %q: %s given twice", s, key)
		}
		seen[key] = true
		switch key {
		case "players":
			n, err := strconv.Atoi(val)
			if err != nil || n < MinPlayers || n > MaxPlayers {
				return d, fmt.Errorf("deal spec %q: players=%s: want %d..%d", s, val, MinPlayers, MaxPlayers)
			}
			d.Players = n
		case "adjust":
			n, err := strconv.Atoi(val)
			if err != nil || n < -MaxAdjust || n > MaxAdjust {
				return d, fmt.Errorf("deal spec %q: adjust=%s: want an integer -%d..%d", s, val, MaxAdjust, MaxAdjust)
			}
			d.Adjust = n
		case "target":
			t, err := ParseTarget(val)
			if err != nil {
				return d, fmt.Errorf("deal spec %q: %w", s, err)
			}
			d.Target = t
		case "gather":
			switch val {
			case "hands":
				d.Gather = GatherHands
			case "interleave":
				d.Gather = GatherInterleave
			default:
				return d, fmt.Errorf("deal spec %q: gather=%s: want hands or interleave", s, val)
			}
		case "count":
			c, err := ParseCount(val)
			if err != nil {
				return d, fmt.Errorf("deal spec %q: %w", s, err)
			}
			d.Count = c
		default:
			return d, fmt.Errorf("deal spec %q: unknown key %q (want players, adjust, target, gather, count)", s, key)
		}
	}
	return d, nil
}

// String is the canonical spec, every key written except count, which is
// written only when it is not the default ("…,count=swaps"), so that the
// specs written before count existed stay canonical:
// "players=4,adjust=50,target=pairs,gather=hands".
func (d Spec) String() string {
	s := fmt.Sprintf("players=%d,adjust=%d,target=%s,gather=%s", d.Players, d.Adjust, d.Target, d.Gather)
	if d.Count != CountProposals {
		s += ",count=" + d.Count.String()
	}
	return s
}

// Validate checks the ranges of d.
func (d Spec) Validate() error {
	if d.Players < MinPlayers || d.Players > MaxPlayers {
		return fmt.Errorf("deal: %d players, want %d..%d", d.Players, MinPlayers, MaxPlayers)
	}
	if d.Adjust < -MaxAdjust || d.Adjust > MaxAdjust {
		return fmt.Errorf("deal: adjust %d, want -%d..%d", d.Adjust, MaxAdjust, MaxAdjust)
	}
	if len(d.Target.Objectives) == 0 {
		return fmt.Errorf("deal: no target objective")
	}
	if d.Gather != GatherHands && d.Gather != GatherInterleave {
		return fmt.Errorf("deal: invalid gather %d", d.Gather)
	}
	if d.Count != CountProposals && d.Count != CountSwaps {
		return fmt.Errorf("deal: invalid count %d", d.Count)
	}
	return nil
}

// Spec implements corpus.Generator: "deal " and the canonical spec.
func (d Spec) Spec() string { return "deal " + d.String() }

// Supports implements corpus.Generator: deals are of standard52 decks.
func (d Spec) Supports(k cards.Kind) bool { return k == cards.Standard52 }

// Generate implements corpus.Generator: shuffle deck uniformly with r, deal,
// adjust, gather back into deck.
func (d Spec) Generate(deck []int, r *rand.Rand) {
	d.Deal(deck, r).Gather(deck, d.Gather)
}

// Deal shuffles deck (a fresh standard52 deck) uniformly with r, deals it
// and adjusts the hands: the deal Generate gathers. deck is left as dealt,
// so NewTable(deck, d.Players) gives the hands before the adjustment.
func (d Spec) Deal(deck []int, r *rand.Rand) *Table {
	shuffle.Uniform{}.Shuffle(deck, r)
	t := NewTable(deck, d.Players)
	if d.Adjust != 0 {
		t.AdjustCount(d.Adjust, d.Target, d.Count, ExchangeRand(deck))
	}
	return t
}

// Table is a deal in progress: the players' hands and, for the exchanges,
// each hand's rank counts and per-suit rank masks.
type Table struct {
	Hands [][]int // Hands[p] is player p's hand (0-based players), slots in deal order
	count [MaxPlayers][13]int8
	suit  [MaxPlayers][4]uint16 // bit r set when the hand holds rank r+1 of the suit
	nsuit [MaxPlayers][4]int8
	// Swaps is the number of exchanges that swapped cards.
	Swaps int
	next  int // the next exchange's number, for the active player
}

// NewTable deals the standard52 stock round-robin to players players: card
// k (0-based from the top) goes to player k mod players.
func NewTable(stock []int, players int) *Table {
	t := &Table{Hands: make([][]int, players)}
	for p := range t.Hands {
		t.Hands[p] = make([]int, 0, (len(stock)+players-1)/players)
	}
	for k, id := range stock {
		p := k % players
		t.Hands[p] = append(t.Hands[p], id)
		t.add(p, id)
	}
	return t
}

func (t *Table) add(p, id int) {
	r, s := id%13, id/13
	t.count[p][r]++
	t.suit[p][s] |= 1 << r
	t.nsuit[p][s]++
}

func (t *Table) remove(p, id int) {
	r, s := id%13, id/13
	t.count[p][r]--
	t.suit[p][s] &^= 1 << r
	t.nsuit[p][s]--
}

// neighbours counts the cards of mask next to rank r (no wrap K–A).
func neighbours(mask uint16, r int) int {
	return bits.OnesCount16(mask & (1<<(r+1) | 1<<r>>1) & 0x1fff)
}

// delta is the change of objective o for player p giving card give and
// receiving card get.
func (t *Table) delta(o Objective, p, give, get int) int {
	ra, sa := give%13, give/13
	rb, sb := get%13, get/13
	switch o {
	case Pairs:
		same := 0
		if ra == rb {
			same = 1
		}
		return -(int(t.count[p][ra]) - 1) + int(t.count[p][rb]) - same
	case Runs:
		m := t.suit[p][sa]
		d := -neighbours(m, ra)
		if sb == sa {
			m &^= 1 << ra
		} else {
			m = t.suit[p][sb]
		}
		return d + neighbours(m, rb)
	case Suits:
		same := 0
		if sa == sb {
			same = 1
		}
		return -(2*int(t.nsuit[p][sa]) - 1) + 2*(int(t.nsuit[p][sb])-same) + 1
	}
	return 0
}

// maxObjectives bounds the objectives of a target (there are three).
const maxObjectives = 3

// gain is a swap's change of the target, summed over both hands: one value
// when the objectives are summed, one per objective under priority.
type gain struct {
	v [maxObjectives]int
	n int
}

// improves reports whether the change is positive, lexicographically.
func (g *gain) improves() bool {
	for k := 0; k < g.n; k++ {
		if g.v[k] != 0 {
			return g.v[k] > 0
		}
	}
	return false
}

func (t *Table) gain(tg Target, sign, i, x, j, y int) gain {
	var g gain
	g.n = 1
	if tg.Priority {
		g.n = len(tg.Objectives)
	}
	for k, o := range tg.Objectives {
		slot := 0
		if tg.Priority {
			slot = k
		}
		g.v[slot] += sign * (t.delta(o, i, x, y) + t.delta(o, j, y, x))
	}
	return g
}

// Exchange makes the next exchange toward tg (sign +1: increase, −1:
// decrease), drawing the partner and the two slots from r, and reports
// whether the cards were swapped.
func (t *Table) Exchange(tg Target, sign int, r *rand.Rand) bool {
	P := len(t.Hands)
	i := t.next % P
	t.next++
	j := (i + 1 + r.IntN(P-1)) % P
	xs, ys := r.IntN(len(t.Hands[i])), r.IntN(len(t.Hands[j]))
	if g := t.gain(tg, sign, i, t.Hands[i][xs], j, t.Hands[j][ys]); !g.improves() {
		return false
	}
	x, y := t.Hands[i][xs], t.Hands[j][ys]
	t.remove(i, x)
	t.remove(j, y)
	t.add(i, y)
	t.add(j, x)
	t.Hands[i][xs], t.Hands[j][ys] = y, x
	t.Swaps++
	return true
}

// Adjust makes |adjust| exchanges toward tg, drawing from r: more biased
// for adjust > 0, less for adjust < 0.
func (t *Table) Adjust(adjust int, tg Target, r *rand.Rand) {
	sign, n := 1, adjust
	if adjust < 0 {
		sign, n = -1, -adjust
	}
	for range n {
		t.Exchange(tg, sign, r)
	}
}

// AdjustCount is Adjust with |adjust| read as count says: proposed
// exchanges (Adjust), or exchanges that swapped cards, proposing at most
// MaxProposals in all.
func (t *Table) AdjustCount(adjust int, tg Target, count Count, r *rand.Rand) {
	if count != CountSwaps {
		t.Adjust(adjust, tg, r)
		return
	}
	sign, n := 1, adjust
	if adjust < 0 {
		sign, n = -1, -adjust
	}
	for t.Swaps < n && t.next < MaxProposals {
		t.Exchange(tg, sign, r)
	}
}

// Proposals is the number of exchanges proposed so far.
func (t *Table) Proposals() int { return t.next }

// ExchangeRand returns the generator the exchanges of a deal draw from:
// NewRand of the FNV-1a hash (64 bits) of the dealt stock's identities, one
// byte each. Deriving it from the stock, not from the corpus generator,
// keeps the stocks of a corpus the same for every adjust value (they are
// the decks of "shuffle U" with the same seed), so adjust values are
// compared on common deals.
func ExchangeRand(stock []int) *rand.Rand {
	h := uint64(14695981039346656037)
	for _, id := range stock {
		h ^= uint64(byte(id))
		h *= 1099511628211
	}
	return shuffle.NewRand(h)
}

// Gather writes the hands back into stock (len 52) in order g.
func (t *Table) Gather(stock []int, g Gather) {
	k := 0
	if g == GatherInterleave {
		P := len(t.Hands)
		for k = range stock {
			stock[k] = t.Hands[k%P][k/P]
		}
		return
	}
	for _, h := range t.Hands {
		k += copy(stock[k:], h)
	}
}

// HandStats are the per-hand measures of docs/corpora.md.
type HandStats struct {
	Pairs, Triples, Quads int // ranks held exactly 2, 3, 4 times
	Runs                  int // maximal same-suit runs of 3+ consecutive ranks (no K–A wrap)
	Links                 int // the Runs objective: same-suit consecutive-rank pairs
	PairScore             int // the Pairs objective: Σ C(c,2)
	SuitSq                int // the Suits objective: Σ over suits of (cards of the suit)²
	TopSuit               int // cards of the hand's most common suit
}

// MeasureHand returns the docs/corpora.md measures of a standard52 hand.
func MeasureHand(hand []int) HandStats {
	var st HandStats
	var count [13]int
	var suit [4]uint16
	var nsuit [4]int
	for _, id := range hand {
		count[id%13]++
		suit[id/13] |= 1 << (id % 13)
		nsuit[id/13]++
	}
	for _, c := range count {
		switch c {
		case 2:
			st.Pairs++
		case 3:
			st.Triples++
		case 4:
			st.Quads++
		}
		st.PairScore += c * (c - 1) / 2
	}
	for s, m := range suit {
		st.TopSuit = max(st.TopSuit, nsuit[s])
		st.SuitSq += nsuit[s] * nsuit[s]
		st.Links += bits.OnesCount16(m & (m >> 1))
		run := 0
		for r := 0; r <= 13; r++ {
			if r < 13 && m&(1<<r) != 0 {
				run++
				continue
			}
			if run >= 3 {
				st.Runs++
			}
			run = 0
		}
	}
	return st
}

// FormatHand writes a standard52 hand by suit then rank, as a player holds
// it: "A35S 9D 0JQKC".
func FormatHand(hand []int) string {
	var parts []string
	for s := range 4 {
		var b []byte
		for r := 0; r < 13; r++ {
			if slices.Contains(hand, s*13+r) {
				b = append(b, cards.Standard52.FormatCard(s*13 + r)[0])
			}
		}
		if len(b) > 0 {
			parts = append(parts, string(b)+cards.Standard52.FormatCard(s * 13)[1:])
		}
	}
	return strings.Join(parts, " ")
}

// Adjusts lists the adjust values from, from+step, … up to to, each in
// -MaxAdjust..MaxAdjust: the values Stats compares.
func Adjusts(from, to, step int) ([]int, error) {
	switch {
	case step <= 0:
		return nil, fmt.Errorf("step %d: want a positive step", step)
	case from > to:
		return nil, fmt.Errorf("from %d is above to %d", from, to)
	case from < -MaxAdjust || to > MaxAdjust:
		return nil, fmt.Errorf("from %d to %d: adjust values are -%d..%d", from, to, MaxAdjust, MaxAdjust)
	}
	var out []int
	for a := from; a <= to; a += step {
		out = append(out, a)
	}
	return out, nil
}

// MaxDeals is the most deals Stats measures in one call.
const MaxDeals = 10_000_000

// Means are per-hand means of HandStats over many deals.
type Means struct {
	Adjust                            int
	Deals, Hands                      int
	Swaps                             float64 // mean exchanges per deal that swapped cards
	Proposals                         float64 // mean exchanges proposed per deal
	Pairs, Triples, Quads, Runs       float64
	Links, PairScore, SuitSq, TopSuit float64
}

// Stats deals `deals` decks to `players` players and, for every value in
// adjusts, adjusts each deal toward tg and averages the hands' measures. The
// decks are those of "shuffle U" with seed (one shuffle.NewRand(seed) consumed in
// deal order), and every adjust value starts from the same deals, so the
// values are compared on common decks. Since an adjustment of k exchanges is
// the first k exchanges of a longer one, each deal is adjusted once per sign.
func Stats(players int, tg Target, adjusts []int, deals int, seed uint64) ([]Means, error) {
	return StatsCount(players, tg, adjusts, CountProposals, deals, seed)
}

// StatsCount is Stats with the adjust values read as count says
// (see Spec.Count).
func StatsCount(players int, tg Target, adjusts []int, count Count, deals int, seed uint64) ([]Means, error) {
	if players < MinPlayers || players > MaxPlayers {
		return nil, fmt.Errorf("%d players, want %d..%d", players, MinPlayers, MaxPlayers)
	}
	if len(tg.Objectives) == 0 {
		return nil, fmt.Errorf("no target objective")
	}
	if deals <= 0 || deals > MaxDeals {
		return nil, fmt.Errorf("%d deals, want 1..%d", deals, MaxDeals)
	}
	if count != CountProposals && count != CountSwaps {
		return nil, fmt.Errorf("invalid count %d", count)
	}
	for _, a := range adjusts {
		if a < -MaxAdjust || a > MaxAdjust {
			return nil, fmt.Errorf("adjust %d, want -%d..%d", a, MaxAdjust, MaxAdjust)
		}
	}
	type acc struct {
		swaps, proposals                  int
		pairs, triples, quads, runs       int
		links, pairScore, suitSq, topSuit int
	}
	sums := make([]acc, len(adjusts))
	r := shuffle.NewRand(seed)
	stock := make([]int, 52)
	for range deals {
		for i := range stock {
			stock[i] = i
		}
		shuffle.Uniform{}.Shuffle(stock, r)
		for _, sign := range []int{1, -1} {
			// The adjust values of this sign (and 0 with the positive ones), by size.
			var idx []int
			for i, a := range adjusts {
				if (sign > 0 && a >= 0) || (sign < 0 && a < 0) {
					idx = append(idx, i)
				}
			}
			slices.SortFunc(idx, func(x, y int) int { return sign*adjusts[x] - sign*adjusts[y] })
			t := NewTable(stock, players)
			ex := ExchangeRand(stock)
			done := 0
			for _, i := range idx {
				if count == CountSwaps {
					// An adjustment to k swaps is the start of one to
					// more swaps too.
					for t.Swaps < sign*adjusts[i] && t.Proposals() < MaxProposals {
						t.Exchange(tg, sign, ex)
					}
				} else {
					for ; done < sign*adjusts[i]; done++ {
						t.Exchange(tg, sign, ex)
					}
				}
				s := &sums[i]
				s.swaps += t.Swaps
				s.proposals += t.Proposals()
				for _, h := range t.Hands {
					m := MeasureHand(h)
					s.pairs += m.Pairs
					s.triples += m.Triples
					s.quads += m.Quads
					s.runs += m.Runs
					s.links += m.Links
					s.pairScore += m.PairScore
					s.suitSq += m.SuitSq
					s.topSuit += m.TopSuit
				}
			}
		}
	}
	out := make([]Means, len(adjusts))
	for i, s := range sums {
		hands := float64(deals * players)
		out[i] = Means{
			Adjust: adjusts[i], Deals: deals, Hands: deals * players,
			Swaps:     float64(s.swaps) / float64(deals),
			Proposals: float64(s.proposals) / float64(deals),
			Pairs:     float64(s.pairs) / hands,
			Triples:   float64(s.triples) / hands,
			Quads:     float64(s.quads) / hands,
			Runs:      float64(s.runs) / hands,
			Links:     float64(s.links) / hands, PairScore: float64(s.pairScore) / hands,
			SuitSq: float64(s.suitSq) / hands, TopSuit: float64(s.topSuit) / hands,
		}
	}
	return out, nil
}
