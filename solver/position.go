package solver

import (
	"errors"
	"fmt"
)

// Card is a card lying on a stack: its rank and the table it is assigned to
// (1..4), or 0 when it is not assigned. Assignments are the strategies' notion
// (docs/rules.md, docs/priority.md); the rules themselves let a stack top go
// to any table that needs it.
type Card uint8

// NewCard returns a stacked card of rank r assigned to table x (0 = unassigned).
func NewCard(r Rank, x int) Card { return Card(r) | Card(x)<<4 }

// Rank returns the card's rank.
func (c Card) Rank() Rank { return Rank(c & 0x0f) }

// Table returns the table the card is assigned to, 1..4, or 0 if none.
func (c Card) Table() int { return int(c >> 4) }

// Position is everything a player can see: the drawn card, the tables, the
// stacks with their cards' assignments, and how many of each rank are still in
// the stock — never the stock's order. It is a value: copying it copies the
// whole position (304 bytes on 64-bit machines: the stacks lie end to end in
// one array of 52 cards), which is what searches do.
//
// The zero Position is not usable; get one from NewGame or NewPosition.
type Position struct {
	rules     Rules
	drawn     Rank // the card drawn and not yet placed; 0 if none
	stock     uint8
	placed    [Tables]uint8       // cards on each table
	remaining [NumRanks + 1]uint8 // ranks in the stock, excluding drawn
	// need[x-1] is the rank table x needs next (0 when complete): a function
	// of placed, kept beside it so that Need, which strategies call most, is
	// one load. It lies in what would be padding before ends.
	need [Tables]Rank
	// The stacks lie end to end in cards, in slot order (see slot: the last
	// stack first, stack 0 last): byte t of ends is the index just past the
	// top card of the stack in slot t, so that stack is cards[byte t-1 :
	// byte t] (byte -1 = 0), and byte 7 is the number of stacked cards.
	// Packing the ends in one word makes a push or pop one addition for all.
	ends  uint64
	top   [MaxStacks]Card // each stack's top card, 0 if empty: Top is one load
	cards [DeckSize]Card
	// reserved[x-1] has bit k set when a stacked card is assigned to position k
	// of table x; inStack[s][x-1] is the same for the cards of stack s alone;
	// where[x-1][k] is the stack (high byte) and index (low byte) of that card.
	reserved [Tables]uint16
	inStack  [MaxStacks][Tables]uint16
	where    [Tables][NumRanks]uint16
}

// NewPosition returns the starting position of rules r before the first draw:
// every card in the stock (or, preplaced, A 2 3 4 on tables 1–4).
func NewPosition(r Rules) (Position, error) {
	var p Position
	if err := r.Validate(); err != nil {
		return p, err
	}
	p.rules = r
	for k := Rank(1); k <= NumRanks; k++ {
		p.remaining[k] = 4
	}
	p.stock = DeckSize
	if r.Preplaced {
		for x := 1; x <= Tables; x++ {
			p.placed[x-1] = 1
			p.remaining[x]--
			p.stock--
		}
	}
	for x := 1; x <= Tables; x++ {
		p.need[x-1] = needAt[x-1][p.placed[x-1]]
	}
	return p, nil
}

// Rules returns the variant being played.
func (p *Position) Rules() Rules { return p.rules }

// Stacks returns the number of stacks.
func (p *Position) Stacks() int { return p.rules.Stacks }

// Drawn returns the card drawn and waiting to be placed, or 0 if none.
func (p *Position) Drawn() Rank { return p.drawn }

// StockLen returns the number of cards still face down in the stock.
func (p *Position) StockLen() int { return int(p.stock) }

// Remaining returns how many cards of rank r are still face down in the stock.
func (p *Position) Remaining(r Rank) int { return int(p.remaining[r]) }

// Placed returns the number of cards on table x (1..4).
func (p *Position) Placed(x int) int { return int(p.placed[x-1]) }

