package search

import (
	"context"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/calcsol/calcsol/configs"
	"github.com/calcsol/calcsol/solver"
)

// TestSampleChoice: at positions of real games, the sampling player plays
// the place a plain count picks — every place played out on every order,
// the highest total, ties to the base's own move, then to the first place —
// so stopping a place once it cannot catch up changes no decision; and with
// a margin larger than the orders dealt it always plays the base's move.
// Racing the places (race) with a bar no deficit reaches drops only places
// that cannot catch up, so it plays the place the player without racing
// plays, with a margin too (64 orders: four batches); with race=2 it plays
// fewer orders. By default the game stops after 6 decisions, once one has
// left the base's move; CALCSOL_LONG=1 plays six games to their end.
func TestSampleChoice(t *testing.T) {
	t.Parallel()
	base, err := configs.Strategies().BuildSpec("priority:deadlock_check=exact,table=tuned-4")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	rules := solver.Rules{Stacks: 4}
	const n = 8
	plain := &SampleStrategy{Base: base, N: n, Win: 100, Assign: true}
	stubborn := &SampleStrategy{Base: base, N: n, Win: 100, Assign: true, Margin: n + 1}
	start := func(s *SampleStrategy) *sampleSession { return startSample(t, s, rules) }
	ss, st := start(plain), start(stubborn)
	const rn = 4 * RaceBatch
	full64 := start(&SampleStrategy{Base: base, N: rn, Win: 100, Assign: true})
	exactRace := start(&SampleStrategy{Base: base, N: rn, Win: 100, Assign: true, Race: 1e9})
	race2 := start(&SampleStrategy{Base: base, N: rn, Win: 100, Assign: true, Race: 2})
	margin1 := start(&SampleStrategy{Base: base, N: rn, Win: 100, Assign: true, Margin: 1})
	exactRace1 := start(&SampleStrategy{Base: base, N: rn, Win: 100, Assign: true, Margin: 1, Race: 1e9})
	raced, racedPlain, racedSame := 0, 0, 0
	decided, deviated := 0, 0
	played, plainPlayed := 0, 0 // orders played out by the player, and by a plain count
	for i, d := range loadCorpus(t)[:size(1, 6)] {
		g, err := solver.NewGame(&d, rules)
		if err != nil {
			t.Fatal(err)
		}
		for !g.Over() {
			if quick() && decided >= 6 && deviated > 0 {
				break
			}
			rq := solver.Request{Game: solver.GameID(i), Position: g.View()}
			before := ss.playouts
			got, own, ok := decideAndAsk(t, ss, rq)
			played += ss.playouts - before
			if !ok {
				break
			}
			state := g.View().State()
			var buf [solver.MaxLegalMoves]solver.Move
			cands := sampleCandidates(&state, true, own.Move, buf[:0])
			if own.Move.Kind != solver.StackToTable && g.Drawn() != 0 && g.StockLen() > 0 && len(cands) >= 2 {
				decided++
				plainPlayed += len(cands) * n
				if want := plainCount(t, ss, rq, &state, cands, own.Move); got.Move != want {
					t.Fatalf("deck %d, %d cards left: played %s, the plain count picks %s", i, g.StockLen(), got.Move.Format(rules), want.Format(rules))
				}
				if !sameMove(got.Move, own.Move, g.Drawn()) {
					deviated++
				}
				b0, f0 := race2.playouts, full64.playouts
				f2, err := full64.decide(ctx, rq)
				if err != nil {
					t.Fatal(err)
				}
				for _, c := range []struct {
					name       string
					raced, seq *sampleSession
				}{{"no margin", exactRace, nil}, {"margin 1", exactRace1, margin1}} {
					want := f2
					if c.seq != nil {
						if want, err = c.seq.decide(ctx, rq); err != nil {
							t.Fatal(err)
						}
					}
					er, err := c.raced.decide(ctx, rq)
					if err != nil {
						t.Fatal(err)
					}
					if er.Move != want.Move {
						t.Fatalf("deck %d, %d cards left, %s: racing with an unreachable bar played %s, without racing %s", i, g.StockLen(), c.name, er.Move.Format(rules), want.Move.Format(rules))
					}
				}
				r2, err := race2.decide(ctx, rq)
				if err != nil {
					t.Fatal(err)
				}
				raced += race2.playouts - b0
				racedPlain += full64.playouts - f0
				if r2.Move == f2.Move {
					racedSame++
				}
				stub, err := st.decide(ctx, rq)
				if err != nil {
					t.Fatal(err)
				}
				if !sameMove(stub.Move, own.Move, g.Drawn()) {
					t.Fatalf("deck %d: with margin %d the player left the base's move %s for %s", i, n+1, own.Move.Format(rules), stub.Move.Format(rules))
				}
			}
			if err := g.Apply(got.Move); err != nil {
				t.Fatal(err)
			}
		}
	}
	if decided == 0 || deviated == 0 {
		t.Fatalf("%d decisions sampled, %d left the base's move: the test checks nothing", decided, deviated)
	}
	if played >= plainPlayed {
		t.Errorf("the player played out %d orders, a plain count %d: the early stop saved nothing", played, plainPlayed)
	}
	if raced >= racedPlain {
		t.Errorf("racing with race=2 played out %d orders, without it %d: it saved nothing", raced, racedPlain)
	}
	t.Logf("%d decisions sampled, %d left the base's move; %d orders played out against %d", decided, deviated, played, plainPlayed)
	t.Logf("64 orders: racing (race=2) played out %d orders against %d, and chose as without it in %d of %d decisions", raced, racedPlain, racedSame, decided)
}

