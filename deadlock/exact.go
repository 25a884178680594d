package deadlock

import (
	"fmt"
	"strings"

	"github.com/calcsol/calcsol/solver"
)

// Link says why a card of a cycle must reach its table before the next one.
type Link uint8

// The kinds of edge of the dependency graph (see graph.go).
const (
	// LiesOn: the card lies directly on the next one in the same stack.
	LiesOn Link = iota + 1
	// LiesAbove: the card lies higher in the same stack, not directly on the
	// next one. The cards between need not be part of the cycle; Nanzaki &
	// Shintani's check 2 looks only at the card directly on another, so it
	// misses these.
	LiesAbove
	// Before: both are assigned to the same table and the card comes first.
	Before
)

// String returns "lies on", "lies above" or "comes before".
func (l Link) String() string {
	switch l {
	case LiesOn:
		return "lies on"
	case LiesAbove:
		return "lies above"
	case Before:
		return "comes before"
	}
	return "?"
}

// CycleCard is one card of a cycle: where it lies and where it must go.
type CycleCard struct {
	Rank  solver.Rank
	Table int  // the table it is assigned to, 1..4
	Stack int  // 0-based stack index
	Name  byte // the stack's name (Rules.StackName)
	Index int  // position in the stack, 0 = bottom
	// New marks the card Exact was asked about: it is not in the position
	// yet, it would lie on top of stack Stack at Index.
	New bool
}

// Cycle is a deadlock: Cards[i] must reach its table before Cards[i+1] (and
// the last card before the first) for the reason Links[i]. None of them can
// ever go first.
type Cycle struct {
	Cards []CycleCard
	Links []Link // Links[i] relates Cards[i] to Cards[(i+1)%len(Cards)]
	// Existing is set by Exact when the position was already deadlocked
	// before the move; the cycle reported is then one of the position's.
	Existing bool
}

// String explains the cycle in one line, starting with "deadlock: ", e.g.
//
//	deadlock: 3 (to go on stack Z, for table 1) lies on 4 (stack Z, for table 1), which comes before 5 on table 1; 5 (stack X, for table 1) lies above 2 (stack X, for table 1), which comes before 3 on table 1
func (c *Cycle) String() string {
	if c == nil || len(c.Cards) == 0 {
		return "no deadlock"
	}
	var b strings.Builder
	b.WriteString("deadlock: ")
	if c.Existing {
		b.WriteString("(already in the position) ")
	}
	n := len(c.Cards)
	b.WriteString(c.Cards[0].long())
	for i, l := range c.Links {
		next := c.Cards[(i+1)%n]
		last := i == n-1
		switch l {
		case Before:
			if i > 0 && c.Links[i-1] != Before {
				b.WriteString(", which")
			}
			fmt.Fprintf(&b, " comes before %s on table %d", next.Rank, next.Table)
			if !last {
				b.WriteString("; ")
				b.WriteString(next.long())
			}
		default:
			b.WriteString(" ")
			b.WriteString(l.String())
			b.WriteString(" ")
			if last {
				b.WriteString(next.Rank.String())
			} else {
				b.WriteString(next.long())
			}
		}
	}
	return b.String()
}

// long names a card with its stack and table: "5 (stack X, for table 1)".
func (c CycleCard) long() string {
	if c.New {
		return fmt.Sprintf("%s (to go on stack %c, for table %d)", c.Rank, c.Name, c.Table)
	}
	return fmt.Sprintf("%s (stack %c, for table %d)", c.Rank, c.Name, c.Table)
}

// FindCycle returns a shortest deadlock of p — a cycle of the dependency
// graph (see graph.go) over p's stacked, assigned cards — or nil if there is
// none. Unassigned stacked cards take no part (see graph.go).
//
// A stacked card whose slot has since been filled on its table (the rules
// allow a drawn card to take a reserved slot; the priority-table strategy does
// not) can never reach its table either; that is not a cycle and FindCycle
// does not report it.
func FindCycle(p solver.View) *Cycle {
	var g graph
	g.build(p)
	rem := g.stuck()
	if rem == 0 {
		return nil
	}
	return g.explain(p, g.shortestCycleIn(rem), noNode, 0)
}