// TotalPlaced returns the number of cards on all tables.
func (p *Position) TotalPlaced() int {
	return int(p.placed[0]) + int(p.placed[1]) + int(p.placed[2]) + int(p.placed[3])
}

// Need returns the rank table x (1..4) needs next, or 0 when it is complete.
func (p *Position) Need(x int) Rank { return p.need[x-1] }

// place puts one more card on table x, which must not be complete.
func (p *Position) place(x int) {
	k := p.placed[x-1] + 1
	p.placed[x-1] = k
	p.need[x-1] = needAt[x-1][k]
}

// start returns the index in p.cards of the bottom card of stack s.
func (p *Position) start(s int) uint8 { return uint8((p.ends << 8) >> (8 * slot(s))) }

// slot is the place of stack s in the layout: the stacks lie in reverse
// order, stack 0 last, because strategies stack on the first stacks most
// and a push moves only the cards of the stacks after it.
func slot(s int) uint { return uint(MaxStacks - 1 - s) }

// Height returns the number of cards on stack s.
func (p *Position) Height(s int) int { return int(p.end(s) - p.start(s)) }

// end returns the index in p.cards just past the top card of stack s.
func (p *Position) end(s int) uint8 { return uint8(p.ends >> (8 * slot(s))) }

// above[s] adds 1 to the ends of stacks s and up.
var above = func() (a [MaxStacks]uint64) {
	for s := range MaxStacks {
		for t := s; t < MaxStacks; t++ {
			a[s] += 1 << (8 * t)
		}
	}
	return a
}()

// Top returns the top card of stack s, or 0 if the stack is empty.
func (p *Position) Top(s int) Card { return p.top[s] }

// StackCard returns card i of stack s, counting from the bottom (0); i must
// be below Height(s).
func (p *Position) StackCard(s, i int) Card { return p.cards[int(p.start(s))+i] }

// AppendStack appends the cards of stack s, bottom first, to dst: a copy that
// the caller may keep and change.
func (p *Position) AppendStack(dst []Card, s int) []Card {
	return append(dst, p.cards[p.start(s):p.end(s)]...)
}

// push puts c on top of stack s and returns its index in the stack.
func (p *Position) push(s int, c Card) int {
	e, total := int(p.end(s)), int(p.ends>>56)
	h := e - int(p.start(s))
	p.top[s] = c
	p.ends += above[slot(s)]
	if e < total {
		// The stacks above s move up one place. Often none lie above (stack
		// 0, which strategies use most, lies last): then there is no call.
		copy(p.cards[e+1:total+1], p.cards[e:total])
	}
	p.cards[e] = c
	return h
}

// pop takes the top card off stack s, which must not be empty.
func (p *Position) pop(s int) Card {
	e, total := int(p.end(s))-1, int(p.ends>>56)
	c := p.cards[e]
	for i := e; i < total-1; i++ {
		p.cards[i] = p.cards[i+1]
	}
	p.ends -= above[slot(s)]
	if e == int(p.start(s)) {
		p.top[s] = 0
	} else {
		p.top[s] = p.cards[e-1]
	}
	return c
}

// Filled reports whether rank r already lies on table x.
func (p *Position) Filled(x int, r Rank) bool { return int(posOf[x-1][r]) < int(p.placed[x-1]) }

// Reserved reports whether a stacked card of rank r is assigned to table x.
func (p *Position) Reserved(x int, r Rank) bool {
	return p.reserved[x-1]&(1<<posOf[x-1][r]) != 0
}

// SlotFree reports whether a card of rank r may be assigned to table x: its
// slot is neither filled on the table nor reserved by a stacked card
// (docs/rules.md, "Assignments and slots"). It is !Filled(x, r) &&
// !Reserved(x, r) with one look-up of the slot.
func (p *Position) SlotFree(x int, r Rank) bool {
	k := posOf[x-1][r]
	return k >= p.placed[x-1] && p.reserved[x-1]&(1<<k) == 0
}

// ReservedMask returns the positions of table x (bit k = position k) to which
// stacked cards are assigned.
func (p *Position) ReservedMask(x int) uint16 { return p.reserved[x-1] }

