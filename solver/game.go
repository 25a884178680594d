package solver

import (
	"context"
)

// Game is a Position together with the hidden stock order.
type Game struct {
	State
	deck Deck
	next uint8 // index in deck of the next card to draw
}

// NewGame deals deck under rules r and draws the first card. With r.Preplaced
// the first A, 2, 3 and 4 of the deck start the tables and are skipped.
func NewGame(d *Deck, r Rules) (*Game, error) {
	g := &Game{}
	if err := g.Reset(d, r); err != nil {
		return nil, err
	}
	return g, nil
}

// Reset starts g over on deck d; it lets a worker reuse one Game for many decks.
func (g *Game) Reset(d *Deck, r Rules) error {
	p, err := NewPosition(r)
	if err != nil {
		return err
	}
	g.Position = p
	g.next = 0
	if !r.Preplaced {
		g.deck = *d
	} else {
		// Keep the stock order without the first A, 2, 3, 4.
		var took [5]bool
		n := 0
		for _, c := range d {
			if c <= Tables && !took[c] {
				took[c] = true
				continue
			}
			g.deck[n] = c
			n++
		}
	}
	g.draw()
	return nil
}

// draw reveals the next card of the stock if none is drawn.
func (g *Game) draw() {
	if g.drawn == 0 && g.stock > 0 {
		r := g.deck[g.next]
		g.next++
		g.remaining[r]--
		g.stock--
		g.drawn = r
	}
}

// Apply plays m and, if it placed the drawn card, draws the next one.
func (g *Game) Apply(m Move) error {
	if err := g.State.Apply(m); err != nil {
		return err
	}
	g.draw()
	return nil
}

// Result is how a game ended.
type Result struct {
	Won    bool
	Placed int    // cards on the tables at the end
	Reason string // why the game ended
	// Failed is set when the strategy failed (an error other than ErrResign,
	// or an illegal move) rather than played the game out.
	Failed bool
	Trace  []Move // the moves, if recorded
}

// Play lets session sess play deck d under rules r as game 0 with seed 0
// (PlayBatch with one deal). With record set the moves are kept in
// Result.Trace. The game ends when it is won, when no move is left, or when
// the strategy resigns, fails, or returns an illegal move.
func Play(ctx context.Context, d *Deck, r Rules, sess Session, record bool) (Result, error) {
	if err := r.Validate(); err != nil {
		return Result{}, err
	}
	if err := d.Validate(); err != nil {
		return Result{}, err
	}
	var res [1]Result
	err := PlayBatch(ctx, sess, r, []Deal{{Deck: d}}, res[:], PlayOptions{Record: record})
	return res[0], err
}
