package clairvoyant_test

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/calcsol/calcsol/clairvoyant"
	"github.com/calcsol/calcsol/configs"
	"github.com/calcsol/calcsol/solver"
)

// pilotWitness returns a witness of the priority strategy spec with the
// pilot up to level, stacking assigned.
func pilotWitness(t testing.TB, spec string, rules solver.Rules, level int) *clairvoyant.StrategyWitness {
	t.Helper()
	s, err := configs.Strategies().BuildSpec(spec)
	if err != nil {
		t.Fatal(err)
	}
	w, err := clairvoyant.NewStrategyWitness(context.Background(), s, rules)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close() })
	if err := w.SetPilot(level, true); err != nil {
		t.Fatal(err)
	}
	return w
}

// TestPilot: a pilot's game is a legal line of the deck; it places at least
// as many cards as the strategy's own game (solver.Play), so it wins every
// deck the strategy wins; and deeper pilots win more decks.
func TestPilot(t *testing.T) {
	tests := []struct {
		rules solver.Rules
		spec  string
		decks int
		level int // the deepest level checked
	}{
		{solver.Rules{Stacks: 3}, "priority:table=tuned-3-exact", 12, 2},
		{solver.Rules{Stacks: 3, Preplaced: true}, "priority:table=tuned-3-preplaced,reassign_tops=true", 12, 2},
		{solver.Rules{Stacks: 4}, "priority:table=tuned-4", 12, 1},
	}
	for _, tc := range tests {
		t.Run(tc.rules.String(), func(t *testing.T) {
			ctx := context.Background()
			w := pilotWitness(t, tc.spec, tc.rules, tc.level)
			s, _ := configs.Strategies().BuildSpec(tc.spec)
			sess, err := s.Start(ctx, tc.rules)
			if err != nil {
				t.Fatal(err)
			}
			defer sess.Close()
			wins := make([]int, tc.level+1)
			for i, d := range corpusDecks(t, tc.decks) {
				own, err := solver.Play(ctx, &d, tc.rules, sess, true)
				if err != nil {
					t.Fatal(err)
				}
				for level := 0; level <= tc.level; level++ {
					line, won := w.Game(ctx, &d, tc.rules, level)
					g, err := solver.Replay(&d, tc.rules, line)
					if err != nil {
						t.Fatalf("deck %d, level %d: the line does not replay: %v", i, level, err)
					}
					if won != g.Won() {
						t.Errorf("deck %d, level %d: won %v, the replay %v", i, level, won, g.Won())
					}
					if g.TotalPlaced() < own.Placed {
						t.Errorf("deck %d, level %d: %d cards placed, the strategy's game %d", i, level, g.TotalPlaced(), own.Placed)
					}
					if level == 0 && (!slices.Equal(line, own.Trace) || won != own.Won) {
						t.Errorf("deck %d: the level-0 game is not the strategy's game", i)
					}
					// Where the strategy wins, every level's first try is its
					// own move, whose playout wins: the strategy's game.
					if own.Won && !slices.Equal(line, own.Trace) {
						t.Errorf("deck %d, level %d: the strategy wins, but the pilot's line is another", i, level)
					}
					if won {
						wins[level]++
					}
				}
			}
			// The deepest pilot, on the decks the strategy wins (its slots
			// for every level are used; its line is the strategy's game).
			deep := pilotWitness(t, tc.spec, tc.rules, clairvoyant.MaxPilotLevel)
			for i, d := range corpusDecks(t, tc.decks) {
				own, err := solver.Play(ctx, &d, tc.rules, sess, true)
				if err != nil {
					t.Fatal(err)
				}
				if !own.Won {
					continue
				}
				if line, won := deep.Game(ctx, &d, tc.rules, clairvoyant.MaxPilotLevel); !won || !slices.Equal(line, own.Trace) {
					t.Errorf("deck %d, level %d: won %v, the line is not the strategy's winning game", i, clairvoyant.MaxPilotLevel, won)
				}
			}
			t.Logf("wins by level: %v of %d decks", wins, tc.decks)
			if wins[tc.level] <= wins[0] {
				t.Errorf("wins by level %v: the deepest pilot wins no more than the strategy", wins)
			}
		})
	}
}

