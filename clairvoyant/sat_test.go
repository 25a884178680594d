package clairvoyant_test

import (
	"bytes"
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/calcsol/calcsol/clairvoyant"
	"github.com/calcsol/calcsol/internal/longtest"
	"github.com/calcsol/calcsol/solver"
)

// TestSATAgreesWithSearch decides the same deals by the search and by the
// SAT encoding (two independent methods): wherever the search settles a
// deal, the formula must give the same answer, and every SAT win must
// replay. One stack gives losses, two and four wins: a one-stack and a
// four-stack deal by default (a loss and a win), every variant and more
// deals with CALCSOL_LONG=1 (and -tags slow: more decks, among them a loss
// with two stacks).
func TestSATAgreesWithSearch(t *testing.T) {
	type tc struct {
		rules solver.Rules
		decks []int
	}
	cs := []tc{
		{solver.Rules{Stacks: 1}, []int{0, 1, 2}},
		{solver.Rules{Stacks: 1, Preplaced: true}, []int{0, 1, 2}},
		{solver.Rules{Stacks: 2, Preplaced: true}, []int{2}},
		{solver.Rules{Stacks: 4, Preplaced: true}, []int{0, 2, 3}},
	}
	switch {
	case quick():
		// A formula of the smallest and the largest size, the cheapest
		// loss and win (the two-stack deck and the one-stack deck without
		// pre-placed cards cost three times as much).
		cs = []tc{
			{solver.Rules{Stacks: 1, Preplaced: true}, []int{1}},
			{solver.Rules{Stacks: 4, Preplaced: true}, []int{0}},
		}
	case scale > 1:
		cs = append(cs, tc{solver.Rules{Stacks: 2, Preplaced: true}, []int{0, 1, 3, 4}}, tc{solver.Rules{Stacks: 4}, []int{0, 1, 2, 3, 4}})
	}
	ds := corpusDecks(t, 5)
	sv := clairvoyant.NewSolver(clairvoyant.Options{})
	seen := map[clairvoyant.Verdict]int{}
	for _, c := range cs {
		for _, i := range c.decks {
			d := ds[i]
			want, err := sv.Solve(context.Background(), d, c.rules, clairvoyant.Budget{Nodes: 3_000_000})
			if err != nil {
				t.Fatal(err)
			}
			got, err := clairvoyant.SolveSAT(context.Background(), d, c.rules, clairvoyant.Gophersat{})
			if err != nil {
				t.Fatal(err)
			}
			if !got.SAT || got.Winnable == clairvoyant.Unknown {
				t.Fatalf("%s, deck %d: SAT answer %s (SAT %v)", c.rules, i, got.Winnable, got.SAT)
			}
			if want.Winnable != clairvoyant.Unknown && got.Winnable != want.Winnable {
				t.Fatalf("%s, deck %d: the search says %s, the formula %s", c.rules, i, want.Winnable, got.Winnable)
			}
			if got.Winnable == clairvoyant.Yes {
				if g, err := solver.Replay(&d, c.rules, got.Trace); err != nil || !g.Won() {
					t.Fatalf("%s, deck %d: the SAT win does not replay to a won game: %v", c.rules, i, err)
				}
			}
			if want.Winnable != clairvoyant.Unknown {
				seen[got.Winnable]++
			}
		}
	}
	t.Logf("agreed on %d wins and %d losses", seen[clairvoyant.Yes], seen[clairvoyant.No])
	if seen[clairvoyant.Yes] == 0 || seen[clairvoyant.No] == 0 {
		t.Fatalf("compared %d wins and %d losses: want both", seen[clairvoyant.Yes], seen[clairvoyant.No])
	}
}

// TestSATSettlesHardDeal: deck 357 of uniform-1000, 3 stacks pre-placed,
// which the search left unknown after 935 million nodes
// (docs/clairvoyant.md), is won through the formula. A long check (package
// longtest): TestSATAgreesWithSearch runs the formula on whole deals in
// every run.
func TestSATSettlesHardDeal(t *testing.T) {
	longtest.Skip(t)
	d := corpusDecks(t, 358)[357]
	rules := solver.Rules{Stacks: 3, Preplaced: true}
	sv := clairvoyant.NewSolver(clairvoyant.Options{SAT: clairvoyant.Gophersat{}})
	res, err := sv.Solve(context.Background(), d, rules, clairvoyant.Budget{Nodes: 1000})
	if err != nil {
		t.Fatal(err)
	}
	if res.Winnable != clairvoyant.Yes || !res.SAT || res.Nodes == 0 {
		t.Fatalf("got %s (SAT %v, %d nodes), want yes from the SAT solver after the search", res.Winnable, res.SAT, res.Nodes)
	}
	if g, err := solver.Replay(&d, rules, res.Trace); err != nil || !g.Won() {
		t.Fatalf("the win does not replay: %v", err)
	}
}

