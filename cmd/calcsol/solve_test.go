package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/calcsol/calcsol/clairvoyant"
	"github.com/calcsol/calcsol/solver"
)

const solveDeck = "A3474AK0JJ77Q580Q626639695324880KJAK2047A85Q25KJ99Q3"

// TestSolveJSON solves one deck and replays the trace it prints.
func TestSolveJSON(t *testing.T) {
	t.Parallel()
	out, errOut, code := inProcess("solve", "--deck", solveDeck, "--stacks", "4", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var j struct {
		Winnable *bool    `json:"winnable"`
		Trace    []string `json:"trace"`
		Nodes    int64    `json:"nodes"`
	}
	if err := json.Unmarshal([]byte(out), &j); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if j.Winnable == nil || !*j.Winnable || j.Nodes <= 0 {
		t.Fatalf("want a win: %s", out)
	}
	rules := solver.Rules{Stacks: 4}
	moves, err := solver.ParseTrace(strings.Join(j.Trace, " "), rules)
	if err != nil {
		t.Fatal(err)
	}
	d, _ := solver.ParseDeck(solveDeck)
	if g, err := solver.Replay(&d, rules, moves); err != nil || !g.Won() {
		t.Fatalf("the trace does not win: %v", err)
	}
}

// TestSolveUnknown: with a budget too small to settle the deck, the answer is
// null, never a guess.
func TestSolveUnknown(t *testing.T) {
	t.Parallel()
	out, errOut, code := inProcess("solve", "--deck", solveDeck, "--stacks", "3", "--json", "--nodes", "5")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.HasPrefix(out, `{"winnable":null,"trace":[],"nodes":`) {
		t.Fatalf("got %s", out)
	}
}

// TestSolveCorpus solves a small corpus and reads back the bound file.
func TestSolveCorpus(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	out := filepath.Join(dir, "bound.json")
	stdout, errOut, code := inProcess("solve", "--corpus", "testdata/eval/three.jsonl", "--stacks", "4", "--preplaced")
	if code != 2 {
		t.Fatalf("a JSONL file is not a corpus: exit %d: %s %s", code, stdout, errOut)
	}
	stdout, errOut, code = inProcess("solve", "--corpus", "uniform-1000", "--stacks", "4", "--preplaced", "--nodes", "20000", "--out", out, "--workers", "2", "--timeout", "500ms")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"corpus uniform-1000: 1000 decks; 4 stacks, preplaced", "clairvoyant bound: [", "per-deck verdicts: "} {
		if !strings.Contains(stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, stdout)
		}
	}
	b := readBoundFile(t, out)
	if b.Decks != 1000 || b.Stacks != 4 || !b.Preplaced || len(b.Checksum) != 64 || b.Won == 0 {
		t.Errorf("bound file: %+v", *b)
	}

	// A second run keeps what the first settled.
	stdout, errOut, code = inProcess("solve", "--corpus", "uniform-1000", "--stacks", "4", "--preplaced", "--nodes", "1", "--resume", out, "--workers", "1")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if want := fmt.Sprintf("winnable %d, unwinnable %d, unknown %d", b.Won, b.Lost, b.Unknown); !strings.Contains(stdout, want) {
		t.Errorf("resumed run: want %q in\n%s", want, stdout)
	}
	if _, errOut, code = inProcess("solve", "--corpus", "uniform-1000", "--stacks", "3", "--resume", out); code != 2 {
		t.Errorf("resuming another variant's file: exit %d, want 2: %s", code, errOut)
	}
}

