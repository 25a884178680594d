package plugin_test

import (
	"context"
	"os"
	"os/exec"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/calcsol/calcsol/internal/longtest"
	"github.com/calcsol/calcsol/plugin"
	"github.com/calcsol/calcsol/solver"
	"github.com/calcsol/calcsol/tournament"
)

// python is Debian's interpreter, the one that sees python3-grpcio (a pyenv
// python3 earlier on PATH may not).
const python = "/usr/bin/python3"

// needPython skips the test when python's gRPC modules are missing — or, in
// CI (CI=true), fails it: CI installs them (.ci/run).
func needPython(t *testing.T) {
	t.Helper()
	msg := pythonMissing()
	if msg == "" {
		return
	}
	if os.Getenv("CI") == "true" {
		t.Fatal(msg)
	}
	t.Skip(msg)
}

// pythonMissing says why python cannot run the Python plugin, or is "" when
// it can: asked once, as an interpreter importing grpc costs a tenth of a
// second of CPU and three tests ask.
var pythonMissing = sync.OnceValue(func() string {
	out, err := exec.Command(python, "-c", "import grpc, google.protobuf").CombinedOutput()
	if err == nil {
		return ""
	}
	return "the Python plugin needs " + python + " with grpcio and protobuf (apt-get install python3-grpcio python3-protobuf): " + err.Error() + "\n" + string(out)
})

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

// TestPythonPlugin plays the Python example through the protocol and wants,
// deck for deck, what the same strategy in Go plays in process: the Python
// SDK reads the observation blob as the Go SDK does.
func TestPythonPlugin(t *testing.T) {
	t.Parallel()
	needPython(t)
	// 100 decks by default: some 5,000 decisions through the Python SDK
	// under each rule variant; the long check plays 300.
	ds := shippedDecks(t, "uniform-1000", longtest.Pick(100, 300))
	for _, r := range []solver.Rules{{Stacks: 3}, {Stacks: 4, Preplaced: true}} {
		in := solver.FromChooser(solver.Info{Name: "lowest-stack"}, func(solver.Rules) (solver.Chooser, error) { return lowestStack{}, nil })
		_, want, err := tournament.Evaluate(context.Background(), ds, r, in, tournament.Options{})
		if err != nil {
			t.Fatal(err)
		}
		p := newPlugin(t, plugin.Config{Command: python + " ../examples/pyplugin/plugin.py", Timeout: patient})
		// One worker: a Python process costs more to start than its games.
		sum, got, err := tournament.Evaluate(context.Background(), ds, r, p, tournament.Options{Workers: 1, Batch: 64})
		if err != nil {
			t.Fatal(err)
		}
		if sum.Failures > 0 {
			t.Fatalf("%s: %d games failed: %s", r, sum.Failures, got[0].Reason)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s (-Go in process +Python plugin):\n%s", r, diff)
		}
		if p.Info().Name != "lowest-stack" {
			t.Errorf("the Python plugin says it is %q", p.Info().Name)
		}
		if n := plugin.RunningOf(p); n != 0 {
			t.Errorf("%d plugin processes left running", n)
		}
	}
}

// TestGoExample plays the Go example plugin: no game fails, and the results
// do not depend on the batch size. (At batch 1 a deck costs some 50 round
// trips: 300 decks are a long check, CALCSOL_LONG=1.)
func TestGoExample(t *testing.T) {
	t.Parallel()
	bin := build(t, "./examples/goplugin")
	ds := shippedDecks(t, "uniform-1000", longtest.Pick(24, 300))
	var runs [][]tournament.DeckResult
	for _, batch := range []int{1, 100} {
		p := newPlugin(t, plugin.Config{Command: bin, Timeout: patient})
		sum, res, err := tournament.Evaluate(context.Background(), ds, solver.DefaultRules(), p, tournament.Options{Batch: batch})
		if err != nil {
			t.Fatal(err)
		}
		if sum.Failures > 0 {
			t.Fatalf("%d games failed: %s", sum.Failures, res[0].Reason)
		}
		runs = append(runs, res)
	}
	if diff := cmp.Diff(runs[0], runs[1]); diff != "" {
		t.Errorf("batch 1 vs batch 100:\n%s", diff)
	}
}
