package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
	"github.com/rogpeppe/go-internal/txtar"
	"github.com/spf13/cobra"

	goldenfile "github.com/calcsol/calcsol/internal/golden"
	"github.com/calcsol/calcsol/internal/longtest"
	"github.com/calcsol/calcsol/internal/testprog"
)

// TestScripts runs the command-line scripts under testdata/script: each
// README and --help example as written, with its output and exit status
// (TestExamplesAreScripts checks that none is missing). go test -update
// rewrites the expected outputs inside the scripts.
//
// Not under the race detector: a script runs calcsol as a process of its
// own, some hundred times, and race-instrumented each costs ten times the
// CPU while checking the same output; the packages' own tests look for
// races in the code those processes run (tournament, plugin, search, …).
// The README's test line runs go test ./cmd/calcsol after the race run.
func TestScripts(t *testing.T) {
	t.Parallel()
	if raceDetector {
		t.Skip("the scripts run without the race detector: go test ./cmd/calcsol")
	}
	// The scripts' calcsol is a binary built from this checkout.
	binary(t)
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/script",
		UpdateScripts:       goldenfile.Updating(),
		RequireExplicitExec: true,
		// [long]: the long checks run (CALCSOL_LONG=1, package longtest).
		// The steps that pin research figures on the shipped corpora
		// (thousands of games, long searches) are marked [long]; the
		// examples themselves run on small corpora in every run.
		// [python]: testprog.Python has grpcio and protobuf, which the
		// Python plugin needs; a fresh machine may lack them, CI
		// (CI=true) installs them and wants them.
		Condition: func(cond string) (bool, error) {
			switch cond {
			case "long":
				return longtest.Enabled(), nil
			case "python":
				missing := testprog.PythonMissing()
				if missing != "" && os.Getenv("CI") == "true" {
					return false, fmt.Errorf("%s", missing)
				}
				return missing == "", nil
			}
			return false, fmt.Errorf("unknown condition %q", cond)
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"status":    cmdStatus,
			"inprocess": cmdInProcess,
			"waitfor":   cmdWaitfor,
			"noglob":    cmdNoglob,
		},
		Setup: func(env *testscript.Env) error {
			env.Setenv("PATH", binDir+string(os.PathListSeparator)+env.Getenv("PATH"))
			// The shipped files some scripts compare with.
			for _, f := range []string{"decks/corpora/uniform-30000.txt", "decks/corpora/uniform-1000.txt", "configs/priority/nanzaki-shintani-4.yaml"} {
				data, err := os.ReadFile("../../" + f)
				if err != nil {
					return err
				}
				if err := os.WriteFile(env.WorkDir+"/shipped-"+filepath.Base(f), data, 0o644); err != nil {
					return err
				}
			}
			// The shipped baseline and its tournament, for the baseline and
			// regress examples.
			if err := os.MkdirAll(env.WorkDir+"/baselines", 0o755); err != nil {
				return err
			}
			for _, f := range []string{"shipped.yaml", "shipped.tournament.yaml"} {
				data, err := os.ReadFile("../../baselines/" + f)
				if err != nil {
					return err
				}
				if err := os.WriteFile(env.WorkDir+"/baselines/"+f, data, 0o644); err != nil {
					return err
				}
			}
			// The plugin quick-start builds a Go plugin against this
			// checkout (plugin init --calcsol, set as calcsol's config
			// would), offline: from the module cache, no proxy.
			for k, v := range goEnv() {
				env.Setenv(k, v)
			}
			return nil
		},
	})
}

// goEnv is the environment a script's go build needs: this checkout for
// plugin init, the real module and build caches, and no network.
var goEnv = sync.OnceValue(func() map[string]string {
	root, _ := filepath.Abs("../..")
	env := map[string]string{"CALCSOL_PLUGIN_INIT_CALCSOL": root, "GOPROXY": "off", "GOFLAGS": "-mod=readonly"}
	out, err := exec.Command("go", "env", "GOMODCACHE", "GOCACHE", "GOPATH").Output()
	if vals := strings.Split(strings.TrimSpace(string(out)), "\n"); err == nil && len(vals) == 3 {
		env["GOMODCACHE"], env["GOCACHE"], env["GOPATH"] = vals[0], vals[1], vals[2]
	}
	return env
})

