package clairvoyant

import (
	"context"
	"fmt"
	"math/bits"
	"math/rand/v2"

	"github.com/calcsol/calcsol/solver"
)

// A slot is a place on a table: (table x, position k) as x*13+k, with x
// 0-based here. Every stacked card is assigned to a slot (docs/clairvoyant.md,
// Lemma 1), so a slot names the card and the slot of a stacked card is
// all the search needs to know about it.
const (
	numSlots = solver.Tables * solver.NumRanks
	noSlot   = 63 // key field of a slot whose card is not on a stack
	bottom   = 52 // key field of a stacked card that lies at the bottom
)

// slotOf[x][r] is the slot of rank r on table x (0-based).
var slotOf = func() (s [solver.Tables][solver.NumRanks + 1]uint8) {
	for x := 0; x < solver.Tables; x++ {
		for r := solver.Rank(1); r <= solver.NumRanks; r++ {
			s[x][r] = uint8(x*solver.NumRanks + solver.TablePos(x+1, r))
		}
	}
	return s
}()

// rankOfSlot[v] is the rank that belongs in slot v.
var rankOfSlot = func() (r [numSlots]solver.Rank) {
	for v := range r {
		r[v] = solver.TableRank(v/solver.NumRanks+1, v%solver.NumRanks)
	}
	return r
}()

// state is a position at a decision: the next card to draw is cards[idx].
// It is a value; the search copies it for every child.
type state struct {
	idx  uint8
	prog [solver.Tables]uint8    // cards on each table
	h    [solver.MaxStacks]uint8 // stack heights
	resv [solver.Tables]uint16   // bit k of resv[x]: slot (x, k) is on a stack
	loc  [numSlots]uint8         // stack holding the card of a reserved slot
	st   [solver.MaxStacks][solver.DeckSize]uint8
	// key is the canonical form of the stacks: for each slot, 6 bits give
	// the slot beneath its card (bottom for none) or noSlot when the card is
	// not stacked. It does not depend on which stack is which, so positions
	// that differ by a renaming of the stacks share it (docs/clairvoyant.md,
	// Lemma 4).
	key [6]uint64
}

func (st *state) setField(v int, val uint64) {
	w, sh := v/10, uint(v%10)*6
	st.key[w] = st.key[w]&^(63<<sh) | val<<sh
}

func (st *state) top(s int) int {
	if st.h[s] == 0 {
		return -1
	}
	return int(st.st[s][st.h[s]-1])
}

// free reports whether slot (x, rank r) may still take a card: not filled
// and not reserved by a stacked card.
func (st *state) free(x int, r solver.Rank) bool {
	k := int(slotOf[x][r]) - x*solver.NumRanks
	return k >= int(st.prog[x]) && st.resv[x]&(1<<k) == 0
}

// push puts the card of slot v on stack s.
func (st *state) push(s int, v uint8) {
	below := uint64(bottom)
	if t := st.top(s); t >= 0 {
		below = uint64(t)
	}
	st.st[s][st.h[s]] = v
	st.h[s]++
	x, k := int(v)/solver.NumRanks, int(v)%solver.NumRanks
	st.resv[x] |= 1 << k
	st.loc[v] = uint8(s)
	st.setField(int(v), below)
}

// pop takes the top card of stack s to its table.
func (st *state) pop(s int) uint8 {
	st.h[s]--
	v := st.st[s][st.h[s]]
	x, k := int(v)/solver.NumRanks, int(v)%solver.NumRanks
	st.resv[x] &^= 1 << k
	st.prog[x]++
	st.setField(int(v), noSlot)
	return v
}

func (st *state) won() bool {
	return st.prog == [solver.Tables]uint8{solver.NumRanks, solver.NumRanks, solver.NumRanks, solver.NumRanks}
}

