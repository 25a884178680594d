package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestTuneCommand runs a small search twice and a resumed one: the table,
// log and chart are written, the table loads in eval, and the same seed and
// budget give the same table and log.
func TestTuneCommand(t *testing.T) {
	t.Parallel()
	heavyUnderRace(t)
	dir := t.TempDir()
	spec := func(name string, count, seed int) string {
		p := filepath.Join(dir, name+".yaml")
		text := "deck: standard52\nshuffle: U\ncount: " + strconv.Itoa(count) + "\nseed: " + strconv.Itoa(seed) + "\n"
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	train, val, test := spec("train", 300, 1), spec("val", 300, 2), spec("test", 300, 3)
	run := func(out string, evals string, extra ...string) string {
		args := append([]string{"tune", "--table", "nanzaki-shintani", "--stacks", "3", "--train", train, "--validate", val,
			"--test", test, "--seed", "5", "--evals", evals, "--patience", "10", "--alpha", "0.3", "--out", filepath.Join(dir, out)}, extra...)
		stdout, stderr, code := inProcess(args...)
		if code != 0 {
			t.Fatalf("tune %v: exit %d\n%s%s", args, code, stdout, stderr)
		}
		return stdout
	}
	out := run("a.yaml", "30")
	for _, want := range []string{"30 evaluations", "training", "validation", "test corpus", "difference", "McNemar", "wrote"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	run("b.yaml", "30", "--workers", "1")
	read := func(name string) string {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	if read("a.jsonl") != read("b.jsonl") {
		t.Error("same seed and budget, different logs")
	}
	if strip(read("a.yaml")) != strip(read("b.yaml")) {
		t.Error("same seed and budget, different tables")
	}
	if _, err := os.Stat(filepath.Join(dir, "a.png")); err != nil {
		t.Error(err)
	}
	// Resume: 12 evaluations, then on to 30, is the run of 30.
	run("c.yaml", "12")
	run("c.yaml", "30", "--resume", filepath.Join(dir, "c.jsonl"))
	if read("a.jsonl") != read("c.jsonl") {
		t.Error("the resumed log differs from the uninterrupted one")
	}
	// The table is a table file eval loads.
	stdout, stderr, code := inProcess("eval", "--corpus", "uniform-1000", "--stacks", "3", "--table", filepath.Join(dir, "a.yaml"))
	if code != 0 || !strings.Contains(stdout, "priority/a") {
		t.Errorf("eval of the tuned table: exit %d\n%s%s", code, stdout, stderr)
	}
	// Bad input: exit 2 with the reason.
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"tune", "--table", "nanzaki-shintani"}, "--out"},
		{[]string{"tune", "--out", filepath.Join(dir, "x.yaml"), "--train", train, "--validate", train}, "training corpus"},
		{[]string{"tune", "--out", filepath.Join(dir, "x.yaml"), "--stacks", "4", "--table", "nanzaki-shintani"}, "is for 3 stacks"},
		{[]string{"tune", "--out", filepath.Join(dir, "x.yaml"), "--strategy", "random", "--param", "depth"}, "declares it"},
	} {
		_, stderr, code := inProcess(tc.args...)
		if code != 2 || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: exit %d, %q; want 2 and %q", tc.args, code, stderr, tc.want)
		}
	}
}

// strip drops the comment line with the command, which names the output file.
func strip(s string) string {
	var keep []string
	for _, l := range strings.Split(s, "\n") {
		if !strings.HasPrefix(l, "#   calcsol") && !strings.HasPrefix(l, "name:") {
			keep = append(keep, l)
		}
	}
	return strings.Join(keep, "\n")
}
