package tournament_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"

	"github.com/calcsol/calcsol/configs"
	"github.com/calcsol/calcsol/solver"
	"github.com/calcsol/calcsol/tournament"
)

// tableFirst puts the drawn card on a table if one needs it and otherwise on
// the first stack; it moves a stack top whenever a table needs it.
type tableFirst struct{}

func (tableFirst) Choose(p solver.View) (solver.Move, error) {
	for s := 0; s < p.Stacks(); s++ {
		for x := 1; x <= solver.Tables; x++ {
			if t := p.Top(s); t != 0 && p.Need(x) == t.Rank() {
				return solver.Move{Kind: solver.StackToTable, Stack: int8(s), Table: int8(x)}, nil
			}
		}
	}
	for x := 1; x <= solver.Tables; x++ {
		if p.Need(x) == p.Drawn() {
			return solver.Move{Kind: solver.ToTable, Table: int8(x)}, nil
		}
	}
	return solver.Move{Kind: solver.ToStack, Stack: 0}, nil
}

func ExampleEvaluate() {
	// 200 shuffled decks from a fixed seed.
	rng := rand.New(rand.NewPCG(1, 2))
	decks := make([]solver.Deck, 200)
	for i := range decks {
		for k := range decks[i] {
			decks[i][k] = solver.Rank(k%13 + 1)
		}
		rng.Shuffle(solver.DeckSize, func(a, b int) { decks[i][a], decks[i][b] = decks[i][b], decks[i][a] })
	}
	strategy := solver.FromChooser(solver.Info{Name: "table-first"}, func(solver.Rules) (solver.Chooser, error) {
		return tableFirst{}, nil
	})
	rules := solver.Rules{Stacks: 4, Preplaced: true}
	sum, results, err := tournament.Evaluate(context.Background(), decks, rules, strategy, tournament.Options{Workers: 2})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%d/%d won, %.1f cards placed on average\n", sum.Wins, sum.Games, sum.MeanPlaced)
	// The per-deck records, in deck order whatever the number of workers.
	id := tournament.RunID{Strategy: "table-first", Corpus: "example", CorpusSHA: "none", Rules: "4-preplaced"}
	_ = tournament.WriteJSONL(os.Stdout, id, results[:1])
	// Output:
	// 0/200 won, 20.4 cards placed on average
	// {"v":1,"strategy":"table-first","corpus":"example","corpus_sha256":"none","rules":"4-preplaced","deck":0,"won":false,"placed":15,"end":"stuck: the stock is empty and no stack top can move"}
}

func ExampleMcNemar() {
	// Two strategies on the same five decks.
	a := []tournament.DeckResult{{Deck: 0, Won: true, Placed: 52}, {Deck: 1, Won: true, Placed: 52}, {Deck: 2, Placed: 40}, {Deck: 3, Won: true, Placed: 52}, {Deck: 4, Placed: 12}}
	b := []tournament.DeckResult{{Deck: 0, Won: true, Placed: 52}, {Deck: 1, Placed: 47}, {Deck: 2, Placed: 30}, {Deck: 3, Placed: 51}, {Deck: 4, Placed: 9}}
	onlyA, onlyB, p, err := tournament.McNemar(a, b)
	if err != nil {
		fmt.Println(err)
		return
	}
	// 2 discordant decks, both for A: p = 2·(1/2)² = 0.5, no evidence yet.
	fmt.Printf("only A won %d, only B won %d, p = %.3f\n", onlyA, onlyB, p)
	// Output:
	// only A won 2, only B won 0, p = 0.500
}

// A tournament: two strategies on the shipped 1,000-deck corpus with 4
// stacks and A 2 3 4 pre-placed, records streamed to a sink (here: counted),
// then the report with the paired comparison.
func ExampleTournament_Run() {
	ctx := context.Background()
	corpus, err := tournament.LoadCorpus("uniform-1000", "uniform-1000")
	if err != nil {
		fmt.Println(err)
		return
	}
	first := solver.FromChooser(solver.Info{Name: "table-first"}, func(solver.Rules) (solver.Chooser, error) { return tableFirst{}, nil })
	greedy, err := configs.Strategies().BuildSpec("greedy")
	if err != nil {
		fmt.Println(err)
		return
	}
	plan := tournament.Plan{
		Entrants: []tournament.Entrant{{Name: "table-first", Strategy: first}, {Name: "greedy", Strategy: greedy}},
		Corpora:  []*tournament.Corpus{corpus},
		Variants: []tournament.Variant{{Rules: solver.Rules{Stacks: 4, Preplaced: true}}},
	}
	t, err := tournament.New(ctx, plan, 1)
	if err != nil {
		fmt.Println(err)
		return
	}
	ta := t.NewTally()
	records := 0
	err = t.Run(ctx, ta.Sink(tournament.SinkFunc(func(recs []tournament.Record) error {
		records += len(recs) // a real sink appends them to results.jsonl
		return nil
	})), tournament.RunOptions{Workers: 2})
	if err != nil {
		fmt.Println(err)
		return
	}
	rep := ta.Report()
	fmt.Println(records, "records")
	for _, r := range rep.Rows {
		fmt.Printf("%s: %d/%d won\n", r.Strategy, r.Wins, r.Games)
	}
	p := rep.Pairs[0]
	fmt.Printf("%s vs %s: only A %d, only B %d, p = %.2g, winner %q\n", p.A, p.B, p.OnlyA, p.OnlyB, p.PHolm, p.Winner)
	// Output:
	// 2000 records
	// table-first: 0/1000 won
	// greedy: 28/1000 won
	// table-first vs greedy: only A 0, only B 28, p = 7.5e-09, winner "greedy"
}