// searcher is the depth-first search over the decisions of one deal.
type searcher struct {
	ctx     context.Context
	opts    Options
	rules   solver.Rules
	stacks  int
	cards   [solver.DeckSize]solver.Rank
	n       int
	limit   int64
	nodes   int64
	stopped bool
	cut     bool // a line was left out by the discrepancy limit
	memo    memo
	// nextOcc[i][r] is the first index j >= i with cards[j] == r, or n.
	nextOcc [solver.DeckSize + 1][solver.NumRanks + 1]uint8
	// unassigned marks a prefix with stacked cards: the trace then stacks
	// unassigned, since the engine keeps the prefix's own assignments.
	unassigned bool
	path       []solver.Move
	win        []solver.Move
	states     [solver.DeckSize + 2]state
	pending    [][]solver.Rank // stacked cards of a prefix, per stack, bottom first
	root       state
	bounds     bounds
	noise      *rand.Rand // the current restart's perturbation of the move ordering, or nil
	runs       int        // restart runs begun in this search
}

func (s *searcher) reset(ctx context.Context, d *solver.Deck, r solver.Rules, opts Options, b Budget) {
	s.resetCards(ctx, stockCards(d, r), r, opts, b)
}

// resetCards starts a search of the stock cards, in order (the deck less
// the pre-placed cards, or the drawn card and the rest of a position's stock).
func (s *searcher) resetCards(ctx context.Context, cards []solver.Rank, r solver.Rules, opts Options, b Budget) {
	s.ctx, s.opts, s.rules, s.stacks = ctx, opts, r, r.Stacks
	s.limit, s.nodes, s.stopped = b.Nodes, 0, false
	s.path, s.win = s.path[:0], nil
	s.unassigned = false
	s.runs = 0
	s.pending = s.pending[:0]
	s.n = copy(s.cards[:], cards)
	for r := range s.nextOcc[s.n] {
		s.nextOcc[s.n][r] = uint8(s.n)
	}
	for i := s.n - 1; i >= 0; i-- {
		s.nextOcc[i] = s.nextOcc[i+1]
		s.nextOcc[i][s.cards[i]] = uint8(i)
	}
	if !opts.NoMemo {
		s.memo.next(opts.MemoBits)
	}
}

// loadPosition sets the root from the engine's position p. The card p has
// drawn is the first decision; the stacked cards are kept as pending, to be
// assigned at the root.
func (s *searcher) loadPosition(p solver.View) error {
	st := &s.root
	*st = state{}
	for w := range st.key {
		st.key[w] = ^uint64(0)
	}
	drawn := 0
	if p.Drawn() != 0 {
		drawn = 1
	}
	st.idx = uint8(s.n - p.StockLen() - drawn)
	if drawn == 1 && s.cards[st.idx] != p.Drawn() {
		return fmt.Errorf("position does not match the deck: drawn %s, deck has %s", p.Drawn(), s.cards[st.idx])
	}
	for x := 0; x < solver.Tables; x++ {
		st.prog[x] = uint8(p.Placed(x + 1))
	}
	for i := 0; i < s.stacks; i++ {
		var cards []solver.Rank
		for _, c := range p.AppendStack(nil, i) {
			cards = append(cards, c.Rank())
		}
		s.pending = append(s.pending, cards)
		if len(cards) > 0 {
			s.unassigned = true
		}
	}
	return nil
}

// solveRoot assigns the stacked cards of a prefix, if any, in every
// consistent way, and searches from each.
func (s *searcher) solveRoot() Verdict {
	v := s.assign(s.root, 0, 0)
	if v == No && s.stopped {
		return Unknown
	}
	return v
}

