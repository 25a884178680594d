package search

import (
	"fmt"
	"slices"

	"github.com/calcsol/calcsol/solver"
	"github.com/calcsol/calcsol/strategies"
)

// Open assignments and the dependency graph.
//
// Nanzaki & Shintani's dependency graph has a node for every stacked card,
// assigned to a table, and an edge a → b when a lies above b in a stack or
// comes before b on their common table; a cycle is a deadlock. The rules do
// not fix assignments: a stack top may go to any table that needs it. So a
// position is lost for good exactly when *every* assignment of its stacked
// cards to open slots (each card to a slot of its rank on a table that does
// not hold that rank yet, no two cards to one slot) has a cycle; while some
// assignment is acyclic, the player keeps all of them open.
//
// Acyclic tells whether one exists without enumerating assignments. An
// assignment is acyclic exactly when its graph can be taken apart in a
// topological order: again and again, a stack top leaves for its slot once
// no stacked card is assigned to an earlier open slot of that table (the
// endgame simulation of package deadlock). Searching over those orders,
// choosing each top's slot when it leaves, finds an acyclic assignment if
// there is one: table x's pointer p[x] says which slots of x are still
// free to take; a top of rank r may take slot k = position of r on x when
// k ≥ p[x], and then p[x] becomes k+1 (the slots skipped are left to the
// cards still in the stock, which can arrive whenever they are needed — in
// the graph they are no nodes). The search state is the stacks' heights and
// the four pointers (one word); states that fail are remembered.

// Acyclic reports whether some assignment of st's stacked cards to open
// slots leaves the dependency graph without a cycle.
func Acyclic(st *solver.State) bool {
	var a acyclicSearch
	return a.acyclic(st)
}

type acyclicSearch struct {
	n      int
	stacks [solver.MaxStacks][]solver.Rank
	buf    [solver.DeckSize]solver.Rank
	count  [solver.NumRanks + 1]int // stacked cards of each rank not yet taken apart
	// need[c] has bit r set when count[r] ≥ c (a rank has at most four
	// cards): short's test, a word at a time.
	need   [5]uint16
	failed keySet
	// limit, when positive, is how many search states a check may visit;
	// one that would visit more stops and answers false with cut set (its
	// failures so far are kept: they are true whatever the budget).
	limit, visited int
	cut            bool
	// record, when set, keeps in path the take-apart that succeeded: each
	// step's stack and the table its top leaves for, in order.
	record bool
	path   []takeStep
	// shared, when set, keeps what checks learn for every later check
	// (sharedStates), in checks of at most maxSharedStacks stacks with
	// neither a limit nor record; ids are then the names of the stacks'
	// bottom parts: ids[s][h] of stack s cut to height h.
	shared  *sharedStates
	sharing bool
	ids     [maxSharedStacks][solver.DeckSize + 1]uint32
}

// takeStep is one step of a take-apart: the top of stack s leaves for
// table x.
type takeStep struct{ s, x int8 }

// acyclic is Acyclic reusing a's memory.
func (a *acyclicSearch) acyclic(st *solver.State) bool {
	a.failed.reset()
	return a.again(st)
}

// again is acyclic keeping the failed states of the checks since the last
// reset. A state is the heights of the stacks' remaining bottom parts and
// the tables' pointers, and whether it fails depends only on the cards of
// those bottom parts, so a failure stays true while they are the same
// cards: again is exact for the positions one move away from the position
// checked after the last reset (the move adds at most the one drawn card on
// top of one stack, or takes a top off), as the deadlock-graph player's
// candidates are. The checks of its candidates share the failures of the
// first (TestAcyclicAgainAgrees).
func (a *acyclicSearch) again(st *solver.State) bool {
	a.visited, a.cut = 0, false
	a.path = a.path[:0]
	h, p := a.load(st)
	key, _ := a.key(h, p)
	a.sharing = a.shared != nil && a.n <= maxSharedStacks && a.limit == 0 && !a.record
	if a.sharing {
		a.shared.prepare(a)
	}
	return a.dfs(h, p, key)
}

// load reads st's stacks into a and returns the search's first state: the
// stacks' heights and the tables' pointers.
func (a *acyclicSearch) load(st *solver.State) (h [solver.MaxStacks]int, p [solver.Tables]int) {
	a.count = [solver.NumRanks + 1]int{}
	a.need = [5]uint16{}
	a.n = st.Stacks()
	used := 0
	for s := range a.n {
		hs := st.Height(s)
		a.stacks[s] = a.buf[used : used+hs]
		for i := range hs {
			r := st.StackCard(s, i).Rank()
			a.stacks[s][i] = r
			a.give(r)
		}
		used += hs
		h[s] = hs
	}
	for x := 1; x <= solver.Tables; x++ {
		p[x-1] = st.Placed(x)
	}
	return h, p
}

