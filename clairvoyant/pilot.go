package clairvoyant

import (
	"context"
	"fmt"
	"slices"

	"github.com/calcsol/calcsol/solver"
)

// MaxPilotLevel is the deepest pilot a StrategyWitness runs (SetPilot). Each
// level multiplies the cost of a lost game by the moves of a game times
// their candidates (a few hundred): level 3 takes seconds a deck.
const MaxPilotLevel = 3

// SetPilot makes the witness play each deck by the pilot method over its
// strategy, the stock order known, at levels 1 to level in turn, instead of
// only the strategy's own game (level 0, the default). At each decision the
// pilot of level L tries the candidate moves (see pilotCandidates), plays
// each on to the end by the pilot of level L−1 — the strategy itself at
// level 0 — on the deck's true order, and follows the best game found so
// far (the most cards on the tables; a game is replaced only by a strictly
// better one, the strategy's own move tried first). A playout that wins
// ends the game: the moves before it, the move tried and the playout's
// moves are the witness, which SolveAll replays before it counts. For a
// strategy whose move depends only on the position, a pilot never places
// fewer cards than the strategy's own game (docs/clairvoyant.md, "The
// pilot").
//
// With assign (for a strategy that reads the assignments of stacked cards,
// as the priority table does) a card goes onto a stack assigned to each
// table with a free slot for it; without, unassigned. The level must be
// from 0 to MaxPilotLevel, and a stochastic strategy (Info().Stochastic)
// cannot be piloted: its playouts would not be repeatable. Call SetPilot
// before the witness is used.
func (w *StrategyWitness) SetPilot(level int, assign bool) error {
	if level < 0 || level > MaxPilotLevel {
		return fmt.Errorf("pilot level %d: want 0 to %d", level, MaxPilotLevel)
	}
	if level > 0 && w.s.Info().Stochastic {
		return fmt.Errorf("pilot: %s is stochastic, its playouts would not be repeatable", w.s.Info().Name)
	}
	w.pilot, w.assign = level, assign
	return nil
}

// Witnesses are several strategies' witnesses tried on each deck, the
// cheapest games first: the own games of the witnesses without a pilot,
// then every piloted witness's game at level 1, then at level 2 (those
// piloted that deep), and so on; then the handoff searches of each witness
// from its deepest lost game (SetHandoff). The first won game is the line.
// Its Line is an Options.Witness.
type Witnesses []*StrategyWitness

// Line returns the first winning line of a witness's game on d (see
// Witnesses), or nil.
func (ws Witnesses) Line(ctx context.Context, d *solver.Deck, r solver.Rules) []solver.Move {
	deepest := 0
	for _, w := range ws {
		if r != w.rules {
			return nil
		}
		deepest = max(deepest, w.pilot)
	}
	lost := make([][]solver.Move, len(ws))
	for level := 0; level <= deepest; level++ {
		for i, w := range ws {
			if !w.plays(level) || ctx.Err() != nil {
				continue
			}
			tr, won := w.game(ctx, d, r, level)
			if won {
				return tr
			}
			if tr != nil {
				lost[i] = tr
			}
		}
	}
	for i, w := range ws {
		if lost[i] == nil {
			continue
		}
		if tr := w.handoff(ctx, d, r, lost[i]); tr != nil {
			return tr
		}
	}
	return nil
}

// plays reports whether the witness plays a game at the given pilot level:
// level 0 alone without a pilot, levels 1 to w.pilot with one (a pilot's
// first candidate's playout is the strategy's own game).
func (w *StrategyWitness) plays(level int) bool {
	if w.pilot == 0 {
		return level == 0
	}
	return level >= 1 && level <= w.pilot
}

// game plays d by the witness's strategy (level 0) or its pilot of the
// given level, and returns the moves and whether they won; nil moves when
// the game could not be played (no session, a strategy that failed).
func (w *StrategyWitness) game(ctx context.Context, d *solver.Deck, r solver.Rules, level int) ([]solver.Move, bool) {
	sess := w.get(ctx)
	if sess == nil {
		return nil, false
	}
	defer w.put(sess)
	if level == 0 {
		res, err := solver.Play(ctx, d, r, sess, true)
		if err != nil || res.Failed {
			return nil, false
		}
		return res.Trace, res.Won
	}
	g, err := solver.NewGame(d, r)
	if err != nil {
		return nil, false
	}
	p := &pilot{sess: sess, assign: w.assign}
	res := p.play(ctx, g, level)
	// The pilot's requests were all game 0: end it, for a strategy that
	// keeps something per game.
	sess.End(ctx, []solver.GameID{0})
	if p.failed {
		return nil, false
	}
	return res.line, res.won
}

// pilot is one game's pilot: the strategy's session, and buffers reused by
// its many playouts.
type pilot struct {
	sess    solver.Session
	assign  bool
	reqs    [1]solver.Request
	out     [1]solver.Decision
	scratch []solver.Move // the moves of the last playout
	failed  bool          // the strategy failed (an error, a failed decision): the game is abandoned
	// Games to play on, one pair a level (the position, a move tried) and
	// one for playouts: kept here, a Game a View points into would
	// otherwise be allocated anew for every playout.
	games [2*MaxPilotLevel + 1]solver.Game
}