// assign gives the i-th card of pending stack p a slot, then the rest.
func (s *searcher) assign(st state, p, i int) Verdict {
	for p < len(s.pending) && i == len(s.pending[p]) {
		p, i = p+1, 0
	}
	if p == len(s.pending) {
		mark := len(s.path)
		s.cascade(&st)
		s.states[0] = st
		v := s.solveFrom()
		if v == No {
			s.path = s.path[:mark]
		}
		return v
	}
	s.nodes++
	if s.limit > 0 && s.nodes > s.limit || s.nodes&1023 == 0 && s.ctx.Err() != nil {
		s.stopped = true
		return Unknown
	}
	r := s.pending[p][i]
	for x := 0; x < solver.Tables; x++ {
		if !st.free(x, r) {
			continue
		}
		v := slotOf[x][r]
		if !s.opts.NoCycleCheck && s.closesCycle(&st, int(v), st.top(p)) {
			continue
		}
		child := st
		child.push(p, v)
		switch res := s.assign(child, p, i+1); res {
		case Yes, Unknown:
			return res
		}
	}
	return No
}

// cascade moves every stack top that its table needs, until none is: with
// the assignments fixed these moves are forced and their order does not
// matter (docs/clairvoyant.md, Corollary 2b).
func (s *searcher) cascade(st *state) {
	for changed := true; changed; {
		changed = false
		for x := 0; x < solver.Tables; x++ {
			for {
				k := int(st.prog[x])
				if k >= solver.NumRanks || st.resv[x]&(1<<k) == 0 {
					break
				}
				v := x*solver.NumRanks + k
				sk := int(st.loc[v])
				if st.top(sk) != v {
					break
				}
				st.pop(sk)
				s.path = append(s.path, solver.Move{Kind: solver.StackToTable, Rank: rankOfSlot[v], Stack: int8(sk), Table: int8(x + 1)})
				changed = true
			}
		}
	}
}

// closesCycle reports whether putting the card of slot v on a stack whose
// top is the card of slot u closes a cycle in the dependency graph: whether
// a stacked card that table x places before v must, through stack and table
// order, leave after u (docs/clairvoyant.md, Lemma 3).
func (s *searcher) closesCycle(st *state, v, u int) bool {
	if u < 0 {
		return false
	}
	x, k := v/solver.NumRanks, v%solver.NumRanks
	if st.resv[x]&(1<<k-1) == 0 {
		return false
	}
	var seen uint64
	var todo [numSlots]uint8
	n := 0
	todo[n] = uint8(u)
	n++
	for n > 0 {
		n--
		w := int(todo[n])
		if seen&(1<<w) != 0 {
			continue
		}
		seen |= 1 << w
		wx, wk := w/solver.NumRanks, w%solver.NumRanks
		if wx == x && wk < k {
			return true
		}
		if b := int(st.key[w/10] >> (uint(w%10) * 6) & 63); b != bottom {
			todo[n] = uint8(b)
			n++
		}
		if m := st.resv[wx] >> (wk + 1); m != 0 {
			todo[n] = uint8(wx*solver.NumRanks + wk + 1 + trailingZeros16(m))
			n++
		}
	}
	return false
}

// option is one choice for the drawn card: slot v, on stack s (-1: straight
// to its table), with a score (lower is tried first).
type option struct {
	v     uint8
	s     int8
	score int16
}

// solveFrom searches from states[0]: first with few departures from the
// move ordering (limited discrepancy search: W. D. Harvey, M. L. Ginsberg,
// "Limited Discrepancy Search", IJCAI 1995), which finds most wins quickly,
// then without limit, which settles the rest.
//
// With Options.Restarts, the passes stop after two departures, each cut
// after restartPassNodes nodes, and runs with a perturbed move ordering
// follow before the search without limit (restarts).
func (s *searcher) solveFrom() Verdict {
	if s.opts.Restarts > 0 {
		return s.restarts()
	}
	for _, disc := range discrepancies {
		s.cut = false
		v := s.dfs(0, disc)
		if v != No || !s.cut {
			return v
		}
	}
	return s.dfs(0, unlimited)
}

// Restart schedule (docs/clairvoyant.md, "Restarts"): the discrepancy passes
// kept and the largest score added to an option; the nodes each pass may
// take and the length of the shortest run (variables only so that a test
// can shorten them).
const (
	restartPasses = 3
	restartNoise  = 60
)

var (
	restartPassNodes int64 = 2_000_000
	restartUnit      int64 = 20_000
)

