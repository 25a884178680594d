package search

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/calcsol/calcsol/solver"
	"github.com/calcsol/calcsol/strategies"
)

// DefaultSamples is the number of orders the sampling player deals per decision.
const DefaultSamples = 16

// SampleKind is the sampling player as a wrapper kind
// ("priority:deadlock_check=exact+sample:n=16"): for each place the drawn
// card can go, it deals n orders of the unseen cards (the same n for every
// candidate, so that their comparison is paired), plays each to the end with
// the base strategy, and plays the candidate whose games went best — wins
// first, then cards on the tables. This is determinization: the hidden order
// is sampled, each sample is played as if it were known.
//
// The orders are drawn from a generator seeded by a hash of the position, so
// the player is deterministic: the same deck gives the same game everywhere.
func SampleKind() strategies.Kind {
	return strategies.DefineWrapper("sample",
		"wrapper: try each place for the drawn card on n sampled orders of the unseen cards, played out by the base strategy",
		SampleStrategy{N: DefaultSamples, Win: 100}, func(base solver.Strategy, s SampleStrategy) (solver.Strategy, error) {
			s.Base = base
			if len(s.AltTables) > 0 {
				if _, ok := base.(TableChanger); !ok {
					return nil, fmt.Errorf("alt_tables: the base %s does not play a priority table", base.Info().Name)
				}
				if s.Pilot > 0 {
					return nil, errors.New("alt_tables and pilot: choose one way to play the orders out")
				}
			}
			return &s, nil
		})
}

// SampleStrategy is the sampling player (see SampleKind); its tagged
// fields are the kind's parameters.
type SampleStrategy struct {
	Base solver.Strategy
	// N is the number of orders per decision.
	N int `param:"n" min:"1" max:"4096" doc:"orders of the unseen cards dealt per decision"`
	// Assign also tries every assignment of the stacked card.
	Assign bool `param:"assign" doc:"also try each assignment of the stacked card (for a base that reads assignments, like priority)"`
	// Win is the score of a won sample.
	Win float64 `param:"win" min:"0" max:"10000" doc:"score of a won sample; a lost one scores its cards on the tables"`
	// Margin: another place replaces the base's own move only by scoring
	// more than Margin won orders (Margin·Win of score) above it; it has no
	// effect with Win 0.
	Margin float64 `param:"margin" min:"0" max:"4096" doc:"another place replaces the base's own move only by scoring more than this many won orders above it"`
	// Race, when positive, plays the places out RaceBatch orders at a
	// time, all on the same orders, and drops a place once its paired
	// deficit to the leader exceeds Race standard errors (see race).
	Race float64 `param:"race" min:"0" max:"1e9" doc:"play the places out 16 orders at a time and drop a place once it trails the leader by this many standard errors (0: off)"`
	// Tops also compares moving stack tops to tables with the drawn
	// card's places, and decides the base's moves of tops the same way.
	Tops bool `param:"tops" doc:"also compare moving each stack top to each table that needs it (every legal move, not only the drawn card's places)"`
	// AltTables are more priority tables for the playouts: each order is
	// played out by the base and, unless that game is won, by the base
	// with each of these tables instead of its own (TableChanger), and
	// scores the best of those games. The real game's moves stay the
	// base's and the sampler's.
	AltTables []string `param:"alt_tables" doc:"more priority tables for the playouts: each order is played out by the base and by the base with each of these tables, and scores the best game"`
	// Pilot, when positive, plays an order out by a pilot of the base once
	// the stock holds Pilot cards or fewer: at each decision of the
	// playout every candidate move is played out by the base on that order
	// and the best game found is followed (pilotPlayout).
	Pilot int `param:"pilot" min:"0" max:"52" doc:"with this many cards or fewer in the stock, each order is played out by a pilot of the base (every move tried with the base's playout on that order, the best game followed) instead of the base alone (0: off)"`
	// From, when positive, leaves every decision with more than From
	// cards in the stock to the base.
	From int `param:"from" min:"0" max:"52" doc:"sample only with this many cards or fewer in the stock; before that, play the base's move (0: always sample)"`

	// noMemo turns the pilot's memos off, and noPilotMemo only its memo of
	// its own playouts; noOwnCheck turns off settling a decision by the
	// base's playouts of its own move (ownWinsAll). Tests and benchmarks
	// compare: all play the same games.
	noMemo, noPilotMemo, noOwnCheck bool
}

