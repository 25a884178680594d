package clairvoyant

import "github.com/calcsol/calcsol/solver"

// A lower bound on when things can happen, in stock indices: for the card
// of a reserved slot v, e[v] is an index i such that the card cannot leave
// its stack before card i of the stock is drawn (docs/clairvoyant.md,
// Lemma 6). A slot that is free must be filled by a card still in the stock,
// so no earlier than the next copy of its rank; a stacked card leaves after
// the card on top of it and after its table's earlier slots.
type bounds struct {
	st    *state
	next  *[solver.NumRanks + 1]uint8
	e     [numSlots]int16 // for reserved slots; eDone marks computed ones
	eDone uint64
	slotE [solver.Tables][solver.NumRanks]int16 // when slot (x,k) can be filled; -2 unknown
	reach [numSlots][solver.Tables]int8         // per table, the least position of a stacked card that must leave after this one
	rDone uint64
	above [numSlots]int8 // slot of the card on top of a stacked card, -1 none
	// busy marks the cards whose bound is being computed; meeting one again
	// means the dependency graph has a cycle (possible only with the cycle
	// check off), and the bound then concludes nothing.
	busy, rBusy uint64
	cyclic      bool
}

func (b *bounds) init(st *state, next *[solver.NumRanks + 1]uint8, stacks int) {
	b.st, b.next, b.eDone, b.rDone = st, next, 0, 0
	b.busy, b.rBusy, b.cyclic = 0, 0, false
	for x := range b.slotE {
		for k := range b.slotE[x] {
			b.slotE[x][k] = -2
		}
	}
	for s := 0; s < stacks; s++ {
		h := int(st.h[s])
		for d := 0; d < h; d++ {
			v := st.st[s][d]
			if d+1 < h {
				b.above[v] = int8(st.st[s][d+1])
			} else {
				b.above[v] = -1
			}
		}
	}
}

// filled returns the bound for slot (x, k) to be filled (-1: it is).
func (b *bounds) filled(x, k int) int16 {
	if k < int(b.st.prog[x]) {
		return -1
	}
	if e := b.slotE[x][k]; e != -2 {
		return e
	}
	var e int16
	if b.st.resv[x]&(1<<k) != 0 {
		e = b.leave(x*solver.NumRanks + k)
	} else {
		e = max(b.filled(x, k-1), int16(b.next[solver.TableRank(x+1, k)]))
	}
	b.slotE[x][k] = e
	return e
}

// leave returns the bound for the card of reserved slot v to leave its stack.
func (b *bounds) leave(v int) int16 {
	if b.eDone&(1<<v) != 0 {
		return b.e[v]
	}
	if b.busy&(1<<v) != 0 {
		b.cyclic = true
		return -1
	}
	b.busy |= 1 << v
	x, k := v/solver.NumRanks, v%solver.NumRanks
	e := b.filled(x, k-1)
	if a := b.above[v]; a >= 0 {
		e = max(e, b.leave(int(a)))
	}
	b.e[v], b.eDone = e, b.eDone|1<<v
	return e
}

// waits returns, per table, the least position of a stacked card that must
// leave after the card of slot v (13: none); v's own slot counts.
func (b *bounds) waits(v int) *[solver.Tables]int8 {
	if b.rDone&(1<<v) != 0 || b.rBusy&(1<<v) != 0 {
		if b.rDone&(1<<v) == 0 {
			b.cyclic = true
		}
		return &b.reach[v]
	}
	b.rBusy |= 1 << v
	b.reach[v] = [solver.Tables]int8{13, 13, 13, 13}
	r := [solver.Tables]int8{13, 13, 13, 13}
	x, k := v/solver.NumRanks, v%solver.NumRanks
	r[x] = int8(k)
	st := b.st
	if w := int(st.key[v/10] >> (uint(v%10) * 6) & 63); w != bottom {
		rb := b.waits(w)
		for i := range r {
			r[i] = min(r[i], rb[i])
		}
	}
	if m := st.resv[x] >> (k + 1); m != 0 {
		rn := b.waits(x*solver.NumRanks + k + 1 + trailingZeros16(m))
		for i := range r {
			r[i] = min(r[i], rn[i])
		}
	}
	b.reach[v], b.rDone = r, b.rDone|1<<v
	return &b.reach[v]
}

// refuted reports whether some card still in the stock after the drawn one
// is sure to find no place when it is drawn, whatever is done until then: no
// table can be ready for it, and every stack holds a card that will still be
// there and that an earlier card of each table that could take it must wait
// for (docs/clairvoyant.md, Lemma 6).
func (s *searcher) refuted(st *state) bool {
	b := &s.bounds
	b.init(st, &s.nextOcc[st.idx], s.stacks)
	for s2 := 0; s2 < s.stacks; s2++ {
		if st.h[s2] == 0 {
			return false // an empty stack takes any card without a cycle
		}
	}
	for tau := int(st.idx) + 1; tau < min(s.n, int(st.idx)+1+boundWindow); tau++ {
		r := s.cards[tau]
		if !s.placeable(st, b, tau, r) {
			return !b.cyclic
		}
	}
	return false
}

// boundWindow is how many cards ahead refuted looks: far cards are rarely
// blocked by today's stacks, and each costs time at every node.
var boundWindow = 16

func (s *searcher) placeable(st *state, b *bounds, tau int, r solver.Rank) bool {
	for x := 0; x < solver.Tables; x++ {
		if !st.free(x, r) {
			continue
		}
		j := int(slotOf[x][r]) - x*solver.NumRanks
		if b.filled(x, j-1) < int16(tau) {
			return true // table x may be ready for it
		}
		for sk := 0; sk < s.stacks; sk++ {
			// The highest card of the stack sure to be still there.
			w := -1
			for d := int(st.h[sk]) - 1; d >= 0; d-- {
				v := int(st.st[sk][d])
				if b.leave(v) >= int16(tau) {
					w = v
					break
				}
			}
			if w < 0 || int(b.waits(w)[x]) >= j {
				return true
			}
		}
	}
	return false
}
