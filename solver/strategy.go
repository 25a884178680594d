package solver

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
)

// Strategy is the contract every player of calcsol implements: the built-in
// strategies, external plugins and searching strategies alike.
//
// A Strategy is a description plus a way to open sessions. A session plays
// under one set of rules; the harness opens one per worker (sessions need not
// be safe for concurrent use) and closes each when it is done with it, on
// every path, so that a session holding a process or a cache releases it.
type Strategy interface {
	// Info describes the strategy: its name, whether it is stochastic, and
	// the parameters it was built with.
	Info() Info
	// Start opens a session for rules r. A strategy that cannot play r (a
	// 3-stack priority table with 2 stacks, say) returns an error wrapping
	// ErrNotApplicable; any other error is a failure of the strategy.
	Start(ctx context.Context, r Rules) (Session, error)
}

// Session decides moves for games played under one set of rules.
type Session interface {
	// Decide chooses a move for each request: out[i] answers reqs[i], and
	// len(out) == len(reqs). The harness sends the pending decisions of many
	// games at once (games advanced in lockstep), so that a strategy in
	// another process pays one round trip for a whole batch. Each request is
	// a different game. An error fails every game of the batch; a failure
	// that concerns one game goes in that game's Decision instead.
	//
	// ctx carries the harness's time budget for the batch: a strategy that
	// searches should stop when ctx is done.
	Decide(ctx context.Context, reqs []Request, out []Decision) error
	// End tells the session that these games are over, so that it may drop
	// what it kept for them. Games a session has never seen may be named.
	End(ctx context.Context, games []GameID) error
	// Close ends the session and releases what it holds. Close is called
	// exactly once, after the last Decide or End.
	Close() error
}

// GameID names a game within a session; it is unique among the games a
// session plays and is never reused while a game is in play.
type GameID uint64

// Request asks for one move.
type Request struct {
	Game GameID
	// Seed is the game's seed: the same game (run seed, strategy, corpus,
	// deck) always gets the same seed, so that a stochastic strategy that
	// draws its randomness from it replays identically in shards, resumed
	// runs and regression checks.
	Seed uint64
	// Position is what the player sees, read-only; valid during the Decide
	// call only. View.State gives a copy to explore.
	Position View
	// Step counts the game's decisions: 1 at its first, n+1 after n moves
	// were played. Last is the move played just before this decision, as
	// the session that chose it answered it (zero at the first). A Player
	// sets both; a request a strategy makes up (a playout, a what-if)
	// leaves Step 0, "not known". With them a session that keeps state per
	// game can tell that the game went on from its own last answer: the
	// plugin host then sends only what changed (docs/plugins.md).
	Step int
	Last Move
}

// Decision is a session's answer to one Request.
type Decision struct {
	// Move is the move to play, checked by the engine before it is applied.
	// Rank may be left 0 (the drawn card or the stack top is meant). A move
	// of kind Resign gives the game up (a lost game, not a failure).
	Move Move
	// Failed says the strategy could not decide for this game (an internal
	// error): the game ends as failed, which is recorded apart from a loss.
	Failed bool
	// Reason says why the strategy resigned or failed; it is recorded.
	Reason string
}

// Info describes a strategy.
type Info struct {
	// Name is how reports label the strategy, e.g. "priority".
	Name string
	// Stochastic says the strategy's moves depend on Request.Seed: two runs
	// with different seeds may differ. A deterministic strategy's results
	// depend only on the deck and the rules.
	Stochastic bool
	// Params are the strategy's tunable parameters with the values it was
	// built with.
	Params []Param
}

// ParamKind says what values a Param takes.
type ParamKind uint8

// The kinds of parameter.
const (
	ParamText   ParamKind = iota // any string (a file name, say)
	ParamBool                    // "true" or "false"
	ParamInt                     // an integer in [Min, Max]
	ParamFloat                   // a number in [Min, Max]
	ParamChoice                  // one of Choices
)

// Param declares one tunable parameter and its current value.
type Param struct {
	Name     string
	Doc      string
	Kind     ParamKind
	Value    string   // the value the strategy was built with
	Min, Max float64  // bounds for ParamInt and ParamFloat
	Choices  []string // the values of a ParamChoice
}