// Unwrap implements strategies.Wrapper.
func (s *SampleStrategy) Unwrap() solver.Strategy { return s.Base }

// WriteFingerprint implements strategies.Fingerprinter: the playouts'
// alternative tables decide games as the base's own does.
func (s *SampleStrategy) WriteFingerprint(w io.Writer, rules []solver.Rules) error {
	for _, name := range s.AltTables {
		alt, err := withTable(s.Base, name)
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "alt_tables %s\n", name)
		if err := strategies.WriteLayers(w, alt, rules); err != nil {
			return err
		}
	}
	return nil
}

// TableChanger is a strategy that plays a priority table and can play
// another one with the same options: the priority kind, and wrappers over
// it that pass the change on (rescue).
type TableChanger interface {
	WithTable(nameOrPath string) (solver.Strategy, error)
}

// withTable returns s playing the table nameOrPath (see TableChanger).
func withTable(s solver.Strategy, nameOrPath string) (solver.Strategy, error) {
	tc, ok := s.(TableChanger)
	if !ok {
		return nil, fmt.Errorf("%s does not play a priority table", s.Info().Name)
	}
	return tc.WithTable(nameOrPath)
}

// RaceBatch is how many orders the racing sampler plays each place out on
// between two looks.
const RaceBatch = 16

// Info implements solver.Strategy.
func (s *SampleStrategy) Info() solver.Info {
	bi := s.Base.Info()
	ps := append(append([]solver.Param(nil), bi.Params...), strategies.Declare(s)...)
	return solver.Info{Name: bi.Name + "+sample", Stochastic: bi.Stochastic, Params: ps}
}

// Start implements solver.Strategy.
func (s *SampleStrategy) Start(ctx context.Context, r solver.Rules) (solver.Session, error) {
	base, err := s.Base.Start(ctx, r)
	if err != nil {
		return nil, err
	}
	ss := &sampleSession{s: s, base: base}
	// With Win ≥ 1 a won order scores more than any lost one (at most 51
	// cards), the most an order can: ownWinsAll's premise.
	ss.checkOwn = s.Win >= 1 && !s.noOwnCheck && positional(base)
	if s.Pilot > 0 && !s.noMemo && positional(base) {
		ss.memo = new(playMemo) // exact for such a base (playMemo)
		if !s.noPilotMemo {
			ss.pilotMemo = new(playMemo)
		}
	}
	for _, name := range s.AltTables {
		alt, err := withTable(s.Base, name)
		if err == nil {
			var as solver.Session
			if as, err = alt.Start(ctx, r); err == nil {
				ss.alts = append(ss.alts, as)
				continue
			}
		}
		ss.Close()
		return nil, fmt.Errorf("sample: alt_tables %s: %w", name, err)
	}
	return ss, nil
}

type sampleSession struct {
	s      *SampleStrategy
	base   solver.Session
	one    [1]solver.Request
	oneOut [1]solver.Decision
	orders [][]solver.Rank
	scores []float64 // the racing sampler's score of each place on each order
	// playouts counts the orders played out (the early stop's saving shows
	// in tests).
	playouts int
	alts     []solver.Session // the base with each of AltTables, for the playouts
	// States reused by every playout (fields, not locals: a local copy of
	// a state would escape to the heap at every playout): a place's playout
	// of an order (score, race), an alternative table's (rollout) and the
	// pilot's playout of a candidate (pilotPlayout).
	place, alt, trial solver.State
	// memo remembers the base's playouts inside the pilot's (nil: off);
	// path holds the keys of the playout under way.
	memo *playMemo
	path []memoSlot
	// pilotMemo remembers the pilot's playouts the same way, by position,
	// order and the best game's score (pilotKeyOf; nil: off); pilotPath
	// holds the keys of the pilot's playout under way.
	pilotMemo *playMemo
	pilotPath []memoSlot
	// checkOwn settles a decision by the base's playouts of its own move,
	// when they win every order (ownWinsAll); ownSettled counts those
	// decisions (tests).
	checkOwn   bool
	ownSettled int
}

