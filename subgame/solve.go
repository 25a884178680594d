package subgame

import "context"

// Build solves the stack game for k exhaustively and returns its table.
// The values come from exact integer counts (see Wins), so the table is the
// same, byte for byte, on every machine. ctx is checked between layers'
// blocks of positions; a cancelled build returns ctx's error.
func Build(ctx context.Context, k Key) (*Table, error) {
	if err := k.Validate(); err != nil {
		return nil, err
	}
	wins, err := solve(ctx, k)
	if err != nil {
		return nil, err
	}
	t := &Table{Key: k, vals: make([][]uint16, k.Cards+1)}
	for m := 1; m <= k.Cards; m++ {
		t.vals[m] = make([]uint16, len(wins[m]))
		var p Position
		p.Cards = m
		for idx, w := range wins[m] {
			p.decode(idx, k.Stacks)
			f := factorial(p.Stock())
			t.vals[m][idx] = uint16((w*Scale + f/2) / f)
		}
	}
	return t, nil
}

// decode sets p.Where[1 … p.Cards−1] from idx.
func (p *Position) decode(idx, stacks int) {
	for l := 1; l < p.Cards; l++ {
		p.Where[l] = uint8(idx % (stacks + 1))
		idx /= stacks + 1
	}
}

func factorial(n int) uint64 {
	f := uint64(1)
	for i := 2; i <= n; i++ {
		f *= uint64(i)
	}
	return f
}

// solve returns, for every position of k, the number of orders of its
// stock that best play wins (out of Stock()! orders), by layer and Index.
//
// The value of a position is the sum over the card drawn next: card 0 goes
// out, and with it every card after it that lies on a stack (it is that
// stack's top, all cards before it being out), which leaves a position with
// fewer cards (the same digits, the lowest ones dropped: Index divided by
// (S+1)^j); any other card l goes onto a stack whose top is needed after
// it, or an empty one (the best of them), which adds s·(S+1)^(l−1) to the
// index, or, with no such stack, wins nothing. Children of a push have a
// larger index in the same layer, so each layer is filled from its last
// index down, after the layers below it.
func solve(ctx context.Context, k Key) ([][]uint64, error) {
	S := k.Stacks
	base := S + 1
	wins := make([][]uint64, k.Cards+1)
	var where [MaxCards]int
	var top [MaxStacks + 1]int // top[s]: smallest card on stack s, or MaxCards if empty
	for m := 1; m <= k.Cards; m++ {
		n := pow(base, m-1)
		w := make([]uint64, n)
		wins[m] = w
		for idx := n - 1; idx >= 0; idx-- {
			if idx&0xffff == 0 {
				if err := ctx.Err(); err != nil {
					return nil, err
				}
			}
			for s := 1; s <= S; s++ {
				top[s] = MaxCards
			}
			x := idx
			for l := 1; l < m; l++ {
				where[l] = x % base
				x /= base
				if s := where[l]; s != 0 && top[s] == MaxCards {
					top[s] = l
				}
			}
			// Card 0: out, then the run of stacked cards after it.
			j, div := 1, base
			for j < m && where[j] != 0 {
				j++
				div *= base
			}
			var v uint64
			if j == m {
				v = 1 // every card out: won, in the one order of an empty stock
			} else {
				v = wins[m-j][idx/div]
			}
			// Any other card of the stock: onto the best stack that takes it.
			step := 1
			for l := 1; l < m; l++ {
				if where[l] == 0 {
					var best uint64
					for s := 1; s <= S; s++ {
						if top[s] > l {
							best = max(best, w[idx+s*step])
						}
					}
					v += best
				}
				step *= base
			}
			w[idx] = v
		}
	}
	return wins, nil
}
