package search

import "github.com/calcsol/calcsol/solver"

// Take-apart states shared between checks.
//
// Whether a state of the take-apart search (acyclicSearch.dfs) succeeds
// depends only on the cards of the stacks' remaining bottom parts and the
// tables' pointers. acyclic names a state by the bottom parts' heights,
// which is a name for those cards only within one position (and the
// positions one move away: again). A sharedStates names each bottom part
// by its cards instead — an id per distinct sequence of ranks, given out
// by a trie of every sequence met so far — so what a check learns, states
// that fail and states that are taken apart, holds for every later check
// of any position, exactly: two states with one name hold the same cards.
// The endgame search checks thousands of positions that share their
// stacks' lower parts, and so searches each such part once.

// sharedStates is the memory of take-apart checks kept between positions.
// It is not safe for concurrent use.
type sharedStates struct {
	ids    map[uint64]uint32 // parent id << 8 | rank → the id of the sequence one rank longer
	states stateSet
	// limit bounds the states and ids kept; at the limit all are dropped.
	limit int
	// last holds, for each stack, the ranks named at the last prepare and
	// their ids: a check's stacks mostly differ from the last one's by a
	// card or two at the top.
	last    [maxSharedStacks][]solver.Rank
	lastIDs [maxSharedStacks][solver.DeckSize + 1]uint32
}

// maxSharedStacks is the number of stacks a shared state's name holds;
// positions with more stacks are checked on their own (acyclic).
const maxSharedStacks = 4

// sharedKey names a take-apart state: the ids of the stacks' bottom parts
// (28 bits each) and the four tables' pointers (4 bits each).
type sharedKey struct{ a, b uint64 }

// defaultSharedLimit is sharedStates' limit when none is set.
const defaultSharedLimit = 1 << 16

// child returns the id of the sequence of ranks with id parent followed by
// rank r.
func (s *sharedStates) child(parent uint32, r solver.Rank) uint32 {
	k := uint64(parent)<<8 | uint64(r)
	id, ok := s.ids[k]
	if !ok {
		id = uint32(len(s.ids) + 1) // 0 is the empty sequence
		s.ids[k] = id
	}
	return id
}

// prepare gives a the ids of its stacks' bottom parts, after load; it
// drops what s keeps once it holds more than its limit.
func (s *sharedStates) prepare(a *acyclicSearch) {
	limit := s.limit
	if limit <= 0 {
		limit = defaultSharedLimit
	}
	// A check adds at most a deck's ids: they stay within 28 bits.
	limit = min(limit, 1<<28-solver.DeckSize-1)
	if s.ids == nil {
		s.ids = make(map[uint64]uint32)
	} else if len(s.ids) > limit || s.states.count > limit {
		s.forget()
	}
	for st := range a.n {
		cards, last := a.stacks[st], s.last[st]
		same := 0
		for same < len(cards) && same < len(last) && cards[same] == last[same] {
			same++
		}
		ids := &s.lastIDs[st]
		for i := same; i < len(cards); i++ {
			ids[i+1] = s.child(ids[i], cards[i])
		}
		s.last[st] = append(last[:same], cards[same:]...)
		a.ids[st] = *ids
	}
}

// forget drops every id and state s keeps.
func (s *sharedStates) forget() {
	clear(s.ids)
	s.states.reset()
	s.last = [maxSharedStacks][]solver.Rank{}
}

// key names state (h, p) of a's position.
func (a *acyclicSearch) sharedKey(h [solver.MaxStacks]int, p [solver.Tables]int) sharedKey {
	var id [maxSharedStacks]uint64
	for s := range a.n {
		id[s] = uint64(a.ids[s][h[s]])
	}
	ptr := uint64(p[0]) | uint64(p[1])<<4 | uint64(p[2])<<8 | uint64(p[3])<<12
	return sharedKey{
		a: id[0] | id[1]<<28 | (ptr&0xff)<<56,
		b: id[2] | id[3]<<28 | (ptr>>8)<<56,
	}
}

// stateSet maps shared states to what a check found: open addressing, a
// tag a slot (0 empty, failed or taken apart).
type stateSet struct {
	keys  []sharedKey
	tags  []uint8
	count int
}

// The tags of a stateSet.
const (
	stateFails uint8 = 1 + iota
	stateTakenApart
)

func (k *stateSet) reset() {
	clear(k.tags)
	k.count = 0
}

func (k *stateSet) slot(key sharedKey) int {
	mask := len(k.keys) - 1
	h := key.a*0xbf58476d1ce4e5b9 ^ key.b
	h = (h ^ h>>31) * 0x9e3779b97f4a7c15
	i := int(h>>32) & mask
	for k.tags[i] != 0 && k.keys[i] != key {
		i = (i + 1) & mask
	}
	return i
}

// get returns key's tag, 0 when it has none.
func (k *stateSet) get(key sharedKey) uint8 {
	if k.count == 0 {
		return 0
	}
	return k.tags[k.slot(key)]
}

func (k *stateSet) set(key sharedKey, tag uint8) {
	if 2*(k.count+1) > len(k.keys) {
		old, oldTags := k.keys, k.tags
		n := max(2*len(old), 1024)
		k.keys, k.tags, k.count = make([]sharedKey, n), make([]uint8, n), 0
		for i, t := range oldTags {
			if t != 0 {
				k.set(old[i], t)
			}
		}
	}
	i := k.slot(key)
	if k.tags[i] == 0 {
		k.keys[i] = key
		k.count++
	}
	k.tags[i] = tag
}