// Batcher is implemented by a strategy that wants its decisions in batches
// of a given size (a plugin, whose round trips cost more than its
// decisions); the harness uses it unless a config says otherwise.
type Batcher interface {
	BatchSize() int
}

// ErrNotApplicable marks a strategy that cannot play the rules it was given.
var ErrNotApplicable = errors.New("not applicable to these rules")

// ErrResign marks a deliberate resignation by a Chooser.
var ErrResign = errors.New("resigned")

// Chooser is the simplest kind of player: it picks the move for one position,
// keeping no state between calls. Return an error wrapping ErrResign to
// resign; any other error fails the game. Adapt one to a Strategy with
// FromChooser.
type Chooser interface {
	Choose(p View) (Move, error)
}

// FromChooser makes a Strategy out of a Chooser constructor: newChooser is
// called once per session with the session's rules (return an error wrapping
// ErrNotApplicable when it cannot play them).
func FromChooser(info Info, newChooser func(Rules) (Chooser, error)) Strategy {
	return chooserStrategy{info: info, make: newChooser}
}

type chooserStrategy struct {
	info Info
	make func(Rules) (Chooser, error)
}

func (s chooserStrategy) Info() Info { return s.info }

func (s chooserStrategy) Start(_ context.Context, r Rules) (Session, error) {
	if err := r.Validate(); err != nil {
		return nil, err
	}
	c, err := s.make(r)
	if err != nil {
		return nil, err
	}
	return &ChooserSession{C: c}, nil
}

// ChooserSession is a Session that asks C for every move.
type ChooserSession struct{ C Chooser }

// Decide implements Session.
func (s *ChooserSession) Decide(_ context.Context, reqs []Request, out []Decision) error {
	for i := range reqs {
		m, err := s.C.Choose(reqs[i].Position)
		switch {
		case err == nil:
			out[i] = Decision{Move: m}
		case errors.Is(err, ErrResign):
			out[i] = Decision{Move: Move{Kind: Resign}, Reason: err.Error()}
		default:
			out[i] = Decision{Failed: true, Reason: err.Error()}
		}
	}
	return nil
}

// End implements Session; a Chooser keeps nothing per game.
func (s *ChooserSession) End(context.Context, []GameID) error { return nil }

// Close implements Session.
func (s *ChooserSession) Close() error { return nil }

// Budget limits the time a strategy may spend; zero fields mean no limit.
// In a batch of n decisions each game is charged 1/n of the batch's time.
type Budget struct {
	Move time.Duration // per decision
	Game time.Duration // per game, all its decisions together
}

// Deal is one game to play: the deck and the game's identity.
type Deal struct {
	Deck *Deck
	Game GameID
	Seed uint64
}

// PlayOptions say how PlayBatch plays.
type PlayOptions struct {
	Record bool   // keep every game's moves in Result.Trace
	Budget Budget // time limits that apply to every strategy alike
	// Window is the most games in play at once: when a game ends, the next
	// deal starts in its place, so that every round but the last ones asks
	// for Window decisions. 0 starts every deal at once.
	Window int
}

// PlayBatch plays deals under rules r with session sess, advancing the games
// in lockstep; see Player.Play, which it calls with a fresh Player.
func PlayBatch(ctx context.Context, sess Session, r Rules, deals []Deal, results []Result, opt PlayOptions) error {
	var p Player
	return p.Play(ctx, sess, r, deals, results, opt)
}

// Player plays batches of games against a session. Its zero value is ready;
// reusing one Player for many batches reuses its buffers, so that playing
// allocates nothing once they have grown (traces aside).
type Player struct {
	games []Game
	live  []int
	reqs  []Request
	out   []Decision
	spent []time.Duration
	steps []int  // per game: decisions so far
	last  []Move // per game: the move last played, as answered
	ended []GameID
	// Panicked is set by Play when the session panicked: the games of that
	// round failed, and the session may be left in any state, so Play
	// started no deal after it.
	Panicked bool
	// Started is the number of deals the last Play started, from the
	// first: all of them, unless the session panicked or ctx was cancelled.
	// The caller plays the rest again, with a fresh session.
	Started int
}

