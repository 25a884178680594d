package search

import (
	"context"
	"fmt"
	"slices"

	"github.com/calcsol/calcsol/solver"
	"github.com/calcsol/calcsol/strategies"
	"github.com/calcsol/calcsol/subgame"
)

// The subgame player: each place of the drawn card judged by the exact
// values of the stack game (package subgame) of the positions it leads to,
// one draw ahead (docs/subgame.md).
//
// A position of Calculation becomes a position of the stack game through a
// schedule: the time at which each card off the tables could leave at the
// earliest. The stacked cards take the slots of an acyclic assignment, the
// one the deadlock-graph player's search finds (with none, every assignment
// has a cycle: the game is lost, value 0), and the stock's cards the open
// slots left, nearest first. A card's time is at least its
// slot's distance from its table's next card (a step a card), at least a
// step after the card of the slot before on its table, and at least a
// fraction of a step after the card lying on it. The cards in order of time
// are the stack game's labels: each stack's cards come out in label order,
// the top first, by construction; the stacks are the stack game's, the
// stock is its stock. The stack game's value — the probability that best
// play brings the next M cards out without ever burying a card under one
// needed after it — is then read from the table, with M = cards.
//
// What is dropped is what makes the subgame small: four tables become one
// counter (a card waits for every card scheduled before it, not only those
// of its own table, so the value is pessimistic), cards beyond the first M
// are left out (optimistic), and the schedule fixes each copy's table.

// SubgameKind is the subgame player as a wrapper kind
// ("priority:table=tuned-3+subgame+rescue+endgame:k=4"): for each place the
// drawn card can go it reads the stack game's values of the positions the
// place leads to, one draw ahead, and plays the best place instead of the
// base's move when it is worth more than margin above it. It acts only
// with at most off cards off the tables (by default the table's size,
// where the stack game covers every card left); moves of stack tops, and
// the base's own move where no place is worth more, are the base's; where
// the base resigns within off, the best place is played.
func SubgameKind() strategies.Kind {
	return strategies.DefineWrapper("subgame",
		"wrapper: the drawn card's place judged by exact values of the stack game, a simplified Calculation solved into a table, one draw ahead",
		SubgameStrategy{SubgameParams: DefaultSubgameParams},
		func(base solver.Strategy, s SubgameStrategy) (solver.Strategy, error) {
			s.Base = base
			return &s, nil
		})
}

// SubgameParams are the subgame player's parameters.
type SubgameParams struct {
	// Cards is the number of cards the stack game covers, 0 for the
	// default table of the number of stacks (subgame.DefaultCards).
	Cards int `param:"cards" min:"0" max:"13" doc:"cards a window of the stack game covers (0: the default table, 12 with 3 stacks, 10 with 4)"`
	// Lookahead is how many draws the player looks ahead: 0 judges a
	// place by the value of the position it leads to, 1 by the mean over
	// the next card (weighted by how many of each rank are unseen) of the
	// value of its best place.
	Lookahead int `param:"lookahead" min:"0" max:"2" doc:"draws looked ahead: 0 the position after the move, 1 the mean over the next card of its best place"`
	// Model says how a position becomes stack games: "tables", one game
	// per table, its cards in slot order, the product of their values;
	// "schedule", one game of all cards in the order of their earliest
	// times; "windows", the schedule cut into windows of the table's
	// size, the product of their values.
	Model string `param:"model" choices:"tables,schedule,windows" doc:"how a position becomes stack games: tables (one a table, product), schedule (one of all cards by earliest time), windows (the schedule in windows, product)"`
	// Margin is how much more (in win probability of the stack game) a
	// place must be worth than the base's move to replace it.
	Margin float64 `param:"margin" min:"0" max:"1" doc:"how much more win probability of the stack game a place must have than the base's move to replace it"`
	// Off is how many cards off the tables (in the stock, drawn or
	// stacked) at most the wrapper acts on; 0 means the table's size,
	// where the stack game covers every card left.
	Off int `param:"off" min:"0" max:"52" doc:"the wrapper judges places only with at most this many cards off the tables (0: the table's size, where one window covers every card left)"`
	// Safe keeps a stacking after which no assignment is acyclic out of
	// the candidates while another is left.
	Safe bool `param:"safe" doc:"never stack so that every assignment of the stacked cards has a cycle while another place keeps one acyclic"`
}

