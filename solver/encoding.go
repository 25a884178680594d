package solver

import (
	"errors"
	"fmt"
)

// MarshalBinary encodes the position compactly (what a player sees, no stock
// order), so that it can cross a process boundary to an external strategy.
// Layout: stacks, preplaced, len(names), names, drawn, stock, placed[4],
// remaining[1..13], then per stack its height and cards.
func (p *Position) MarshalBinary() ([]byte, error) {
	names := p.rules.Names
	b := make([]byte, 0, 32+len(names)+DeckSize+MaxStacks)
	pre := byte(0)
	if p.rules.Preplaced {
		pre = 1
	}
	b = append(b, byte(p.rules.Stacks), pre, byte(len(names)))
	b = append(b, names...)
	b = append(b, byte(p.drawn), p.stock)
	b = append(b, p.placed[:]...)
	b = append(b, p.remaining[1:]...)
	for s := 0; s < p.rules.Stacks; s++ {
		b = append(b, byte(p.Height(s)))
		for i := range p.Height(s) {
			b = append(b, byte(p.StackCard(s, i)))
		}
	}
	return b, nil
}

// DecodePosition decodes what MarshalBinary wrote, checks that it is a
// position the rules allow (52 cards in all, no slot reserved twice), and
// rebuilds the reservation indexes. (A function, not an UnmarshalBinary
// method: no method of Position changes it.)
func DecodePosition(b []byte) (Position, error) {
	var p Position
	err := p.decode(b)
	return p, err
}

// errShort is made once: a plugin's SDK decodes a position per decision, and
// an error value made per call would be an allocation each time.
var errShort = errors.New("position: truncated encoding")

func (p *Position) decode(b []byte) error {
	if len(b) < 3 {
		return errShort
	}
	r := Rules{Stacks: int(b[0]), Preplaced: b[1] == 1}
	n := int(b[2])
	b = b[3:]
	if len(b) < n {
		return errShort
	}
	r.Names = string(b[:n])
	b = b[n:]
	q, err := NewPosition(r)
	if err != nil {
		return fmt.Errorf("position: %w", err)
	}
	if len(b) < 2+Tables+NumRanks {
		return errShort
	}
	q.drawn, q.stock = Rank(b[0]), b[1]
	copy(q.placed[:], b[2:2+Tables])
	copy(q.remaining[1:], b[2+Tables:2+Tables+NumRanks])
	b = b[2+Tables+NumRanks:]
	if q.drawn != 0 && !q.drawn.Valid() {
		return fmt.Errorf("position: drawn card %d", q.drawn)
	}
	var count [NumRanks + 1]int
	total := 0
	for x := 1; x <= Tables; x++ {
		if q.placed[x-1] > NumRanks {
			return fmt.Errorf("position: table %d holds %d cards", x, q.placed[x-1])
		}
		q.need[x-1] = needAt[x-1][q.placed[x-1]]
		for k := 0; k < int(q.placed[x-1]); k++ {
			count[order[x-1][k]]++
		}
	}
	for s := 0; s < r.Stacks; s++ {
		if len(b) < 1 || len(b) < 1+int(b[0]) {
			return errShort
		}
		h := int(b[0])
		for i, raw := range b[1 : 1+h] {
			c := Card(raw)
			x := c.Table()
			if !c.Rank().Valid() || x > Tables || raw&0x80 != 0 {
				return fmt.Errorf("position: stack %c card %d: invalid card %#x", r.StackName(s), i+1, raw)
			}
			q.push(s, c)
			count[c.Rank()]++
			if x != 0 {
				k := posOf[x-1][c.Rank()]
				if q.reserved[x-1]&(1<<k) != 0 {
					return fmt.Errorf("position: two stacked cards assigned to %s on table %d", c.Rank(), x)
				}
				q.reserved[x-1] |= 1 << k
				q.inStack[s][x-1] |= 1 << k
				q.where[x-1][k] = uint16(s)<<8 | uint16(i)
			}
		}
		b = b[1+h:]
	}
	if len(b) != 0 {
		return fmt.Errorf("position: %d bytes left over", len(b))
	}
	if q.drawn != 0 {
		count[q.drawn]++
	}
	stock := 0
	for k := Rank(1); k <= NumRanks; k++ {
		count[k] += int(q.remaining[k])
		stock += int(q.remaining[k])
		if count[k] != 4 {
			return fmt.Errorf("position: %d cards of rank %s, want 4", count[k], k)
		}
		total += count[k]
	}
	if stock != int(q.stock) {
		return fmt.Errorf("position: stock of %d cards but %d remaining ranks", q.stock, stock)
	}
	*p = q
	return nil
}