// TestSATFormulaSize: the size of deck 0's formula (uniform-1000, 3
// stacks, tables start empty), the figure docs/clairvoyant.md gives.
func TestSATFormulaSize(t *testing.T) {
	d := corpusDecks(t, 1)[0]
	vars, clauses := clairvoyant.FormulaSize(&d, solver.Rules{Stacks: 3})
	t.Logf("%d variables, %d clauses", vars, clauses)
	if vars != 3068 || clauses != 97710 {
		t.Errorf("%d variables and %d clauses, docs/clairvoyant.md says 3,068 and 97,710", vars, clauses)
	}
}

// failingSAT answers every formula with an error, after waiting for the
// context when wait is set.
type failingSAT struct {
	wait  bool
	calls int
}

func (f *failingSAT) SolveCNF(ctx context.Context, nvars int, clauses [][]int) (bool, []bool, error) {
	f.calls++
	if f.wait {
		<-ctx.Done()
		return false, nil, ctx.Err()
	}
	return false, nil, errors.New("broken solver")
}

// TestSATStage: the SAT solver is asked only about deals the search leaves
// unknown; its time limit leaves the deal unknown, not stopped (a budget, as
// the nodes are); its other errors are errors.
func TestSATStage(t *testing.T) {
	d := corpusDecks(t, 1)[0]
	rules := solver.Rules{Stacks: 4, Preplaced: true}
	f := &failingSAT{}
	res, err := clairvoyant.NewSolver(clairvoyant.Options{SAT: f}).Solve(context.Background(), d, rules, clairvoyant.Budget{Nodes: 0})
	if err != nil || res.Winnable != clairvoyant.Yes || res.SAT || f.calls != 0 {
		t.Fatalf("settled by the search: got %s, SAT %v, %d SAT calls, err %v", res.Winnable, res.SAT, f.calls, err)
	}
	if _, err := clairvoyant.NewSolver(clairvoyant.Options{SAT: f}).Solve(context.Background(), d, rules, clairvoyant.Budget{Nodes: 1}); !errors.Is(err, clairvoyant.ErrSAT) || !strings.Contains(err.Error(), "broken solver") || f.calls != 1 {
		t.Fatalf("a failing SAT solver: err %v after %d calls, want its error, wrapping ErrSAT", err, f.calls)
	}
	w := &failingSAT{wait: true}
	res, err = clairvoyant.NewSolver(clairvoyant.Options{SAT: w, SATTime: 10 * time.Millisecond}).Solve(context.Background(), d, rules, clairvoyant.Budget{Nodes: 1})
	if err != nil || res.Winnable != clairvoyant.Unknown || res.Stopped || w.calls != 1 {
		t.Fatalf("SAT time limit: got %s, stopped %v, err %v, %d calls; want unknown, not stopped", res.Winnable, res.Stopped, err, w.calls)
	}
}

// TestDIMACS writes a formula and an answer and reads them back, and reads
// the errors of malformed input with their line.
func TestDIMACS(t *testing.T) {
	clauses := [][]int{{1, -2}, {2, 3, -1}, {-3}}
	var b bytes.Buffer
	if err := clairvoyant.WriteDIMACS(&b, 3, clauses); err != nil {
		t.Fatal(err)
	}
	n, got, err := clairvoyant.ReadDIMACS(&b)
	if err != nil || n != 3 || !slices.EqualFunc(got, clauses, slices.Equal) {
		t.Fatalf("read back %d %v, %v", n, got, err)
	}
	sat, model, err := clairvoyant.Gophersat{}.SolveCNF(context.Background(), n, got)
	if err != nil || !sat || model[3] || (model[2] && !model[1]) {
		t.Fatalf("solve: %v %v %v", sat, model, err)
	}
	b.Reset()
	clairvoyant.WriteDIMACSAnswer(&b, sat, model)
	sat2, model2, err := clairvoyant.ReadDIMACSAnswer(&b, 3)
	if err != nil || !sat2 || !slices.Equal(model, model2) {
		t.Fatalf("answer read back %v %v, %v", sat2, model2, err)
	}
	for _, c := range []struct{ in, err string }{
		{"1 2 0\n", "line 1: a clause before the problem line"},
		{"p cnf 2 1\n1 3 0\n", `line 2: literal "3" (variables 1..2)`},
		{"p cnf 2 1\n1 2\n", "line 2: the last clause does not end with 0"},
		{"c only a comment\n", "no problem line"},
		{"p cnf x 1\n", `line 1: variables "x" (want 0 to 16777216)`},
		{"p cnf 99999999999 1\n", `line 1: variables "99999999999" (want 0 to 16777216)`},
	} {
		_, _, err := clairvoyant.ReadDIMACS(strings.NewReader(c.in))
		if err == nil || err.Error() != c.err {
			t.Errorf("%q: error %v, want %q", c.in, err, c.err)
		}
	}
	for _, in := range []string{"s UNKNOWN\n", "s SATISFIABLE\nv 1 -2\n", "v 1 0\n"} {
		if _, _, err := clairvoyant.ReadDIMACSAnswer(strings.NewReader(in), 2); err == nil {
			t.Errorf("answer %q read without an error", in)
		}
	}
}