// DefaultSubgameParams are the defaults: the default table, one draw
// ahead, the first window, a margin of 0.05, safe.
var DefaultSubgameParams = SubgameParams{Model: "schedule", Lookahead: 1, Margin: 0.05, Safe: true}

// SubgameStrategy is the subgame wrapper (see SubgameKind).
type SubgameStrategy struct {
	Base solver.Strategy
	SubgameParams
}

// Unwrap implements strategies.Wrapper.
func (s *SubgameStrategy) Unwrap() solver.Strategy { return s.Base }

// WithTable returns the wrapper over the base with the priority table
// nameOrPath instead (see TableChanger).
func (s *SubgameStrategy) WithTable(nameOrPath string) (solver.Strategy, error) {
	b, err := withTable(s.Base, nameOrPath)
	if err != nil {
		return nil, err
	}
	return &SubgameStrategy{Base: b, SubgameParams: s.SubgameParams}, nil
}

// Info implements solver.Strategy: the base's name and parameters, then
// the wrapper's.
func (s *SubgameStrategy) Info() solver.Info {
	bi := s.Base.Info()
	bi.Name += "+subgame"
	bi.Params = append(append([]solver.Param(nil), bi.Params...), strategies.Declare(s)...)
	return bi
}

// Start implements solver.Strategy: it loads the table for r's number of
// stacks (built and cached on first use, see subgame.Shared).
func (s *SubgameStrategy) Start(ctx context.Context, r solver.Rules) (solver.Session, error) {
	k := subgame.Key{Stacks: r.Stacks, Cards: s.Cards}
	if k.Cards == 0 {
		k.Cards = subgame.DefaultCards(r.Stacks)
	}
	if err := k.Validate(); err != nil {
		return nil, fmt.Errorf("%w: %v", solver.ErrNotApplicable, err)
	}
	t, err := subgame.Shared(k)
	if err != nil {
		return nil, err
	}
	base, err := s.Base.Start(ctx, r)
	if err != nil {
		return nil, err
	}
	return &subgameSession{base: base, g: NewSubgame(t, s.SubgameParams)}, nil
}

type subgameSession struct {
	base solver.Session
	g    *Subgame
}

// Decide implements solver.Session: the base decides in one batch, then
// each move of the drawn card is judged against the other places.
func (s *subgameSession) Decide(ctx context.Context, reqs []solver.Request, out []solver.Decision) error {
	if err := s.base.Decide(ctx, reqs, out); err != nil {
		return err
	}
	for i := range reqs {
		d := &out[i]
		if d.Failed {
			continue
		}
		resigned := d.Move.Kind == solver.Resign
		if !resigned && d.Move.Kind == solver.StackToTable {
			continue
		}
		st := reqs[i].Position.State()
		if st.Drawn() == 0 {
			continue
		}
		off := solver.DeckSize - st.TotalPlaced()
		if lim := s.g.P.Off; (lim == 0 && off > s.g.T.Cards) || (lim > 0 && off > lim) {
			continue // the base's move, or its resignation, stands
		}
		var baseMove *solver.Move
		if !resigned {
			m := st.Complete(d.Move)
			baseMove = &m
		}
		if m, ok := s.g.choose(&st, baseMove); ok {
			*d = solver.Decision{Move: m}
		}
	}
	return nil
}

func (s *subgameSession) End(ctx context.Context, games []solver.GameID) error {
	return s.base.End(ctx, games)
}

func (s *subgameSession) Close() error { return s.base.Close() }

// Subgame judges the places of a drawn card by the stack game. It is not
// safe for concurrent use.
type Subgame struct {
	T *subgame.Table
	P SubgameParams
	s schedule
	a acyclicSearch
}

