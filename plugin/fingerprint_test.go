package plugin_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/calcsol/calcsol/plugin"
	"github.com/calcsol/calcsol/search"
	"github.com/calcsol/calcsol/solver"
	"github.com/calcsol/calcsol/strategies"
)

// A plugin's fingerprint follows the content of the program it runs (or of
// the script an interpreter runs), wrapped or not; a program that cannot be
// read is an error, before any game.
func TestFingerprintFollowsTheProgram(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "player.py")
	if err := os.WriteFile(script, []byte("print('v1')\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	fingerprint := func(command string, wrap bool) (string, error) {
		t.Helper()
		var s solver.Strategy
		s, err := plugin.New(plugin.Config{Command: command})
		if err != nil {
			t.Fatal(err)
		}
		if wrap {
			s = search.NewEndgameStrategy(s, 4)
		}
		return strategies.Fingerprint(s, "plugin", nil)
	}
	var before []string
	for _, wrap := range []bool{false, true} {
		fp, err := fingerprint("python3 "+script, wrap)
		if err != nil {
			t.Fatal(err)
		}
		before = append(before, fp)
	}
	if err := os.WriteFile(script, []byte("print('v2')\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for i, wrap := range []bool{false, true} {
		fp, err := fingerprint("python3 "+script, wrap)
		if err != nil {
			t.Fatal(err)
		}
		if fp == before[i] {
			t.Errorf("wrapped %t: the fingerprint did not change with the script", wrap)
		}
	}
	if _, err := fingerprint("sh", false); err != nil {
		t.Errorf("a program found on PATH: %v", err)
	}
	if _, err := fingerprint(filepath.Join(dir, "missing"), false); err == nil || !strings.Contains(err.Error(), "missing") {
		t.Errorf("a missing program: error %v", err)
	}
}
