package plugin_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/calcsol/calcsol/configs"
	"github.com/calcsol/calcsol/internal/interrupt"
	"github.com/calcsol/calcsol/internal/longtest"
	"github.com/calcsol/calcsol/plugin"
	"github.com/calcsol/calcsol/solver"
	"github.com/calcsol/calcsol/tournament"
)

// TestSameResultsInProcessAndPlugin plays the shipped strategies in process
// and through `calcsol plugin serve`, and wants the same result for every
// deck; priority under both rule variants of a tournament also under
// meddling (agree).
func TestSameResultsInProcessAndPlugin(t *testing.T) {
	t.Parallel()
	calcsol := build(t, "./cmd/calcsol")
	// 64 decks by default, compared game for game; the long check plays
	// the whole corpus.
	ds := shippedDecks(t, "uniform-1000", longtest.Pick(64, 1000))
	seed := func(i int) uint64 { return uint64(i)*0x9e3779b97f4a7c15 + 7 }
	for _, tc := range []struct {
		spec   string
		rules  solver.Rules
		meddle bool
	}{
		{"priority", solver.Rules{Stacks: 3}, true},
		{"priority:deadlock_check=exact", solver.Rules{Stacks: 3, Preplaced: true}, false},
		{"priority", solver.Rules{Stacks: 4}, false},
		{"priority", solver.Rules{Stacks: 4, Preplaced: true}, true},
		{"greedy", solver.Rules{Stacks: 3}, false},
		{"greedy", solver.Rules{Stacks: 4}, false},
		{"random", solver.Rules{Stacks: 3}, false},
		{"random", solver.Rules{Stacks: 4, Preplaced: true}, false},
	} {
		t.Run(fmt.Sprintf("%s/%s", tc.spec, tc.rules), func(t *testing.T) {
			t.Parallel()
			in, err := configs.Strategies().BuildSpec(tc.spec)
			if err != nil {
				t.Fatal(err)
			}
			p := &oneSession{s: newPlugin(t, plugin.Config{Command: calcsol + " plugin serve " + tc.spec, Timeout: patient})}
			t.Cleanup(func() { p.Close() })
			agree(t, ds, tc.rules, in, p, seed, tc.meddle)
			if name := p.Info().Name; name != in.Info().Name {
				t.Errorf("plugin reports name %q, want %q", name, in.Info().Name)
			}
			p.Close()
			if n := plugin.RunningOf(p.s); n != 0 {
				t.Errorf("%d plugin processes left running", n)
			}
		})
	}
}

// agree plays ds under r with in, in process, and with p, a plugin, on one
// worker in batches of 64, and wants the same result for every deck: as
// they are, then, if meddle, both wrapped in meddling, so that the plugin is
// sent whole observations and delta records mixed, the deltas only for
// games that went on from its own answer. The runs share p's process, their
// games numbered apart. seed gives the games' seeds (nil: 0).
func agree(t *testing.T, ds []solver.Deck, r solver.Rules, in solver.Strategy, p *oneSession, seed func(int) uint64, meddle bool) {
	t.Helper()
	wraps := []func(solver.Strategy) solver.Strategy{func(s solver.Strategy) solver.Strategy { return s }}
	if meddle {
		wraps = append(wraps, func(s solver.Strategy) solver.Strategy { return meddling{s} })
	}
	for run, wrap := range wraps {
		// A stochastic strategy draws from a game's seed and id.
		game := func(deck int) solver.GameID { return solver.GameID(run*len(ds) + deck) }
		_, want, err := tournament.Evaluate(context.Background(), ds, r, wrap(in), tournament.Options{Seed: seed, Game: game})
		if err != nil {
			t.Fatal(err)
		}
		sum, got, err := tournament.Evaluate(context.Background(), ds, r, wrap(p), tournament.Options{Workers: 1, Batch: 64, Seed: seed, Game: game})
		if err != nil {
			t.Fatal(err)
		}
		what := wrap(in).Info().Name
		for _, g := range got {
			if g.Failed {
				t.Fatalf("%s, %s: %d games failed, deck %d: %s", what, r, sum.Failures, g.Deck, g.Reason)
			}
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s, %s: through the plugin (-in process +plugin):\n%s", what, r, diff)
		}
	}
}

// meddling wraps a strategy and takes some of its decisions from it: every
// third decision of a game it plays itself (the base is not asked), and at
// every fifth it asks the base but plays a move of its own. A plugin host
// under it sees games that did not go on from the plugin's last answer and
// must send them whole, not as delta records.
type meddling struct{ base solver.Strategy }

func (m meddling) Info() solver.Info { return solver.Info{Name: "meddling " + m.base.Info().Name} }

func (m meddling) Start(ctx context.Context, r solver.Rules) (solver.Session, error) {
	sess, err := m.base.Start(ctx, r)
	if err != nil {
		return nil, err
	}
	return &meddler{Session: sess}, nil
}

type meddler struct {
	solver.Session
	sub    []solver.Request
	subOut []solver.Decision
	idx    []int
}

// own is the meddler's move: the last legal one.
func own(v solver.View) solver.Move {
	ms := v.AppendLegalMoves(nil)
	return ms[len(ms)-1]
}