// TestPilotCandidates: at every position of a few games, the pilot's
// candidates are legal moves, the strategy's own move first; every legal
// move has a candidate that differs from it at most by the assignment of
// the stacked card or by which of two stacks holding the same cards it goes
// onto; no two candidates stack onto equal stacks with the same
// assignment; and assignments follow the assign switch.
func TestPilotCandidates(t *testing.T) {
	rules := solver.Rules{Stacks: 3}
	s, err := configs.Strategies().BuildSpec("priority:table=tuned-3-exact")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	sess, err := s.Start(ctx, rules)
	if err != nil {
		t.Fatal(err)
	}
	defer sess.Close()
	positions := 0
	for i, d := range corpusDecks(t, 6) {
		res, err := solver.Play(ctx, &d, rules, sess, true)
		if err != nil {
			t.Fatal(err)
		}
		g, err := solver.NewGame(&d, rules)
		if err != nil {
			t.Fatal(err)
		}
		for k, own := range res.Trace {
			for _, assign := range []bool{true, false} {
				for _, ok := range []bool{true, false} {
					checkCandidates(t, g, own, ok, assign, i, k)
				}
			}
			positions++
			if err := g.Apply(own); err != nil {
				t.Fatal(err)
			}
		}
	}
	if positions < 100 {
		t.Fatalf("only %d positions checked", positions)
	}
}

// checkCandidates checks the pilot's candidates in g, the strategy's move
// own known (ok) or not (a resignation).
func checkCandidates(t *testing.T, g *solver.Game, own solver.Move, ok, assign bool, deck, step int) {
	t.Helper()
	cands := clairvoyant.PilotCandidates(g, own, ok, assign)
	if ok && (len(cands) == 0 || cands[0] != own) {
		t.Fatalf("deck %d, move %d: candidates %v do not start with the strategy's move %v", deck, step, cands, own)
	}
	if !ok {
		own = solver.Move{} // not a candidate of its own
	}
	slotFree := false
	legal := g.AppendLegalMoves(nil)
	for _, m := range legal {
		slotFree = slotFree || (m.Kind == solver.ToStack && m.Table != 0)
	}
	stackOf := func(s int8) []solver.Card { return g.AppendStack(nil, int(s)) }
	type placed struct {
		table int8
		stack string
	}
	seen := map[placed]bool{}
	for _, c := range cands {
		st := g.State
		if err := st.Apply(c); err != nil {
			t.Fatalf("deck %d, move %d: candidate %v is illegal: %v", deck, step, c, err)
		}
		if c.Kind != solver.ToStack || (ok && c == own) {
			continue
		}
		if (c.Table != 0) != (assign && slotFree) {
			t.Errorf("deck %d, move %d: candidate %v with assign %v (a slot free: %v)", deck, step, c, assign, slotFree)
		}
		key := placed{c.Table, string(cardRanks(stackOf(c.Stack)))}
		if seen[key] {
			t.Errorf("deck %d, move %d: candidate %v stacks onto a stack already tried", deck, step, c)
		}
		seen[key] = true
	}
	for _, m := range legal {
		covered := slices.ContainsFunc(cands, func(c solver.Move) bool {
			if c.Kind != m.Kind || c.Rank != m.Rank {
				return false
			}
			if m.Kind == solver.ToStack {
				return slices.Equal(stackOf(c.Stack), stackOf(m.Stack))
			}
			return c == m
		})
		if !covered {
			t.Errorf("deck %d, move %d: legal move %v has no candidate among %v", deck, step, m, cands)
		}
	}
}

// cardRanks writes a stack's cards, assignments included, as bytes.
func cardRanks(cs []solver.Card) []byte {
	b := make([]byte, 0, 2*len(cs))
	for _, c := range cs {
		b = append(b, byte(c.Rank()), byte(c.Table()))
	}
	return b
}

// TestWitnessesLevels: several witnesses try the cheap games first: where
// one strategy's own game (no pilot) wins, that game is the line even when
// a piloted witness comes before it; every other line wins.
func TestWitnessesLevels(t *testing.T) {
	rules := solver.Rules{Stacks: 3}
	piloted := pilotWitness(t, "priority:table=tuned-3", rules, 2)
	plain := pilotWitness(t, "priority:table=tuned-3-exact", rules, 0)
	ws := clairvoyant.Witnesses{piloted, plain}
	ctx := context.Background()
	ownWins, lines := 0, 0
	for i, d := range corpusDecks(t, 12) {
		own, won := plain.Game(ctx, &d, rules, 0)
		line := ws.Line(ctx, &d, rules)
		if line == nil {
			continue
		}
		lines++
		if g, err := solver.Replay(&d, rules, line); err != nil || !g.Won() {
			t.Errorf("deck %d: the line does not win: %v", i, err)
		}
		if won {
			ownWins++
			if !slices.Equal(line, own) {
				t.Errorf("deck %d: the plain strategy's game wins, but the line is another", i)
			}
		}
	}
	if ownWins == 0 || lines == ownWins {
		t.Fatalf("the plain game wins %d decks, the witnesses %d: pick decks where both matter", ownWins, lines)
	}
}

