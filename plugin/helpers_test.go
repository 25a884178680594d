package plugin_test

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/calcsol/calcsol/decks/corpus"
	"github.com/calcsol/calcsol/internal/testprog"
	"github.com/calcsol/calcsol/plugin"
	"github.com/calcsol/calcsol/solver"
)

func TestMain(m *testing.M) {
	// These tests wait on plugin processes (starts, timeouts, signals) more
	// than they compute: more of them run at once than there are cores,
	// unless -parallel says otherwise.
	flag.Parse()
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "test.parallel" })
	if !set {
		_ = flag.Set("test.parallel", strconv.Itoa(max(4, runtime.GOMAXPROCS(0))))
	}
	code := m.Run()
	plugin.KillAll()
	os.Exit(code)
}

// programs holds the programs the tests run — calcsol, the example plugin
// and the misbehaving test plugin — built from this checkout once per
// version of the sources (package testprog, shared with the command's
// tests), looked up the first time one is needed.
var programs = sync.OnceValues(func() (string, error) { return testprog.Dir("..") })

// build returns the path of program pkg (one of testprog.Programs).
func build(t testing.TB, pkg string) string {
	t.Helper()
	if !slices.Contains(testprog.Programs, pkg) {
		t.Fatalf("build %s: not among the test programs %v", pkg, testprog.Programs)
	}
	dir, err := programs()
	if err != nil {
		t.Fatal(err)
	}
	return filepath.Join(dir, path.Base(pkg))
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

// oneSession is a strategy all of whose sessions are one session of a
// plugin: runs that follow one another, with one worker each, play through
// one plugin process instead of starting their own (a start costs more CPU
// than the games of a test). Every Start must ask for the rules of the
// first; Close ends the process.
type oneSession struct {
	s     *plugin.Strategy
	rules solver.Rules
	sess  solver.Session
}

func (o *oneSession) Info() solver.Info { return o.s.Info() }

func (o *oneSession) Start(ctx context.Context, r solver.Rules) (solver.Session, error) {
	if o.sess == nil {
		sess, err := o.s.Start(ctx, r)
		if err != nil {
			return nil, err
		}
		o.sess, o.rules = sess, r
	} else if r != o.rules {
		return nil, fmt.Errorf("oneSession: started for %s, asked for %s", o.rules, r)
	}
	return kept{o.sess}, nil
}

// Close closes the session, which kills its process.
func (o *oneSession) Close() error {
	if o.sess == nil {
		return nil
	}
	return o.sess.Close()
}

// kept is a session that a run's Close leaves open for the next run.
type kept struct{ solver.Session }

func (kept) Close() error { return nil }
