package clairvoyant

// memo remembers refuted positions by their canonical key (state.key with
// the draw index and the tables' progress in the last word). It is a lossy
// cache of exact keys: a position it has forgotten is searched again, a
// position it reports was refuted before (docs/clairvoyant.md, Lemma 5).
// Entries carry the number of the search that wrote them, so that a new
// deal needs no clearing.
type memo struct {
	entries []memoEntry
	mask    uint64
	gen     uint64
	used    int
	maxBits int
}

type memoEntry [6]uint64

const (
	genShift = 34 // the key's last word uses bits 0..33
	minBits  = 12
)

// next starts a new search: entries of earlier searches no longer match.
func (m *memo) next(maxBits int) {
	m.maxBits = maxBits
	m.gen++
	if m.gen >= 1<<(64-genShift) {
		m.gen = 1
		clear(m.entries)
	}
	if m.entries == nil {
		m.grow(minBits)
	}
	m.used = 0
}

func (m *memo) grow(bits int) {
	m.entries = make([]memoEntry, 1<<bits)
	m.mask = 1<<bits - 1
	m.used = 0
}

func (m *memo) slot(k *[6]uint64) uint64 {
	h := k[0]*0x9E3779B97F4A7C15 ^ k[1]
	h = h*0x9E3779B97F4A7C15 ^ k[2]
	h = h*0x9E3779B97F4A7C15 ^ k[3]
	h = h*0x9E3779B97F4A7C15 ^ k[4]
	h = h*0x9E3779B97F4A7C15 ^ k[5]
	h ^= h >> 29
	h *= 0xBF58476D1CE4E5B9
	h ^= h >> 32
	return h & m.mask
}

// has reports whether the position of key k was refuted in this search.
func (m *memo) has(k *[6]uint64) bool {
	k[5] = k[5]&(1<<genShift-1) | m.gen<<genShift
	i := m.slot(k)
	return m.entries[i] == *k || m.entries[i^1] == *k
}

// add records that the position of key k (as passed to has) is refuted.
func (m *memo) add(k *[6]uint64) {
	m.used++
	if m.used > len(m.entries)/2 && len(m.entries) < 1<<m.maxBits {
		// Grow; what the smaller table held is forgotten, which costs
		// searching again and nothing else.
		m.grow(bitsLen(len(m.entries)) + 2)
		if len(m.entries) > 1<<m.maxBits {
			m.grow(m.maxBits)
		}
	}
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
