// Package search holds the searching players of calcsol: the exhaustive
// endgame search (exact win probabilities over every order of the unseen
// cards), the deadlock-graph player (stacking that never closes a cycle of
// the dependency graph, with assignments left open), the sampling player
// (determinized rollouts) and the pimc player (perfect-information Monte
// Carlo: each place of the drawn card judged by the clairvoyant solver on
// sampled orders of the unseen cards). They implement the strategy contract of package
// solver (docs/design.md) and are described in docs/strategies.md.
package search

import (
	"slices"

	"github.com/calcsol/calcsol/solver"
)

// MaxEndgameCards is the largest stock the exact endgame search takes on:
// the number of orders of 20 cards, 20! ≈ 2.4·10^18, still fits a uint64,
// which is what keeps its arithmetic exact.
const MaxEndgameCards = 20

// Endgame computes exact win probabilities of positions whose stock is short.
//
// The value of a position is the number of orders of the unseen ranks (the
// stock as a sequence of ranks: cards of one rank are interchangeable) that
// the best player wins, knowing the ranks left (cards can be counted) but
// not their order — Nanzaki & Shintani's proposed endgame search. At a chance
// node (no card drawn) the orders starting with rank r are exactly the orders
// of what is left after r, so the value is the sum of the children's values;
// at a decision node it is the largest value of any legal move. Dividing by
// the number of orders (the multinomial of the remaining counts) gives the
// probability. All of it is integer arithmetic, so ties between moves break
// the same on every machine.
//
// Assignments are ignored: a stack top may go to any table that needs it
// (the rules), and the search stacks cards unassigned. Stacks with equal
// contents are interchangeable, so the memo key sorts them.
//
// A stacking after which every assignment has a cycle is lost and not
// searched further (the deadlock check, acyclicSearch); with the stock
// empty, that check is the whole value (cleared). So is a position that a
// move to a table leaves cyclic: no move undoes a cycle (a card stacked or
// a table filled only narrows the take-apart's choices), so nothing below
// it wins, and one check stands for the search of its whole subtree (lost).
// The checks keep what they learn for later checks of any position
// (sharedStates): the positions of one search share most of their stacks.
//
// An Endgame is not safe for concurrent use; its memo persists between
// calls (positions' values do not depend on the game), up to MemoLimit
// entries, after which it is cleared.
type Endgame struct {
	memo    map[string]uint64
	key     []byte
	acyclic acyclicSearch
	// MemoLimit bounds the memo's entries; 0 means DefaultMemoLimit.
	MemoLimit int
	// Nodes counts the positions evaluated (not found in the memo).
	Nodes int64
}

// DefaultMemoLimit is the memo size at which an Endgame starts afresh.
const DefaultMemoLimit = 4 << 20

// NewEndgame returns an endgame search with an empty memo.
func NewEndgame() *Endgame {
	e := &Endgame{memo: make(map[string]uint64)}
	e.acyclic.shared = &sharedStates{}
	return e
}

// Forget empties the memo and what the deadlock checks keep. Values do not
// depend on the game, so forgetting changes no answer; but the positions of
// one game's endgame are rarely another's, and a memo kept small stays in
// the cache: the endgame player forgets at the end of each game.
func (e *Endgame) Forget() {
	clear(e.memo)
	if s := e.acyclic.shared; s != nil {
		s.forget()
	}
}

// Orders returns the number of distinct orders of the ranks left in st's
// stock (the multinomial coefficient of the remaining counts).
func Orders(st *solver.State) uint64 {
	// The product over ranks of C(cards so far, this rank's count), each
	// binomial built up exactly: b·(t+i)/i is again a binomial coefficient.
	var n, total uint64 = 1, 0
	for r := solver.Rank(1); r <= solver.NumRanks; r++ {
		b := uint64(1)
		for i := uint64(1); i <= uint64(st.Remaining(r)); i++ {
			b = b * (total + i) / i
		}
		total += uint64(st.Remaining(r))
		n *= b
	}
	return n
}

// Wins returns the number of orders of the unseen ranks that the best play
// from st wins, and Orders(st): the win probability is their quotient.
// st.StockLen() must be at most MaxEndgameCards.
func (e *Endgame) Wins(st *solver.State) (wins, orders uint64) {
	if e.memo == nil {
		e.memo = make(map[string]uint64)
	}
	return e.value(st), Orders(st)
}