// TestSampleTops: with tops=true the player also decides the moves of stack
// tops to tables. At every decision of real games (3 stacks, A 2 3 4
// pre-placed, the tuned table whose tops may change tables) it compares
// every legal move of a top with the drawn card's places, and plays the
// move a plain count over all of them picks (ties to the base's own move,
// then to the first); and some of its decisions are about tops, where it
// leaves the base's move.
func TestSampleTops(t *testing.T) {
	t.Parallel()
	base, err := configs.Strategies().BuildSpec("priority:deadlock_check=exact,table=tuned-3-preplaced,reassign_tops=true")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	rules := solver.Rules{Stacks: 3, Preplaced: true}
	const n = 8
	sess, err := (&SampleStrategy{Base: base, N: n, Win: 100, Assign: true, Tops: true}).Start(ctx, rules)
	if err != nil {
		t.Fatal(err)
	}
	defer sess.Close()
	ss := sess.(*sampleSession)
	topDecisions, topDeviations, won := 0, 0, 0
	for i, d := range loadCorpus(t)[:size(3, 8)] {
		g, err := solver.NewGame(&d, rules)
		if err != nil {
			t.Fatal(err)
		}
		for !g.Over() {
			rq := solver.Request{Game: solver.GameID(i), Position: g.View()}
			got, own, ok := decideAndAsk(t, ss, rq)
			if !ok {
				break
			}
			state := g.View().State()
			var buf [solver.MaxLegalMoves]solver.Move
			cands := ss.candidates(&state, own.Move, buf[:0])
			var all [solver.MaxLegalMoves]solver.Move
			tops := 0
			for _, m := range state.AppendLegalMoves(all[:0]) {
				if m.Kind == solver.StackToTable {
					tops++
					if !slices.Contains(cands, m) {
						t.Fatalf("deck %d, %d cards left: the top move %s is not compared", i, g.StockLen(), m.Format(rules))
					}
				}
			}
			if own.Move.Kind != solver.Resign && g.Drawn() != 0 && g.StockLen() > 0 && len(cands) >= 2 {
				if want := plainCount(t, ss, rq, &state, cands, own.Move); got.Move != want {
					t.Fatalf("deck %d, %d cards left: played %s, the plain count picks %s", i, g.StockLen(), got.Move.Format(rules), want.Format(rules))
				}
				if tops > 0 {
					topDecisions++
					if !sameMove(got.Move, own.Move, g.Drawn()) && (got.Move.Kind == solver.StackToTable || own.Move.Kind == solver.StackToTable) {
						topDeviations++
					}
				}
			}
			if err := g.Apply(got.Move); err != nil {
				t.Fatal(err)
			}
		}
		if g.Won() {
			won++
		}
	}
	if topDecisions == 0 || topDeviations == 0 {
		t.Fatalf("%d decisions with a top to move, %d left the base's move for or from a top move: the test checks nothing", topDecisions, topDeviations)
	}
	t.Logf("%d decisions with a top to move, %d left the base's move; %d of 8 games won", topDecisions, topDeviations, won)
}

