package clairvoyant_test

import (
	"context"
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
	w.SetPilot(level, true)
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
					if won {
						wins[level]++
					}
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
				checkCandidates(t, g, own, assign, i, k)
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

func checkCandidates(t *testing.T, g *solver.Game, own solver.Move, assign bool, deck, step int) {
	t.Helper()
	cands := clairvoyant.PilotCandidates(g, own, true, assign)
	if len(cands) == 0 || cands[0] != own {
		t.Fatalf("deck %d, move %d: candidates %v do not start with the strategy's move %v", deck, step, cands, own)
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
		if c.Kind != solver.ToStack || c == own {
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