// NewSubgame returns the judge over table t (made for the rules' number of
// stacks) with parameters p.
func NewSubgame(t *subgame.Table, p SubgameParams) *Subgame {
	g := &Subgame{T: t, P: p}
	g.s.model = p.Model
	return g
}

// choose returns the place for st's drawn card: base (the base's move,
// nil when it resigned) unless another place is worth more than the
// margin above it (the first of the best, in legal-move order); ok is
// false when there is no place.
func (g *Subgame) choose(st *solver.State, base *solver.Move) (solver.Move, bool) {
	var buf [solver.MaxLegalMoves]solver.Move
	cands := candidates(st, buf[:0])
	var places [solver.MaxLegalMoves]solver.Move
	np := 0
	for _, m := range cands {
		if m.Kind != solver.StackToTable {
			places[np] = m
			np++
		}
	}
	if np == 0 {
		if base != nil {
			return *base, true
		}
		return solver.Move{}, false
	}
	safe := g.P.Safe && g.a.acyclic(st)
	best, bestV, found := solver.Move{}, uint64(0), false
	for _, m := range places[:np] {
		next := applied(st, m)
		if safe && m.Kind == solver.ToStack && !g.a.again(&next) {
			continue
		}
		if v := g.value(&next, g.P.Lookahead); !found || v > bestV {
			best, bestV, found = m, v, true
		}
	}
	if !found {
		best = places[0]
	}
	if base == nil {
		return best, true
	}
	next := *st
	if err := next.Apply(*base); err != nil {
		return *base, true // the engine will say what is wrong with it
	}
	baseV := g.value(&next, g.P.Lookahead)
	// Values are sums over the unseen cards of Scale-scaled probabilities.
	unit := float64(subgame.Scale)
	for i := range min(g.P.Lookahead, st.StockLen()) {
		unit *= float64(st.StockLen() - i)
	}
	if found && bestV > baseV && float64(bestV-baseV) > g.P.Margin*unit {
		return best, true
	}
	return *base, true
}

// value is the worth of st (no card drawn) looking depth draws ahead: the
// stack game's value after the tops that tables need are played, or the
// sum over the next rank, times its unseen count, of the worth of its best
// place.
func (g *Subgame) value(st *solver.State, depth int) uint64 {
	autoplay(st)
	if depth == 0 || st.StockLen() == 0 {
		return uint64(g.s.value(g.T, st))
	}
	var sum uint64
	for r := solver.Rank(1); r <= solver.NumRanks; r++ {
		n := st.Remaining(r)
		if n == 0 {
			continue
		}
		c := *st
		if err := c.Reveal(r); err != nil {
			panic("search: " + err.Error())
		}
		var best uint64
		for x := 1; x <= solver.Tables; x++ {
			if c.Need(x) == r {
				next := c
				if err := next.Apply(solver.Move{Kind: solver.ToTable, Table: int8(x)}); err != nil {
					panic("search: " + err.Error())
				}
				best = max(best, g.value(&next, depth-1))
			}
		}
		for s := range c.Stacks() {
			if sameAsEarlier(&c, s) {
				continue
			}
			next := c
			if err := next.Apply(solver.Move{Kind: solver.ToStack, Stack: int8(s)}); err != nil {
				panic("search: " + err.Error())
			}
			best = max(best, g.value(&next, depth-1))
		}
		sum += uint64(n) * best
	}
	return sum
}

// autoplay moves stack tops to the tables that need them (the first such
// stack, then its first such table) until none can move.
func autoplay(st *solver.State) {
	for moved := true; moved; {
		moved = false
		for s := range st.Stacks() {
			t := st.Top(s)
			if t == 0 {
				continue
			}
			for x := 1; x <= solver.Tables; x++ {
				if st.Need(x) == t.Rank() {
					if err := st.Apply(solver.Move{Kind: solver.StackToTable, Stack: int8(s), Table: int8(x)}); err != nil {
						panic("search: " + err.Error())
					}
					moved = true
					break
				}
			}
		}
	}
}