// key packs state (h, p) into one word; empty reports that no card is left
// on the stacks.
func (a *acyclicSearch) key(h [solver.MaxStacks]int, p [solver.Tables]int) (key uint64, empty bool) {
	empty = true
	for s := range a.n {
		if h[s] > 0 {
			empty = false
		}
		key = key<<6 | uint64(h[s])
	}
	for x := range solver.Tables {
		key = key<<4 | uint64(p[x])
	}
	return key, empty
}

// give counts one more stacked card of rank r.
func (a *acyclicSearch) give(r solver.Rank) {
	a.count[r]++
	a.need[a.count[r]] |= 1 << r
}

// take counts one fewer stacked card of rank r (a top taken apart).
func (a *acyclicSearch) take(r solver.Rank) {
	a.need[a.count[r]] &^= 1 << r
	a.count[r]--
}

// openRanks[x][q] has bit r set when rank r's slot on table x+1 lies at or
// after position q (q up to 13, a full table: none).
var openRanks = func() (o [solver.Tables][solver.NumRanks + 1]uint16) {
	for x := range solver.Tables {
		for q := range solver.NumRanks + 1 {
			for r := solver.Rank(1); r <= solver.NumRanks; r++ {
				if solver.TablePos(x+1, r) >= q {
					o[x][q] |= 1 << r
				}
			}
		}
	}
	return o
}()

// short reports whether some rank has more cards left on the stacks than
// open slots ahead of pointers p: every card left needs a slot of its own.
// Bit r of atc (c = 1 … 4) says that rank r has c or more open slots:
// atc must cover need[c].
func (a *acyclicSearch) short(p [solver.Tables]int) bool {
	m1, m2, m3, m4 := openRanks[0][p[0]], openRanks[1][p[1]], openRanks[2][p[2]], openRanks[3][p[3]]
	at1 := m1 | m2 | m3 | m4
	at2 := m1&(m2|m3|m4) | m2&(m3|m4) | m3&m4
	at3 := m1&m2&(m3|m4) | (m1|m2)&m3&m4
	at4 := m1 & m2 & m3 & m4
	return a.need[1]&^at1|a.need[2]&^at2|a.need[3]&^at3|a.need[4]&^at4 != 0
}

// dfs reports whether the stacks cut to heights h can be taken apart with
// table pointers p; key is their key (a.key), which a step updates in place
// of packing it again.
func (a *acyclicSearch) dfs(h [solver.MaxStacks]int, p [solver.Tables]int, key uint64) bool {
	if key>>(4*solver.Tables) == 0 {
		return true // no card left on the stacks
	}
	if a.visited++; a.limit > 0 && a.visited > a.limit {
		a.cut = true
		return false
	}
	var sk sharedKey
	if a.sharing {
		sk = a.sharedKey(h, p)
		switch a.shared.states.get(sk) {
		case stateFails:
			return false
		case stateTakenApart:
			return true
		}
	} else if a.failed.has(key) {
		return false
	}
	if a.short(p) {
		a.fail(key, sk)
		return false
	}
	// Smallest skip first: a top that takes the slot a pointer is at skips
	// nothing, and most positions are taken apart at the first try. Ties in
	// stack order, then table order.
	type step struct{ skip, s, x int }
	var steps [solver.MaxStacks * solver.Tables]step
	ns := 0
	for s := range a.n {
		if h[s] == 0 {
			continue
		}
		r := a.stacks[s][h[s]-1]
		for x := 1; x <= solver.Tables; x++ {
			skip := solver.TablePos(x, r) - p[x-1]
			if skip < 0 {
				continue
			}
			i := ns
			for i > 0 && steps[i-1].skip > skip {
				steps[i] = steps[i-1]
				i--
			}
			steps[i] = step{skip, s, x}
			ns++
		}
	}
	for _, st := range steps[:ns] {
		r := a.stacks[st.s][h[st.s]-1]
		h2, p2 := h, p
		h2[st.s]--
		p2[st.x-1] = st.skip + p[st.x-1] + 1
		key2 := key - 1<<(4*solver.Tables+6*(a.n-1-st.s)) + uint64(st.skip+1)<<(4*(solver.Tables-st.x))
		a.take(r)
		if a.record {
			a.path = append(a.path, takeStep{int8(st.s), int8(st.x)})
		}
		ok := a.dfs(h2, p2, key2)
		a.give(r)
		if ok {
			if a.sharing {
				a.shared.states.set(sk, stateTakenApart)
			}
			return true
		}
		if a.record {
			a.path = a.path[:len(a.path)-1]
		}
		if a.cut {
			return false // not a failure: the budget ran out below
		}
	}
	a.fail(key, sk)
	return false
}

// fail remembers that state key (sk when sharing) fails.
func (a *acyclicSearch) fail(key uint64, sk sharedKey) {
	if a.sharing {
		a.shared.states.set(sk, stateFails)
		return
	}
	a.failed.add(key)
}

