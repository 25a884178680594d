// Command lookup is a cheating plugin for the blind-play tests: it looks its
// games up in the shipped corpora, which every program that links calcsol
// can read, and plays the decks it finds with the stock's order known. Its
// first argument says how it looks a game up:
//
//	id     the game id as the deck's index in uniform-1000
//	cards  the first ten cards drawn, against every deck of both corpora
//	both   either
//
// A game it cannot find it plays honestly, as the priority strategy with
// the default table of the rules does, so that where it finds nothing it
// is that strategy. With a second argument, a directory, it appends a line
// to the file "found" there for each game it found.
//
// With a deck known it plays by the pilot method (Cazenave's "nested Monte
// Carlo" level 1): each legal move is tried and the game played on to its
// end by the priority strategy on the true stock; the first move whose
// playout wins is played, else the one that places the most cards, the
// honest move first among equals.
package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"github.com/calcsol/calcsol/configs"
	"github.com/calcsol/calcsol/decks/corpus"
	"github.com/calcsol/calcsol/plugin/sdk"
	"github.com/calcsol/calcsol/solver"
	"github.com/calcsol/calcsol/strategies"
)

const prefixLen = 10

func main() {
	mode, dir := os.Args[1], ""
	if len(os.Args) > 2 {
		dir = os.Args[2]
	}
	u1000, err := corpus.LoadCalculationDecks("uniform-1000")
	if err != nil {
		panic(err)
	}
	var all []solver.Deck
	if mode != "id" {
		u30000, err := corpus.LoadCalculationDecks("uniform-30000")
		if err != nil {
			panic(err)
		}
		all = append(append(all, u1000...), u30000...)
	}
	sdk.Serve(&cheat{mode: mode, dir: dir, byID: u1000, all: all})
}

type cheat struct {
	mode, dir string
	byID, all []solver.Deck
	once      sync.Once
	index     map[solver.Rules]map[string][]int // first drawn ranks → decks of all
	mu        sync.Mutex
}

func (c *cheat) Info() solver.Info { return solver.Info{Name: "lookup-" + c.mode} }

func (c *cheat) Start(_ context.Context, r solver.Rules) (solver.Session, error) {
	tab, err := configs.LoadPriority(configs.DefaultPriorityFor(r.Stacks))
	if err != nil {
		return nil, err
	}
	honest, err := strategies.NewPriority(tab, r)
	if err != nil {
		return nil, err
	}
	return &session{c: c, rules: r, honest: honest, games: map[solver.GameID]*game{}}, nil
}

// prefixes indexes the decks of all by the first ranks their stock gives
// under r.
func (c *cheat) prefixes(r solver.Rules) map[string][]int {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.index == nil {
		c.index = map[solver.Rules]map[string][]int{}
	}
	if m, ok := c.index[r]; ok {
		return m
	}
	m := map[string][]int{}
	for i := range c.all {
		key := string(ranks(stockOf(&c.all[i], r)[:prefixLen]))
		m[key] = append(m[key], i)
	}
	c.index[r] = m
	return m
}

type game struct {
	drawn       []solver.Rank // ranks drawn so far, in order
	moves       []solver.Move // what was answered, ranks filled in
	known       *solver.Game  // the game with its true stock, once found
	tried       bool          // the id lookup was tried
	prefixTried bool          // the lookup by the first cards was tried
	stock       int           // StockLen at the last decision
	legal       []solver.Move // scratch
}

type session struct {
	c      *cheat
	rules  solver.Rules
	honest *strategies.Priority
	games  map[solver.GameID]*game
}

