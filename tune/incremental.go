package tune

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/calcsol/calcsol/solver"
	"github.com/calcsol/calcsol/strategies"
)

// A priority table decides a drawn card of rank r by the first operation
// of r's list that is legal. If, in a game played with table A, every
// decision for rank r took an operation at an index below i, then table B,
// whose list for r agrees with A's on the first i operations (and whose
// other lists and options are A's), makes the very same decisions: the game
// is the same, won or lost alike. So a neighbour of the current table need
// only be played on the decks where its change can matter; the others keep
// the current table's result. This is exact, and the tests check it
// against full evaluations.

// noChange is the first differing index of two equal lists.
const noChange = 1 << 10

// Bounds are stored as index+1, so that 0 means no decision for the rank;
// exhausted is recorded for a decision that rejected every operation (or
// that played no listed operation): any change to that list counts.
const exhausted = 255

// run is the outcome of one table on a list of decks: which it won, and
// for each deck and rank one more than the highest list index a decision
// for that rank may have used (an upper bound: a move that two operations
// of the list could make counts as the later one); 0 when no card of the
// rank was decided.
type run struct {
	won    []bool
	wins   int
	bounds [][solver.NumRanks + 1]uint8
}

// slice returns the part of r for decks lo..hi-1.
func (r *run) slice(lo, hi int) *run {
	out := &run{won: r.won[lo:hi], bounds: r.bounds[lo:hi]}
	for _, w := range out.won {
		if w {
			out.wins++
		}
	}
	return out
}

// firstDiffs gives, per rank, the first index at which b's list differs
// from a's (noChange when equal); ok is false when the tables differ in
// more than their lists, so that every game may change.
func firstDiffs(a, b *strategies.Table) (d [solver.NumRanks + 1]int, ok bool) {
	if a.Options != b.Options || a.Stacks != b.Stacks {
		return d, false
	}
	for r := 1; r <= solver.NumRanks; r++ {
		x, y := a.Ops[r], b.Ops[r]
		d[r] = noChange
		for i := 0; i < max(len(x), len(y)); i++ {
			if i >= len(x) || i >= len(y) || x[i] != y[i] {
				d[r] = i
				break
			}
		}
	}
	return d, true
}

// indexes maps a move back to the list index that made it.
type indexes struct {
	table [solver.NumRanks + 1][solver.Tables + 1]uint8
	chain [solver.NumRanks + 1][solver.Tables + 1]uint8
	// anyStack: Fx and Ex, which may choose any stack.
	anyStack [solver.NumRanks + 1][solver.Tables + 1]uint8
	stack    [solver.NumRanks + 1][solver.Tables + 1][solver.MaxStacks]uint8
}

func newIndexes(t *strategies.Table) *indexes {
	ix := &indexes{}
	for r := 1; r <= solver.NumRanks; r++ {
		for x := 0; x <= solver.Tables; x++ {
			ix.table[r][x], ix.chain[r][x], ix.anyStack[r][x] = exhausted, exhausted, exhausted
			for s := range solver.MaxStacks {
				ix.stack[r][x][s] = exhausted
			}
		}
		for i, op := range t.Ops[r] {
			i := uint8(min(i+1, exhausted-1))
			switch op.Kind {
			case strategies.OpTable:
				ix.table[r][op.Table] = i
			case strategies.OpChain:
				ix.chain[r][op.Table] = i
			case strategies.OpFit, strategies.OpEmpty:
				// The later of the two: the bound is the highest index that
				// may have made the move.
				if a := ix.anyStack[r][op.Table]; a == exhausted || i > a {
					ix.anyStack[r][op.Table] = i
				}
			case strategies.OpStack:
				for s := 0; s < len(t.Stacks); s++ {
					if t.Stacks[s] == op.Stack {
						ix.stack[r][op.Table][s] = i
					}
				}
			}
		}
	}
	return ix
}