// Times of the schedule, in quarters of a table step: a card waits a step
// after the card of the slot before on its table, and a quarter of a step
// after the card lying on it.
const (
	stepTime  = 4
	coverTime = 1
)

// card is one card off the tables in a schedule.
type card struct {
	stack int8  // -1: in the stock (or drawn)
	time  int16 // earliest time it could leave
}

// schedule maps a position of Calculation onto the stack game (see the
// comment at the top of this file); its buffers are reused.
type schedule struct {
	cards [solver.DeckSize]card
	n     int
	// slot[x][k]: the card given slot k of table x+1, or -1.
	slot [solver.Tables][solver.NumRanks]int8
	// below[i]: the card lying right under card i, or -1; index[i]: its
	// height in its stack (0 at the bottom).
	below [solver.DeckSize]int8
	index [solver.DeckSize]int8
	order [solver.DeckSize]int8
	a     acyclicSearch
	// model: SubgameParams.Model.
	model string
}

// value returns the stack game's value of st, whose tops no table needs,
// times subgame.Scale: 0 when the schedule has a cycle (a deadlock under
// its assignment).
func (sc *schedule) value(t *subgame.Table, st *solver.State) uint16 {
	if !sc.fill(st) {
		return 0
	}
	if sc.model == "tables" {
		return sc.tables(t, st)
	}
	n := sc.n
	ord := sc.order[:n]
	for i := range ord {
		ord[i] = int8(i)
	}
	slices.SortFunc(ord, func(a, b int8) int {
		ca, cb := &sc.cards[a], &sc.cards[b]
		if ca.time != cb.time {
			return int(ca.time) - int(cb.time)
		}
		// Stacked cards first at equal times, then by index: a fixed order.
		sa, sb := ca.stack < 0, cb.stack < 0
		if sa != sb {
			if sa {
				return 1
			}
			return -1
		}
		return int(a) - int(b)
	})
	// Stacked cards first in the schedule leave at once (each is then its
	// stack's top): the stack game starts at the first card of the stock.
	j := 0
	for j < n && sc.cards[ord[j]].stack >= 0 {
		j++
	}
	if j == n {
		return subgame.Scale
	}
	// The schedule cut into windows of the table's size, each a stack game
	// of its own with the windows before it gone: the product of their
	// values (an independence the real game does not have).
	v := uint64(subgame.Scale)
	for j < n {
		var p subgame.Position
		p.Cards = min(t.Cards, n-j)
		for l := 1; l < p.Cards; l++ {
			p.Where[l] = uint8(sc.cards[ord[j+l]].stack + 1)
		}
		v = v * uint64(t.Value(&p)) / subgame.Scale
		j += p.Cards
		for j < n && sc.cards[ord[j]].stack >= 0 {
			j++
		}
		if sc.model != "windows" {
			break
		}
	}
	return uint16(v)
}