func (s *session) Decide(_ context.Context, reqs []solver.Request, out []solver.Decision) error {
	for i, rq := range reqs {
		g := s.games[rq.Game]
		if g == nil {
			g = &game{stock: -1}
			s.games[rq.Game] = g
		}
		v := rq.Position
		if v.Drawn() != 0 && v.StockLen() != g.stock {
			g.drawn = append(g.drawn, v.Drawn())
		}
		g.stock = v.StockLen()
		if g.known == nil {
			s.lookup(rq.Game, g, v)
		}
		var m solver.Move
		var err error
		if g.known != nil {
			m, err = s.pilot(g, v)
		} else {
			m, err = s.honest.Choose(v)
		}
		if err != nil {
			out[i] = solver.Decision{Move: solver.Move{Kind: solver.Resign}, Reason: err.Error()}
			continue
		}
		p := v.Position()
		m = p.Complete(m)
		g.moves = append(g.moves, m)
		if g.known != nil {
			if err := g.known.Apply(m); err != nil {
				g.known = nil // the lookup was wrong after all
			}
		}
		out[i] = solver.Decision{Move: m}
	}
	return nil
}

// lookup tries to find the deck of game id, whose position is v.
func (s *session) lookup(id solver.GameID, g *game, v solver.View) {
	var candidates []*solver.Deck
	if (s.c.mode == "id" || s.c.mode == "both") && !g.tried {
		g.tried = true
		if id < solver.GameID(len(s.c.byID)) {
			candidates = append(candidates, &s.c.byID[id])
		}
	}
	if s.c.mode != "id" && len(g.drawn) == prefixLen && !g.prefixTried {
		g.prefixTried = true
		for _, i := range s.c.prefixes(s.rules)[string(ranks(g.drawn))] {
			candidates = append(candidates, &s.c.all[i])
		}
	}
	for _, d := range candidates {
		known, err := solver.Replay(d, s.rules, g.moves)
		if err != nil || known.Drawn() != v.Drawn() || known.StockLen() != v.StockLen() {
			continue
		}
		g.known = known
		s.found()
		return
	}
}

// stockOf is the order in which d's cards are drawn under r: the deck's,
// without the first A, 2, 3 and 4 when they are pre-placed.
func stockOf(d *solver.Deck, r solver.Rules) []solver.Rank {
	var took [5]bool
	var out []solver.Rank
	for _, c := range d {
		if r.Preplaced && c <= solver.Tables && !took[c] {
			took[c] = true
			continue
		}
		out = append(out, c)
	}
	return out
}

func ranks(rs []solver.Rank) []byte {
	b := make([]byte, len(rs))
	for i, r := range rs {
		b[i] = byte(r)
	}
	return b
}

func (s *session) found() {
	if s.c.dir == "" {
		return
	}
	f, err := os.OpenFile(filepath.Join(s.c.dir, "found"), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return
	}
	fmt.Fprintln(f, "found")
	f.Close()
}

// pilot chooses a move with the true stock known (see the package comment).
func (s *session) pilot(g *game, v solver.View) (solver.Move, error) {
	first, err := s.honest.Choose(v)
	if err != nil {
		return first, err
	}
	p := v.Position()
	first = p.Complete(first)
	g.legal = append(g.legal[:0], first)
	g.legal = v.AppendLegalMoves(g.legal)
	best, bestPlaced := first, -1
	for _, m := range g.legal {
		m = p.Complete(m)
		try := *g.known
		if err := try.Apply(m); err != nil {
			continue
		}
		won, placed := s.playout(&try)
		if won {
			return m, nil
		}
		if placed > bestPlaced {
			best, bestPlaced = m, placed
		}
	}
	return best, nil
}

// playout plays g to its end with the honest strategy.
func (s *session) playout(g *solver.Game) (won bool, placed int) {
	for !g.Over() {
		m, err := s.honest.Choose(g.View())
		if err != nil || g.Apply(m) != nil {
			break
		}
	}
	return g.Won(), g.TotalPlaced()
}

func (s *session) End(_ context.Context, games []solver.GameID) error {
	for _, id := range games {
		delete(s.games, id)
	}
	return nil
}

func (s *session) Close() error { return nil }