// StackMask returns the positions of table x to which cards of stack s are assigned.
func (p *Position) StackMask(s, x int) uint16 { return p.inStack[s][x-1] }

// Locate returns the stack and index (0 = bottom) of the stacked card assigned
// to position k of table x. It is meaningful only when that bit of
// ReservedMask(x) is set.
func (p *Position) Locate(x, k int) (stack, index int) {
	w := p.where[x-1][k]
	return int(w >> 8), int(w & 0xff)
}

// Won reports whether all 52 cards are on the tables.
func (p *Position) Won() bool {
	return p.placed == [Tables]uint8{NumRanks, NumRanks, NumRanks, NumRanks}
}

// Over reports whether the game has ended: won, or the stock is empty, no
// card is drawn and no stack top is needed by any table.
func (p *Position) Over() bool {
	// The common case first: a card is drawn or the stock is not empty, so
	// the game goes on (and is not won: a won game has every card on a table).
	if p.drawn != 0 || p.stock != 0 {
		return false
	}
	if p.Won() {
		return true
	}
	for s := 0; s < p.rules.Stacks; s++ {
		if t := p.Top(s); t != 0 && p.neededBy(t.Rank()) != 0 {
			return false
		}
	}
	return true
}

// neededBy returns the first table that needs r next, or 0.
func (p *Position) neededBy(r Rank) int {
	for x := 1; x <= Tables; x++ {
		if p.Need(x) == r {
			return x
		}
	}
	return 0
}

// Check reports why m is not legal here, or nil if it is. Legality is the
// rules' (docs/rules.md), not a strategy's: any card may go on any stack,
// and a stack top may go to any table that needs it, whatever it was assigned
// to.
// The one check on assignments keeps them consistent: a card stacked for
// table x takes the slot (x, rank), so that slot must be neither filled nor
// already reserved (unassigned stacking is always allowed).
func (p *Position) Check(m Move) error {
	switch m.Kind {
	case ToTable:
		if p.drawn == 0 {
			return errors.New("no card drawn")
		}
		if m.Table < 1 || m.Table > Tables {
			return fmt.Errorf("no table %d", m.Table)
		}
		if m.Rank != 0 && m.Rank != p.drawn {
			return fmt.Errorf("drawn card is %s, not %s", p.drawn, m.Rank)
		}
		if need := p.Need(int(m.Table)); need != p.drawn {
			return fmt.Errorf("table %d needs %s, not %s", m.Table, rankOrNone(need), p.drawn)
		}
	case ToStack:
		if p.drawn == 0 {
			return errors.New("no card drawn")
		}
		if m.Rank != 0 && m.Rank != p.drawn {
			return fmt.Errorf("drawn card is %s, not %s", p.drawn, m.Rank)
		}
		if m.Stack < 0 || int(m.Stack) >= p.rules.Stacks {
			return fmt.Errorf("no stack %d", m.Stack)
		}
		if m.Table < 0 || m.Table > Tables {
			return fmt.Errorf("no table %d", m.Table)
		}
		if m.Table != 0 && !p.SlotFree(int(m.Table), p.drawn) {
			return fmt.Errorf("slot of %s on table %d is already filled or reserved", p.drawn, m.Table)
		}
	case StackToTable:
		if m.Stack < 0 || int(m.Stack) >= p.rules.Stacks {
			return fmt.Errorf("no stack %d", m.Stack)
		}
		if m.Table < 1 || m.Table > Tables {
			return fmt.Errorf("no table %d", m.Table)
		}
		t := p.Top(int(m.Stack))
		if t == 0 {
			return fmt.Errorf("stack %c is empty", p.rules.StackName(int(m.Stack)))
		}
		if m.Rank != 0 && m.Rank != t.Rank() {
			return fmt.Errorf("top of stack %c is %s, not %s", p.rules.StackName(int(m.Stack)), t.Rank(), m.Rank)
		}
		if need := p.Need(int(m.Table)); need != t.Rank() {
			return fmt.Errorf("table %d needs %s, not %s", m.Table, rankOrNone(need), t.Rank())
		}
	default:
		return fmt.Errorf("not a move (kind %d)", m.Kind)
	}
	return nil
}

