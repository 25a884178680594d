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
// position, whether it follows from the game's last position and move (the
// server checks that cheaply) or not (it decodes it).
func TestServerSeesTheObservation(t *testing.T) {
	ctx := context.Background()
	r := solver.Rules{Stacks: 3}
	rec := &seen{}
	srv := sdk.NewServer(solver.FromChooser(solver.Info{Name: "seen"}, func(solver.Rules) (solver.Chooser, error) { return rec, nil }))
	if _, err := srv.Start(ctx, &proto.StartRequest{Rules: &proto.Rules{Stacks: 3}}); err != nil {
		t.Fatal(err)
	}
	decide := func(v solver.View, flags byte) solver.Move {
		t.Helper()
		resp, err := srv.Decide(ctx, &proto.DecideRequest{Count: 1, Observations: proto.AppendObservation(nil, 7, 0, flags, v)})
		if err != nil {
			t.Fatal(err)
		}
		_, d, _, err := proto.ReadDecision(resp.Decisions)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := rec.positions[len(rec.positions)-1], v.String(); got != want {
			t.Fatalf("the strategy saw\n%s\nwant\n%s", got, want)
		}
		return d.Move
	}
	var g, other solver.Game
	if err := g.Reset(deck(0), r); err != nil {
		t.Fatal(err)
	}
	if err := other.Reset(deck(5), r); err != nil {
		t.Fatal(err)
	}
	m := decide(g.View(), proto.FirstDecision)
	for range 20 {
		if err := g.Apply(m); err != nil {
			t.Fatal(err)
		}
		m = decide(g.View(), 0) // follows from the last position and move
	}
	decide(other.View(), 0) // does not follow: decoded
	decide(g.View(), 0)     // nor does this, after the other
}
