package deadlock

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/calcsol/calcsol/decks/shuffle"
	"github.com/calcsol/calcsol/solver"
)

// randomDeck returns a uniformly shuffled Calculation deck (Fisher–Yates with
// the project's seeded PCG).
func randomDeck(seed uint64) solver.Deck {
	var d solver.Deck
	for i := range d {
		d[i] = solver.Rank(i%solver.NumRanks + 1)
	}
	shuffle.NewRand(seed).Shuffle(len(d), func(i, j int) { d[i], d[j] = d[j], d[i] })
	return d
}

// check is the signature shared by Partial and a wrapper of Exact.
type check func(p solver.View, y solver.Rank, x, s int) bool

func exactCheck(p solver.View, y solver.Rank, x, s int) bool { return Exact(p, y, x, s) != nil }

// player is a simple random strategy that keeps the assignment discipline of
// the priority-table strategy (docs/priority.md): every stacked card is
// assigned, a card for table x is stacked only if slot (x, y) is neither
// filled nor reserved, a drawn card goes to a table only if no stacked card
// reserves that slot, and a stack top goes only to its own table, as soon as
// it can.
type player struct {
	rng *rand.Rand
	// tableFirst is the probability of playing the drawn card to a table
	// when it can go there, rather than choosing among all legal moves.
	tableFirst float64
	// guard refuses stacking moves (Partial or Exact); nil refuses none.
	guard check
	// visit, if set, sees every legal stacking move before the guard does.
	visit func(p solver.View, y solver.Rank, x, s int)
	// careful picks, among the moves the guard allows, one that stacks the
	// card where it is least in the way (see score) rather than any move:
	// careful players reach the end of the stock much more often.
	careful bool
}

// score rates stacking y for table x on stack s, lower is better: on a card
// of the same table that comes right after y (Nanzaki & Shintani's chain
// stacking), then on an empty stack, then on a later card of the same table,
// then anywhere; within a class, the sooner table x needs y the better.
func score(p solver.View, y solver.Rank, x, s int) int {
	k := solver.TablePos(x, y)
	class := 3
	switch t := p.Top(s); {
	case t != 0 && t.Table() == x && solver.TablePos(x, t.Rank()) == k+1:
		class = 0
	case t == 0:
		class = 1
	case t.Table() == x && solver.TablePos(x, t.Rank()) > k:
		class = 2
	}
	return class*solver.NumRanks + k - p.Placed(x)
}

// errStuck is the player's resignation when a stack top is needed by a table
// other than its own, or when the guard refused every move.
var errStuck = fmt.Errorf("player: no move: %w", solver.ErrResign)

func (pl *player) Choose(p solver.View) (solver.Move, error) {
	for s := range p.Stacks() {
		if t := p.Top(s); t != 0 && t.Table() != 0 && p.Need(t.Table()) == t.Rank() {
			return solver.Move{Kind: solver.StackToTable, Rank: t.Rank(), Stack: int8(s), Table: int8(t.Table())}, nil
		}
	}
	y := p.Drawn()
	if y == 0 {
		return solver.Move{}, errStuck
	}
	var tables, all []solver.Move
	for x := 1; x <= solver.Tables; x++ {
		if p.Need(x) == y && !p.Reserved(x, y) {
			tables = append(tables, solver.Move{Kind: solver.ToTable, Rank: y, Table: int8(x)})
		}
	}
	if len(tables) > 0 && pl.rng.Float64() < pl.tableFirst {
		return tables[pl.rng.IntN(len(tables))], nil
	}
	all = append(all, tables...)
	for x := 1; x <= solver.Tables; x++ {
		if p.Filled(x, y) || p.Reserved(x, y) {
			continue
		}
		for s := range p.Stacks() {
			if pl.visit != nil {
				pl.visit(p, y, x, s)
			}
			if pl.guard != nil && pl.guard(p, y, x, s) {
				continue
			}
			all = append(all, solver.Move{Kind: solver.ToStack, Rank: y, Stack: int8(s), Table: int8(x)})
		}
	}
	if len(all) == 0 {
		return solver.Move{}, errStuck
	}
	if pl.careful {
		best, n := -1, 0
		for i, m := range all {
			if m.Kind != solver.ToStack {
				continue
			}
			sc := score(p, y, int(m.Table), int(m.Stack))
			switch {
			case best < 0 || sc < score(p, y, int(all[best].Table), int(all[best].Stack)):
				best, n = i, 1
			case sc == score(p, y, int(all[best].Table), int(all[best].Stack)):
				// Reservoir sampling among equals keeps the choice uniform.
				n++
				if pl.rng.IntN(n) == 0 {
					best = i
				}
			}
		}
		if best >= 0 {
			return all[best], nil
		}
	}
	return all[pl.rng.IntN(len(all))], nil
}

// play lets pl play deck d to the end, calling after (if set) with the trace
// so far after every move. It returns the final game and the trace.
func play(t testing.TB, d *solver.Deck, r solver.Rules, pl *player, after func(g *solver.Game, trace []solver.Move)) (*solver.Game, []solver.Move) {
	t.Helper()
	g, err := solver.NewGame(d, r)
	if err != nil {
		t.Fatal(err)
	}
	var trace []solver.Move
	for !g.Over() {
		m, err := pl.Choose(g.View())
		if errors.Is(err, solver.ErrResign) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if err := g.Apply(m); err != nil {
			t.Fatalf("deck %s, trace %q: move %s: %v", d, solver.FormatTrace(trace, r), m.Format(r), err)
		}
		trace = append(trace, m)
		if after != nil {
			after(g, trace)
		}
	}
	return g, trace
}

