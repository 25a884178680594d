package search

import (
	"slices"
	"testing"

	"github.com/calcsol/calcsol/solver"
	"github.com/calcsol/calcsol/strategies"
)

// The bounds a struct tag declares are the package's own limits.
func TestDeclaredBounds(t *testing.T) {
	tests := []struct {
		kind, param string
		max         float64
	}{
		{"endgame", "k", MaxEndgameCards},
		{"sample", "pilot", solver.DeckSize},
		{"pimc", "k", solver.DeckSize},
	}
	kinds := Kinds()
	for _, tc := range tests {
		i := slices.IndexFunc(kinds, func(k strategies.Kind) bool { return k.Name == tc.kind })
		j := slices.IndexFunc(kinds[i].Params, func(p solver.Param) bool { return p.Name == tc.param })
		if j < 0 || kinds[i].Params[j].Max != tc.max {
			t.Errorf("%s.%s: declared %+v, want max %g", tc.kind, tc.param, kinds[i].Params, tc.max)
		}
	}
}

// --set reaches any layer of a wrapped strategy, and what a wrapper is
// built with is what its Info reports.
func TestSetWrappedLayers(t *testing.T) {
	reg := strategies.NewRegistry()
	reg.MustRegister(strategies.GreedyKind())
	for _, k := range Kinds() {
		reg.MustRegister(k)
	}
	parts, err := reg.Parts(strategies.CommandLine{Spec: "greedy+rescue+sample:n=4+endgame",
		Set: []string{"endgame.k=6", "n=8", "rescue.w_bury=3", "give_up=true"}})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := strategies.FormatSpec(parts), "greedy+rescue:give_up=true,w_bury=3+sample:n=8+endgame:k=6"; got != want {
		t.Errorf("spec %s, want %s", got, want)
	}
	s, err := reg.BuildParts(parts)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, p := range s.Info().Params {
		got[p.Name] = p.Value
	}
	for k, v := range map[string]string{"k": "6", "n": "8", "w_bury": "3", "give_up": "true", "w_gap": "1"} {
		if got[k] != v {
			t.Errorf("Info %s=%q, want %q", k, got[k], v)
		}
	}
}
