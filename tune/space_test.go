package tune

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/calcsol/calcsol/configs"
	"github.com/calcsol/calcsol/internal/longtest"
	"github.com/calcsol/calcsol/solver"
	"github.com/calcsol/calcsol/strategies"
)

func table1(t testing.TB) *strategies.Table {
	t.Helper()
	tab, err := configs.LoadPriority(configs.DefaultPriority)
	if err != nil {
		t.Fatal(err)
	}
	return tab
}

// opsOf returns the multiset of a rank's operations as sorted strings.
func opsOf(ops []strategies.Op) []string {
	s := strings.Fields(strategies.FormatOps(ops))
	slices.Sort(s)
	return s
}

// TestNeighbourMoves checks each kind of move on its own: the neighbour is a
// valid table, differs from its origin as the move says, and leaves the
// origin unchanged.
func TestNeighbourMoves(t *testing.T) {
	rules := solver.Rules{Stacks: 3}
	depth := solver.Param{Name: "depth", Kind: solver.ParamInt, Min: 0, Max: 8}
	weight := solver.Param{Name: "weight", Kind: solver.ParamFloat, Min: -1, Max: 1}
	mode := solver.Param{Name: "mode", Kind: solver.ParamChoice, Choices: []string{"a", "b", "c"}}
	flag := solver.Param{Name: "flag", Kind: solver.ParamBool}
	tests := []struct {
		name  string
		kind  moveKind
		check func(t *testing.T, before, after Candidate, desc string)
	}{
		{"swap", moveKind{name: "swap"}, func(t *testing.T, b, a Candidate, desc string) {
			r := changedRank(t, b, a)
			if !slices.Equal(opsOf(b.Table.Ops[r]), opsOf(a.Table.Ops[r])) {
				t.Errorf("%s: the operations of %s changed, not only their order", desc, r)
			}
			if n := diffPositions(b.Table.Ops[r], a.Table.Ops[r]); n != 2 {
				t.Errorf("%s: %d positions changed, want 2", desc, n)
			}
		}},
		{"move", moveKind{name: "move"}, func(t *testing.T, b, a Candidate, desc string) {
			r := changedRank(t, b, a)
			if !slices.Equal(opsOf(b.Table.Ops[r]), opsOf(a.Table.Ops[r])) {
				t.Errorf("%s: the operations of %s changed, not only their order", desc, r)
			}
		}},
		{"insert", moveKind{name: "insert"}, func(t *testing.T, b, a Candidate, desc string) {
			r := changedRank(t, b, a)
			if len(a.Table.Ops[r]) != len(b.Table.Ops[r])+1 {
				t.Errorf("%s: %d operations, want %d", desc, len(a.Table.Ops[r]), len(b.Table.Ops[r])+1)
			}
			for _, op := range a.Table.Ops[r] {
				if !slices.Contains(Allowed(a.Table.Stacks, false), op) { // the space is not extended: no F or E
					t.Errorf("%s: %s is not an allowed operation", desc, op)
				}
			}
		}},
		{"drop", moveKind{name: "drop"}, func(t *testing.T, b, a Candidate, desc string) {
			r := changedRank(t, b, a)
			if len(a.Table.Ops[r]) != len(b.Table.Ops[r])-1 {
				t.Errorf("%s: %d operations, want %d", desc, len(a.Table.Ops[r]), len(b.Table.Ops[r])-1)
			}
		}},
		{"option", moveKind{name: "option", which: "deadlock_check"}, func(t *testing.T, b, a Candidate, desc string) {
			if a.Table.Options.Check == b.Table.Options.Check {
				t.Errorf("%s: deadlock_check unchanged", desc)
			}
			for r := solver.Rank(1); r <= solver.NumRanks; r++ {
				if strategies.FormatOps(a.Table.Ops[r]) != strategies.FormatOps(b.Table.Ops[r]) {
					t.Errorf("%s: the operations of %s changed", desc, r)
				}
			}
		}},
		{"int param", moveKind{name: "param", which: "depth"}, func(t *testing.T, b, a Candidate, desc string) {
			if err := strategies.CheckValue(depth, a.Params["depth"]); err != nil || a.Params["depth"] == b.Params["depth"] {
				t.Errorf("%s: depth %s → %s (%v)", desc, b.Params["depth"], a.Params["depth"], err)
			}
		}},
		{"float param", moveKind{name: "param", which: "weight"}, func(t *testing.T, b, a Candidate, desc string) {
			if err := strategies.CheckValue(weight, a.Params["weight"]); err != nil || a.Params["weight"] == b.Params["weight"] {
				t.Errorf("%s: weight %s → %s (%v)", desc, b.Params["weight"], a.Params["weight"], err)
			}
		}},
		{"choice param", moveKind{name: "param", which: "mode"}, func(t *testing.T, b, a Candidate, desc string) {
			if err := strategies.CheckValue(mode, a.Params["mode"]); err != nil || a.Params["mode"] == b.Params["mode"] {
				t.Errorf("%s: mode %s → %s (%v)", desc, b.Params["mode"], a.Params["mode"], err)
			}
		}},
		{"bool param", moveKind{name: "param", which: "flag"}, func(t *testing.T, b, a Candidate, desc string) {
			if a.Params["flag"] == b.Params["flag"] {
				t.Errorf("%s: flag unchanged", desc)
			}
		}},
	}
	space := &Space{Rules: rules, Ops: true, Options: []string{"deadlock_check"}, Params: []solver.Param{depth, weight, mode, flag}}
	start := Candidate{Table: table1(t), Params: map[string]string{"depth": "0", "weight": "1", "mode": "b", "flag": "true"}}
	if err := space.Check(start); err != nil {
		t.Fatal(err)
	}
	origin := start.Text()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(1, 2))
			applied := 0
			for range 500 {
				n := start.Clone()
				desc, ok := space.apply(rng, tc.kind, &n)
				if !ok {
					continue
				}
				if err := n.Table.Validate(rules); err != nil {
					if tc.kind.name == "drop" && strings.Contains(err.Error(), "never used") {
						continue // Neighbour draws again; TestNeighbourValid covers it
					}
					t.Fatalf("%s: %v", desc, err)
				}
				applied++
				tc.check(t, start, n, desc)
			}
			if applied == 0 {
				t.Fatal("the move never applied")
			}
			if start.Text() != origin {
				t.Fatal("a move changed its origin")
			}
		})
	}
}