func (m *meddler) Decide(ctx context.Context, reqs []solver.Request, out []solver.Decision) error {
	m.sub, m.idx = m.sub[:0], m.idx[:0]
	for i, rq := range reqs {
		if rq.Step%3 == 0 {
			out[i] = solver.Decision{Move: own(rq.Position)}
			continue
		}
		m.sub = append(m.sub, rq)
		m.idx = append(m.idx, i)
	}
	m.subOut = append(m.subOut[:0], make([]solver.Decision, len(m.sub))...)
	if err := m.Session.Decide(ctx, m.sub, m.subOut); err != nil {
		return err
	}
	for j, i := range m.idx {
		out[i] = m.subOut[j]
		if reqs[i].Step%5 == 0 {
			out[i].Move = own(reqs[i].Position)
		}
	}
	return nil
}

// TestContainment runs misbehaving plugins in a tournament: each costs only
// its own games, which fail with the reason; the run completes; a
// well-behaved plugin, playing again after each of them, plays as before; no
// process is left.
func TestContainment(t *testing.T) {
	t.Parallel()
	bin := build(t, "./plugin/testdata/misbehave")
	calcsol := build(t, "./cmd/calcsol")
	// 48 decks, 8 in play at once on one worker: a plugin that crashes or
	// hangs in every process fails 8 games in each of its 1+MaxRestarts
	// processes, and the session gives up on the 16 left.
	ds := shippedDecks(t, "uniform-1000", 48)
	r := solver.Rules{Stacks: 3}
	ctx := context.Background()
	greedy, _ := configs.Strategies().BuildSpec("greedy")
	_, want, err := tournament.Evaluate(ctx, ds, r, greedy, tournament.Options{})
	if err != nil {
		t.Fatal(err)
	}
	// The well-behaved plugin is one process for the whole test, alive
	// while the misbehaving ones crash and are killed beside it; its runs
	// take turns.
	good := &oneSession{s: newPlugin(t, plugin.Config{Command: calcsol + " plugin serve greedy", Timeout: patient})}
	var goodMu sync.Mutex
	t.Cleanup(func() { good.Close() })
	for i, tc := range []struct {
		mode string
		// every failed game's reason contains one of these
		reasons []string
		// all games fail
		all bool
		// the time per decision (0: 50ms) and the least a batch gets (0:
		// MinBatchTimeout)
		timeout, minBatch time.Duration
	}{
		{mode: "good"},
		{mode: "crash", reasons: []string{"plugin exited", "gave up after 3 restarts"}},
		{mode: "panic", reasons: []string{"strategy panicked: misbehave: boom"}},
		// Each of its processes costs a batch's timeout: a short one.
		{mode: "hang", reasons: []string{"decisions × 10ms, at least 50ms); killed it", "gave up after 3 restarts"}, all: true,
			timeout: 10 * time.Millisecond, minBatch: 50 * time.Millisecond},
		{mode: "junk", reasons: []string{"did not start", "tried twice"}, all: true},
		{mode: "crashstart", reasons: []string{"did not start", "tried twice"}, all: true},
		{mode: "illegal", reasons: []string{"illegal move"}, all: true},
		{mode: "wronggame", reasons: []string{"plugin answered for game 1000"}, all: true},
		{mode: "malformed", reasons: []string{"plugin sent a malformed answer: decision"}, all: true},
	} {
		t.Run(tc.mode, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			timeout := 50 * time.Millisecond
			if tc.timeout > 0 {
				timeout = tc.timeout
			}
			p := newPlugin(t, plugin.Config{Command: bin + " " + tc.mode + " " + dir, Timeout: timeout})
			if tc.minBatch > 0 {
				plugin.SetMinBatchTimeout(p, tc.minBatch)
			}
			sum, res, err := tournament.Evaluate(ctx, ds, r, p, tournament.Options{Workers: 1, Batch: 8})
			if err != nil {
				t.Fatalf("the run did not complete: %v", err)
			}
			if tc.mode == "good" && sum.Failures != 0 {
				t.Fatalf("%d failures from a good plugin: %v", sum.Failures, res[0].Reason)
			}
			if tc.mode != "good" && sum.Failures == 0 {
				t.Fatal("no game failed")
			}
			if tc.all && sum.Failures != len(ds) {
				t.Errorf("%d of %d games failed, want all", sum.Failures, len(ds))
			}
			for _, g := range res {
				if g.Failed && !containsAny(g.Reason, tc.reasons) {
					t.Errorf("deck %d failed with %q, want one of %q", g.Deck, g.Reason, tc.reasons)
					break
				}
			}
			if n := plugin.RunningOf(p); n != 0 {
				t.Errorf("%d plugin processes left running", n)
			}
			waitGone(t, pids(t, dir), 2*time.Second)
			// Another plugin's results are unchanged (its games numbered
			// apart from the other runs').
			goodMu.Lock()
			_, got, err := tournament.Evaluate(ctx, ds, r, good, tournament.Options{Workers: 1, Batch: len(ds),
				Game: func(deck int) solver.GameID { return solver.GameID(i*len(ds) + deck) }})
			goodMu.Unlock()
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("greedy through a plugin after %s (-in process +plugin):\n%s", tc.mode, diff)
			}
		})
	}
}