// plainCount returns the move a plain count picks among cands in st: every
// candidate played out on every order of the session's deal for st, the
// highest total, ties to the base's own move, then to the first.
func plainCount(t *testing.T, ss *sampleSession, rq solver.Request, st *solver.State, cands []solver.Move, own solver.Move) solver.Move {
	t.Helper()
	ss.deal(st)
	want, best := -1, math.Inf(-1)
	for ci, m := range cands {
		total, err := ss.score(context.Background(), rq, st, m, math.Inf(-1))
		if err != nil {
			t.Fatal(err)
		}
		if total > best || (total == best && sameMove(m, own, st.Drawn())) {
			want, best = ci, total
		}
	}
	return cands[want]
}

// startSample starts a session of s under rules, closed when the test ends.
func startSample(t testing.TB, s *SampleStrategy, rules solver.Rules) *sampleSession {
	t.Helper()
	sess, err := s.Start(context.Background(), rules)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sess.Close() })
	return sess.(*sampleSession)
}

// decideAndAsk returns the player's decision in rq and the base's own move
// there; ok is false where the player resigns or fails (the game ends).
func decideAndAsk(t *testing.T, ss *sampleSession, rq solver.Request) (got, own solver.Decision, ok bool) {
	t.Helper()
	ctx := context.Background()
	got, err := ss.decide(ctx, rq)
	if err != nil {
		t.Fatal(err)
	}
	if got.Failed || got.Move.Kind == solver.Resign {
		return got, own, false
	}
	if own, err = ss.ask(ctx, rq.Game, rq.Seed, rq.Position); err != nil {
		t.Fatal(err)
	}
	return got, own, true
}