func changedRank(t *testing.T, b, a Candidate) solver.Rank {
	t.Helper()
	var changed []solver.Rank
	for r := solver.Rank(1); r <= solver.NumRanks; r++ {
		if strategies.FormatOps(b.Table.Ops[r]) != strategies.FormatOps(a.Table.Ops[r]) {
			changed = append(changed, r)
		}
	}
	if len(changed) != 1 {
		t.Fatalf("ranks changed: %v, want exactly one", changed)
	}
	return changed[0]
}

func diffPositions(a, b []strategies.Op) int {
	n := 0
	for i := range a {
		if a[i] != b[i] {
			n++
		}
	}
	return n
}

// TestNeighbourValid walks long random paths through the space, from tables
// for 1, 3 and 5 stacks: every neighbour and every kick is a valid table
// (3,000 steps with CALCSOL_LONG=1, fewer by default and under the race
// detector: package longtest).
func TestNeighbourValid(t *testing.T) {
	for _, stacks := range []int{1, 3, 5} {
		rules := solver.Rules{Stacks: stacks}
		tab := table1(t)
		if stacks == 1 {
			tab = &strategies.Table{Name: "one", Stacks: "Z", Options: strategies.DefaultOptions()}
			for r := 1; r <= solver.NumRanks; r++ {
				tab.Ops[r] = []strategies.Op{{Kind: strategies.OpStack, Table: 1, Stack: 'Z'}}
			}
		} else if stacks > 3 {
			var err error
			if tab, err = strategies.Derive(tab, rules); err != nil {
				t.Fatal(err)
			}
		}
		space := &Space{Rules: rules, Ops: true, Options: OptionNames()}
		c := Candidate{Table: tab}
		rng := rand.New(rand.NewPCG(uint64(stacks), 9))
		for i := range longtest.Size(150, 600, 3000) {
			n, desc, err := space.Neighbour(rng, c)
			if err != nil {
				t.Fatalf("%d stacks, step %d: %v", stacks, i, err)
			}
			if err := n.Table.Validate(rules); err != nil {
				t.Fatalf("%d stacks, step %d, %s: %v", stacks, i, desc, err)
			}
			if _, err := strategies.NewPriority(n.Table, rules); err != nil {
				t.Fatalf("%d stacks, step %d, %s: %v", stacks, i, desc, err)
			}
			if n.Text() == c.Text() {
				t.Fatalf("%d stacks, step %d: %s changed nothing", stacks, i, desc)
			}
			c = n
		}
		k, _, err := space.Kick(rng, c, 5)
		if err != nil || k.Table.Validate(rules) != nil {
			t.Fatalf("%d stacks: kick: %v", stacks, err)
		}
	}
}

func TestSpaceCheck(t *testing.T) {
	rules := solver.Rules{Stacks: 3}
	tests := []struct {
		name  string
		space Space
		start Candidate
		want  string
	}{
		{"nothing", Space{Rules: rules}, Candidate{}, "nothing to tune"},
		{"no table", Space{Rules: rules, Ops: true}, Candidate{}, "needs a start table"},
		{"bad option", Space{Rules: rules, Options: []string{"colour"}}, Candidate{Table: table1(t)}, "unknown table option"},
		{"text param", Space{Rules: rules, Params: []solver.Param{{Name: "f", Kind: solver.ParamText}}}, Candidate{Params: map[string]string{"f": "x"}}, "is text"},
		{"no range", Space{Rules: rules, Params: []solver.Param{{Name: "k", Kind: solver.ParamInt, Min: 3, Max: 3}}}, Candidate{Params: map[string]string{"k": "3"}}, "do not make a range"},
		{"no start value", Space{Rules: rules, Params: []solver.Param{{Name: "b", Kind: solver.ParamBool}}}, Candidate{}, "no start value"},
		{"wrong stacks", Space{Rules: solver.Rules{Stacks: 4}, Ops: true}, Candidate{Table: table1(t)}, "is for 3 stacks"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.space.Check(tc.start)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Check = %v, want an error containing %q", err, tc.want)
			}
		})
	}
}