// Decide implements solver.Session.
func (ss *sampleSession) Decide(ctx context.Context, reqs []solver.Request, out []solver.Decision) error {
	for i := range reqs {
		if err := ctx.Err(); err != nil {
			return err
		}
		d, err := ss.decide(ctx, reqs[i])
		if err != nil {
			return err
		}
		out[i] = d
	}
	return nil
}

func (ss *sampleSession) decide(ctx context.Context, rq solver.Request) (solver.Decision, error) {
	d, err := ss.ask(ctx, rq.Game, rq.Seed, rq.Position)
	if err != nil {
		return d, err
	}
	v := rq.Position
	// Resignations are the base's business, and so are moves of stack tops
	// unless Tops, and every move with more than From cards in the stock;
	// the search is for where the drawn card goes and, with Tops, which top
	// moves where.
	if d.Failed || (d.Move.Kind == solver.StackToTable && !ss.s.Tops) || d.Move.Kind == solver.Resign || v.Drawn() == 0 || v.StockLen() == 0 || (ss.s.From > 0 && v.StockLen() > ss.s.From) {
		return d, nil
	}
	st := v.State()
	var buf [solver.MaxLegalMoves]solver.Move
	cands := ss.candidates(&st, d.Move, buf[:0])
	if len(cands) < 2 {
		return d, nil
	}
	ss.deal(&st)
	// The base's own move first; another place replaces it only by scoring
	// more than margin won orders above it, and a later place replaces the
	// best so far only by scoring more (so ties go to the base's move, then
	// to the first place). A place stops being played out once it cannot
	// catch up with the best even if it won every order left.
	bestI, best := -1, math.Inf(-1)
	for i, m := range cands {
		if sameMove(m, d.Move, v.Drawn()) {
			bestI = i
		}
	}
	if bestI >= 0 && ss.checkOwn {
		won, err := ss.ownWinsAll(ctx, rq, &st, cands[bestI])
		if err != nil {
			return d, err
		}
		if won {
			ss.ownSettled++
			return solver.Decision{Move: cands[bestI]}, nil
		}
	}
	if ss.s.Race > 0 {
		i, err := ss.race(ctx, rq, &st, cands, bestI)
		if err != nil {
			return d, err
		}
		return solver.Decision{Move: cands[i]}, nil
	}
	if bestI >= 0 {
		total, err := ss.score(ctx, rq, &st, cands[bestI], math.Inf(-1))
		if err != nil {
			return d, err
		}
		best = total + ss.s.Margin*ss.winScore()
	}
	for ci, m := range cands {
		if ci == bestI {
			continue
		}
		total, err := ss.score(ctx, rq, &st, m, best)
		if err != nil {
			return d, err
		}
		if total > best {
			bestI, best = ci, total
		}
	}
	return solver.Decision{Move: cands[bestI]}, nil
}

// score plays m in st out on every order of the session and returns the
// total score. It stops early, with what it has, once the total can no
// longer exceed beat even if every order left were won.
func (ss *sampleSession) score(ctx context.Context, rq solver.Request, st *solver.State, m solver.Move, beat float64) (float64, error) {
	top := max(ss.winScore(), solver.DeckSize) // the most an order can score
	total := 0.0
	for oi, ord := range ss.orders {
		if total+top*float64(len(ss.orders)-oi) <= beat {
			break
		}
		c := &ss.place
		*c = *st
		if err := c.Apply(m); err != nil {
			return 0, fmt.Errorf("sample: candidate %s refused: %w", m.Format(st.Rules()), err)
		}
		sc, err := ss.rollout(ctx, rq, c, ord)
		if err != nil {
			return 0, err
		}
		ss.playouts++
		total += sc
	}
	return total, nil
}

