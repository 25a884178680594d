package plugin_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/calcsol/calcsol/configs"
	"github.com/calcsol/calcsol/internal/longtest"
	"github.com/calcsol/calcsol/plugin"
	"github.com/calcsol/calcsol/solver"
	"github.com/calcsol/calcsol/strategies"
	"github.com/calcsol/calcsol/tournament"
)

// pythonEntry is the shipped config's entry of the Python example, which
// TestPythonPlugin plays.
const pythonEntry = "lowest-stack"

// shippedConfig reads configs/tournament-plugins.yaml; root is the
// repository's root.
func shippedConfig(t *testing.T) (cfg *configs.TournamentConfig, root string) {
	t.Helper()
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(root, "configs", "tournament-plugins.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	cfg, err = configs.ParseTournament(b, "tournament-plugins.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return cfg, root
}

// TestShippedConfig reads configs/tournament-plugins.yaml, builds the
// programs its plugin entries name where it says they are built, and plays
// every plugin entry under every rule variant on a few decks: the sha256 it
// gives must match the file, and no game may fail. The Python entry is
// played by TestPythonPlugin, as the config gives it, under every rule
// variant of the config: a Python process costs more to start than all the
// games here, and that test's processes check more.
func TestShippedConfig(t *testing.T) {
	cfg, root := shippedConfig(t)
	// The commands run from the repository's root, with the programs in bin/:
	// here a directory of the test's, with bin/ and examples/ in it.
	work := t.TempDir()
	if err := os.Mkdir(filepath.Join(work, "bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, pkg := range map[string]string{"calcsol": "./cmd/calcsol", "soonest-fit": "./examples/goplugin"} {
		if err := os.Symlink(build(t, pkg), filepath.Join(work, "bin", name)); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(filepath.Join(root, "examples"), filepath.Join(work, "examples")); err != nil {
		t.Fatal(err)
	}
	t.Chdir(work)
	kind := plugin.Kind()
	n := 40
	if testing.Short() || !longtest.Enabled() { // CALCSOL_LONG=1: 40
		n = 8
	}
	ds := shippedDecks(t, "uniform-1000", n)
	plugins := 0
	for _, e := range cfg.Strategies {
		if len(e.Layers) != 1 || e.Layers[0].Kind != "plugin" {
			continue
		}
		params := e.Layers[0].Params
		plugins++
		if err := strategies.CheckParams(kind.Params, params); err != nil {
			t.Fatalf("%s: %v", e.Name, err)
		}
		// The config's timeouts are for a quiet machine; this test may run
		// on a loaded one under the race detector.
		params["timeout"] = patient.String()
		s, err := kind.Build(params)
		if err != nil {
			t.Fatalf("%s: %v", e.Name, err)
		}
		if e.Name == pythonEntry {
			continue
		}
		for _, entry := range cfg.Rules {
			r := solver.Rules{Stacks: entry.Stacks, Preplaced: entry.Preplaced}
			// One worker: one process per entry and rule variant.
			sum, res, err := tournament.Evaluate(context.Background(), ds, r, s, tournament.Options{Workers: 1, Batch: s.(solver.Batcher).BatchSize()})
			if err != nil {
				t.Fatalf("%s, %s: %v", e.Name, r, err)
			}
			for _, g := range res {
				if g.Failed {
					t.Errorf("%s, %s: %d games failed, deck %d: %s", e.Name, r, sum.Failures, g.Deck, g.Reason)
					break
				}
			}
		}
	}
	if plugins != 3 || len(cfg.Rules) == 0 {
		t.Errorf("%d plugin entries and %d rule variants; want the Go, Python and served plugins", plugins, len(cfg.Rules))
	}
}