// TestSampleAltTables: with alt_tables each order scores the best of the
// games the base and the base with each alternative table play on it — at
// decisions of real games (3 stacks, tables start empty, the tuned
// table whose tops may change tables, with the rescue over it in the
// playouts), for every place compared, order by order, against separate
// samplers over each table alone; and the alternatives change decisions.
// An alternative table the base cannot take, or a bad list, is refused.
func TestSampleAltTables(t *testing.T) {
	t.Parallel()
	reg := registry()
	const opts = "deadlock_check=exact,reassign_tops=true"
	tables := []string{"tuned-3-exact", "tuned-3", "tuned-3-preplaced"}
	ctx := context.Background()
	rules := solver.Rules{Stacks: 3}
	start := func(spec string) *sampleSession {
		t.Helper()
		s, err := reg.BuildSpec(spec)
		if err != nil {
			t.Fatal(err)
		}
		sess, err := s.Start(ctx, rules)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { sess.Close() })
		return sess.(*sampleSession)
	}
	const wrap = "+rescue:give_up=true,nodes=1000+sample:n=4,assign=true,tops=true"
	alt := start("priority:table=" + tables[0] + "," + opts + wrap + ",alt_tables=" + tables[1] + ";" + tables[2])
	var alone []*sampleSession
	for _, tb := range tables {
		alone = append(alone, start("priority:table="+tb+","+opts+wrap))
	}
	decisions, compared, improved, differ := 0, 0, 0, 0
	for i, d := range loadCorpus(t)[:1] {
		g, err := solver.NewGame(&d, rules)
		if err != nil {
			t.Fatal(err)
		}
		for !g.Over() {
			rq := solver.Request{Game: solver.GameID(i), Position: g.View()}
			got, own, ok := decideAndAsk(t, alt, rq)
			if !ok {
				break
			}
			if plain, err := alone[0].decide(ctx, rq); err != nil {
				t.Fatal(err)
			} else if plain.Move != got.Move {
				differ++
			}
			state := g.View().State()
			var buf [solver.MaxLegalMoves]solver.Move
			cands := alt.candidates(&state, own.Move, buf[:0])
			// The orders' scores are checked at every fourth decision (the
			// check plays each order four times over for every place), every
			// twelfth by default.
			if g.Drawn() != 0 && g.StockLen() > 0 && len(cands) >= 2 && g.StockLen()%size(12, 4) == 0 {
				decisions++
				alt.deal(&state)
				for _, m := range cands {
					for oi, ord := range alt.orders {
						score := func(ss *sampleSession) float64 {
							c := state
							if err := c.Apply(m); err != nil {
								t.Fatal(err)
							}
							v, err := ss.rollout(ctx, rq, &c, ord)
							if err != nil {
								t.Fatal(err)
							}
							return v
						}
						got := score(alt)
						own := score(alone[0])
						want := own
						for _, a := range alone[1:] {
							want = max(want, score(a))
						}
						if got != want {
							t.Fatalf("deck %d, %d cards left, %s, order %d: scored %v, the best of the tables' games %v", i, g.StockLen(), m.Format(rules), oi, got, want)
						}
						if got > own {
							improved++
						}
						compared++
					}
				}
			}
			if err := g.Apply(got.Move); err != nil {
				t.Fatal(err)
			}
		}
	}
	if improved == 0 || differ == 0 {
		t.Fatalf("%d decisions, %d orders scored, %d scored higher than the base's own game, %d decisions left the plain sampler's: the test checks nothing", decisions, compared, improved, differ)
	}
	t.Logf("%d decisions, %d orders scored, %d higher than the base's own game; %d decisions differ from the plain sampler's", decisions, compared, improved, differ)

	for _, c := range []struct{ spec, want string }{
		{"deadlock-graph+sample:alt_tables=tuned-3", "does not play a priority table"},
		{"priority+sample:alt_tables=tuned-3;", "has an empty item"},
		{"priority+sample:alt_tables=;tuned-3", "has an empty item"},
	} {
		if _, err := reg.BuildSpec(c.spec); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one saying %q", c.spec, err, c.want)
		}
	}
	s, err := reg.BuildSpec("priority:table=tuned-3+sample:alt_tables=no-such-table")
	if err != nil {
		t.Fatal(err)
	}
	if sess, err := s.Start(ctx, rules); err == nil || !strings.Contains(err.Error(), "no-such-table") {
		if sess != nil {
			sess.Close()
		}
		t.Errorf("an unknown alternative table: Start error %v, want one naming it", err)
	}
}