// ownWinsAll reports whether the base, playing on from st after own (the
// base's move), wins every order of the session. Then the player plays own
// without playing the other places out: own's playout of an order scores at
// least the base's game on it (the base's game itself; the best of it and
// the alternative tables' games; or, where the pilot plays the order out, a
// pilot's, whose first decision tries the base's move among the candidates
// and which ends at a won game), so own scores the most a place can on
// every order, which no place exceeds, and a tie goes to the base's move,
// counted or raced alike: the same decision, at the cost of own's playouts
// up to its first lost order. Only for a base whose move depends only on
// the position (checkOwn), which makes the base's game from a position one
// game; where the pilot plays, only with Tops, which lists the base's moves
// of stack tops among the pilot's candidates.
func (ss *sampleSession) ownWinsAll(ctx context.Context, rq solver.Request, st *solver.State, own solver.Move) (bool, error) {
	// Where the pilot plays the orders out (a move draws no card: the
	// stock after own is st's), without Tops it may not try own's move.
	if ss.s.Pilot > 0 && st.StockLen() <= ss.s.Pilot && !ss.s.Tops {
		return false, nil
	}
	for _, ord := range ss.orders {
		c := &ss.place
		*c = *st
		if err := c.Apply(own); err != nil {
			return false, fmt.Errorf("sample: candidate %s refused: %w", own.Format(st.Rules()), err)
		}
		v, err := ss.playout(ctx, ss.base, rq, c, ord, ss.memo)
		if err != nil || !ss.isWin(v) {
			return false, err
		}
	}
	return true, nil
}

// race chooses among cands (own is the base's move's index, or -1) as a
// plain count would — the highest total over the orders, the base's move
// credited with the margin and preferred in a tie, then the first place —
// but plays the places out RaceBatch orders at a time, every place still in
// the race on the same orders, and after each batch drops a place that
//   - could not overtake the leader even by winning every order left
//     (exact: the plain count would not pick it either), or
//   - trails the leader by more than Race standard errors of the paired
//     differences of their scores (each order's standard deviation taken as
//     at least one card, so that a few equal scores drop nothing).
//
// The second rule is a statistical bet: it saves the orders a clearly
// worse place would take, and can drop a place that would have come back.
func (ss *sampleSession) race(ctx context.Context, rq solver.Request, st *solver.State, cands []solver.Move, own int) (int, error) {
	n, nc := len(ss.orders), len(cands)
	if cap(ss.scores) < n*nc {
		ss.scores = make([]float64, n*nc)
	}
	sc := ss.scores[:n*nc]
	var alive [solver.MaxLegalMoves]bool
	var total, bonus [solver.MaxLegalMoves]float64 // sums of scores; the margin, added last as in decide
	for c := range nc {
		alive[c] = true
	}
	if own >= 0 {
		bonus[own] = ss.s.Margin * ss.winScore()
	}
	nalive := nc
	// order visits the base's move first, so that it keeps the lead in a tie.
	var orderBuf [solver.MaxLegalMoves]int
	order := orderBuf[:0]
	if own >= 0 {
		order = append(order, own)
	}
	for c := range nc {
		if c != own {
			order = append(order, c)
		}
	}
	top := max(ss.winScore(), solver.DeckSize)
	lead := order[0]
	for m := 0; m < n && nalive > 1; {
		end := min(m+RaceBatch, n)
		for _, c := range order {
			if !alive[c] {
				continue
			}
			for o := m; o < end; o++ {
				x := &ss.place
				*x = *st
				if err := x.Apply(cands[c]); err != nil {
					return 0, fmt.Errorf("sample: candidate %s refused: %w", cands[c].Format(st.Rules()), err)
				}
				v, err := ss.rollout(ctx, rq, x, ss.orders[o])
				if err != nil {
					return 0, err
				}
				ss.playouts++
				sc[c*n+o] = v
				total[c] += v
			}
		}
		m = end
		lead = -1
		for _, c := range order {
			if alive[c] && (lead < 0 || total[c]+bonus[c] > total[lead]+bonus[lead]) {
				lead = c
			}
		}
		for _, c := range order {
			if !alive[c] || c == lead {
				continue
			}
			if total[c]+top*float64(n-m)+bonus[c] < total[lead]+bonus[lead] || ss.trails(sc, n, m, lead, c, bonus[lead]-bonus[c]) {
				alive[c] = false
				nalive--
			}
		}
	}
	return lead, nil
}

// trails reports whether place c trails place lead by more than Race
// standard errors after m of the n orders: the mean of their paired score
// differences, plus the margin between them (margin, a bonus on a total over
// all n orders) spread over the n orders, against the differences'
// standard error.
func (ss *sampleSession) trails(sc []float64, n, m, lead, c int, margin float64) bool {
	raw := 0.0 // the paired differences' mean
	for o := range m {
		raw += sc[lead*n+o] - sc[c*n+o]
	}
	raw /= float64(m)
	gap := raw + margin/float64(n)
	if gap <= 0 {
		return false
	}
	ss2 := 0.0
	for o := range m {
		d := sc[lead*n+o] - sc[c*n+o] - raw
		ss2 += d * d
	}
	sd := 1.0 // one card: a lost order scores its cards on the tables
	if m > 1 {
		sd = max(sd, math.Sqrt(ss2/float64(m-1)))
	}
	return gap > ss.s.Race*sd/math.Sqrt(float64(m))
}