// FuzzReadDIMACS: any input is read or refused with an error, and what is
// read writes and reads back the same.
func FuzzReadDIMACS(f *testing.F) {
	f.Add("p cnf 3 2\n1 -2 0\n2 3 0\n")
	f.Add("c x\np cnf 1 1\n1\n0\n")
	f.Add("p cnf 0 0\n")
	f.Fuzz(func(t *testing.T, in string) {
		n, cs, err := clairvoyant.ReadDIMACS(strings.NewReader(in))
		if err != nil {
			return
		}
		var b bytes.Buffer
		clairvoyant.WriteDIMACS(&b, n, cs)
		n2, cs2, err := clairvoyant.ReadDIMACS(&b)
		if err != nil || n2 != n || !slices.EqualFunc(cs, cs2, slices.Equal) {
			t.Fatalf("round trip: %d %v -> %d %v, %v", n, cs, n2, cs2, err)
		}
	})
}

// TestSATAfterAgreesWithBruteForce: positions near the end of real deals
// (as in TestAgreesWithBruteForce: stacked cards, some assigned by the
// prefix and some not) are decided by the formula of the position and by an
// exhaustive search over the rules' own moves; both must agree, and every
// win must replay after the prefix. Then positions further from the end,
// against the search (SolveAfter), wherever it settles.
func TestSATAfterAgreesWithBruteForce(t *testing.T) {
	positions := cases(40)
	ds := corpusDecks(t, 400)
	rng := rand.New(rand.NewPCG(11, 2002))
	full := clairvoyant.NewSolver(clairvoyant.Options{})
	seen := map[bool]int{}
	check := func(i int, d solver.Deck, rules solver.Rules, prefix []solver.Move, want clairvoyant.Verdict) {
		t.Helper()
		got, err := clairvoyant.SolveSATAfter(context.Background(), d, rules, prefix, clairvoyant.Gophersat{})
		if err != nil {
			t.Fatal(err)
		}
		if got.Winnable != want {
			t.Fatalf("position %d (%s, deck %d after %s): the formula says %s, want %s",
				i, rules, i%len(ds), solver.FormatTrace(prefix, rules), got.Winnable, want)
		}
		if got.Winnable == clairvoyant.Yes {
			all := append(append([]solver.Move(nil), prefix...), got.Trace...)
			if end, err := solver.Replay(&d, rules, all); err != nil || !end.Won() {
				t.Fatalf("position %d: the formula's win does not replay: %v", i, err)
			}
		}
		seen[want == clairvoyant.Yes]++
	}
	for i := 0; i < positions; i++ {
		d := ds[i%len(ds)]
		rules := variants[i%len(variants)]
		rules.Stacks = 3 + i%2
		prefix, g, stacked := reducedPosition(t, full, d, rules, rng, 3+rng.IntN(6), 4, 11)
		if stacked > 11 {
			continue
		}
		want := clairvoyant.No
		if bruteForce(*g, map[string]bool{}) {
			want = clairvoyant.Yes
		}
		check(i, d, rules, prefix, want)
	}
	for i := 0; i < positions/2; i++ {
		d := ds[100+i]
		rules := variants[i%len(variants)]
		prefix, _, _ := reducedPosition(t, full, d, rules, rng, 12+rng.IntN(12), 6, 20)
		res, err := full.SolveAfter(context.Background(), d, rules, prefix, clairvoyant.Budget{Nodes: 200_000})
		if err != nil {
			t.Fatal(err)
		}
		if res.Winnable != clairvoyant.Unknown {
			check(100+i, d, rules, prefix, res.Winnable)
		}
	}
	t.Logf("agreed on %d winnable positions and %d lost", seen[true], seen[false])
	if seen[true] == 0 || seen[false] == 0 {
		t.Errorf("the positions should mix wins (%d) and losses (%d)", seen[true], seen[false])
	}
}
