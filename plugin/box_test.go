package plugin_test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/calcsol/calcsol/plugin"
	"github.com/calcsol/calcsol/solver"
	"github.com/calcsol/calcsol/strategies"
	"github.com/calcsol/calcsol/tournament"
)

// report starts the misbehaving plugin in mode report with cfg, closes its
// session, and returns what it wrote: its environment as a map, with cwd and
// stdin among the keys.
func report(t *testing.T, cfg plugin.Config) map[string]string {
	t.Helper()
	dir := t.TempDir()
	cfg.Command = build(t, "./plugin/testdata/misbehave") + " report " + dir
	sess, err := newPlugin(t, cfg).Start(context.Background(), solver.DefaultRules())
	if err != nil {
		t.Fatal(err)
	}
	sess.Close()
	files, _ := filepath.Glob(filepath.Join(dir, "env.*"))
	if len(files) != 1 {
		t.Fatalf("%d reports, want 1", len(files))
	}
	b, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	env := map[string]string{}
	for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		k, v, _ := strings.Cut(l, "=")
		env[k] = v
	}
	return env
}

// TestEnvironment: a plugin gets none of the host's variables but the few
// every plugin gets and those its config names; its stdin is /dev/null.
func TestEnvironment(t *testing.T) {
	t.Setenv("CALCSOL_TEST_SECRET", "hunter2")
	t.Setenv("CALCSOL_TEST_NAMED", "named")
	t.Setenv("LANG", "C.UTF-8")
	// calcsol's own stdin is a pipe here, which the plugin must not get.
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	stdin := os.Stdin
	os.Stdin = r
	defer func() { os.Stdin = stdin }()
	env := report(t, plugin.Config{Env: []string{"CALCSOL_TEST_NAMED", "CALCSOL_TEST_SET=a=b", "CALCSOL_TEST_UNSET"}})
	for k, want := range map[string]string{
		"CALCSOL_TEST_NAMED": "named",
		"CALCSOL_TEST_SET":   "a=b",
		"LANG":               "C.UTF-8",
		"PATH":               os.Getenv("PATH"),
		"stdin":              "/dev/null",
	} {
		if got := env[k]; got != want {
			t.Errorf("%s = %q, want %q", k, got, want)
		}
	}
	for _, k := range []string{"CALCSOL_TEST_SECRET", "CALCSOL_TEST_UNSET"} {
		if v, ok := env[k]; ok {
			t.Errorf("the plugin got %s=%q", k, v)
		}
	}
	allowed := map[string]bool{"PATH": true, "LANG": true, "HOME": true, "TMPDIR": true, "cwd": true, "stdin": true,
		"CALCSOL_TEST_NAMED": true, "CALCSOL_TEST_SET": true}
	for k := range env {
		ok := allowed[k] || strings.HasPrefix(k, "LC_") || strings.HasPrefix(k, "PLUGIN_") ||
			k == "TZ" || k == "LANGUAGE" || k == "CALCSOL_PLUGIN_MAGIC_COOKIE" || k == "CALCSOL_PLUGIN_BOX"
		if !ok {
			t.Errorf("the plugin got %s from the host", k)
		}
	}
}

// TestWorkingDirectory: by default a plugin runs in a fresh directory, its
// HOME, beside its own TMPDIR; both are gone after the session. A config's
// dir is the plugin's working directory.
func TestWorkingDirectory(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	env := report(t, plugin.Config{})
	if cwd := env["cwd"]; cwd != env["HOME"] || !strings.HasPrefix(cwd, tmp+"/calcsol-plugin-") {
		t.Errorf("cwd %q, HOME %q: want one fresh directory under %s", cwd, env["HOME"], tmp)
	}
	if d := env["TMPDIR"]; !strings.HasPrefix(d, tmp+"/calcsol-plugin-") || filepath.Dir(d) != filepath.Dir(env["HOME"]) {
		t.Errorf("TMPDIR %q: want the process's own, beside its HOME %q", d, env["HOME"])
	}
	if left, _ := os.ReadDir(tmp); len(left) != 0 {
		t.Errorf("%d files left in TMPDIR after the session, %s first", len(left), left[0].Name())
	}

	dir := t.TempDir()
	if env := report(t, plugin.Config{Dir: dir}); env["cwd"] != dir {
		t.Errorf("with dir %s, cwd %q", dir, env["cwd"])
	}
	t.Chdir(dir)
	if env := report(t, plugin.Config{Dir: "."}); env["cwd"] != dir {
		t.Errorf("with dir ., cwd %q; want calcsol's, %s", env["cwd"], dir)
	}
}

