package solver

// AppendLegalMoves appends every move the rules allow in p to dst and returns
// the extended slice, in a fixed order: the drawn card to each table that
// needs it (table order); the drawn card onto each stack (stack order),
// unassigned first, then assigned to each table whose slot for it is free;
// then each stack top to each table that needs it (stack order, then table
// order). It allocates nothing when dst has room (at most
// Tables + MaxStacks*(Tables+1) + MaxStacks*Tables moves).
//
// Every move it returns passes Check, and every move that passes Check with
// its Rank filled in is among them.
func (p *Position) AppendLegalMoves(dst []Move) []Move {
	if y := p.drawn; y != 0 {
		for x := 1; x <= Tables; x++ {
			if p.Need(x) == y {
				dst = append(dst, Move{Kind: ToTable, Rank: y, Table: int8(x)})
			}
		}
		for s := 0; s < p.rules.Stacks; s++ {
			dst = append(dst, Move{Kind: ToStack, Rank: y, Stack: int8(s)})
			for x := 1; x <= Tables; x++ {
				if p.SlotFree(x, y) {
					dst = append(dst, Move{Kind: ToStack, Rank: y, Stack: int8(s), Table: int8(x)})
				}
			}
		}
	}
	for s := 0; s < p.rules.Stacks; s++ {
		t := p.Top(s)
		if t == 0 {
			continue
		}
		for x := 1; x <= Tables; x++ {
			if p.Need(x) == t.Rank() {
				dst = append(dst, Move{Kind: StackToTable, Rank: t.Rank(), Stack: int8(s), Table: int8(x)})
			}
		}
	}
	return dst
}

// MaxLegalMoves bounds the number of moves AppendLegalMoves can append.
const MaxLegalMoves = Tables + MaxStacks*(Tables+1) + MaxStacks*Tables
