package deadlock

import (
	"math/bits"

	"github.com/calcsol/calcsol/solver"
)

// The dependency graph of Nanzaki & Shintani [NanzakiShintani], as stated in
// docs/rules.md.
//
// Nodes. A node is a stacked card assigned to a table. Because a stacked card
// reserves its slot (table, rank) and the rules refuse a second card for a
// reserved or filled slot (solver.Position.Check), every node owns a slot of
// its own, and the slot numbers the node: node (x-1)*13 + k is the card meant
// for position k of table x. A set of nodes is then one uint64, and the whole
// graph fits in a few words.
//
// Cards already on a table are not nodes: they constrain nothing any more.
// Unassigned stacked cards (Card.Table() == 0) are not nodes either: they have
// no place in any table order. They still lie where they lie, though, so the
// stack edge from an assigned card goes to the next assigned card below it,
// skipping unassigned cards in between ("lies above"); otherwise an
// unassigned card between two assigned ones would hide a real constraint.
// The priority-table strategy assigns every stacked card.
//
// Edges. a → b means "a must reach its table before b":
//   - a lies above b in the same stack (b cannot leave while a covers it);
//   - a comes before b on the table both are assigned to.
//
// Only the edge to the next assigned card down the stack and to the next
// reserved slot up the table are kept for the acyclicity test: the other
// edges of the definition (a above any lower card, a before any later card of
// its table) are their transitive closure, and a graph has a cycle exactly
// when its transitive reduction does. The cycle search behind explanations
// uses the closed relation, so that it finds the shortest cycle.

const (
	numSlots = solver.Tables * solver.NumRanks // 52 nodes at most
	noNode   = int8(-1)
)

// tableSlots[x-1] holds the node bits of table x.
var tableSlots = func() (m [solver.Tables]uint64) {
	for x := range solver.Tables {
		m[x] = (1<<solver.NumRanks - 1) << (x * solver.NumRanks)
	}
	return m
}()

// slot returns the node of rank r assigned to table x (1..4).
func slot(x int, r solver.Rank) int8 {
	return int8((x-1)*solver.NumRanks + solver.TablePos(x, r))
}

// nodeOf maps a stacked card (its byte: rank and table) to its node, or
// noNode for an unassigned card: one look-up per card in build.
var nodeOf = func() (m [256]int8) {
	for i := range m {
		c := solver.Card(i)
		m[i] = noNode
		if x := c.Table(); x >= 1 && x <= solver.Tables && c.Rank().Valid() {
			m[i] = slot(x, c.Rank())
		}
	}
	return m
}()

// graph is the transitive reduction of the dependency graph, as needed to
// tell whether it has a cycle: for each node the next assigned card down its
// stack, and which nodes have an assigned card above them. The table chains
// come from the node set itself.
type graph struct {
	nodes   uint64                 // all nodes
	covered uint64                 // nodes with an assigned card above them
	below   [64]int8               // next assigned card down the stack, or noNode (64: no bounds checks)
	top     [solver.MaxStacks]int8 // highest assigned card of each stack, or noNode
}

// build reads p's stacks into g. It runs before every stacking move of a
// strategy, so it looks at each stacked card once and allocates nothing.
func (g *graph) build(p solver.View) {
	for s := range p.Stacks() {
		prev := noNode
		var in uint64
		for i := range p.Height(s) {
			c := p.StackCard(s, i)
			b := nodeOf[c]
			if b == noNode {
				continue
			}
			g.below[b&63] = prev
			if prev != noNode {
				g.covered |= 1 << prev
			}
			in |= 1 << b
			prev = b
		}
		g.top[s] = prev
		g.nodes |= in
	}
}

// push adds node b on top of stack s, as stacking a card there would.
func (g *graph) push(b int8, s int) {
	t := g.top[s]
	g.below[b] = t
	if t != noNode {
		g.covered |= 1 << t
	}
	g.top[s] = b
	g.nodes |= 1 << b
}

// stuck returns the nodes that can never leave: empty if and only if the
// graph is acyclic. It is a topological sort that simulates the endgame: a
// card can leave when no assigned card lies above it and no card before it
// on its table is still stacked; taking it away uncovers the card below it
// and lets the next card of its table be next. So each table in turn gives
// up its lowest cards for as long as they are uncovered, and the rounds
// stop when one frees nothing. Every cycle, and everything it blocks, stays.
//
// Each round but the last removes a node, so there are at most n+1 rounds of
// 4 table looks; in practice two or three rounds. (A work-list version, O(n)
// in theory, was slower on real positions: branches and bounds checks.)
func (g *graph) stuck() uint64 {
	rem, covered := g.nodes, g.covered
	for {
		before := rem
		for _, t := range tableSlots {
			for {
				m := rem & t
				if m == 0 {
					break
				}
				b := bits.TrailingZeros64(m)
				if covered&(1<<b) != 0 {
					break
				}
				rem &^= 1 << b
				if c := g.below[b&63]; c != noNode {
					covered &^= 1 << c
				}
			}
		}
		if rem == before || rem == 0 {
			return rem
		}
	}
}

// under returns every node below b in its stack (the closed stack relation).
func (g *graph) under(b int8) uint64 {
	var m uint64
	for c := g.below[b]; c != noNode; c = g.below[c] {
		m |= 1 << c
	}
	return m
}

// later returns the nodes after b on b's table (the closed table relation).
func (g *graph) later(b int8) uint64 {
	x := int(b) / solver.NumRanks
	return g.nodes & tableSlots[x] &^ (uint64(2)<<b - 1)
}

// shortestCycle returns a shortest cycle through b using only nodes in
// allowed, as the list of its nodes starting at b, or nil. Breadth-first
// search over the closed relation; ties go to the lowest node numbers, so the
// answer is deterministic.
func (g *graph) shortestCycle(b int8, allowed uint64) []int8 {
	var parent [numSlots]int8
	seen := uint64(0)
	queue := make([]int8, 0, numSlots)
	queue = append(queue, b)
	for i := 0; i < len(queue); i++ {
		a := queue[i]
		next := (g.under(a) | g.later(a)) & allowed
		if next&(1<<b) != 0 {
			// Closed: walk the parents back to b.
			cyc := []int8{a}
			for a != b {
				a = parent[a]
				cyc = append(cyc, a)
			}
			// cyc runs a, …, b backwards; reverse so that it starts at b.
			for l, r := 0, len(cyc)-1; l < r; l, r = l+1, r-1 {
				cyc[l], cyc[r] = cyc[r], cyc[l]
			}
			return cyc
		}
		for m := next &^ seen &^ (1 << b); m != 0; m &= m - 1 {
			c := int8(bits.TrailingZeros64(m))
			parent[c] = a
			queue = append(queue, c)
		}
		seen |= next
	}
	return nil
}

// shortestCycleIn returns a shortest cycle among the nodes in allowed, or
// nil; among cycles of equal length, the one through the lowest node.
func (g *graph) shortestCycleIn(allowed uint64) []int8 {
	var best []int8
	for m := allowed; m != 0; m &= m - 1 {
		b := int8(bits.TrailingZeros64(m))
		if c := g.shortestCycle(b, allowed); c != nil && (best == nil || len(c) < len(best)) {
			best = c
		}
	}
	return best
}