// sampleCandidates appends the places the sampling player compares for the drawn
// card in st: placements, and the base's own move own, when legal, if placements lists
// it only as an equal stack or in its unassigned form (the base's later
// moves depend on the stack names and assignments it chose).
func sampleCandidates(st *solver.State, assign bool, own solver.Move, dst []solver.Move) []solver.Move {
	dst = placements(st, assign, dst)
	if own.Rank == 0 {
		own.Rank = st.Drawn()
	}
	if (own.Kind == solver.ToTable || own.Kind == solver.ToStack) && !slices.Contains(dst, own) {
		var all [solver.MaxLegalMoves]solver.Move
		if slices.Contains(st.AppendLegalMoves(all[:0]), own) {
			dst = append(dst, own)
		}
	}
	return dst
}

// candidates appends the moves the player compares in st, own being the
// base's move: the drawn card's places and, with Tops, every move of a
// stack top to a table.
func (ss *sampleSession) candidates(st *solver.State, own solver.Move, dst []solver.Move) []solver.Move {
	dst = sampleCandidates(st, ss.s.Assign, own, dst)
	if ss.s.Tops {
		dst = appendTopMoves(st, dst)
	}
	return dst
}

// appendTopMoves appends every legal move of a stack top to a table not
// yet in dst.
func appendTopMoves(st *solver.State, dst []solver.Move) []solver.Move {
	var all [solver.MaxLegalMoves]solver.Move
	for _, m := range st.AppendLegalMoves(all[:0]) {
		if m.Kind == solver.StackToTable && !slices.Contains(dst, m) {
			dst = append(dst, m)
		}
	}
	return dst
}

// sameMove reports whether a is the move b, b's rank possibly left 0 (the
// drawn card's, or for a move of a stack top that top's).
func sameMove(a, b solver.Move, drawn solver.Rank) bool {
	if b.Rank == 0 {
		b.Rank = drawn
		if b.Kind == solver.StackToTable {
			b.Rank = a.Rank
		}
	}
	return a == b
}

// ask asks the base session for its move in v.
func (ss *sampleSession) ask(ctx context.Context, g solver.GameID, seed uint64, v solver.View) (solver.Decision, error) {
	return ss.askOf(ctx, ss.base, g, seed, v)
}

// askOf asks session b for its move in v.
func (ss *sampleSession) askOf(ctx context.Context, b solver.Session, g solver.GameID, seed uint64, v solver.View) (solver.Decision, error) {
	ss.one[0] = solver.Request{Game: g, Seed: seed, Position: v}
	ss.oneOut[0] = solver.Decision{}
	if err := b.Decide(ctx, ss.one[:], ss.oneOut[:]); err != nil {
		return solver.Decision{}, err
	}
	return ss.oneOut[0], nil
}

// rollout plays st to the end, the stock in order ord, and returns its
// score: the base's game's, or with AltTables the best of the base's and
// each alternative table's games (st is left as the base's game ended).
func (ss *sampleSession) rollout(ctx context.Context, rq solver.Request, st *solver.State, ord []solver.Rank) (float64, error) {
	if ss.s.Pilot > 0 && st.StockLen() <= ss.s.Pilot {
		return ss.pilotPlayout(ctx, rq, st, ord)
	}
	if len(ss.alts) == 0 {
		return ss.playout(ctx, ss.base, rq, st, ord, nil)
	}
	start := *st
	best, err := ss.playout(ctx, ss.base, rq, st, ord, nil)
	for _, alt := range ss.alts {
		if err != nil || ss.isWin(best) {
			break
		}
		c := &ss.alt
		*c = start
		var v float64
		v, err = ss.playout(ctx, alt, rq, c, ord, nil)
		best = max(best, v)
	}
	return best, err
}