func rankOrNone(r Rank) string {
	if r == 0 {
		return "nothing (complete)"
	}
	return r.String()
}

// apply plays a legal move.
func (p *Position) apply(m Move) {
	switch m.Kind {
	case ToTable:
		p.place(int(m.Table))
		p.drawn = 0
	case ToStack:
		s := int(m.Stack)
		h := p.push(s, NewCard(p.drawn, int(m.Table)))
		if x := int(m.Table); x != 0 {
			k := posOf[x-1][p.drawn]
			p.reserved[x-1] |= 1 << k
			p.inStack[s][x-1] |= 1 << k
			p.where[x-1][k] = uint16(s)<<8 | uint16(h)
		}
		p.drawn = 0
	case StackToTable:
		s := int(m.Stack)
		c := p.pop(s)
		if x := c.Table(); x != 0 {
			k := posOf[x-1][c.Rank()]
			p.reserved[x-1] &^= 1 << k
			p.inStack[s][x-1] &^= 1 << k
		}
		p.place(int(m.Table))
	}
}

// State is a Position that can change: what a search explores. Get one
// from a Position with StateOf (a copy: changing it changes nothing else).
// Strategies are handed a *Position, which has no method that changes it.
type State struct {
	Position
}

// StateOf returns a changeable copy of p.
func StateOf(p *Position) State { return State{*p} }

// NewState returns the starting state of rules r before the first draw (see
// NewPosition).
func NewState(r Rules) (State, error) {
	p, err := NewPosition(r)
	return State{p}, err
}

// Apply plays m if it is legal. It does not draw the next card: see Game.
func (st *State) Apply(m Move) error {
	if err := st.Check(m); err != nil {
		return err
	}
	st.apply(m)
	return nil
}

// ErrNoCard is returned by Reveal when the stock holds no card of that rank.
var ErrNoCard = errors.New("no such card in the stock")

// Reveal turns rank r up as the drawn card. The game calls it with the true
// next card; a search calls it with each rank that may come next.
func (st *State) Reveal(r Rank) error {
	p := &st.Position
	if p.drawn != 0 {
		return fmt.Errorf("reveal %s: %s is drawn and not placed", r, p.drawn)
	}
	if !r.Valid() || p.remaining[r] == 0 {
		return fmt.Errorf("reveal %s: %w", r, ErrNoCard)
	}
	p.remaining[r]--
	p.stock--
	p.drawn = r
	return nil
}

// String describes the position on a few lines: the drawn card, each table's
// top and next need, and each stack bottom first, every card with the table it
// is meant for ("6>4": a 6 meant for table 4; "6" alone: unassigned).
func (p *Position) String() string {
	var b []byte
	drawn := "none"
	if p.drawn != 0 {
		drawn = p.drawn.String()
	}
	b = fmt.Appendf(b, "drawn %s, %d in stock\n", drawn, p.stock)
	for x := 1; x <= Tables; x++ {
		top := "-"
		if k := p.placed[x-1]; k > 0 {
			top = order[x-1][k-1].String()
		}
		cards := "cards"
		if p.placed[x-1] == 1 {
			cards = "card "
		}
		b = fmt.Appendf(b, "table %d: %2d %s, top %s, needs %s\n", x, p.placed[x-1], cards, top, rankOrNone(p.Need(x)))
	}
	for s := 0; s < p.rules.Stacks; s++ {
		b = fmt.Appendf(b, "stack %c:", p.rules.StackName(s))
		for i := range p.Height(s) {
			c := p.StackCard(s, i)
			if c.Table() == 0 {
				b = fmt.Appendf(b, " %s", c.Rank())
			} else {
				b = fmt.Appendf(b, " %s>%d", c.Rank(), c.Table())
			}
		}
		b = append(b, '\n')
	}
	return string(b)
}