// TestSamplePilot: with pilot=K the sampler's orders are played out by a
// pilot of the base once the stock holds K cards or fewer. At positions of
// real games (3 stacks pre-placed, the priority table as base; 4 stacks,
// the table with a rescue, which the memo also serves: positional), for
// every place and order: the
// pilot's playout scores at least as much as the base's on the same order
// (it never leaves the base's game for a worse one); the player decides
// exactly as without pilot while the stock holds more than K cards; and
// the pilot changes some decisions after that. The pilot's memo of the
// base's playouts changes nothing: the pilot's playouts (memo on) score as
// the plain pilot's written in the test (plainPilot, no memo), and the
// player decides every move as with the memo off, while the memo cuts
// playouts short. A pilot with alt_tables is refused.
func TestSamplePilot(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name, base     string
		rules          solver.Rules
		from, decks, n int // decks from..decks-1 of uniform-1000; orders a decision
	}{
		{"3 stacks pre-placed, priority", "priority:deadlock_check=exact,table=tuned-3-preplaced,reassign_tops=true", solver.Rules{Stacks: 3, Preplaced: true}, size(2, 0), 4, 8},
		{"4 stacks, priority with a rescue", "priority:deadlock_check=exact,table=tuned-4,reassign_tops=true+rescue:give_up=true,nodes=1000", solver.Rules{Stacks: 4}, 0, 1, 3},
	} {
		t.Run(c.name, func(t *testing.T) { testSamplePilot(t, c.base, c.rules, c.from, c.decks, c.n) })
	}
	reg := registry()
	if _, err := reg.BuildSpec("priority:table=tuned-3+sample:pilot=8,alt_tables=tuned-3-exact"); err == nil {
		t.Error("pilot with alt_tables was accepted")
	}
	// The check of the own move needs a won order worth more than any lost
	// one, and with a pilot, tops.
	base, err := reg.BuildSpec("priority:table=tuned-3")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		win   float64
		tops  bool
		pilot int
		want  bool
	}{
		{100, true, 8, true}, {1, true, 8, true}, {0.5, true, 8, false},
		{100, false, 8, true}, {100, false, 0, true}, {0.5, false, 0, false},
	} {
		sess, err := (&SampleStrategy{Base: base, N: 2, Win: c.win, Tops: c.tops, Pilot: c.pilot}).Start(context.Background(), solver.Rules{Stacks: 3})
		if err != nil {
			t.Fatal(err)
		}
		ss := sess.(*sampleSession)
		if ss.checkOwn != c.want {
			t.Errorf("win=%v, tops=%v, pilot=%d: the check of the own move on %v, want %v", c.win, c.tops, c.pilot, ss.checkOwn, c.want)
		}
		sess.Close()
	}
}