// pilotPlayout plays st to the end, the stock in order ord, by a pilot of
// the base (the pilot method, with the order of this sample known: see
// docs/clairvoyant.md, "The pilot"), and returns its score: at each
// decision where a card is drawn, every candidate move (as the player's
// own: candidates) is played out by the base on ord, and the game goes on
// with the best game found so far — a candidate whose game scores strictly
// more than that game replaces it, otherwise the base's own move, which is
// how that game goes on (for a base whose move depends only on the
// position). A won playout is the score at once. Where no card is drawn
// (the stock empty), the base plays.
//
// With the memos (for a base whose move depends only on the position), a
// playout of the base that reaches a position played out before on the
// same order stops there with that game's score (playMemo), and so does
// the pilot's own playout, by position, order and the best game's score
// (pilotKeyOf): the pilots of a decision's candidates on one order, and of
// one candidate from step to step, rejoin one another's games.
//
// After the first decision the base's own move is not played out again:
// its game is the best game found so far, whose score is known (the same
// choices as playing it out, for such a base: it could not score strictly
// more than itself).
func (ss *sampleSession) pilotPlayout(ctx context.Context, rq solver.Request, st *solver.State, ord []solver.Rank) (float64, error) {
	best := math.Inf(-1)
	path := ss.pilotPath[:0]
	score, known := 0.0, false
	var buf [solver.MaxLegalMoves]solver.Move
	for !known {
		if over, err := drawNext(st, ord); over || err != nil {
			if err != nil {
				return 0, err
			}
			break
		}
		if ss.pilotMemo != nil {
			e := entry(pilotKeyOf(st, ord, best))
			if score, known = ss.pilotMemo.get(&e); known {
				ss.pilotMemo.hits++
				break
			}
			path = append(path, e)
		}
		d, err := ss.askOf(ctx, ss.base, rq.Game, rq.Seed, st.View())
		if err != nil {
			return 0, err
		}
		var cands []solver.Move
		own := st.Complete(d.Move)
		if st.Drawn() != 0 {
			cands = ss.candidates(st, own, buf[:0])
		}
		played := !math.IsInf(best, -1) // the own move's game is the best game
		var pick solver.Move
		improved := false
		for _, m := range cands {
			if played && m == own {
				continue
			}
			c := &ss.trial
			*c = *st
			if c.Apply(m) != nil {
				continue
			}
			v, err := ss.playout(ctx, ss.base, rq, c, ord, ss.memo)
			if err != nil {
				return 0, err
			}
			if ss.isWin(v) {
				score, known = v, true
				break
			}
			if v > best {
				best, pick, improved = v, m, true
			}
		}
		if known {
			break
		}
		m := pick
		if !improved {
			if d.Failed || d.Move.Kind == solver.Resign {
				break
			}
			m = d.Move
		}
		if st.Apply(m) != nil {
			break
		}
	}
	ss.pilotPath = path
	return ss.settle(st, score, known, ss.pilotMemo, path), nil
}

// pilotKeyOf returns the key of the pilot's playout at st, the stock to be
// drawn in order ord, with best the score of the best game it has found so
// far: the position's key (keyOf) with best in its last byte, which no
// position uses (a lost game's score is its cards on the tables, 0 to 52;
// -Inf, no game yet, is 255). The rest of a pilot's playout is a function
// of the three, for a base whose move depends only on the position.
func pilotKeyOf(st *solver.State, ord []solver.Rank, best float64) playKey {
	k := keyOf(st, ord)
	k[len(k)-1] = 255
	if !math.IsInf(best, -1) {
		k[len(k)-1] = byte(best)
	}
	return k
}

// drawNext draws the next card of the order ord (the whole stock's order
// from the position where the order was dealt) when none is drawn, and
// reports whether the game is over.
func drawNext(st *solver.State, ord []solver.Rank) (over bool, err error) {
	if st.Drawn() == 0 && st.StockLen() > 0 {
		if err := st.Reveal(ord[len(ord)-st.StockLen()]); err != nil {
			return false, fmt.Errorf("sample: %w", err)
		}
	}
	return st.Over(), nil
}

