package plugin_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/calcsol/calcsol/internal/longtest"
	"github.com/calcsol/calcsol/internal/testprog"
	"github.com/calcsol/calcsol/plugin"
	"github.com/calcsol/calcsol/solver"
	"github.com/calcsol/calcsol/tournament"
)

// python is the interpreter the Python plugin runs with (testprog.Python).
const python = testprog.Python

// needPython skips the test when python's gRPC modules are missing — or, in
// CI (CI=true), fails it: CI installs them (.ci/run).
func needPython(t *testing.T) {
	t.Helper()
	msg := testprog.PythonMissing()
	if msg == "" {
		return
	}
	if os.Getenv("CI") == "true" {
		t.Fatal(msg)
	}
	t.Skip(msg)
}

// lowestStack is the Python example's strategy written in Go: a stack top to
// a table, else the drawn card to a table, else onto the lowest stack.
type lowestStack struct{}

func (lowestStack) Choose(v solver.View) (solver.Move, error) {
	for s := range v.Stacks() {
		if t := v.Top(s); t != 0 {
			for x := 1; x <= solver.Tables; x++ {
				if v.Need(x) == t.Rank() {
					return solver.Move{Kind: solver.StackToTable, Stack: int8(s), Table: int8(x)}, nil
				}
			}
		}
	}
	for x := 1; x <= solver.Tables; x++ {
		if v.Need(x) == v.Drawn() {
			return solver.Move{Kind: solver.ToTable, Table: int8(x)}, nil
		}
	}
	best := 0
	for s := 1; s < v.Stacks(); s++ {
		if v.Height(s) < v.Height(best) {
			best = s
		}
	}
	return solver.Move{Kind: solver.ToStack, Stack: int8(best)}, nil
}

// TestPythonPlugin plays the Python example as the shipped config gives it
// (its command, run from the repository's root, and sha256) under every rule
// variant of the config, and wants, deck for deck, what the same strategy in
// Go plays in process, as they are and under meddling (agree): the Python
// SDK reads the observation blob and the delta records as the Go SDK does.
func TestPythonPlugin(t *testing.T) {
	t.Parallel()
	needPython(t)
	cfg, _ := shippedConfig(t)
	var params map[string]string
	for _, e := range cfg.Strategies {
		if e.Name == pythonEntry && len(e.Layers) == 1 && e.Layers[0].Kind == "plugin" {
			params = e.Layers[0].Params
		}
	}
	if params == nil {
		t.Fatalf("the shipped config has no plugin %s", pythonEntry)
	}
	// This test runs in plugin/, beside the root.
	argv, err := plugin.SplitCommand(params["command"])
	if err != nil {
		t.Fatal(err)
	}
	script := plugin.CheckedFile(argv)
	if script == argv[0] {
		t.Fatalf("%s: %q runs no script", pythonEntry, params["command"])
	}
	for i, a := range argv {
		if a == script && !filepath.IsAbs(a) {
			argv[i] = filepath.Join("..", a)
		}
	}
	command := strings.Join(argv, " ")
	// 100 decks by default: some 5,000 decisions through the Python SDK
	// under each rule variant, and as many again meddled; the long check
	// plays 300.
	ds := shippedDecks(t, "uniform-1000", longtest.Pick(100, 300))
	in := solver.FromChooser(solver.Info{Name: "lowest-stack"}, func(solver.Rules) (solver.Chooser, error) { return lowestStack{}, nil })
	for _, entry := range cfg.Rules {
		r := solver.Rules{Stacks: entry.Stacks, Preplaced: entry.Preplaced}
		t.Run(r.String(), func(t *testing.T) {
			t.Parallel()
			// One process for both runs: a Python process costs more to
			// start than its games.
			p := &oneSession{s: newPlugin(t, plugin.Config{Command: command, SHA256: params["sha256"], Timeout: patient})}
			t.Cleanup(func() { p.Close() })
			agree(t, ds, r, in, p, nil, true)
			if p.Info().Name != "lowest-stack" {
				t.Errorf("the Python plugin says it is %q", p.Info().Name)
			}
			p.Close()
			if n := plugin.RunningOf(p.s); n != 0 {
				t.Errorf("%d plugin processes left running", n)
			}
		})
	}
}

// TestGoExample plays the Go example plugin: no game fails, and the results
// do not depend on the batch size. Both runs play through one process, one
// worker, their games numbered apart. (At batch 1 a deck costs some 50
// round trips: 300 decks are a long check, CALCSOL_LONG=1.)
func TestGoExample(t *testing.T) {
	t.Parallel()
	bin := build(t, "./examples/goplugin")
	ds := shippedDecks(t, "uniform-1000", longtest.Pick(12, 300))
	p := &oneSession{s: newPlugin(t, plugin.Config{Command: bin, Timeout: patient})}
	t.Cleanup(func() { p.Close() })
	var runs [][]tournament.DeckResult
	for run, batch := range []int{1, 100} {
		sum, res, err := tournament.Evaluate(context.Background(), ds, solver.DefaultRules(), p, tournament.Options{Workers: 1, Batch: batch,
			Game: func(deck int) solver.GameID { return solver.GameID(run*len(ds) + deck) }})
		if err != nil {
			t.Fatal(err)
		}
		if sum.Failures > 0 {
			t.Fatalf("batch %d: %d games failed: %s", batch, sum.Failures, res[0].Reason)
		}
		runs = append(runs, res)
	}
	if diff := cmp.Diff(runs[0], runs[1]); diff != "" {
		t.Errorf("batch 1 vs batch 100:\n%s", diff)
	}
}