// testSamplePilot is TestSamplePilot's check for one base and rules, on
// decks from..decks-1 of uniform-1000, n orders a decision. With 3 stacks
// pre-placed decks 2 and 3 alone are played by default: they reach every
// count the test needs (playouts compared, decisions the pilot changes,
// both memos' hits, decisions the own move settles); CALCSOL_LONG=1 plays
// decks 0 to 3.
func testSamplePilot(t *testing.T, baseSpec string, rules solver.Rules, from, decks, n int) {
	base, err := registry().BuildSpec(baseSpec)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	const k = 8
	open := func(pilot int, noMemo bool) *sampleSession {
		return startSample(t, &SampleStrategy{Base: base, N: n, Win: 100, Assign: true, Tops: true, Pilot: pilot, noMemo: noMemo, noOwnCheck: noMemo}, rules)
	}
	piloted, unmemo, plain := open(k, false), open(k, true), open(0, false)
	if piloted.memo == nil || piloted.pilotMemo == nil || unmemo.memo != nil || unmemo.pilotMemo != nil || plain.memo != nil || plain.pilotMemo != nil {
		t.Fatal("the memos should be on with a pilot only")
	}
	if !piloted.checkOwn || unmemo.checkOwn || !plain.checkOwn {
		t.Fatal("the check of the own move should be on unless turned off")
	}
	checked, changed := 0, 0
	for i, d := range loadCorpus(t)[from:decks] {
		i += from
		g, err := solver.NewGame(&d, rules)
		if err != nil {
			t.Fatal(err)
		}
		for !g.Over() {
			rq := solver.Request{Game: solver.GameID(i), Position: g.View()}
			got, own, ok := decideAndAsk(t, piloted, rq)
			if !ok {
				break
			}
			want, err := plain.decide(ctx, rq)
			if err != nil {
				t.Fatal(err)
			}
			if u, err := unmemo.decide(ctx, rq); err != nil {
				t.Fatal(err)
			} else if u.Move != got.Move {
				t.Fatalf("deck %d, %d cards left: played %s, with the memos and the check of the own move off %s", i, g.StockLen(), got.Move.Format(rules), u.Move.Format(rules))
			}
			if g.StockLen() > k && got.Move != want.Move {
				t.Fatalf("deck %d, %d cards left (> %d): played %s, without pilot %s", i, g.StockLen(), k, got.Move.Format(rules), want.Move.Format(rules))
			}
			if got.Move != want.Move {
				changed++
			}
			if g.StockLen() <= k && g.Drawn() != 0 {
				state := g.View().State()
				var buf [solver.MaxLegalMoves]solver.Move
				piloted.deal(&state)
				for _, m := range piloted.candidates(&state, own.Move, buf[:0]) {
					for _, ord := range piloted.orders {
						a, b, c := state, state, state
						if a.Apply(m) != nil || b.Apply(m) != nil || c.Apply(m) != nil {
							t.Fatalf("candidate %s refused", m.Format(rules))
						}
						pv, err := piloted.pilotPlayout(ctx, rq, &a, ord)
						if err != nil {
							t.Fatal(err)
						}
						bv, err := piloted.playout(ctx, piloted.base, rq, &b, ord, nil)
						if err != nil {
							t.Fatal(err)
						}
						if pv < bv {
							t.Fatalf("deck %d, %d cards left, %s: the pilot's playout scores %v, the base's %v", i, g.StockLen(), m.Format(rules), pv, bv)
						}
						if rv := plainPilot(t, piloted, rq, &c, ord); pv != rv {
							t.Fatalf("deck %d, %d cards left, %s: the pilot's playout scores %v, every move played out %v", i, g.StockLen(), m.Format(rules), pv, rv)
						}
						checked++
					}
				}
			}
			if err := g.Apply(got.Move); err != nil {
				t.Fatal(err)
			}
		}
	}
	if checked == 0 || changed == 0 || piloted.memo.hits == 0 || piloted.pilotMemo.hits == 0 || piloted.ownSettled == 0 {
		t.Fatalf("%d playouts compared, %d decisions changed by the pilot, %d base playouts and %d pilot playouts cut short by the memos, %d decisions settled by the own move's playouts: the test checks nothing", checked, changed, piloted.memo.hits, piloted.pilotMemo.hits, piloted.ownSettled)
	}
	t.Logf("%d playouts compared, %d decisions changed by the pilot, %d base playouts and %d pilot playouts cut short by the memos, %d decisions settled by the own move's playouts", checked, changed, piloted.memo.hits, piloted.pilotMemo.hits, piloted.ownSettled)
}

// plainPilot is the pilot's playout written without its saving: at each
// decision every candidate, the base's own move too, is played out by the
// base, and the game goes on with the best game found (the own move in a
// tie with it).
func plainPilot(t *testing.T, ss *sampleSession, rq solver.Request, st *solver.State, ord []solver.Rank) float64 {
	t.Helper()
	ctx := context.Background()
	best := -1.0
	for {
		if st.Drawn() == 0 && st.StockLen() > 0 {
			if err := st.Reveal(ord[len(ord)-st.StockLen()]); err != nil {
				t.Fatal(err)
			}
		}
		if st.Over() {
			break
		}
		d, err := ss.askOf(ctx, ss.base, rq.Game, rq.Seed, st.View())
		if err != nil {
			t.Fatal(err)
		}
		next := st.Complete(d.Move)
		if st.Drawn() != 0 {
			var buf [solver.MaxLegalMoves]solver.Move
			for _, m := range ss.candidates(st, next, buf[:0]) {
				c := *st
				if c.Apply(m) != nil {
					continue
				}
				v, err := ss.playout(ctx, ss.base, rq, &c, ord, nil)
				if err != nil {
					t.Fatal(err)
				}
				if v >= ss.winScore() {
					return v
				}
				if v > best {
					best, next = v, m
				}
			}
		}
		if next.Kind == solver.Resign || st.Apply(next) != nil {
			break
		}
	}
	if st.Won() {
		return ss.winScore()
	}
	return float64(st.TotalPlaced())
}