// restarts searches with at most 0, 1 and 2 departures from the move
// ordering, each pass cut after restartPassNodes nodes; then runs whose
// stacking options get a random score of up to restartNoise added, the
// i-th cut after restartUnit·luby(i) nodes, until Options.Restarts nodes
// of runs are spent (C. P. Gomes, B. Selman, H. Kautz, "Boosting Combinatorial
// Search Through Randomization", AAAI 1998; the run lengths are M. Luby,
// A. Sinclair, D. Zuckerman, "Optimal Speedup of Las Vegas Algorithms", 1993);
// then the search without limit, for what the budget leaves. A run or pass
// that ends with No uncut searched everything: a proof, as in solveFrom. A
// cut one stores nothing in the memo (dfs adds only positions whose subtree
// it finished), so each run starts over, keeping the refutations of the
// earlier ones.
func (s *searcher) restarts() Verdict {
	overall, mark := s.limit, len(s.path)
	// run searches with at most disc departures and the limit lim (or the
	// overall one, if lower); its second result is false when lim alone cut
	// the search, which then goes on.
	run := func(lim int64, disc int) (Verdict, bool) {
		capped := overall == 0 || lim < overall
		if capped {
			s.limit = lim
		}
		s.cut = false
		v := s.dfs(0, disc)
		s.limit = overall
		if v == Unknown && capped && s.ctx.Err() == nil {
			s.stopped = false
			s.path = s.path[:mark]
			return v, false
		}
		return v, true
	}
	for disc := range restartPasses {
		v, done := run(s.nodes+restartPassNodes, disc)
		if done && (v != No || !s.cut) {
			return v
		}
	}
	end := s.nodes + s.opts.Restarts
	for i := 1; s.nodes < end; i++ {
		s.runs++
		s.noise = rand.New(rand.NewPCG(uint64(i), restartSeed))
		v, done := run(min(s.nodes+restartUnit*luby(i), end), unlimited)
		s.noise = nil
		if done {
			return v
		}
	}
	return s.dfs(0, unlimited)
}

const restartSeed = 0x9e3779b97f4a7c15

// luby is the i-th term (from 1) of the sequence 1 1 2 1 1 2 4 1 1 2 1 1 2 4 8 ….
func luby(i int) int64 {
	for {
		k := 1
		for 1<<k-1 < i {
			k++
		}
		if i == 1<<k-1 {
			return 1 << (k - 1)
		}
		i -= 1<<(k-1) - 1
	}
}

const unlimited = 1 << 30

// tiesFree: an option scored like the first is no departure.
var tiesFree = true

var discrepancies = []int{0, 1, 2, 3, 4, 5, 6, 8}

