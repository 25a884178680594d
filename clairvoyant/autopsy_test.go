package clairvoyant_test

import (
	"context"
	"slices"
	"testing"

	"github.com/calcsol/calcsol/clairvoyant"
	"github.com/calcsol/calcsol/configs"
	"github.com/calcsol/calcsol/internal/longtest"
	"github.com/calcsol/calcsol/solver"
)

// TestAutopsy: the strategy's won games have no probes; each lost game is
// probed exactly at the positions its game reached, where the stock first
// holds each size asked, and each verdict is the solver's from that
// position (one reused solver in deck order, as the witness runs them with
// one worker); a win from a position of a game is a win from every earlier
// one, so no probe is "unwinnable" at more cards than a winnable one.
func TestAutopsy(t *testing.T) {
	base, err := configs.Strategies().BuildSpec("priority:deadlock_check=exact")
	if err != nil {
		t.Fatal(err)
	}
	rules := solver.Rules{Stacks: 3, Preplaced: true}
	ds := corpusDecks(t, longtest.Pick(12, 30))
	if quick() {
		// A won game, a lost one with winnable probes and one with an
		// unwinnable probe: every branch of the check; CALCSOL_LONG=1
		// checks all 30.
		ds = []solver.Deck{ds[1], ds[2], ds[11]}
	}
	stocks := []int{40, 24, 12, 50} // 50: no pre-placed game holds that many
	budget := clairvoyant.Budget{Nodes: 20_000}
	w, err := clairvoyant.NewStrategyWitness(context.Background(), base, rules)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	as, err := clairvoyant.Autopsies(context.Background(), w, ds, rules, stocks, budget, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	sv := clairvoyant.NewSolver(clairvoyant.Options{MemoBits: 18})
	verdicts := map[clairvoyant.Verdict]int{}
	for i, a := range as {
		sess, err := base.Start(context.Background(), rules)
		if err != nil {
			t.Fatal(err)
		}
		g, err := solver.Play(context.Background(), &ds[i], rules, sess, true)
		sess.Close()
		if err != nil {
			t.Fatal(err)
		}
		if !a.Played || a.Won != g.Won || a.Failed {
			t.Fatalf("deck %d: autopsy played %v, won %v, failed %v; the game: won %v", i, a.Played, a.Won, a.Failed, g.Won)
		}
		if g.Won {
			if a.Probes != nil {
				t.Errorf("deck %d: a won game has probes", i)
			}
			continue
		}
		if len(a.Probes) != len(stocks) {
			t.Fatalf("deck %d: %d probes for %d sizes", i, len(a.Probes), len(stocks))
		}
		cut := stockCuts(t, &ds[i], rules, g.Trace)
		lowestYes, highestNo := 99, -1
		for k, p := range a.Probes {
			n, reached := cut[stocks[k]]
			if p.Stock != stocks[k] || p.Reached != reached {
				t.Fatalf("deck %d: probe %d is at %d cards, reached %v; want %d, %v", i, k, p.Stock, p.Reached, stocks[k], reached)
			}
			if !reached {
				if p.Verdict != clairvoyant.Unknown || p.Nodes != 0 {
					t.Errorf("deck %d: a position the game never reached has verdict %s, %d nodes", i, p.Verdict, p.Nodes)
				}
				continue
			}
			want, err := sv.SolveAfter(context.Background(), ds[i], rules, g.Trace[:n], budget)
			if err != nil {
				t.Fatal(err)
			}
			if p.Verdict != want.Winnable || p.Nodes != want.Nodes {
				t.Errorf("deck %d, %d cards: %s in %d nodes; the solver: %s in %d", i, p.Stock, p.Verdict, p.Nodes, want.Winnable, want.Nodes)
			}
			verdicts[p.Verdict]++
			switch p.Verdict {
			case clairvoyant.Yes:
				lowestYes = min(lowestYes, p.Stock)
			case clairvoyant.No:
				highestNo = max(highestNo, p.Stock)
			}
		}
		if highestNo > lowestYes {
			t.Errorf("deck %d: unwinnable with %d cards in the stock, winnable later with %d", i, highestNo, lowestYes)
		}
	}
	if verdicts[clairvoyant.Yes] == 0 || verdicts[clairvoyant.No] == 0 {
		t.Fatalf("verdicts %v: the test needs both winnable and unwinnable positions", verdicts)
	}
	t.Logf("probe verdicts: %d winnable, %d unwinnable, %d unknown", verdicts[clairvoyant.Yes], verdicts[clairvoyant.No], verdicts[clairvoyant.Unknown])
}

// TestSummarize counts hand-made autopsies: unplayed decks are left out, won
// and failed games have no rows, a lost game's latest winnable probe is
// the winnable one with the fewest cards in the stock (whatever the order
// the sizes were asked in), and a game with none counts apart.
func TestSummarize(t *testing.T) {
	y, n, u := clairvoyant.Yes, clairvoyant.No, clairvoyant.Unknown
	stocks := []int{12, 36, 24}
	probe := func(vs ...clairvoyant.Verdict) []clairvoyant.Probe {
		ps := make([]clairvoyant.Probe, len(vs))
		for i, v := range vs {
			ps[i] = clairvoyant.Probe{Stock: stocks[i], Reached: true, Verdict: v}
		}
		return ps
	}
	unreached := probe(n, y, u)
	unreached[0] = clairvoyant.Probe{Stock: 12}
	tests := []struct {
		name string
		as   []clairvoyant.Autopsy
		want clairvoyant.AutopsySummary
	}{
		{"nothing played", []clairvoyant.Autopsy{{}, {}}, clairvoyant.AutopsySummary{}},
		{"won and failed", []clairvoyant.Autopsy{{Played: true, Won: true}, {Played: true, Failed: true}, {}},
			clairvoyant.AutopsySummary{Games: 2, Won: 1, Failed: 1}},
		{"latest winnable: fewest cards", []clairvoyant.Autopsy{{Played: true, Probes: probe(y, y, y)}, {Played: true, Probes: probe(n, y, y)}},
			clairvoyant.AutopsySummary{Games: 2, Lost: 2, Rows: []clairvoyant.AutopsyRow{
				{Stock: 12, Reached: 2, Winnable: 1, Unwinnable: 1, LastWinnable: 1},
				{Stock: 36, Reached: 2, Winnable: 2},
				{Stock: 24, Reached: 2, Winnable: 2, LastWinnable: 1}}}},
		{"none winnable, unreached", []clairvoyant.Autopsy{{Played: true, Probes: probe(n, u, n)}, {Played: true, Probes: unreached}},
			clairvoyant.AutopsySummary{Games: 2, Lost: 2, NoneWinnable: 1, Rows: []clairvoyant.AutopsyRow{
				{Stock: 12, Reached: 1, Unwinnable: 1},
				{Stock: 36, Reached: 2, Winnable: 1, Unknown: 1, LastWinnable: 1},
				{Stock: 24, Reached: 2, Unwinnable: 1, Unknown: 1}}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := clairvoyant.Summarize(tc.as, stocks)
			if tc.want.Rows == nil {
				tc.want.Rows = []clairvoyant.AutopsyRow{{Stock: 12}, {Stock: 36}, {Stock: 24}}
			}
			if got.Games != tc.want.Games || got.Won != tc.want.Won || got.Lost != tc.want.Lost || got.Failed != tc.want.Failed ||
				got.NoneWinnable != tc.want.NoneWinnable || !slices.Equal(got.Rows, tc.want.Rows) {
				t.Errorf("got %+v\nwant %+v", got, tc.want)
			}
		})
	}
}
