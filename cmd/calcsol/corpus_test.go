package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCorpusShippedCommand runs the exact command of docs/corpora.md and
// compares its output with the shipped file, byte for byte.
func TestCorpusShippedCommand(t *testing.T) {
	for _, c := range []struct{ file, count, seed string }{
		{"uniform-30000.txt", "30000", "20021001"},
		{"uniform-1000.txt", "1000", "1"},
	} {
		out := filepath.Join(t.TempDir(), c.file)
		_, stderr, code := calcsol(t, "", "corpus", "generate", "--deck", "standard52", "--shuffle", "U",
			"--count", c.count, "--seed", c.seed, "--out", out)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		got, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		want, err := os.ReadFile(filepath.Join("..", "..", "decks", "corpora", c.file))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s: the documented command does not reproduce the shipped file", c.file)
		}
	}
}

func TestCorpusCommands(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "d.txt")
	if _, stderr, code := calcsol(t, "", "corpus", "generate", "--deal", "players=3,adjust=40,target=runs>pairs",
		"--count", "5", "--seed", "9", "--out", file); code != 0 {
		t.Fatalf("generate: exit %d: %s", code, stderr)
	}
	stdout, stderr, code := calcsol(t, "", "corpus", "verify", file)
	if code != 0 || !strings.HasPrefix(stdout, "ok: 5 decks, checksum ") {
		t.Fatalf("verify: exit %d: %s%s", code, stdout, stderr)
	}
	// Standard output gives the same bytes as the file.
	stdout, _, _ = calcsol(t, "", "corpus", "generate", "--deal", "players=3,adjust=40,target=runs>pairs",
		"--count", "5", "--seed", "9", "--out", "-")
	if data, _ := os.ReadFile(file); stdout != string(data) {
		t.Error("--out - differs from the file")
	}
	// A tampered deck line: the checksum no longer fits.
	data, _ := os.ReadFile(file)
	lines := strings.Split(string(data), "\n")
	lines[7] = strings.Replace(lines[7], "S", "H", 1)
	bad := filepath.Join(dir, "bad.txt")
	os.WriteFile(bad, []byte(strings.Join(lines, "\n")), 0o644)
	_, stderr, code = calcsol(t, "", "corpus", "verify", bad)
	if code != 2 || !strings.Contains(stderr, "bad.txt line 8: ") {
		t.Errorf("verify of a tampered file: exit %d: %s", code, stderr)
	}

	// Readable but not canonical: an extra comment, CRLF line endings.
	canon, _ := os.ReadFile(file)
	for _, tc := range []struct{ name, data, want string }{
		{"comment", strings.Replace(string(canon), "# seed", "# made by hand\n# seed", 1), `line 4: extra '#' line "# made by hand"`},
		{"crlf", strings.ReplaceAll(string(canon), "\n", "\r\n"), "line 1 ends with CRLF"},
		{"no final newline", strings.TrimSuffix(string(canon), "\n"), "line 11 has no final newline"},
	} {
		path := filepath.Join(dir, tc.name+".txt")
		os.WriteFile(path, []byte(tc.data), 0o644)
		_, stderr, code = calcsol(t, "", "corpus", "verify", path)
		if code != 2 || !strings.Contains(stderr, tc.want) {
			t.Errorf("verify %s: exit %d: %s; want 2 and %q", tc.name, code, stderr, tc.want)
		}
	}
	// A bad generator is reported with its line.
	badGen := filepath.Join(dir, "badgen.txt")
	os.WriteFile(badGen, []byte(strings.Replace(string(canon), "# generator deal players=3,adjust=40,target=runs>pairs,gather=hands", "# generator shuffle HX", 1)), 0o644)
	if _, stderr, code = calcsol(t, "", "corpus", "verify", badGen); code != 2 || !strings.Contains(stderr, `line 3: generator "shuffle HX"`) {
		t.Errorf("verify with a bad generator: exit %d: %s", code, stderr)
	}

	stdout, stderr, code = calcsol(t, "", "corpus", "show", "uniform-1000", "--head", "2")
	if code != 0 || !strings.Contains(stdout, "seed       1\n") || !strings.Contains(stdout, "… 998 more") {
		t.Errorf("show: exit %d: %s%s", code, stdout, stderr)
	}
}