// solve refuses bad flags and arguments with exit status 2 (in process:
// inProcess).
func TestSolveBadInput(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{
		{"solve"},
		{"solve", "--deck", solveDeck, "--corpus", "uniform-1000"},
		{"solve", "--deck", "A3474"},
		{"solve", "--deck", solveDeck, "--stacks", "9"},
		{"solve", "--corpus", "no-such-corpus"},
		{"solve", "--corpus", "uniform-1000", "--handoff", "20"},
		{"solve", "--corpus", "uniform-1000", "--try", "priority", "--handoff", "52"},
		{"solve", "--corpus", "uniform-1000", "--try", "priority", "--handoff", "twenty"},
		{"solve", "--corpus", "uniform-1000", "--try", "priority", "--handoff", "20", "--handoff-nodes", "-1"},
		{"solve", "--corpus", "uniform-1000", "--start", "1000"},
		{"solve", "--corpus", "uniform-1000", "--start", "-1"},
	} {
		if _, _, code := inProcess(args...); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
}

// solve --deck refuses the flags only a corpus run uses, and --corpus the
// --json of one deal, naming them, rather than answer without them.
func TestSolveModeFlags(t *testing.T) {
	t.Parallel()
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--deck", solveDeck, "--try", "priority"}, "--try needs --corpus: solve --deck searches one deal and would ignore it"},
		{[]string{"--deck", solveDeck, "--try", "priority", "--pilot", "2"}, "--try, --pilot need --corpus: solve --deck searches one deal and would ignore them"},
		{[]string{"--deck", solveDeck, "--out", "b.json"}, "--out needs --corpus"},
		{[]string{"--deck", solveDeck, "--handoff-nodes", "5"}, "--handoff-nodes needs --corpus"},
		{[]string{"--deck", solveDeck, "--pilot-assign=false", "--start", "3", "--resume", "b.json"}, "--resume, --start, --pilot-assign need --corpus"},
		{[]string{"--corpus", "uniform-1000", "--json"}, "--json needs --deck"},
	}
	for _, tc := range tests {
		_, errOut, code := inProcess(append([]string{"solve"}, tc.args...)...)
		if code != 2 || !strings.HasPrefix(errOut, "calcsol: "+tc.want) || strings.Count(errOut, "\n") != 1 {
			t.Errorf("%v: exit %d, stderr %q; want 2 and one line %q", tc.args, code, errOut, tc.want)
		}
	}
}

// Ctrl-C (SIGINT) during a corpus solve with --out keeps what was settled:
// the bound file is written whole (the decks not settled are unknown), the
// command says how to go on (--resume, and --start at the first deck not
// reached; exit 130), and --resume reads the file.
func TestSolveInterrupt(t *testing.T) {
	t.Parallel()
	processTest(t) // build the binary (skips under the race detector)
	out := filepath.Join(t.TempDir(), "b.json")
	cmd := exec.Command(binPath, "solve", "--corpus", "uniform-1000", "--stacks", "4", "--preplaced", "--workers", "1", "--out", out)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Decks take about 20 ms of CPU each: a quarter of a second settles
	// some, and most are not reached yet.
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	if err := busy(cmd.Process.Pid, 250*time.Millisecond, done); err != nil {
		cmd.Process.Kill()
		t.Fatal(err)
	}
	cmd.Process.Signal(os.Interrupt)
	err := <-done
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 130 {
		t.Fatalf("exit %v, want 130; stderr %s", err, stderr.String())
	}
	b := readBoundFile(t, out)
	settled := b.Won + b.Lost
	// One worker, decks in corpus order, every one winnable within the
	// budget: the first not reached is the first unknown.
	want := fmt.Sprintf("calcsol: interrupted: %d of 1000 decks settled, written to %s; continue with --resume %s --start %d\n", settled, out, out, settled)
	if stderr.String() != want || settled == 0 || b.Unknown != 1000-settled || b.Winnable[settled] != nil ||
		!strings.Contains(stdout.String(), "stopped by an interrupt") ||
		!strings.Contains(stdout.String(), fmt.Sprintf("not reached: deck %d and", settled)) {
		t.Errorf("stderr %q, want %q; %d settled, %d unknown; stdout:\n%s", stderr.String(), want, settled, b.Unknown, stdout.String())
	}
	// The bound file and its winning lines (out.lines.gz), nothing else.
	if entries, _ := os.ReadDir(filepath.Dir(out)); len(entries) != 2 {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Errorf("beside the bound file: %q, want only its lines file", names)
	}
	if _, errOut, code := calcsol(t, "", "solve", "--corpus", "uniform-1000", "--stacks", "4", "--preplaced", "--nodes", "1", "--resume", out, "--start", fmt.Sprint(settled)); code != 0 {
		t.Errorf("--resume the interrupted run's file: exit %d, %s", code, errOut)
	}
}

// readBoundFile reads the bound file at path.
func readBoundFile(t *testing.T, path string) *clairvoyant.BoundFile {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	b, err := clairvoyant.ReadBoundFile(f)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