// fill builds the schedule of st; false when it has a cycle.
func (sc *schedule) fill(st *solver.State) bool {
	sc.n = 0
	for x := range solver.Tables {
		for k := range solver.NumRanks {
			sc.slot[x][k] = -1
		}
	}
	// The stacked cards take the slots of an acyclic assignment, the one
	// the deadlock-graph player's search finds (none: every assignment has
	// a cycle, the game is lost); the stock's cards the open slots left,
	// nearest first.
	sc.a.record = true
	if !sc.a.acyclic(st) {
		return false
	}
	var first [solver.MaxStacks]int8 // index of each stack's bottom card
	var used [solver.Tables]uint16   // slots taken by stacked cards
	for s := range st.Stacks() {
		first[s] = int8(sc.n)
		prev := int8(-1)
		for i := range st.Height(s) {
			c := int8(sc.n)
			sc.cards[c] = card{stack: int8(s)}
			sc.below[c], sc.index[c] = prev, int8(i)
			sc.n++
			prev = c
		}
	}
	var h [solver.MaxStacks]int
	for s := range st.Stacks() {
		h[s] = st.Height(s)
	}
	for _, step := range sc.a.path {
		s, x := int(step.s), int(step.x)
		h[s]--
		c := first[s] + int8(h[s])
		k := solver.TablePos(x, st.StackCard(s, h[s]).Rank())
		sc.cards[c].time = int16((k - st.Placed(x)) * stepTime)
		sc.slot[x-1][k] = c
		used[x-1] |= 1 << k
	}
	for r := solver.Rank(1); r <= solver.NumRanks; r++ {
		n := st.Remaining(r)
		if st.Drawn() == r {
			n++
		}
		for ; n > 0; n-- {
			bx, bd := 0, solver.NumRanks
			for x := 1; x <= solver.Tables; x++ {
				k := solver.TablePos(x, r)
				if d := k - st.Placed(x); d >= 0 && used[x-1]&(1<<k) == 0 && d < bd {
					bx, bd = x, d
				}
			}
			if bx == 0 {
				break // cannot happen: a rank has as many open slots as cards off the tables
			}
			c := int8(sc.n)
			sc.cards[c] = card{stack: -1, time: int16(bd * stepTime)}
			sc.below[c] = -1
			sc.n++
			sc.slot[bx-1][solver.TablePos(bx, r)] = c
			used[bx-1] |= 1 << solver.TablePos(bx, r)
		}
	}
	// Relax the waits until nothing changes; times that keep growing mean
	// a cycle.
	const limit = (solver.DeckSize + solver.NumRanks) * stepTime
	for changed := true; changed; {
		changed = false
		for x := range solver.Tables {
			prev := int8(-1)
			for k := st.Placed(x + 1); k < solver.NumRanks; k++ {
				c := sc.slot[x][k]
				if c < 0 {
					continue
				}
				if prev >= 0 {
					if t := sc.cards[prev].time + stepTime; t > sc.cards[c].time {
						sc.cards[c].time, changed = t, true
					}
				}
				prev = c
			}
		}
		for i := range sc.n {
			// Every stacked card's wait on the card lying on it; a cycle
			// runs through a stack, so its times grow here.
			b := sc.below[i]
			if b < 0 {
				continue
			}
			if t := sc.cards[i].time + coverTime; t > sc.cards[b].time {
				sc.cards[b].time, changed = t, true
				if t > limit {
					return false
				}
			}
		}
	}
	return true
}

// tables returns the product over the tables of the stack game of each
// table's own cards, in slot order, on the stacks they lie on (the cards
// of other tables left out): 0 when a stack holds two cards of one table
// with the later one under the earlier one... that is, the earlier under
// the later, which can never come out.
func (sc *schedule) tables(t *subgame.Table, st *solver.State) uint16 {
	v := uint64(subgame.Scale)
	for x := range solver.Tables {
		var lastIdx [solver.MaxStacks]int
		for s := range lastIdx {
			lastIdx[s] = solver.DeckSize
		}
		var where [solver.NumRanks]uint8
		d := 0
		for k := st.Placed(x + 1); k < solver.NumRanks; k++ {
			c := sc.slot[x][k]
			w := uint8(0)
			if c >= 0 && sc.cards[c].stack >= 0 {
				s := sc.cards[c].stack
				i := int(sc.index[c])
				if i > lastIdx[s] {
					return 0 // a card of this table lies on one it needs first
				}
				lastIdx[s] = i
				w = uint8(s + 1)
			}
			where[d] = w
			d++
		}
		j := 0
		for j < d && where[j] != 0 {
			j++ // each is the top of its stack's cards of this table: out
		}
		if j == d {
			continue
		}
		var p subgame.Position
		p.Cards = min(t.Cards, d-j)
		for l := 1; l < p.Cards; l++ {
			p.Where[l] = where[j+l]
		}
		v = v * uint64(t.Value(&p)) / subgame.Scale
	}
	return uint16(v)
}
