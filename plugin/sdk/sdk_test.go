package sdk_test

import (
	"context"
	"testing"

	"github.com/calcsol/calcsol/plugin/proto"
	"github.com/calcsol/calcsol/plugin/sdk"
	"github.com/calcsol/calcsol/solver"
)

// seen records every position its strategy is asked about.
type seen struct{ positions []string }

func (s *seen) Choose(v solver.View) (solver.Move, error) {
	s.positions = append(s.positions, v.String())
	ms := v.AppendLegalMoves(nil)
	return ms[len(ms)-1], nil
}

func deck(shift int) *solver.Deck {
	var d solver.Deck
	for i := range d {
		d[i] = solver.Rank((i+shift)%solver.NumRanks + 1)
	}
	return &d
}

// TestServerSeesTheObservation: the server hands the strategy the observed
// position, sent whole or as a delta record (the game's last position after
// the strategy's own answer, with the card drawn since), and refuses a
// delta record it cannot follow.
func TestServerSeesTheObservation(t *testing.T) {
	ctx := context.Background()
	rec := &seen{}
	srv := sdk.NewServer(solver.FromChooser(solver.Info{Name: "seen"}, func(solver.Rules) (solver.Chooser, error) { return rec, nil }))
	resp, err := srv.Start(ctx, &proto.StartRequest{Rules: &proto.Rules{Stacks: 3}})
	if err != nil {
		t.Fatal(err)
	}
	if !resp.GetDeltas() {
		t.Error("the SDK does not ask for delta records")
	}
	send := func(blob []byte) (solver.Move, error) {
		resp, err := srv.Decide(ctx, &proto.DecideRequest{Count: 1, Observations: blob})
		if err != nil {
			return solver.Move{}, err
		}
		_, d, _, err := proto.ReadDecision(resp.Decisions)
		return d.Move, err
	}
	decide := func(game uint64, v solver.View, blob []byte) solver.Move {
		t.Helper()
		m, err := send(blob)
		if err != nil {
			t.Fatalf("game %d: %v", game, err)
		}
		if got, want := rec.positions[len(rec.positions)-1], v.String(); got != want {
			t.Fatalf("game %d: the strategy saw\n%s\nwant\n%s", game, got, want)
		}
		return m
	}
	r := solver.Rules{Stacks: 3}
	var g, other solver.Game
	if err := g.Reset(deck(0), r); err != nil {
		t.Fatal(err)
	}
	if err := other.Reset(deck(5), r); err != nil {
		t.Fatal(err)
	}
	m := decide(7, g.View(), proto.AppendObservation(nil, 7, 0, proto.FirstDecision, g.View()))
	mo := decide(8, other.View(), proto.AppendObservation(nil, 8, 0, proto.FirstDecision, other.View()))
	for i := range 30 {
		if err := g.Apply(m); err != nil {
			t.Fatal(err)
		}
		if g.Over() {
			break
		}
		if i%7 == 6 {
			m = decide(7, g.View(), proto.AppendObservation(nil, 7, 0, 0, g.View())) // whole again
		} else {
			m = decide(7, g.View(), proto.AppendDelta(nil, 7, 0, g.Drawn()))
		}
	}
	if err := other.Apply(mo); err != nil {
		t.Fatal(err)
	}
	decide(8, other.View(), proto.AppendDelta(nil, 8, 0, other.Drawn()))

	for _, tc := range []struct {
		name string
		blob []byte
	}{
		{"a game never seen", proto.AppendDelta(nil, 9, 0, 1)},
		{"a rank out of range", proto.AppendDelta(nil, 8, 0, 14)},
	} {
		if _, err := send(tc.blob); err == nil {
			t.Errorf("a delta record for %s: no error", tc.name)
		}
	}
}