// node is a stacked, assigned card for the reference implementation.
type node struct {
	stack, index, table, pos int
}

// naiveCycle is the reference: it builds the dependency graph (docs/rules.md)
// literally — every pair of assigned stacked cards, "a lies higher than b in
// the same stack" or "a comes before b on the same table" — and looks for a
// cycle by depth-first search. It shares no code with graph.go.
func naiveCycle(p solver.View) (found bool, shortest int) {
	var nodes []node
	for s := range p.Stacks() {
		for i, c := range p.AppendStack(nil, s) {
			if c.Table() != 0 {
				nodes = append(nodes, node{s, i, c.Table(), solver.TablePos(c.Table(), c.Rank())})
			}
		}
	}
	n := len(nodes)
	edge := func(a, b node) bool {
		return a.stack == b.stack && a.index > b.index || a.table == b.table && a.pos < b.pos
	}
	// The edges listed once: the searches below walk them n times over.
	out := make([][]int, n)
	for a := range n {
		for b := range n {
			if edge(nodes[a], nodes[b]) {
				out[a] = append(out[a], b)
			}
		}
	}
	// Shortest cycle: breadth-first search from every node.
	shortest = 0
	dist := make([]int, n)
	queue := make([]int, 0, n)
	for src := range n {
		for i := range dist {
			dist[i] = -1
		}
		dist[src] = 0
		queue = append(queue[:0], src)
		for len(queue) > 0 {
			a := queue[0]
			queue = queue[1:]
			for _, b := range out[a] {
				if b == src {
					if l := dist[a] + 1; shortest == 0 || l < shortest {
						shortest = l
					}
					continue
				}
				if dist[b] < 0 {
					dist[b] = dist[a] + 1
					queue = append(queue, b)
				}
			}
		}
	}
	return shortest > 0, shortest
}

// after returns p with card y stacked on s for table x.
func after(t testing.TB, p solver.View, y solver.Rank, x, s int) solver.Position {
	t.Helper()
	q := p.State()
	if err := q.Apply(solver.Move{Kind: solver.ToStack, Rank: y, Stack: int8(s), Table: int8(x)}); err != nil {
		t.Fatalf("stack %s on %c for %d: %v", y, p.Rules().StackName(s), x, err)
	}
	return q.Position
}

// validate checks that every card of c lies where c says (the new card on top
// of its stack in q, the position after the move) and that every link holds.
func validate(q solver.View, c *Cycle) error {
	n := len(c.Cards)
	if n < 2 || len(c.Links) != n {
		return fmt.Errorf("cycle of %d cards and %d links", n, len(c.Links))
	}
	seen := map[[2]int]bool{}
	for i, a := range c.Cards {
		if a.Stack < 0 || a.Stack >= q.Stacks() || a.Index < 0 || a.Index >= q.Height(a.Stack) {
			return fmt.Errorf("card %d: no stack %d index %d", i, a.Stack, a.Index)
		}
		if got := q.AppendStack(nil, a.Stack)[a.Index]; got != solver.NewCard(a.Rank, a.Table) {
			return fmt.Errorf("card %d: %c[%d] is %s for %d, cycle says %s for %d",
				i, a.Name, a.Index, got.Rank(), got.Table(), a.Rank, a.Table)
		}
		if a.Name != q.Rules().StackName(a.Stack) {
			return fmt.Errorf("card %d: stack %d named %c", i, a.Stack, a.Name)
		}
		if a.New && (i != 0 || a.Index != q.Height(a.Stack)-1) {
			return fmt.Errorf("card %d: the new card is not first or not on top", i)
		}
		if seen[[2]int{a.Stack, a.Index}] {
			return fmt.Errorf("card %d: repeated", i)
		}
		seen[[2]int{a.Stack, a.Index}] = true
		b := c.Cards[(i+1)%n]
		switch c.Links[i] {
		case LiesOn:
			if a.Stack != b.Stack || a.Index != b.Index+1 {
				return fmt.Errorf("link %d: %s does not lie on %s", i, a.Rank, b.Rank)
			}
		case LiesAbove:
			if a.Stack != b.Stack || a.Index <= b.Index+1 {
				return fmt.Errorf("link %d: %s does not lie above %s", i, a.Rank, b.Rank)
			}
		case Before:
			if a.Table != b.Table || solver.TablePos(a.Table, a.Rank) >= solver.TablePos(b.Table, b.Rank) {
				return fmt.Errorf("link %d: %s does not come before %s on table %d", i, a.Rank, b.Rank, a.Table)
			}
		default:
			return fmt.Errorf("link %d: kind %d", i, c.Links[i])
		}
	}
	return nil
}

// replay plays a trace given in trace notation on the deck.
func replay(t testing.TB, deck string, r solver.Rules, trace string) *solver.Game {
	t.Helper()
	d, err := solver.ParseDeck(deck)
	if err != nil {
		t.Fatalf("deck %q: %v", deck, err)
	}
	moves, err := solver.ParseTrace(trace, r)
	if err != nil {
		t.Fatalf("trace %q: %v", trace, err)
	}
	g, err := solver.Replay(&d, r, moves)
	if err != nil {
		t.Fatalf("trace %q: %v", trace, err)
	}
	return g
}

// stacksString draws the stacks, bottom first: "Z: 4/1 | X: 2/1 K/2 5/1 | C:".
func stacksString(p solver.View) string {
	s := ""
	for i := range p.Stacks() {
		if i > 0 {
			s += " | "
		}
		s += fmt.Sprintf("%c:", p.Rules().StackName(i))
		for _, c := range p.AppendStack(nil, i) {
			s += fmt.Sprintf(" %s/%d", c.Rank(), c.Table())
		}
	}
	return s
}
