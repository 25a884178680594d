package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestAnalyze: the exact analysis of a late position, as JSON, is
// consistent (the position's wins are its best move's), and a position
// with a long stock is refused with exit status 2.
func TestAnalyze(t *testing.T) {
	t.Parallel()
	const deck = "A3474AK0JJ77Q580Q626639695324880KJAK2047A85Q25KJ99Q3"
	out, errOut, code := inProcess("analyze", "--deck", deck, "--stacks", "4", "--strategy", "deadlock-graph", "--after", "56", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var a analyzeJSON
	if err := json.Unmarshal([]byte(out), &a); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if a.Orders == 0 || a.Wins > a.Orders || len(a.Moves) == 0 {
		t.Fatalf("implausible analysis: %+v", a)
	}
	var best uint64
	for _, m := range a.Moves {
		best = max(best, m.Wins)
	}
	if best != a.Wins {
		t.Fatalf("position wins %d orders, its best move %d", a.Wins, best)
	}
	_, errOut, code = inProcess("analyze", "--deck", deck, "--stacks", "4", "--after", "3")
	if code != 2 || !strings.Contains(errOut, "analyze a later move") {
		t.Fatalf("long stock: exit %d, %q", code, errOut)
	}
}
