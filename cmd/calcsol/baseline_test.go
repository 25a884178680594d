package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/calcsol/calcsol/configs"
)

// A baseline whose strategy hash differs is stale (exit 4); one that says a
// lost deck was won is a regression (exit 3) naming that deck. (That the
// shipped baseline passes is the first line of testdata/script/baseline.)
func TestRegressCommand(t *testing.T) {
	t.Parallel()
	shipped := "../../baselines/shipped.yaml"
	data, err := os.ReadFile(shipped)
	if err != nil {
		t.Fatal(err)
	}
	b, err := configs.ParseBaseline(data, shipped)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	write := func(name string) string {
		out, err := configs.FormatBaseline(b)
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, name)
		os.WriteFile(path, out, 0o644)
		return path
	}
	// greedy, 3-base: claim that deck 0 (lost) was won.
	var cell int
	for i, c := range b.Cells {
		if c.Strategy == "greedy" && c.Rules == "3-base" {
			cell = i
		}
	}
	// That cell alone: regress plays only a baseline's cells (1,000 games,
	// not the shipped twelve cells' 12,000).
	b.Cells = b.Cells[cell : cell+1]
	cell = 0
	won := []byte(b.Cells[cell].Won)
	saved := b.Cells[cell]
	b.Cells[cell].Won = flipFirstBit(t, string(won))
	b.Cells[cell].Wins++
	b.Cells[cell].Traces = ""
	b.Seal() // an edit that keeps the counts true and reseals: left to the replay
	out, _, code := inProcess("regress", "--baseline", write("flipped.yaml"))
	if code != 3 || !strings.Contains(out, "REGRESSION greedy × uniform-1000 × 3-base") || !strings.Contains(out, "  deck 0: won, now lost\n") {
		t.Errorf("flipped: exit %d\n%s", code, out)
	}
	b.Cells[cell] = saved
	b.Cells[cell].Hash = "0000000000000000"
	b.Seal()
	_, errOut, code := inProcess("regress", "--baseline", write("stale.yaml"))
	if code != 4 || !strings.Contains(errOut, "stale baseline: strategy greedy's configuration changed") {
		t.Errorf("stale: exit %d, %q", code, errOut)
	}
}

// flipFirstBit sets bit 0 of a base64 bitset (deck 0 lost by greedy).
func flipFirstBit(t *testing.T, s string) string {
	t.Helper()
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
	// The first base64 character holds the top 6 bits of byte 0; bit 0 of
	// byte 0 is in the second character's value bit 4.
	i := strings.IndexByte(alphabet, s[1])
	if i&16 != 0 {
		t.Fatal("deck 0 already won")
	}
	return s[:1] + string(alphabet[i|16]) + s[2:]
}