// patient is the timeout of plugins in tests that compare results: long
// enough for a loaded machine running the race detector.
const patient = 10 * time.Second

func containsAny(s string, subs []string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

// TestSHA256 starts a plugin whose file matches the config's sha256, then
// edits the file and wants a refusal: no process started, every game failed.
// The file is a script sh runs (the file sha256 covers, CheckedFile), which
// execs the misbehaving plugin: a few bytes to hash at each start, not a
// program of megabytes.
func TestSHA256(t *testing.T) {
	t.Parallel()
	bin := build(t, "./plugin/testdata/misbehave")
	dir, pidDir := t.TempDir(), t.TempDir()
	script := filepath.Join(dir, "plugin.sh")
	if err := os.WriteFile(script, []byte("exec '"+bin+"' good '"+pidDir+"'\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	sum, err := plugin.FileSHA256(script)
	if err != nil {
		t.Fatal(err)
	}
	ds := shippedDecks(t, "uniform-1000", 8)
	cfg := plugin.Config{Command: "sh " + script, SHA256: sum, Timeout: patient}
	s, _, err := tournament.Evaluate(context.Background(), ds, solver.DefaultRules(), newPlugin(t, cfg), tournament.Options{Workers: 1, Batch: 8})
	if err != nil || s.Failures != 0 {
		t.Fatalf("matching sha256: %d failures, %v", s.Failures, err)
	}
	started := len(pids(t, pidDir))
	if started == 0 {
		t.Fatal("the plugin with a matching sha256 did not start")
	}

	f, err := os.OpenFile(script, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.Write([]byte("#\n"))
	f.Close()
	s, res, err := tournament.Evaluate(context.Background(), ds, solver.DefaultRules(), newPlugin(t, cfg), tournament.Options{Workers: 1, Batch: 8})
	if err != nil {
		t.Fatal(err)
	}
	if s.Failures != len(ds) || !strings.Contains(res[0].Reason, "refused: its sha256 is") {
		t.Errorf("edited plugin: %d failures, reason %q; want a refusal of every game", s.Failures, res[0].Reason)
	}
	if n := len(pids(t, pidDir)); n != started {
		t.Errorf("the edited plugin was started %d times", n-started)
	}
}

// TestSignals runs `calcsol eval` with a plugin that hangs and stops calcsol:
// after SIGTERM or SIGHUP calcsol kills the plugin's process group,
// removes its socket directory and exits 130; after SIGKILL the
// plugin notices its host is gone and exits by itself.
func TestSignals(t *testing.T) {
	t.Parallel()
	calcsol := build(t, "./cmd/calcsol")
	bin := build(t, "./plugin/testdata/misbehave")
	// After a SIGKILL the plugin ends on its own, when its parent changes
	// (sdk.watchParent looks every 200 ms); on a machine at load 17 that
	// once took more than 5 s.
	for _, tc := range []struct {
		sig  syscall.Signal
		wait time.Duration
	}{{syscall.SIGTERM, 2 * time.Second}, {syscall.SIGHUP, 2 * time.Second}, {syscall.SIGKILL, 10 * time.Second}} {
		t.Run(tc.sig.String(), func(t *testing.T) {
			if tc.sig != syscall.SIGKILL && !interrupt.Watches(tc.sig) {
				t.Skipf("%v is ignored here (nohup), and so by calcsol", tc.sig)
			}
			t.Parallel()
			dir, tmp := t.TempDir(), t.TempDir()
			cmd := exec.Command(calcsol, "eval", "--corpus", "uniform-1000", "--stacks", "3", "--workers", "1",
				"--strategy", "plugin:command="+bin+" hang "+dir+",timeout=1m")
			// The plugin's socket directory goes to a temporary directory of
			// the test's: a SIGKILLed calcsol cannot remove it.
			cmd.Env = append(os.Environ(), "TMPDIR="+tmp)
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			defer cmd.Process.Kill()
			deadline := time.Now().Add(20 * time.Second)
			for len(pids(t, dir)) == 0 {
				if time.Now().After(deadline) {
					t.Fatal("the plugin did not start")
				}
				time.Sleep(10 * time.Millisecond)
			}
			time.Sleep(300 * time.Millisecond) // into its hanging Decide
			ps := pids(t, dir)
			if err := cmd.Process.Signal(tc.sig); err != nil {
				t.Fatal(err)
			}
			err := cmd.Wait()
			waitGone(t, ps, tc.wait)
			if tc.sig == syscall.SIGKILL {
				return
			}
			// Stopped cleanly, as without plugins: status 130.
			if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 130 {
				t.Errorf("exit %v after %v, want status 130", err, tc.sig)
			}
			// Stopped by a signal it handles, calcsol leaves no temporary files.
			left, err := os.ReadDir(tmp)
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range left {
				t.Errorf("left behind in TMPDIR after %v: %s", tc.sig, e.Name())
			}
		})
	}
}