// Exact reports whether stacking rank y on stack s, assigned to table x,
// would leave p deadlocked, and why: the cycle the new card closes, or nil
// when the position stays deadlock-free. It is exact where Partial is not:
// it finds every cycle, of any length, through any number of stacks.
//
// If p is already deadlocked, Exact reports that cycle (with Existing set)
// whatever the move. A card that is not assigned (x == 0) adds no node, and
// neither does a move the rules refuse because slot (x, y) is filled or
// reserved (see solver.Position.Check): Exact then reports p's own state.
// s must be one of p's stacks (0 ≤ s < p.Stacks()); Exact panics otherwise.
//
// It costs one pass over the stacked cards and a topological sort of at most
// 52 nodes, with no allocation unless there is a cycle to explain.
func Exact(p solver.View, y solver.Rank, x, s int) *Cycle {
	checkStack(p, s)
	var g graph
	g.build(p)
	if x < 1 || x > solver.Tables || !y.Valid() || !p.SlotFree(x, y) {
		if rem := g.stuck(); rem != 0 {
			c := g.explain(p, g.shortestCycleIn(rem), noNode, 0)
			c.Existing = true
			return c
		}
		return nil
	}
	v := slot(x, y)
	nodes, covered, top := g.nodes, g.covered, g.top[s]
	g.push(v, s)
	rem := g.stuck()
	if rem == 0 {
		return nil
	}
	// Was p itself deadlocked? Take the new card away again (below[v] is
	// then unused: v is no node and no node lies on it).
	g.nodes, g.covered, g.top[s] = nodes, covered, top
	if old := g.stuck(); old != 0 {
		c := g.explain(p, g.shortestCycleIn(old), noNode, 0)
		c.Existing = true
		return c
	}
	g.push(v, s)
	// p was acyclic, so every cycle runs through the new card.
	return g.explain(p, g.shortestCycle(v, rem), v, s)
}

// Closes reports whether stacking rank y on stack s, assigned to table x,
// would leave p deadlocked: Exact(p, y, x, s) != nil, without building the
// explanation. It has Partial's signature, so a strategy can hold either in
// one func value, and it never allocates. Like Exact, it panics if s is not
// one of p's stacks.
func Closes(p solver.View, y solver.Rank, x, s int) bool {
	checkStack(p, s)
	var g graph
	g.build(p)
	if x >= 1 && x <= solver.Tables && y.Valid() && p.SlotFree(x, y) {
		g.push(slot(x, y), s)
	}
	return g.stuck() != 0
}

// A Checker answers Closes for several stackings from one position, reading
// the position's stacks once, on its first question, instead of once per
// question: a strategy weighing its operations for a drawn card asks up to a
// dozen of them. The zero Checker is ready; Reset it before asking about
// another position. It never allocates, so it can live on the caller's stack.
type Checker struct {
	base  graph
	ready bool
}

// Closes is Closes(p, y, x, s) for the position the Checker has read, which
// must be p (the first question since Reset reads it).
func (c *Checker) Closes(p solver.View, y solver.Rank, x, s int) bool {
	checkStack(p, s)
	if !c.ready {
		c.base = graph{}
		c.base.build(p)
		c.ready = true
	}
	g := c.base
	if x >= 1 && x <= solver.Tables && y.Valid() && p.SlotFree(x, y) {
		g.push(slot(x, y), s)
	}
	return g.stuck() != 0
}

// Reset forgets the position read, so that the next question reads its own.
func (c *Checker) Reset() { c.ready = false }

// checkStack panics on a stack index that is not one of p's: a bug in the
// caller, which would otherwise read as an empty stack and give a wrong answer.
func checkStack(p solver.View, s int) {
	if s < 0 || s >= p.Stacks() {
		panic(fmt.Sprintf("deadlock: no stack %d in a position with %d stacks", s, p.Stacks()))
	}
}

// explain turns a cycle of nodes into a Cycle, rotated to start with the new
// card if it is in the cycle, otherwise with a card that lies on another one
// (every cycle has one: the table edges alone only ever go up a table).
func (g *graph) explain(p solver.View, nodes []int8, newNode int8, newStack int) *Cycle {
	// Where each node lies.
	var stack, index [numSlots]int
	for s := range p.Stacks() {
		for i := range p.Height(s) {
			c := p.StackCard(s, i)
			if x := c.Table(); x != 0 {
				b := slot(x, c.Rank())
				stack[b], index[b] = s, i
			}
		}
	}
	if newNode != noNode {
		stack[newNode], index[newNode] = newStack, p.Height(newStack)
	}
	n := len(nodes)
	links := make([]Link, n)
	for i, a := range nodes {
		b := nodes[(i+1)%n]
		switch {
		case g.under(a)&(1<<b) != 0 && index[a] == index[b]+1:
			links[i] = LiesOn
		case g.under(a)&(1<<b) != 0:
			links[i] = LiesAbove
		default:
			links[i] = Before
		}
	}
	start := -1
	for i, a := range nodes {
		if a == newNode {
			start = i
			break
		}
		if links[i] != Before && (start < 0 || stack[a] < stack[nodes[start]] ||
			stack[a] == stack[nodes[start]] && index[a] > index[nodes[start]]) {
			start = i
		}
	}
	c := &Cycle{Cards: make([]CycleCard, n), Links: make([]Link, n)}
	r := p.Rules()
	for i := range n {
		j := (start + i) % n
		b := nodes[j]
		x := int(b)/solver.NumRanks + 1
		c.Cards[i] = CycleCard{
			Rank:  solver.TableRank(x, int(b)%solver.NumRanks),
			Table: x,
			Stack: stack[b],
			Name:  r.StackName(stack[b]),
			Index: index[b],
			New:   b == newNode,
		}
		c.Links[i] = links[j]
	}
	return c
}