// keySet is a set of search states that a reset empties in constant time
// (a map's clear costs its capacity, paid again by every check after one
// large search): open addressing, each slot stamped with the generation
// that filled it.
type keySet struct {
	keys  []uint64
	gens  []uint32
	gen   uint32
	count int
}

func (k *keySet) reset() {
	k.gen++
	k.count = 0
	if k.gen == 0 { // wrapped: stamps of old generations could match again
		clear(k.gens)
		k.gen = 1
	}
}

func (k *keySet) slot(key uint64) int {
	mask := len(k.keys) - 1
	i := int((key*0x9e3779b97f4a7c15)>>32) & mask
	for k.gens[i] == k.gen && k.keys[i] != key {
		i = (i + 1) & mask
	}
	return i
}

func (k *keySet) has(key uint64) bool {
	if k.count == 0 {
		return false
	}
	return k.gens[k.slot(key)] == k.gen
}

func (k *keySet) add(key uint64) {
	if k.gen == 0 {
		k.gen = 1
	}
	if 2*(k.count+1) > len(k.keys) {
		k.grow()
	}
	i := k.slot(key)
	if k.gens[i] != k.gen {
		k.keys[i], k.gens[i] = key, k.gen
		k.count++
	}
}

func (k *keySet) grow() {
	old, oldGens, gen := k.keys, k.gens, k.gen
	n := max(2*len(old), 256)
	k.keys, k.gens, k.count = make([]uint64, n), make([]uint32, n), 0
	for i, g := range oldGens {
		if g == gen {
			k.add(old[i])
		}
	}
}

// DeadlockGraphKind is the deadlock-graph player as a kind: its
// parameters are the stacking heuristic's Weights.
func DeadlockGraphKind() strategies.Kind {
	return strategies.Define("deadlock-graph",
		"never stacks a card so that every assignment of the stacked cards has a cycle; among safe moves, the stacking heuristic",
		DefaultWeights, func(w Weights) (solver.Strategy, error) { return NewDeadlockGraphStrategy(w), nil })
}

// NewDeadlockGraphStrategy returns the deadlock-graph player with weights w
// as a solver.Strategy.
func NewDeadlockGraphStrategy(w Weights) solver.Strategy {
	info := solver.Info{Name: "deadlock-graph", Params: strategies.Declare(w)}
	return solver.FromChooser(info, func(solver.Rules) (solver.Chooser, error) {
		return NewDeadlockGraph(w), nil
	})
}

// DeadlockGraph is the deadlock-graph player: a card goes to a table when
// one needs it (stack tops first); otherwise it is stacked, unassigned, on
// the stack the heuristic rates best among those that leave some acyclic
// assignment (Acyclic). A move that would leave every assignment cyclic is
// played only when nothing else is left; the game is then lost.
type DeadlockGraph struct {
	W Weights
	a acyclicSearch
}

// NewDeadlockGraph returns the player with weights w. It is not safe for
// concurrent use (it keeps the search's memory).
func NewDeadlockGraph(w Weights) *DeadlockGraph { return &DeadlockGraph{W: w} }

var errNoMove = fmt.Errorf("%w: no legal move", solver.ErrResign)

// Choose implements solver.Chooser.
func (d *DeadlockGraph) Choose(v solver.View) (solver.Move, error) {
	st := v.State()
	m, ok := d.choose(&st, false)
	if !ok {
		return m, errNoMove
	}
	return m, nil
}

// rated is a candidate move and its cost.
type rated struct {
	m    solver.Move
	cost float64
}

// choose picks the player's move in st; ok is false when no move is legal,
// or, with giveUp, when st is lost already (no assignment is acyclic).
func (d *DeadlockGraph) choose(st *solver.State, giveUp bool) (solver.Move, bool) {
	var buf [solver.MaxLegalMoves]solver.Move
	var rs [solver.MaxLegalMoves]rated
	cands := rs[:0]
	var nd needs
	nd.fill(st)
	for _, m := range candidates(st, buf[:0]) {
		var c float64
		switch m.Kind {
		case solver.StackToTable:
			c = -2000
		case solver.ToTable:
			c = -1000
		case solver.ToStack:
			c = d.W.cost(st, &nd, m.Rank, st.Top(int(m.Stack)))
		}
		cands = append(cands, rated{m, c})
	}
	if len(cands) == 0 {
		return solver.Move{}, false
	}
	slices.SortStableFunc(cands, func(a, b rated) int {
		switch {
		case a.cost < b.cost:
			return -1
		case a.cost > b.cost:
			return 1
		}
		return 0
	})
	if !d.a.acyclic(st) { // the candidates' checks below share its failures
		// Lost already (or, with a budget, not shown otherwise within it):
		// no move can undo a cycle; play the heuristic's move.
		return cands[0].m, !giveUp
	}
	for _, c := range cands {
		next := applied(st, c.m)
		if d.a.again(&next) {
			return c.m, true
		}
	}
	return cands[0].m, true
}