// TestEnvParam: env is a list in a spec (';'-separated) as in a config, and
// a malformed entry is refused.
func TestEnvParam(t *testing.T) {
	t.Parallel()
	r := strategies.NewRegistry()
	r.MustRegister(plugin.Kind())
	s, err := r.BuildSpec("plugin:command=x,env=A;B=c d")
	if err != nil {
		t.Fatal(err)
	}
	var got string
	for _, p := range s.Info().Params {
		if p.Name == "env" {
			got = p.Value
		}
	}
	if got != "A;B=c d" {
		t.Errorf("env = %q, want %q", got, "A;B=c d")
	}
	if _, err := plugin.New(plugin.Config{Command: "x", Env: []string{"NOT A NAME=1"}}); err == nil {
		t.Error("env entry \"NOT A NAME=1\" accepted")
	}
}

// lockedBuffer is calcsol's stderr in a test.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestPluginEnd: a failed game's reason says how the plugin process ended,
// and what its stderr ended with; a plugin that dies before its handshake is
// started twice, then its games are failed; a plugin that floods its stderr
// gets StderrShown bytes of calcsol's in all its processes, then one line
// each.
func TestPluginEnd(t *testing.T) {
	t.Parallel()
	bin := build(t, "./plugin/testdata/misbehave")
	for _, tc := range []struct {
		mode string
		// decks played, 4 at a time: each process of a plugin that dies on
		// its first batch plays 4
		decks int
		want  []string // in every failed game's reason
		// the processes started, if the test counts them
		starts int
	}{
		{"crashstart", 4, []string{"did not start (exit status 1)", "tried twice"}, 2},
		{"exit7", 4, []string{"plugin exited (exit status 7)"}, 0},
		{"sigkill", 4, []string{"plugin exited (killed by signal 9 (killed))"}, 0},
		// Two processes, to share the allowance.
		{"flood", 8, []string{"plugin exited (exit status 5)", "(stderr, 1048594 bytes, ends: flood: last words)"}, 0},
	} {
		t.Run(tc.mode, func(t *testing.T) {
			t.Parallel()
			ds := shippedDecks(t, "uniform-1000", tc.decks)
			var stderr lockedBuffer
			dir := t.TempDir()
			p, err := plugin.New(plugin.Config{Command: bin + " " + tc.mode + " " + dir, Stderr: &stderr})
			if err != nil {
				t.Fatal(err)
			}
			sum, res, err := tournament.Evaluate(context.Background(), ds, solver.DefaultRules(), p, tournament.Options{Workers: 1, Batch: 4})
			if err != nil {
				t.Fatal(err)
			}
			if sum.Failures != len(ds) {
				t.Errorf("%d failures, want %d", sum.Failures, len(ds))
			}
			for _, g := range res {
				for _, w := range tc.want {
					if !strings.Contains(g.Reason, w) {
						t.Fatalf("deck %d failed with %q, want %q in it", g.Deck, g.Reason, w)
					}
				}
			}
			if n := len(pids(t, dir)); tc.starts > 0 && n != tc.starts {
				t.Errorf("the plugin was started %d times, want %d", n, tc.starts)
			}
			if tc.mode != "flood" {
				return
			}
			// Each process wrote 1 MiB.
			out := stderr.String()
			procs := len(pids(t, dir))
			if n := strings.Count(out, "bytes of its stderr not shown"); n != procs || n < 2 {
				t.Errorf("%d lines say what was not shown, want one for each of %d processes (at least 2)", n, procs)
			}
			if len(out) > plugin.StderrShown+procs*200 {
				t.Errorf("calcsol's stderr got %d bytes of the plugin's, want about %d", len(out), plugin.StderrShown)
			}
		})
	}
}