// Play plays deals under rules r with session sess, advancing the games in
// lockstep: each round sends the pending decision of every game still in play
// in one Decide call (with opt.Window, of at most that many games, the next
// deals starting as games end). results[i] receives the outcome of deals[i].
//
// Every move is checked by the engine before it is applied; an illegal move,
// a failed decision, a panic or an error from Decide fails the game concerned.
// Only a cancelled ctx makes Play return an error, and then results are
// incomplete. The session is told with End about every game that ended.
func (p *Player) Play(ctx context.Context, sess Session, r Rules, deals []Deal, results []Result, opt PlayOptions) error {
	p.Panicked = false
	if cs, ok := sess.(*ChooserSession); ok && opt.Budget == (Budget{}) {
		return p.playChooser(ctx, cs.C, r, deals, results, opt.Record)
	}
	n := len(deals)
	p.grow(n)
	games := p.games[:n]
	window := opt.Window
	if window <= 0 {
		window = n
	}
	started := 0
	defer func() { p.Started = started }()
	// fill starts deals until window games are in play or none is left.
	fill := func() {
		for ; len(p.live) < window && started < n && !p.Panicked; started++ {
			i := started
			results[i] = Result{}
			p.spent[i] = 0
			p.steps[i], p.last[i] = 0, Move{}
			if err := games[i].Reset(deals[i].Deck, r); err != nil {
				results[i] = Result{Failed: true, Reason: err.Error()}
				p.ended = append(p.ended, deals[i].Game)
				continue
			}
			if opt.Record {
				results[i].Trace = make([]Move, 0, 2*DeckSize)
			}
			if games[i].Over() {
				finish(&games[i], &results[i])
				p.ended = append(p.ended, deals[i].Game)
				continue
			}
			p.live = append(p.live, i)
		}
	}
	fill()
	defer func() {
		p.live, p.ended = p.live[:0], p.ended[:0]
	}()
	timed := opt.Budget != Budget{}
	for len(p.live) > 0 {
		if err := ctx.Err(); err != nil {
			return err
		}
		p.reqs = p.reqs[:len(p.live)]
		for j, i := range p.live {
			rq := &p.reqs[j]
			rq.Game, rq.Seed = deals[i].Game, deals[i].Seed
			rq.Position = games[i].View()
			p.steps[i]++
			rq.Step, rq.Last = p.steps[i], p.last[i]
		}
		out := p.out[:len(p.reqs)]
		clear(out)
		var err error
		var each time.Duration
		if timed {
			// Reading the clock costs as much as a cheap strategy's decision:
			// only a budget pays for it.
			dctx, cancel := ctx, context.CancelFunc(nil)
			if opt.Budget.Move > 0 {
				dctx, cancel = context.WithTimeout(ctx, opt.Budget.Move*time.Duration(len(p.reqs)))
			}
			start := time.Now()
			err = p.decide(dctx, sess, out)
			each = time.Since(start) / time.Duration(len(p.reqs))
			if cancel != nil {
				cancel()
			}
		} else {
			err = p.decide(ctx, sess, out)
		}
		if err != nil && ctx.Err() != nil {
			return ctx.Err()
		}
		next := p.live[:0]
		for j, i := range p.live {
			g, res := &games[i], &results[i]
			p.spent[i] += each
			done := true
			switch {
			case err != nil:
				res.Failed, res.Reason = true, err.Error()
			case opt.Budget.Move > 0 && each > opt.Budget.Move:
				res.Failed, res.Reason = true, fmt.Sprintf("over the time budget: a move took %v (budget %v)", each.Round(time.Microsecond), opt.Budget.Move)
			case opt.Budget.Game > 0 && p.spent[i] > opt.Budget.Game:
				res.Failed, res.Reason = true, fmt.Sprintf("over the time budget: the game took %v (budget %v)", p.spent[i].Round(time.Microsecond), opt.Budget.Game)
			default:
				done = apply(g, out[j], res)
				p.last[i] = out[j].Move
			}
			if done || g.Over() {
				if !done {
					finish(g, res)
				}
				res.Placed = g.TotalPlaced()
				p.ended = append(p.ended, deals[i].Game)
				continue
			}
			next = append(next, i)
		}
		p.live = next
		fill()
		if len(p.ended) > 0 {
			// End is advisory: a session that fails it has failed its games
			// already or will fail the next batch.
			_ = sess.End(ctx, p.ended)
			p.ended = p.ended[:0]
		}
	}
	if len(p.ended) > 0 {
		_ = sess.End(ctx, p.ended)
	}
	return nil
}

