// Package games keeps a value per game of a plugin session, for the host
// and for the Go SDK. A lockstep batch lists its games in the order of the
// batch before it, less the games that ended, so a lookup first tries the
// game after the last one found; a map is the fallback.
package games

// Table maps game ids to values of type T. Its zero value is ready; the
// pointers it returns stay valid until the game is deleted.
type Table[T any] struct {
	m     map[uint64]*entry[T]
	order []*entry[T] // the games of the last batch, in its order
	next  []*entry[T] // the games of the batch being read
	at    int         // where in order the next lookup looks first
}

type entry[T any] struct {
	id   uint64
	idx  int  // its position in the batch that last looked it up
	dead bool // deleted: a stale element of order
	v    T
}

// Begin starts a batch: the lookups that follow are expected in the order
// of the previous batch's.
func (t *Table[T]) Begin() {
	t.order, t.next = t.next, t.order[:0]
	t.at = 0
}

// Get returns game id's value, and whether it is new (zeroed).
func (t *Table[T]) Get(id uint64) (v *T, fresh bool) {
	var e *entry[T]
	if t.at < len(t.order) && t.order[t.at].id == id && !t.order[t.at].dead {
		e = t.order[t.at]
		t.at++
	} else if e = t.m[id]; e != nil {
		if e.idx < len(t.order) && t.order[e.idx] == e {
			t.at = e.idx + 1
		}
	} else {
		e = &entry[T]{id: id}
		if t.m == nil {
			t.m = map[uint64]*entry[T]{}
		}
		t.m[id] = e
		fresh = true
	}
	e.idx = len(t.next)
	t.next = append(t.next, e)
	return &e.v, fresh
}

// Delete forgets game id (it ended); an id seen again is a new game.
func (t *Table[T]) Delete(id uint64) {
	e := t.m[id]
	if e == nil {
		return
	}
	delete(t.m, id)
	e.dead = true // it may still be in order or next
}

// Reset forgets every game.
func (t *Table[T]) Reset() { *t = Table[T]{} }

// Len is the number of games held.
func (t *Table[T]) Len() int { return len(t.m) }