// pilotGame is what a pilot (or the strategy, at level 0) made of a game
// from some position on: whether it won, the cards on the tables at its
// end, and its moves.
type pilotGame struct {
	won    bool
	placed int
	line   []solver.Move
}

// play plays a copy of g to the end by the pilot of the given level (at
// least 1) and returns the game from g on.
func (p *pilot) play(ctx context.Context, g0 *solver.Game, level int) pilotGame {
	g, h := &p.games[2*level-1], &p.games[2*level]
	*g = *g0
	var line []solver.Move
	var buf [solver.MaxLegalMoves]solver.Move
	// best is the best game found so far from the current position on (a
	// move tried and its playout). The pilot follows it until a move's
	// game beats it, so that it never ends below any game it has seen —
	// the strategy's own game included, whose first move is tried first.
	var best pilotGame
	seen := false
	for !g.Over() && ctx.Err() == nil && !p.failed {
		own, ok := p.ask(ctx, g)
		for _, m := range pilotCandidates(g, own, ok, p.assign, buf[:0]) {
			if seen && len(best.line) > 0 && m == best.line[0] {
				// Not played out again: the rest of the best game is a
				// known game after it (at level 1, for a strategy whose
				// move depends only on the position, the very game).
				continue
			}
			*h = *g
			if h.Apply(m) != nil {
				continue
			}
			var sub pilotGame
			if level == 1 {
				sub.won, sub.placed = p.playout(ctx, h)
				sub.line = p.scratch
			} else {
				sub = p.play(ctx, h, level-1)
			}
			if p.failed {
				return pilotGame{}
			}
			if sub.won {
				return pilotGame{won: true, placed: solver.DeckSize, line: append(append(line, m), sub.line...)}
			}
			if !seen || sub.placed > best.placed {
				best = pilotGame{placed: sub.placed, line: append(append(best.line[:0:0], m), sub.line...)}
				seen = true
			}
		}
		if len(best.line) == 0 || g.Apply(best.line[0]) != nil {
			break
		}
		line = append(line, best.line[0])
		best.line = best.line[1:]
	}
	return pilotGame{won: g.Won(), placed: g.TotalPlaced(), line: line}
}

// playout plays a copy of g to the end by the strategy and returns whether
// it won and the cards on the tables; its moves are left in p.scratch.
func (p *pilot) playout(ctx context.Context, g0 *solver.Game) (won bool, placed int) {
	g := &p.games[0]
	*g = *g0
	p.scratch = p.scratch[:0]
	for !g.Over() && !p.failed {
		m, ok := p.ask(ctx, g)
		if !ok || g.Apply(m) != nil {
			break
		}
		p.scratch = append(p.scratch, m)
	}
	return g.Won(), g.TotalPlaced()
}

// ask returns the strategy's move in g, its card filled in, and false when
// it resigns; a strategy that fails (an error, a failed decision) sets
// p.failed.
func (p *pilot) ask(ctx context.Context, g *solver.Game) (solver.Move, bool) {
	p.reqs[0] = solver.Request{Position: g.View()}
	p.out[0] = solver.Decision{}
	if err := p.sess.Decide(ctx, p.reqs[:], p.out[:]); err != nil || p.out[0].Failed {
		p.failed = true
		return solver.Move{}, false
	}
	if d := p.out[0]; d.Move.Kind != solver.Resign {
		return g.Complete(d.Move), true
	}
	return solver.Move{}, false
}

// pilotCandidates appends the moves a pilot tries in g: the strategy's own
// move first (when ok), then each legal move — the drawn card to a table
// that needs it; onto each stack, assigned to each table with a free slot
// for it when assign (unassigned where no slot is free), else unassigned,
// a stack holding the same cards as an earlier one skipped; each stack top
// to each table that needs it.
func pilotCandidates(g *solver.Game, own solver.Move, ok, assign bool, dst []solver.Move) []solver.Move {
	var all [solver.MaxLegalMoves]solver.Move
	legal := g.AppendLegalMoves(all[:0])
	slotFree := false // some assigned stacking is legal
	for _, m := range legal {
		slotFree = slotFree || (m.Kind == solver.ToStack && m.Table != 0)
	}
	if ok {
		dst = append(dst, own)
	}
	for _, m := range legal {
		if ok && m == own {
			continue
		}
		if m.Kind == solver.ToStack {
			if (m.Table != 0) != (assign && slotFree) || sameStackAsEarlier(&g.Position, int(m.Stack)) {
				continue
			}
		}
		dst = append(dst, m)
	}
	return dst
}

// sameStackAsEarlier reports whether a stack before s holds the same
// cards, assignments included (stacking onto either gives the same
// position up to the stacks' names).
func sameStackAsEarlier(p *solver.Position, s int) bool {
	var a, b [solver.DeckSize]solver.Card
	sc := p.AppendStack(a[:0], s)
	for t := range s {
		if slices.Equal(p.AppendStack(b[:0], t), sc) {
			return true
		}
	}
	return false
}