func TestCorpusBadInput(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"corpus", "generate", "--shuffle", "U", "--count", "1"}, "--out FILE is required"},
		{[]string{"corpus", "generate", "--shuffle", "U", "--deal", "players=4", "--count", "1", "--out", "-"}, "exactly one of"},
		{[]string{"corpus", "generate", "--shuffle", "U", "--count", "0", "--out", "-"}, "--count 0"},
		{[]string{"corpus", "generate", "--deck", "poker", "--shuffle", "U", "--count", "1", "--out", "-"}, "unknown deck kind"},
		{[]string{"corpus", "generate", "--deal", "players=9", "--count", "1", "--out", "-"}, "players=9: want 3..5"},
		{[]string{"corpus", "generate", "--deck", "set64", "--deal", "players=4", "--count", "1", "--out", "-"}, "cannot make set64 decks"},
		{[]string{"corpus", "verify", "no-such-corpus"}, "no embedded corpus"},
		{[]string{"corpus", "verify", os.TempDir()}, "is a directory"},
		{[]string{"corpus", "generate", "--shuffle", "U", "--count", "1", "--out", "/nonexistdir/x.txt"}, "directory /nonexistdir does not exist"},
		{[]string{"corpus", "generate", "--shuffle", "U", "--count", "1", "--out", os.TempDir()}, "is a directory"},
		{[]string{"deal", "stats", "--target", "flush"}, `unknown objective "flush"`},
		{[]string{"deal", "stats", "--from", "50", "--to", "0"}, "above --to"},
		{[]string{"deal", "stats", "--count", "tries"}, "--count tries"},
		{[]string{"deal", "show", "--deal", "adjust=500"}, "adjust=500"},
	}
	for _, tt := range tests {
		_, stderr, code := calcsol(t, "", tt.args...)
		if code != 2 || !strings.Contains(stderr, tt.want) {
			t.Errorf("%v: exit %d, %q; want 2 and %q", tt.args, code, stderr, tt.want)
		}
	}
}

func TestDealStatsCommand(t *testing.T) {
	stdout, stderr, code := calcsol(t, "", "deal", "stats", "--players", "4", "--target", "pairs",
		"--from", "-20", "--to", "20", "--step", "20", "--deals", "50", "--seed", "3")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"50 deals to 4 players, target pairs, adjust counts proposals, seed 3", "pair score", "-20", "│      0 │   0.0 │       0.0 │", "│     20 │"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, stdout)
		}
	}
	// count=swaps: 20 swaps per deal, except where a deal runs out of
	// improving exchanges within 10,000 proposals.
	stdout, stderr, code = calcsol(t, "", "deal", "stats", "--count", "swaps", "--from", "20", "--to", "20", "--deals", "50", "--seed", "3")
	var swaps, proposals float64
	row := stdout[max(strings.Index(stdout, "│     20 │"), 0):]
	if _, err := fmt.Sscanf(row, "│     20 │ %f │ %f", &swaps, &proposals); code != 0 || err != nil || swaps < 19 || swaps > 20 || proposals <= 20 {
		t.Errorf("--count swaps: exit %d, swaps %v, proposals %v: %s%s", code, swaps, proposals, stdout, stderr)
	}
	stdout, _, code = calcsol(t, "", "deal", "show", "--deal", "adjust=7,count=swaps", "--seed", "2")
	if code != 0 || !strings.Contains(stdout, "count=swaps, seed 2: 7 of ") {
		t.Errorf("deal show count=swaps: exit %d: %s", code, stdout)
	}
}