// playout plays st to the end with session b, the stock in order ord, and
// returns its score. With a memo (for the base: see playMemo), a playout
// that reaches a position the memo holds for the same stock stops there, st
// left where it stopped, with that game's score; the positions it played
// through are remembered with its score.
func (ss *sampleSession) playout(ctx context.Context, b solver.Session, rq solver.Request, st *solver.State, ord []solver.Rank, memo *playMemo) (float64, error) {
	path := ss.path[:0]
	score, known := 0.0, false
	for {
		if over, err := drawNext(st, ord); over || err != nil {
			if err != nil {
				return 0, err
			}
			break
		}
		if memo != nil {
			e := entry(keyOf(st, ord))
			if score, known = memo.get(&e); known {
				memo.hits++
				break
			}
			path = append(path, e)
		}
		d, err := ss.askOf(ctx, b, rq.Game, rq.Seed, st.View())
		if err != nil {
			return 0, err
		}
		if d.Failed || d.Move.Kind == solver.Resign || st.Apply(d.Move) != nil {
			break
		}
	}
	ss.path = path
	return ss.settle(st, score, known, memo, path), nil
}

// settle returns a playout's score, score when known and otherwise that of
// st's game as it ended, after keeping it in memo under every key of path
// (the positions the playout passed through).
func (ss *sampleSession) settle(st *solver.State, score float64, known bool, memo *playMemo, path []memoSlot) float64 {
	if !known {
		score = float64(st.TotalPlaced())
		if st.Won() {
			score = ss.winScore()
		}
	}
	for i := range path {
		path[i].score = score
		memo.put(&path[i])
	}
	return score
}

// winScore is the score of a won order. Scores are counted in 52nds (a
// lost order scores its cards on the tables, a won one Win·52), so that
// they are whole numbers for a whole Win and their sums exact: the early
// stop in score compares them without rounding.
func (ss *sampleSession) winScore() float64 { return ss.s.Win * solver.DeckSize }

// isWin reports whether an order's score v tells that its game was won: v
// reaches Win·52 and no lost game can score that much (a lost game places
// at most 51 cards). With Win below 51/52 a score tells nothing of the kind,
// so no playout is cut short or taken for a win by its score.
func (ss *sampleSession) isWin(v float64) bool {
	return ss.winScore() > solver.DeckSize-1 && v >= ss.winScore()
}

// deal draws the session's orders of the cards unseen in st.
func (ss *sampleSession) deal(st *solver.State) { ss.orders = dealOrders(st, ss.s.N, ss.orders) }

// dealOrders returns n orders of the cards unseen in st (reusing dst's
// memory), from a generator seeded by a hash of the position, so that a
// player who samples is deterministic and never looks at the stock.
func dealOrders(st *solver.State, n int, dst [][]solver.Rank) [][]solver.Rank {
	b, _ := st.MarshalBinary()
	h := fnv.New64a()
	h.Write(b)
	rng := rand.New(rand.NewPCG(h.Sum64(), 0x5ca1ab1e))
	stock := st.StockLen()
	if cap(dst) < n {
		dst = make([][]solver.Rank, n)
	}
	dst = dst[:n]
	for i := range dst {
		o := dst[i][:0]
		for r := solver.Rank(1); r <= solver.NumRanks; r++ {
			for range st.Remaining(r) {
				o = append(o, r)
			}
		}
		rng.Shuffle(stock, func(a, b int) { o[a], o[b] = o[b], o[a] })
		dst[i] = o
	}
	return dst
}

// placements appends the places the drawn card can go: each table that
// needs it, each stack (unassigned; equal stacks once) and, where the base
// strategy assigns, each stack with each assignment.
func placements(st *solver.State, assign bool, dst []solver.Move) []solver.Move {
	var all [solver.MaxLegalMoves]solver.Move
	for _, m := range st.AppendLegalMoves(all[:0]) {
		switch m.Kind {
		case solver.ToTable:
			dst = append(dst, m)
		case solver.ToStack:
			if (assign || m.Table == 0) && !sameAsEarlier(st, int(m.Stack)) {
				dst = append(dst, m)
			}
		}
	}
	return dst
}

func (ss *sampleSession) End(ctx context.Context, games []solver.GameID) error {
	err := ss.base.End(ctx, games)
	for _, a := range ss.alts {
		err = errors.Join(err, a.End(ctx, games))
	}
	return err
}

func (ss *sampleSession) Close() error {
	err := ss.base.Close()
	for _, a := range ss.alts {
		err = errors.Join(err, a.Close())
	}
	return err
}