// playChooser is Play for an in-process Chooser without a budget: the games
// one after the other, each decision a direct call. It gives the same
// results as the lockstep path (a test plays both), at the speed of a bare
// loop: for the cheapest strategies, building requests would cost as much as
// deciding.
func (p *Player) playChooser(ctx context.Context, c Chooser, r Rules, deals []Deal, results []Result, record bool) error {
	if len(p.games) == 0 {
		p.games = make([]Game, 1)
	}
	g := &p.games[0]
	done := ctx.Done()
	p.Started = 0
	for i := range deals {
		select {
		case <-done:
			return ctx.Err()
		default:
		}
		p.Started = i + 1
		res := &results[i]
		*res = Result{}
		if err := g.Reset(deals[i].Deck, r); err != nil {
			*res = Result{Failed: true, Reason: err.Error()}
			continue
		}
		if record {
			res.Trace = make([]Move, 0, 2*DeckSize)
		}
		panicked := p.playOne(g, c, res)
		res.Placed = g.TotalPlaced()
		if panicked {
			p.Panicked = true
			return nil
		}
	}
	return nil
}

// playOne plays g to its end with c, turning a panic into a failed game.
func (p *Player) playOne(g *Game, c Chooser, res *Result) (panicked bool) {
	defer func() {
		if v := recover(); v != nil {
			res.Failed, res.Reason = true, fmt.Sprintf("strategy panicked: %v", v)
			panicked = true
		}
	}()
	for !g.Over() {
		m, err := c.Choose(g.View())
		if err != nil {
			d := Decision{Failed: true, Reason: err.Error()}
			if errors.Is(err, ErrResign) {
				d = Decision{Move: Move{Kind: Resign}, Reason: err.Error()}
			}
			apply(g, d, res)
			return false
		}
		if playMove(g, m, res) {
			return false
		}
	}
	finish(g, res)
	return false
}

func (p *Player) grow(n int) {
	if len(p.spent) < n { // the direct path may have made games alone

		p.games = make([]Game, n)
		p.live = make([]int, 0, n)
		p.reqs = make([]Request, 0, n)
		p.out = make([]Decision, n)
		p.spent = make([]time.Duration, n)
		p.steps = make([]int, n)
		p.last = make([]Move, n)
		p.ended = make([]GameID, 0, n)
	}
}

// decide calls sess.Decide, turning a panic into an error.
func (p *Player) decide(ctx context.Context, sess Session, out []Decision) (err error) {
	defer func() {
		if v := recover(); v != nil {
			p.Panicked = true
			err = fmt.Errorf("strategy panicked: %v", v)
		}
	}()
	if err := sess.Decide(ctx, p.reqs, out); err != nil {
		return fmt.Errorf("strategy failed: %w", err)
	}
	return nil
}

// apply plays decision d in g and reports whether the game ended because of
// it (a resignation, a failure, an illegal move).
func apply(g *Game, d Decision, res *Result) (ended bool) {
	if d.Failed {
		res.Failed, res.Reason = true, orDefault(d.Reason, "strategy failed")
		return true
	}
	if d.Move.Kind == Resign {
		switch {
		case d.Reason == "":
			res.Reason = "resigned"
		case strings.HasPrefix(d.Reason, "resigned"):
			res.Reason = d.Reason // an ErrResign error's text, as it is
		default:
			res.Reason = "resigned: " + d.Reason
		}
		return true
	}
	return playMove(g, d.Move, res)
}

// playMove plays m in g and reports whether it ended the game because it was
// illegal.
func playMove(g *Game, m Move, res *Result) (ended bool) {
	m = g.Complete(m) // so that traces are complete
	if err := g.Apply(m); err != nil {
		res.Failed = true
		res.Reason = fmt.Sprintf("illegal move %s: %v", m.Format(g.rules), err)
		return true
	}
	if res.Trace != nil {
		res.Trace = append(res.Trace, m)
	}
	return false
}

// finish records how a game that is over ended.
func finish(g *Game, res *Result) {
	res.Placed = g.TotalPlaced()
	res.Won = g.Won()
	if res.Won {
		res.Reason = "won"
	} else {
		res.Reason = "stuck: the stock is empty and no stack top can move"
	}
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
