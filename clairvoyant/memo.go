package clairvoyant

// memo remembers refuted positions by their canonical key (state.key with
// the draw index and the tables' progress in the last word). It is a lossy
// cache of exact keys: a position it has forgotten is searched again, a
// position it reports was refuted before (docs/clairvoyant.md, Lemma 5).
//
// Entries carry the number of the generation that wrote them, so that
// forgetting needs no clearing: a new search, and each growth of the table
// within one, starts a new generation. Every search starts from the same
// small table and grows it the same way, and the slot of a key does not
// depend on the generation, so a search keeps, forgets and finds the same
// positions whatever the solver searched before: its answer and its node
// count are those of a new Solver (TestSolverHistory). Only the memory is
// kept between searches.
type memo struct {
	entries []memoEntry // the memory; the table is its first mask+1 entries
	mask    uint64
	gen     uint64
	used    int
	maxBits int
}

type memoEntry [6]uint64

const (
	genShift = 34 // the key's last word uses bits 0..33
	minBits  = 12
	keyBits  = 1<<genShift - 1
)

// next starts a new search with an empty table of the smallest size.
func (m *memo) next(maxBits int) {
	m.maxBits = maxBits
	m.grow(minBits)
}

// grow empties the table and sets its size to 2^bits entries: what it held
// is forgotten, which costs searching again and nothing else.
func (m *memo) grow(bits int) {
	m.gen++
	if m.gen >= 1<<(64-genShift) {
		m.gen = 1
		clear(m.entries)
	}
	if len(m.entries) < 1<<bits {
		m.entries = make([]memoEntry, 1<<bits)
	}
	m.mask = 1<<bits - 1
	m.used = 0
}

// slot is where key k lives (or its neighbour, slot^1): a hash of the key
// without its generation.
func (m *memo) slot(k *[6]uint64) uint64 {
	h := k[0]*0x9E3779B97F4A7C15 ^ k[1]
	h = h*0x9E3779B97F4A7C15 ^ k[2]
	h = h*0x9E3779B97F4A7C15 ^ k[3]
	h = h*0x9E3779B97F4A7C15 ^ k[4]
	h = h*0x9E3779B97F4A7C15 ^ (k[5]&keyBits | 1<<genShift)
	h ^= h >> 29
	h *= 0xBF58476D1CE4E5B9
	h ^= h >> 32
	return h & m.mask
}

// has reports whether the position of key k was refuted in this search (and
// not forgotten since).
func (m *memo) has(k *[6]uint64) bool {
	k[5] = k[5]&keyBits | m.gen<<genShift
	i := m.slot(k)
	return m.entries[i] == *k || m.entries[i^1] == *k
}

// add records that the position of key k (as passed to has) is refuted.
func (m *memo) add(k *[6]uint64) {
	m.used++
	if size := int(m.mask) + 1; m.used > size/2 && size < 1<<m.maxBits {
		m.grow(min(bitsLen(size)+2, m.maxBits))
	}
	k[5] = k[5]&keyBits | m.gen<<genShift // the generation may have changed since has
	i := m.slot(k)
	if m.entries[i][5]>>genShift != m.gen {
		m.entries[i] = *k
		return
	}
	m.entries[i^1] = *k
}

func bitsLen(n int) int {
	b := 0
	for n > 1 {
		n >>= 1
		b++
	}
	return b
}