// dfs searches from states[d], departing at most disc times from the move
// ordering. It returns Yes with s.win set, Unknown when the budget ran out,
// and No when no line from here wins; s.cut is then set if a line was left
// out for the discrepancy limit (the No is not a proof).
func (s *searcher) dfs(d, disc int) Verdict {
	st := &s.states[d]
	if int(st.idx) == s.n {
		if st.won() {
			s.win = append(s.win[:0], s.path...)
			return Yes
		}
		return No
	}
	s.nodes++
	if s.limit > 0 && s.nodes > s.limit {
		s.stopped = true
		return Unknown
	}
	if s.nodes&1023 == 0 && s.ctx.Err() != nil {
		s.stopped = true
		return Unknown
	}
	var key [6]uint64
	if !s.opts.NoMemo {
		key = st.key
		key[5] = key[5]&(1<<12-1) | uint64(st.idx)<<12 |
			uint64(st.prog[0])<<18 | uint64(st.prog[1])<<22 | uint64(st.prog[2])<<26 | uint64(st.prog[3])<<30
		if s.memo.has(&key) {
			return No
		}
	}
	if !s.opts.NoBound && s.refuted(st) {
		if !s.opts.NoMemo {
			s.memo.add(&key)
		}
		return No
	}
	var opts [solver.Tables * solver.MaxStacks]option
	n := s.options(st, &opts)
	outerCut := s.cut
	s.cut = false
	r := s.cards[st.idx]
	mark := len(s.path)
	for i, o := range opts[:n] {
		childDisc := disc
		if i > 0 && (!tiesFree || o.score > opts[0].score) {
			if disc == 0 {
				s.cut = true
				break
			}
			childDisc = disc - 1
		}
		child := &s.states[d+1]
		*child = *st
		x := int(o.v) / solver.NumRanks
		if o.s < 0 {
			child.prog[x]++
			s.path = append(s.path, solver.Move{Kind: solver.ToTable, Rank: r, Table: int8(x + 1)})
			s.cascade(child)
		} else {
			child.push(int(o.s), o.v)
			t := int8(x + 1)
			if s.unassigned {
				t = 0
			}
			s.path = append(s.path, solver.Move{Kind: solver.ToStack, Rank: r, Stack: o.s, Table: t})
		}
		child.idx++
		switch v := s.dfs(d+1, childDisc); v {
		case Yes, Unknown:
			return v
		}
		s.path = s.path[:mark]
	}
	if !s.cut && !s.opts.NoMemo {
		s.memo.add(&key)
	}
	s.cut = s.cut || outerCut
	return No
}

// options lists the choices for the drawn card, best first.
func (s *searcher) options(st *state, opts *[solver.Tables * solver.MaxStacks]option) int {
	// ready[x][k]: the earliest draw after which table x could reach
	// position k, counting only the first copy in the stock of each rank it
	// still needs (a guess for ordering, not a bound).
	var ready [solver.Tables][solver.NumRanks]int16
	nx := &s.nextOcc[st.idx]
	for x := 0; x < solver.Tables; x++ {
		run := int16(st.idx)
		for k := int(st.prog[x]); k < solver.NumRanks; k++ {
			ready[x][k] = run
			if st.resv[x]&(1<<k) == 0 {
				run = max(run, int16(nx[solver.TableRank(x+1, k)]))
			}
		}
	}
	r := s.cards[st.idx]
	n := 0
	for x := 0; x < solver.Tables; x++ {
		if !st.free(x, r) {
			continue
		}
		v := slotOf[x][r]
		k := int(v) - x*solver.NumRanks
		if k == int(st.prog[x]) {
			opts[n] = option{v: v, s: -1, score: -1}
			n++
			continue
		}
		rd := ready[x][k]
		triedEmpty := false
		for sk := 0; sk < s.stacks; sk++ {
			u := st.top(sk)
			if u < 0 {
				if triedEmpty && !s.opts.NoSymmetry {
					continue
				}
				triedEmpty = true
			}
			if !s.opts.NoCycleCheck && s.closesCycle(st, int(v), u) {
				continue
			}
			var score int16
			switch {
			case u < 0:
				score = 150 + (rd-int16(st.idx))/2
			case u == int(v)+1 && k+1 < solver.NumRanks:
				score = (rd - int16(st.idx)) / 2 // chain: u comes right after v on its table
			default:
				ru := ready[u/solver.NumRanks][u%solver.NumRanks]
				if ru >= rd {
					score = 50 + (ru - rd) + (rd-int16(st.idx))/2
				} else {
					score = 250 + (rd - ru)
				}
			}
			opts[n] = option{v: v, s: int8(sk), score: score}
			n++
		}
	}
	if s.noise != nil {
		for i := range n {
			if opts[i].s >= 0 {
				opts[i].score += int16(s.noise.IntN(restartNoise))
			}
		}
	}
	// Insertion sort: a handful of options.
	for i := 1; i < n; i++ {
		for j := i; j > 0 && opts[j].score < opts[j-1].score; j-- {
			opts[j], opts[j-1] = opts[j-1], opts[j]
		}
	}
	return n
}

func trailingZeros16(m uint16) int { return bits.TrailingZeros16(m) }
