package search

import (
	"encoding/binary"

	"github.com/calcsol/calcsol/solver"
)

// A playMemo remembers the scores of the base's playouts inside the pilot's
// playouts, by position and order, so that a playout which reaches a
// position already played out on the same order stops there with that
// game's score.
//
// Why it pays: the pilot plays every candidate move out at every decision,
// and those games rejoin one another (a top moved to its table now or a
// move later, two stackings whose cards leave for the same tables), so most
// of their positions were seen before. Why it is exact: for a base whose move
// depends only on the position (positional; the sampler asks the memo only
// then), the rest of a playout is a function of the position and of the
// cards still to be drawn, and the key holds both in full (playKey). The
// scores come from games the base really played, so the sampler decides
// exactly as without the memo, and how much it remembers (a slot is
// overwritten by the next key that hashes to it) changes only the time.
//
// The table is direct-mapped, memoSlots slots of 88 bytes (1.4 MB a
// session): small enough to stay in cache, which mattered more than keeping
// everything (BenchmarkSamplePilot with 2^14 to 2^18 slots).
type playMemo struct {
	slots [memoSlots]memoSlot
	hits  int // playouts cut short, for tests and benchmarks
}

const memoSlots = 1 << 14

// positional reports whether session b's move depends only on the position
// it is asked about: a solver.Chooser's session (a Chooser keeps no state
// between calls), and the rescue over such a base (the deadlock-graph
// player's search starts afresh at every move it makes: DeadlockGraph.choose).
func positional(b solver.Session) bool {
	switch s := b.(type) {
	case *solver.ChooserSession:
		return true
	case *rescueSession:
		return positional(s.base)
	}
	return false
}

type memoSlot struct {
	hash  uint64 // the key's hash, compared first: a miss reads no further
	score float64
	key   playKey
}

// playKey is a position with the cards still to be drawn, byte by byte:
// how many cards each table holds, 1 to 4 (which cards those are follows
// from the number: a table's order is fixed), the drawn card, the stock's
// size, each stack's cards bottom up (a card's byte
// holds its rank and assignment) ended by a 0 (no card is 0), then the
// stock's ranks in the order they will be drawn; the rest is 0. Distinct
// positions or orders give distinct keys: the stacks are as many as the
// rules say, and the stock's size says how many ranks follow. Stacked and
// stock cards are 52 at most, so a key needs at most 6 + 8 stack ends +
// 52 bytes. The zero key is no position's (no cards anywhere): an empty
// slot never matches.
type playKey [72]byte

// keyOf returns the key of st with the stock to be drawn in order ord (the
// whole stock's order from where it was dealt, as drawNext reads it).
func keyOf(st *solver.State, ord []solver.Rank) (k playKey) {
	for x := 1; x <= solver.Tables; x++ {
		k[x-1] = byte(st.Placed(x))
	}
	k[4], k[5] = byte(st.Drawn()), byte(st.StockLen())
	i := 6
	for s := range st.Stacks() {
		for j := range st.Height(s) {
			k[i] = byte(st.StackCard(s, j))
			i++
		}
		i++
	}
	for _, r := range ord[len(ord)-st.StockLen():] {
		k[i] = byte(r)
		i++
	}
	return k
}

// hash mixes k's nine words (multiply and xorshift).
func (k *playKey) hash() uint64 {
	h := uint64(0x9E3779B97F4A7C15)
	for i := 0; i < len(k); i += 8 {
		h ^= binary.LittleEndian.Uint64(k[i:])
		h *= 0xBF58476D1CE4E5B9
		h ^= h >> 31
	}
	return h
}

// slot returns the slot of a key that hashes to h.
func (m *playMemo) slot(h uint64) *memoSlot { return &m.slots[h%memoSlots] }

// entry returns k as an entry of the memo, its score still to be set.
func entry(k playKey) memoSlot { return memoSlot{hash: k.hash(), key: k} }

// get returns the score remembered for e's key.
func (m *playMemo) get(e *memoSlot) (float64, bool) {
	if s := m.slot(e.hash); s.hash == e.hash && s.key == e.key {
		return s.score, true
	}
	return 0, false
}

// put remembers e, in place of what its slot held.
func (m *playMemo) put(e *memoSlot) { *m.slot(e.hash) = *e }
