package plugin_test

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/calcsol/calcsol/decks/corpus"
	"github.com/calcsol/calcsol/plugin"
	"github.com/calcsol/calcsol/solver"
)

// binDir holds the programs the tests build once: calcsol, the example
// plugin and the misbehaving test plugin.
var binDir string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "calcsol-plugin-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binDir = dir
	code := m.Run()
	plugin.KillAll()
	os.RemoveAll(dir)
	os.Exit(code)
}

var builds sync.Map // package path → *buildOnce

type buildOnce struct {
	once sync.Once
	path string
	err  error
}

// build builds the main package pkg (a path relative to the module root)
// once per test binary and returns the program's path.
func build(t testing.TB, pkg string) string {
	t.Helper()
	v, _ := builds.LoadOrStore(pkg, &buildOnce{})
	b := v.(*buildOnce)
	b.once.Do(func() {
		b.path = filepath.Join(binDir, strings.ReplaceAll(strings.Trim(pkg, "./"), "/", "-"))
		cmd := exec.Command("go", "build", "-o", b.path, pkg)
		cmd.Dir = ".."
		if out, err := cmd.CombinedOutput(); err != nil {
			b.err = fmt.Errorf("go build %s: %v\n%s", pkg, err, out)
		}
	})
	if b.err != nil {
		t.Fatal(b.err)
	}
	return b.path
}

// shippedDecks returns the first n decks of a shipped corpus.
func shippedDecks(t testing.TB, name string, n int) []solver.Deck {
	t.Helper()
	ds, err := corpus.LoadCalculationDecks(name)
	if err != nil {
		t.Fatal(err)
	}
	if n < len(ds) {
		ds = ds[:n]
	}
	return ds
}

// newPlugin builds the strategy for command, its stderr discarded unless
// the test runs verbose.
func newPlugin(t testing.TB, cfg plugin.Config) *plugin.Strategy {
	t.Helper()
	if !testing.Verbose() {
		cfg.Stderr = io.Discard
	}
	s, err := plugin.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// pids returns the pids the misbehaving plugin wrote into dir.
func pids(t testing.TB, dir string) []int {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []int
	for _, e := range es {
		if n, err := strconv.Atoi(e.Name()); err == nil {
			out = append(out, n)
		}
	}
	return out
}

// gone reports whether no process of process group pgid is left (a zombie
// waiting for its new parent counts as gone: it runs no more).
func gone(pgid int) bool {
	if err := syscall.Kill(-pgid, 0); err == syscall.ESRCH {
		return true
	}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pgid))
	if err != nil {
		return true
	}
	// The state follows the command name in parentheses.
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	return i >= 0 && i+2 < len(s) && s[i+2] == 'Z'
}

// waitGone waits up to d for every process group in pgids to end.
func waitGone(t testing.TB, pgids []int, d time.Duration) {
	t.Helper()
	deadline := time.Now().Add(d)
	for _, p := range pgids {
		for !gone(p) {
			if time.Now().After(deadline) {
				t.Fatalf("plugin process group %d still running after %v", p, d)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
}