// MoveValue is a move and the number of orders it wins.
type MoveValue struct {
	Move solver.Move
	Wins uint64
}

// Moves returns the value of every legal move in st (stacking unassigned,
// stacks with equal contents given once, the first of them), in the order of
// AppendLegalMoves, and the number of orders. The best move is the first
// with the most wins.
func (e *Endgame) Moves(st *solver.State) (moves []MoveValue, orders uint64) {
	if e.memo == nil {
		e.memo = make(map[string]uint64)
	}
	var buf [solver.MaxLegalMoves]solver.Move
	for _, m := range candidates(st, buf[:0]) {
		c := applied(st, m)
		moves = append(moves, MoveValue{Move: m, Wins: e.value(&c)})
	}
	return moves, Orders(st)
}

// Best returns the move with the most winning orders (the first such in
// the order of Moves), its wins and the number of orders; ok is false when
// no move is legal.
//
// It stops at the first move that wins every order: no later move can win
// more, so the answer is the one Moves gives, without valuing the rest.
func (e *Endgame) Best(st *solver.State) (m solver.Move, wins, orders uint64, ok bool) {
	if e.memo == nil {
		e.memo = make(map[string]uint64)
	}
	orders = Orders(st)
	var buf [solver.MaxLegalMoves]solver.Move
	for i, c := range candidates(st, buf[:0]) {
		a := applied(st, c)
		var w uint64
		if !e.lost(&a) {
			w = e.value(&a)
		}
		if i == 0 || w > wins {
			m, wins, ok = c, w, true
		}
		if wins == orders {
			break
		}
	}
	return m, wins, orders, ok
}

// candidates appends the moves the search tries: every legal move except
// assigned stacking (the rules ignore assignments), and onto only the first
// of several stacks with equal contents.
//
// One move is forced, and is then the only candidate: a card (the drawn one
// or a stack top) that a table needs now when that table's slot is the last
// open slot of its rank. Playing it at once loses nothing: it is the last
// card of its rank not on a table, so it can only ever go there, and any
// line that keeps it back (stacking it, or leaving it on its stack) can be
// copied move for move by a line that plays it first — the same moves stay
// legal, cards under it become free sooner, and the table waits for nothing
// else meanwhile.
func candidates(st *solver.State, dst []solver.Move) []solver.Move {
	var all [solver.MaxLegalMoves]solver.Move
	legal := st.AppendLegalMoves(all[:0])
	for _, m := range legal {
		if (m.Kind == solver.ToTable || m.Kind == solver.StackToTable) && openSlots(st, m.Rank) == 1 {
			return append(dst, m)
		}
	}
	for _, m := range legal {
		if m.Kind == solver.ToStack && (m.Table != 0 || sameAsEarlier(st, int(m.Stack))) {
			continue
		}
		dst = append(dst, m)
	}
	return dst
}

// sameAsEarlier reports whether a stack before s holds the same ranks as s.
func sameAsEarlier(st *solver.State, s int) bool {
	h := st.Height(s)
outer:
	for t := 0; t < s; t++ {
		if st.Height(t) != h {
			continue
		}
		for i := range h {
			if st.StackCard(t, i).Rank() != st.StackCard(s, i).Rank() {
				continue outer
			}
		}
		return true
	}
	return false
}

// value is the number of winning orders from st.
func (e *Endgame) value(st *solver.State) uint64 {
	if st.Won() {
		return 1
	}
	if st.StockLen() == 0 && st.Drawn() == 0 {
		return e.cleared(st)
	}
	k := e.keyOf(st)
	if v, ok := e.memo[string(k)]; ok {
		return v
	}
	e.Nodes++
	var v uint64
	if st.Drawn() == 0 && st.StockLen() > 0 {
		for r := solver.Rank(1); r <= solver.NumRanks; r++ {
			if st.Remaining(r) == 0 {
				continue
			}
			c := *st
			if err := c.Reveal(r); err != nil {
				panic("search: " + err.Error())
			}
			v += e.value(&c)
		}
	} else {
		all := Orders(st)
		var buf [solver.MaxLegalMoves]solver.Move
		moves := candidates(st, buf[:0])
		// The moves to a table first: when one wins every order, nothing
		// wins more, and the stackings need no check.
		for _, m := range moves {
			if m.Kind == solver.ToStack {
				continue
			}
			c := applied(st, m)
			if e.lost(&c) {
				continue
			}
			v = max(v, e.value(&c))
			if v == all {
				break
			}
		}
		if v < all {
			v = max(v, e.stackings(st, moves, all))
		}
	}
	limit := e.MemoLimit
	if limit <= 0 {
		limit = DefaultMemoLimit
	}
	if len(e.memo) >= limit {
		clear(e.memo)
	}
	e.memo[string(e.keyOf(st))] = v
	return v
}

