package tournament_test

import (
	"context"
	"testing"

	"github.com/calcsol/calcsol/configs"
	"github.com/calcsol/calcsol/decks/corpus"
	"github.com/calcsol/calcsol/internal/longtest"
	"github.com/calcsol/calcsol/solver"
	"github.com/calcsol/calcsol/tournament"
)

// The README's headline figures: wins of the priority strategy on the
// shipped uniform-30000 corpus, each variant with its shipped table. They
// are deterministic; a change that moves them changes the README too.
// 120,000 games that pin research figures: a long check (package
// longtest), as the quick suite's tournaments are small (under the race
// detector they took a minute and raced nothing the harness tests do not).
func TestHeadlineFigures(t *testing.T) {
	t.Parallel()
	longtest.Skip(t)
	ds, err := corpus.LoadCalculationDecks("uniform-30000")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		rules solver.Rules
		wins  int
	}{
		{solver.Rules{Stacks: 3}, 2028},
		{solver.Rules{Stacks: 3, Preplaced: true}, 3461},
		{solver.Rules{Stacks: 4}, 12110},
		{solver.Rules{Stacks: 4, Preplaced: true}, 15814},
	}
	for _, tc := range tests {
		s, err := configs.Strategies().BuildSpec("priority")
		if err != nil {
			t.Fatal(err)
		}
		sum, _, err := tournament.Evaluate(context.Background(), ds, tc.rules, s, tournament.Options{Workers: 2})
		if err != nil {
			t.Fatal(err)
		}
		if sum.Games != 30000 || sum.Wins != tc.wins {
			t.Errorf("%s: %d wins of %d, the README says %d of 30,000", tc.rules, sum.Wins, sum.Games, tc.wins)
		}
	}
}
