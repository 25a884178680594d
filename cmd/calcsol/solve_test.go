package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/calcsol/calcsol/clairvoyant"
	"github.com/calcsol/calcsol/solver"
)

const solveDeck = "A3474AK0JJ77Q580Q626639695324880KJAK2047A85Q25KJ99Q3"

// TestSolveJSON solves one deck and replays the trace it prints.
func TestSolveJSON(t *testing.T) {
	out, errOut, code := calcsol(t, "", "solve", "--deck", solveDeck, "--stacks", "4", "--json")
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
	out, errOut, code := calcsol(t, "", "solve", "--deck", solveDeck, "--stacks", "3", "--json", "--nodes", "5")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.HasPrefix(out, `{"winnable":null,"trace":[],"nodes":`) {
		t.Fatalf("got %s", out)
	}
}

// TestSolveCorpus solves a small corpus and reads back the bound file.
func TestSolveCorpus(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "bound.json")
	stdout, errOut, code := calcsol(t, "", "solve", "--corpus", "testdata/eval/three.jsonl", "--stacks", "4", "--preplaced")
	if code != 2 {
		t.Fatalf("a JSONL file is not a corpus: exit %d: %s %s", code, stdout, errOut)
	}
	stdout, errOut, code = calcsol(t, "", "solve", "--corpus", "uniform-1000", "--stacks", "4", "--preplaced", "--nodes", "20000", "--out", out, "--workers", "2", "--timeout", "2s")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"corpus uniform-1000: 1000 decks; 4 stacks, preplaced", "clairvoyant bound: [", "per-deck verdicts: "} {
		if !strings.Contains(stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, stdout)
		}
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	b, err := clairvoyant.ReadBoundFile(f)
	if err != nil {
		t.Fatal(err)
	}
	if b.Decks != 1000 || b.Stacks != 4 || !b.Preplaced || len(b.Checksum) != 64 || b.Won == 0 {
		t.Errorf("bound file: %+v", *b)
	}

	// A second run keeps what the first settled.
	stdout, errOut, code = calcsol(t, "", "solve", "--corpus", "uniform-1000", "--stacks", "4", "--preplaced", "--nodes", "1", "--resume", out, "--workers", "1")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if want := fmt.Sprintf("winnable %d, unwinnable %d, unknown %d", b.Won, b.Lost, b.Unknown); !strings.Contains(stdout, want) {
		t.Errorf("resumed run: want %q in\n%s", want, stdout)
	}
	if _, errOut, code = calcsol(t, "", "solve", "--corpus", "uniform-1000", "--stacks", "3", "--resume", out); code != 2 {
		t.Errorf("resuming another variant's file: exit %d, want 2: %s", code, errOut)
	}
}

func TestSolveBadInput(t *testing.T) {
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
	} {
		if _, _, code := calcsol(t, "", args...); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
}