// TestNoProcessLeft: what a plugin starts ends with it, in its process group
// or not — a child in a session of its own, an orphan of a double fork, the
// child of a plugin that crashed — and no socket directory is left.
func TestNoProcessLeft(t *testing.T) {
	bin := build(t, "./plugin/testdata/misbehave")
	// One batch of 4 decks: one plugin process (setsidcrash's exits on it).
	ds := shippedDecks(t, "uniform-1000", 4)
	for _, tc := range []struct {
		mode string
		// processes that write a pid file, per plugin process
		writers int
	}{{"setsid", 2}, {"daemon", 3}, {"setsidcrash", 2}} {
		t.Run(tc.mode, func(t *testing.T) {
			dir, tmp := t.TempDir(), t.TempDir()
			t.Setenv("TMPDIR", tmp)
			p := newPlugin(t, plugin.Config{Command: bin + " " + tc.mode + " " + dir, Timeout: patient})
			sum, _, err := tournament.Evaluate(context.Background(), ds, solver.DefaultRules(), p, tournament.Options{Workers: 1, Batch: 4})
			if err != nil {
				t.Fatal(err)
			}
			if (sum.Failures == 0) != (tc.mode != "setsidcrash") {
				t.Errorf("%d failures", sum.Failures)
			}
			ps := pids(t, dir)
			if len(ps) < tc.writers || len(ps)%tc.writers != 0 {
				t.Fatalf("%d pid files, want a multiple of %d", len(ps), tc.writers)
			}
			waitGone(t, ps, 2*time.Second)
			if left, _ := os.ReadDir(tmp); len(left) != 0 {
				t.Errorf("%d files left in TMPDIR, %s first", len(left), left[0].Name())
			}
		})
	}
}

// TestRestartWindow: a plugin that crashes now and then, more than
// MaxRestarts times in a session but never MaxRestarts times within
// RestartWindow games, loses only the games in play when it crashed.
func TestRestartWindow(t *testing.T) {
	t.Parallel()
	bin := build(t, "./plugin/testdata/misbehave")
	dir := t.TempDir()
	// It crashes on its 75th batch: some 50 games of 32 at a time, so
	// about six times in 300 games and at most twice within 100.
	ds := shippedDecks(t, "uniform-1000", 300)
	const batch = 32
	p := newPlugin(t, plugin.Config{Command: bin + " rarecrash " + dir, Timeout: patient})
	sum, res, err := tournament.Evaluate(context.Background(), ds, solver.DefaultRules(), p, tournament.Options{Workers: 1, Batch: batch})
	if err != nil {
		t.Fatal(err)
	}
	restarts := len(pids(t, dir)) - 1
	t.Logf("%d restarts, %d games failed", restarts, sum.Failures)
	if restarts <= plugin.MaxRestarts {
		t.Fatalf("%d restarts: the test wants more than MaxRestarts (%d)", restarts, plugin.MaxRestarts)
	}
	// Each crash fails the batch in play; the last may have come too near
	// the end to be followed by a restart.
	if sum.Failures == 0 || sum.Failures > (restarts+1)*batch {
		t.Errorf("%d games failed in at most %d crashes of batches of %d", sum.Failures, restarts+1, batch)
	}
	for _, g := range res {
		if g.Failed && !strings.HasPrefix(g.Reason, "strategy failed: plugin exited (exit status 6)") {
			t.Errorf("deck %d failed with %q", g.Deck, g.Reason)
			break
		}
	}
}

// TestInterruptEndsChildren: Ctrl-C to `calcsol eval` ends the plugin and
// the child it started in a session of its own.
func TestInterruptEndsChildren(t *testing.T) {
	t.Parallel()
	calcsol := build(t, "./cmd/calcsol")
	bin := build(t, "./plugin/testdata/misbehave")
	dir := t.TempDir()
	cmd := exec.Command(calcsol, "eval", "--corpus", "uniform-1000", "--stacks", "3", "--workers", "1",
		"--strategy", "plugin:command="+bin+" setsidhang "+dir+",timeout=1m")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	for deadline := time.Now().Add(20 * time.Second); len(pids(t, dir)) < 2; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the plugin and its child did not start")
		}
	}
	cmd.Process.Signal(os.Interrupt)
	if err := cmd.Wait(); err == nil {
		t.Error("calcsol eval ended well after an interrupt")
	}
	waitGone(t, pids(t, dir), 2*time.Second)
}