// rankless answers as its strategy does with the card of every move left 0,
// which a Decision may do ("the drawn card", "the stack's top").
type rankless struct{ solver.Strategy }

func (r rankless) Start(ctx context.Context, rules solver.Rules) (solver.Session, error) {
	sess, err := r.Strategy.Start(ctx, rules)
	if err != nil {
		return nil, err
	}
	return ranklessSession{sess}, nil
}

type ranklessSession struct{ solver.Session }

func (s ranklessSession) Decide(ctx context.Context, reqs []solver.Request, out []solver.Decision) error {
	err := s.Session.Decide(ctx, reqs, out)
	for i := range out {
		out[i].Move.Rank = 0
	}
	return err
}

// TestPilotStrategies: a strategy that leaves the card of its moves 0 gets
// the same pilot games as one that names it; a failing strategy gives no
// line; a stochastic strategy and levels out of range are refused; a
// cancelled context ends the game without a win.
func TestPilotStrategies(t *testing.T) {
	rules := solver.Rules{Stacks: 3}
	ctx := context.Background()
	spec := "priority:table=tuned-3-exact"
	base, err := configs.Strategies().BuildSpec(spec)
	if err != nil {
		t.Fatal(err)
	}
	named := pilotWitness(t, spec, rules, 1)
	w, err := clairvoyant.NewStrategyWitness(ctx, rankless{base}, rules)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if err := w.SetPilot(1, true); err != nil {
		t.Fatal(err)
	}
	wins := 0
	for i, d := range corpusDecks(t, 8) {
		want, wantWon := named.Game(ctx, &d, rules, 1)
		got, won := w.Game(ctx, &d, rules, 1)
		if won != wantWon || !slices.Equal(got, want) {
			t.Errorf("deck %d: rankless strategy's pilot won %v (%d moves), the strategy's %v (%d moves)", i, won, len(got), wantWon, len(want))
		}
		if won {
			wins++
		}
	}
	if wins == 0 {
		t.Fatal("no pilot game won: pick other decks")
	}

	for _, level := range []int{-1, clairvoyant.MaxPilotLevel + 1} {
		if err := w.SetPilot(level, true); err == nil {
			t.Errorf("pilot level %d accepted", level)
		}
	}
	random, err := configs.Strategies().BuildSpec("random")
	if err != nil {
		t.Fatal(err)
	}
	rw, err := clairvoyant.NewStrategyWitness(ctx, random, rules)
	if err != nil {
		t.Fatal(err)
	}
	defer rw.Close()
	if err := rw.SetPilot(1, true); err == nil {
		t.Error("a stochastic strategy was piloted")
	}
	if err := rw.SetPilot(0, true); err != nil {
		t.Errorf("level 0 (its own games) refused for a stochastic strategy: %v", err)
	}

	d := corpusDecks(t, 1)[0]
	fw, err := clairvoyant.NewStrategyWitness(ctx, failing{base}, rules)
	if err != nil {
		t.Fatal(err)
	}
	defer fw.Close()
	if err := fw.SetPilot(2, true); err != nil {
		t.Fatal(err)
	}
	if line, won := fw.Game(ctx, &d, rules, 2); won || line != nil {
		t.Errorf("a failing strategy's pilot gave a line (%d moves, won %v)", len(line), won)
	}

	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, won := named.Game(cancelled, &d, rules, 1); won {
		t.Error("a pilot game won under a cancelled context")
	}
}

// failing fails its decisions after the tenth.
type failing struct{ solver.Strategy }

func (f failing) Start(ctx context.Context, rules solver.Rules) (solver.Session, error) {
	sess, err := f.Strategy.Start(ctx, rules)
	if err != nil {
		return nil, err
	}
	return &failingSession{Session: sess}, nil
}

type failingSession struct {
	solver.Session
	n int
}

func (s *failingSession) Decide(ctx context.Context, reqs []solver.Request, out []solver.Decision) error {
	if s.n++; s.n > 10 {
		return errors.New("the strategy broke")
	}
	return s.Session.Decide(ctx, reqs, out)
}