// stackings is the largest value of the stackings among moves, candidates
// of the decision node st whose orders are all.
//
// A stacking that leaves every assignment with a cycle loses every order:
// its cards can never all reach the tables. The stackings are checked
// first, one after another: they differ only in the stack the drawn card
// went on, so each check keeps the failures of the ones before
// (acyclicSearch.again) — before the values below run checks of their own.
func (e *Endgame) stackings(st *solver.State, moves []solver.Move, all uint64) uint64 {
	var cyclic [solver.MaxLegalMoves]bool
	checked := false
	for i, m := range moves {
		if m.Kind != solver.ToStack {
			continue
		}
		c := applied(st, m)
		if checked {
			cyclic[i] = !e.acyclic.again(&c)
		} else {
			cyclic[i], checked = !e.acyclic.acyclic(&c), true
		}
	}
	var v uint64
	for i, m := range moves {
		if m.Kind != solver.ToStack || cyclic[i] {
			continue
		}
		c := applied(st, m)
		w := uint64(1) // with the stock empty the check is the whole value (cleared)
		if c.StockLen() > 0 {
			w = e.value(&c)
		}
		if w > v {
			v = w
			if v == all {
				break // nothing wins more than every order
			}
		}
	}
	return v
}

// lost reports that st, with cards still to come, has no acyclic
// assignment: it wins no order, and nothing below it need be searched.
// (With the stock empty, value's own check, cleared, is the whole value.)
func (e *Endgame) lost(st *solver.State) bool {
	return st.StockLen() > 0 && !e.acyclic.acyclic(st)
}

// applied returns st after m, a move legal in st.
func applied(st *solver.State, m solver.Move) solver.State {
	c := *st
	if err := c.Apply(m); err != nil {
		panic("search: a legal move was refused: " + err.Error())
	}
	return c
}

// cleared is the value of a position whose stock is empty and nothing
// drawn: 1 when its stacks can be taken apart onto the tables, else 0. With
// no card left to come, the take-apart search of the deadlock check is
// exact: a top that skipped a slot would leave that slot to a card that
// never arrives, and the count of open slots (short) sees it at once.
func (e *Endgame) cleared(st *solver.State) uint64 {
	e.Nodes++
	if e.acyclic.acyclic(st) {
		return 1
	}
	return 0
}

// keyOf writes the canonical key of st: table progress, the drawn card, the
// remaining counts, then the stacks' ranks sorted (equal stacks are
// interchangeable), each ended by 0.
func (e *Endgame) keyOf(st *solver.State) []byte {
	k := e.key[:0]
	for x := 1; x <= solver.Tables; x++ {
		k = append(k, byte(st.Placed(x)))
	}
	k = append(k, byte(st.Drawn()))
	for r := solver.Rank(1); r <= solver.NumRanks; r++ {
		k = append(k, byte(st.Remaining(r)))
	}
	var order [solver.MaxStacks]int
	n := st.Stacks()
	for s := range n {
		order[s] = s
	}
	slices.SortFunc(order[:n], func(a, b int) int { return compareStacks(st, a, b) })
	for _, s := range order[:n] {
		for i := range st.Height(s) {
			k = append(k, byte(st.StackCard(s, i).Rank()))
		}
		k = append(k, 0)
	}
	e.key = k
	return k
}

// compareStacks orders stacks by their ranks, bottom first.
func compareStacks(st *solver.State, a, b int) int {
	ha, hb := st.Height(a), st.Height(b)
	for i := range min(ha, hb) {
		ra, rb := st.StackCard(a, i).Rank(), st.StackCard(b, i).Rank()
		if ra != rb {
			return int(ra) - int(rb)
		}
	}
	return ha - hb
}

// openSlots returns how many tables do not hold rank r yet: the number of
// cards of rank r not on a table.
func openSlots(st *solver.State, r solver.Rank) int {
	n := 0
	for x := 1; x <= solver.Tables; x++ {
		if !st.Filled(x, r) {
			n++
		}
	}
	return n
}