// of returns one more than the highest index of an operation that makes
// move m for rank y (exhausted when none does).
func (ix *indexes) of(y solver.Rank, m solver.Move) uint8 {
	x := int(m.Table)
	if x < 1 || x > solver.Tables {
		return exhausted
	}
	switch m.Kind {
	case solver.ToTable:
		return ix.table[y][x]
	case solver.ToStack:
		if m.Stack < 0 || int(m.Stack) >= solver.MaxStacks {
			return exhausted
		}
		out := uint8(exhausted)
		for _, i := range [...]uint8{ix.stack[y][x][m.Stack], ix.chain[y][x], ix.anyStack[y][x]} {
			if i != exhausted && (out == exhausted || i > out) {
				out = i
			}
		}
		return out
	}
	return exhausted
}

// playTable plays t on decks (only those where replay[i] is true, if
// replay is given; the others are left zero) with workers goroutines and
// records, besides the wins, the index bounds of every decision.
func playTable(ctx context.Context, t *strategies.Table, rules solver.Rules, decks []solver.Deck, replay []bool, workers int, out *run) (played int, err error) {
	p, err := strategies.NewPriority(t, rules)
	if err != nil {
		return 0, err
	}
	ix := newIndexes(t)
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	const chunk = 128
	var next, count atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			var g solver.Game
			for ctx.Err() == nil {
				lo := int(next.Add(chunk)) - chunk
				if lo >= len(decks) {
					return
				}
				for i := lo; i < min(lo+chunk, len(decks)); i++ {
					if replay != nil && !replay[i] {
						continue
					}
					count.Add(1)
					out.won[i], out.bounds[i] = playOne(&g, p, ix, &decks[i], rules)
				}
			}
		})
	}
	wg.Wait()
	return int(count.Load()), ctx.Err()
}

// playOne plays one deck to its end: won, and the index bound per rank.
func playOne(g *solver.Game, p *strategies.Priority, ix *indexes, d *solver.Deck, rules solver.Rules) (bool, [solver.NumRanks + 1]uint8) {
	var b [solver.NumRanks + 1]uint8
	if err := g.Reset(d, rules); err != nil {
		return false, b
	}
	for !g.Over() {
		v := g.View()
		y := v.Drawn()
		m, err := p.Choose(v)
		if err != nil {
			if y != 0 {
				b[y] = exhausted
			}
			return false, b
		}
		if m.Kind != solver.StackToTable && y != 0 {
			b[y] = max(b[y], ix.of(y, m))
		}
		if g.Apply(m) != nil {
			return false, b
		}
	}
	return g.Won(), b
}

// playIncremental scores table t on decks given base, the run of table
// baseTable on the same decks: only the decks t's changes can affect are
// played. It returns the run and the number of games played.
func playIncremental(ctx context.Context, t, baseTable *strategies.Table, base *run, rules solver.Rules, decks []solver.Deck, workers int) (*run, int, error) {
	out := &run{won: make([]bool, len(decks)), bounds: make([][solver.NumRanks + 1]uint8, len(decks))}
	replay := affected(t, baseTable, base, len(decks))
	for i := range replay {
		if !replay[i] {
			out.won[i], out.bounds[i] = base.won[i], base.bounds[i]
		}
	}
	played, err := playTable(ctx, t, rules, decks, replay, workers, out)
	if err != nil {
		return nil, played, err
	}
	for _, w := range out.won {
		if w {
			out.wins++
		}
	}
	return out, played, nil
}

// affected says which of n decks t must play given base, baseTable's run on
// them: nil (all) without a base or when the tables differ in more than
// their lists.
func affected(t, baseTable *strategies.Table, base *run, n int) []bool {
	if base == nil || baseTable == nil {
		return nil
	}
	diffs, ok := firstDiffs(baseTable, t)
	if !ok {
		return nil
	}
	replay := make([]bool, n)
	for i := range replay {
		for r := 1; r <= solver.NumRanks; r++ {
			if int(base.bounds[i][r]) > diffs[r] {
				replay[i] = true
				break
			}
		}
	}
	return replay
}
