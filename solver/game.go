package solver

import (
	"errors"
	"fmt"
)

// Strategy chooses moves. It sees only the Position — what a player sees —
// never the order of the stock. Choose is called whenever a move is due: while
// a card is drawn it must place it (or move a stack top first); when the stock
// is empty it moves stack tops. Returning an error ends the game as lost: wrap
// ErrResign for a deliberate resignation; any other error is a failure of the
// strategy (an external plugin that died, say) and is reported as such.
//
// An in-process strategy used by several goroutines at once must be safe for
// that; the tournament gives each worker its own through a factory.
type Strategy interface {
	Choose(p *Position) (Move, error)
}

// ErrResign marks a strategy's deliberate resignation.
var ErrResign = errors.New("resigned")

// Game is a Position together with the hidden stock order.
type Game struct {
	Position
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
	if err := g.Position.Apply(m); err != nil {
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

// Play lets s play deck d under rules r. With record set the moves are kept
// in Result.Trace. The game ends when it is won, when no move is left, or when
// the strategy resigns, fails, or returns an illegal move.
func Play(d *Deck, r Rules, s Strategy, record bool) (Result, error) {
	var g Game
	if err := g.Reset(d, r); err != nil {
		return Result{}, err
	}
	return g.PlayOut(s, record), nil
}

// PlayOut lets s play g from where it stands to the end.
func (g *Game) PlayOut(s Strategy, record bool) Result {
	var res Result
	if record {
		res.Trace = make([]Move, 0, 2*DeckSize)
	}
	for !g.Over() {
		m, err := s.Choose(&g.Position)
		if err != nil {
			res.Reason = err.Error()
			res.Failed = !errors.Is(err, ErrResign)
			res.Placed = g.TotalPlaced()
			return res
		}
		// Fill in the card so that traces are complete.
		switch m.Kind {
		case ToTable, ToStack:
			if m.Rank == 0 {
				m.Rank = g.drawn
			}
		case StackToTable:
			if m.Rank == 0 && m.Stack >= 0 && int(m.Stack) < g.rules.Stacks {
				m.Rank = g.Top(int(m.Stack)).Rank()
			}
		}
		if err := g.Apply(m); err != nil {
			res.Reason = fmt.Sprintf("illegal move %s: %v", m.Format(g.rules), err)
			res.Failed = true
			res.Placed = g.TotalPlaced()
			return res
		}
		if record {
			res.Trace = append(res.Trace, m)
		}
	}
	res.Placed = g.TotalPlaced()
	res.Won = g.Won()
	if res.Won {
		res.Reason = "won"
	} else {
		res.Reason = "stuck: the stock is empty and no stack top can move"
	}
	return res
}