// TestSampleIsWin checks which scores count as a won order: only a score of
// Win·52 or more, and only where no lost game (at most 51 cards on the
// tables) can score that much; below Win = 51/52 no score counts, so a
// pilot is never cut short by a lost game that scores Win·52.
func TestSampleIsWin(t *testing.T) {
	for _, tc := range []struct {
		win, v float64
		want   bool
	}{
		{win: 100, v: 5200, want: true},
		{win: 100, v: 51, want: false},
		{win: 1, v: 52, want: true},
		{win: 1, v: 51, want: false},
		{win: 0.995, v: 0.995 * 52, want: true}, // 51.74: above any lost game
		{win: 0.5, v: 26, want: false},          // a lost game may place 26
		{win: 0.5, v: 51, want: false},
		{win: 0, v: 0, want: false},
	} {
		ss := &sampleSession{s: &SampleStrategy{Win: tc.win}}
		if got := ss.isWin(tc.v); got != tc.want {
			t.Errorf("win=%g: isWin(%g) = %v, want %v", tc.win, tc.v, got, tc.want)
		}
	}
}

// TestSampleFrom: with from=k the player plays the base's own move, without
// a playout, at every decision with more than k cards in the stock, and the
// plain sampler's move at every other; on real games (4 stacks, A 2 3 4
// pre-placed) both kinds of decision occur, and at some of each the plain
// sampler leaves the base's move.
func TestSampleFrom(t *testing.T) {
	t.Parallel()
	base, err := configs.Strategies().BuildSpec("priority:deadlock_check=exact,table=tuned-4-preplaced")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	rules := solver.Rules{Stacks: 4, Preplaced: true}
	const n, k = 8, 20
	late := startSample(t, &SampleStrategy{Base: base, N: n, Win: 100, Assign: true, From: k}, rules)
	plain := startSample(t, &SampleStrategy{Base: base, N: n, Win: 100, Assign: true}, rules)
	leftEarly, leftLate := 0, 0 // decisions where the plain sampler leaves the base's move
	for i, d := range loadCorpus(t)[:size(8, 24)] {
		g, err := solver.NewGame(&d, rules)
		if err != nil {
			t.Fatal(err)
		}
		for !g.Over() {
			rq := solver.Request{Game: solver.GameID(i), Position: g.View()}
			before := late.playouts
			got, own, ok := decideAndAsk(t, late, rq)
			if !ok {
				break
			}
			want, err := plain.decide(ctx, rq)
			if err != nil {
				t.Fatal(err)
			}
			left := !sameMove(want.Move, own.Move, g.Drawn())
			if g.StockLen() > k {
				if got.Move != own.Move || late.playouts != before {
					t.Fatalf("deck %d, %d cards left: played %s after %d playouts, want the base's %s and none", i, g.StockLen(), got.Move.Format(rules), late.playouts-before, own.Move.Format(rules))
				}
				if left {
					leftEarly++
				}
			} else {
				if got.Move != want.Move {
					t.Fatalf("deck %d, %d cards left: played %s, the plain sampler %s", i, g.StockLen(), got.Move.Format(rules), want.Move.Format(rules))
				}
				if left {
					leftLate++
				}
			}
			if err := g.Apply(got.Move); err != nil {
				t.Fatal(err)
			}
		}
	}
	if leftEarly == 0 || leftLate == 0 {
		t.Fatalf("the plain sampler left the base's move at %d decisions before %d cards and %d after: the test checks nothing", leftEarly, k, leftLate)
	}
}