// status CODE PROG ARGS... runs PROG like exec and wants exit status CODE
// (calcsol: 2 for bad input, 130 when interrupted).
func cmdStatus(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: status CODE PROG [ARGS...]")
	}
	err := ts.Exec(args[1], args[2:]...)
	got := "0"
	if err != nil {
		got = strings.TrimPrefix(err.Error(), "exit status ")
	}
	if got != args[0] {
		ts.Fatalf("exit status %s (%v), want %s", got, err, args[0])
	}
}

// inprocess CODE calcsol ARGS... runs the calcsol command line in the test
// process (inProcess, as TestBadInput does) and wants exit status CODE; its
// output is the stdout and stderr the next checks read. For the bad flags a
// script checks beside the feature they belong to: they need no process of
// their own, and a start costs more CPU than the check. Not for what reads
// or writes the script's files (the test process runs in its own directory,
// not $WORK) nor what depends on the script's env: those take status.
func cmdInProcess(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 || args[1] != "calcsol" {
		ts.Fatalf("usage: inprocess CODE calcsol [ARGS...]")
	}
	stdout, stderr, code := inProcess(args[2:]...)
	fmt.Fprint(ts.Stdout(), stdout)
	fmt.Fprint(ts.Stderr(), stderr)
	if got := fmt.Sprint(code); got != args[0] {
		ts.Fatalf("exit status %s, want %s", got, args[0])
	}
}

// waitfor GLOB waits (up to a minute) until a file matches GLOB.
func cmdWaitfor(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: waitfor GLOB")
	}
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if m, _ := filepath.Glob(ts.MkAbs(args[0])); len(m) > 0 {
			return
		}
	}
	ts.Fatalf("no file matches %s", args[0])
}

// noglob GLOB fails if a file matches GLOB (such as a left-over temporary
// file, .out.txt.tmp-*).
func cmdNoglob(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: noglob GLOB")
	}
	if m, _ := filepath.Glob(ts.MkAbs(args[0])); len(m) > 0 {
		ts.Fatalf("files left behind: %v", m)
	}
}

// TestExamplesAreScripts: every example of every command's --help, and
// every "go run ./cmd/calcsol" line of the README, runs as written in a
// script under testdata/script ("exec calcsol …" or "status N calcsol …").
// "A && B" is two examples; a final "> FILE" or "< FILE" is the script's
// cp stdout or stdin.
func TestExamplesAreScripts(t *testing.T) {
	lines := map[string]bool{}
	files, _ := filepath.Glob("testdata/script/*.txtar")
	for _, f := range files {
		a, err := txtar.ParseFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range strings.Split(string(a.Comment), "\n") {
			l = strings.TrimSpace(l)
			// Conditions, as many as the line has: "[long] exec …".
			for strings.HasPrefix(l, "[") {
				_, rest, ok := strings.Cut(l, "] ")
				if !ok {
					break
				}
				l = rest
			}
			l = strings.TrimPrefix(l, "exec ")
			if strings.HasPrefix(l, "status ") {
				l = strings.SplitN(l, " ", 3)[2]
			}
			lines[l] = true
		}
	}
	var examples []string
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		for _, l := range strings.Split(c.Example, "\n") {
			examples = append(examples, l)
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(rootCmd)
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(readme), "\n") {
		if rest, ok := strings.CutPrefix(l, "go run ./cmd/calcsol "); ok {
			examples = append(examples, "calcsol "+rest)
		}
	}
	redirect := regexp.MustCompile(`\s+[<>]\s*\S+$|\s+#\s.*$`)
	for _, ex := range examples {
		for _, cmd := range strings.Split(ex, "&&") {
			cmd = redirect.ReplaceAllString(strings.TrimSpace(cmd), "")
			if cmd == "" {
				continue
			}
			if !lines[cmd] {
				t.Errorf("example not run by any script: %s", cmd)
			}
		}
	}
}
