package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestShuffleApplyWorkedExamples runs SPEC §5's worked examples through the
// command line, with the parameters given in a YAML file.
func TestShuffleApplyWorkedExamples(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	h3 := write("h3.yaml", "hindu: {mean: 3, sd: 0}\n")
	d3 := write("d3.yaml", "deal: {piles: 3, order: natural}\n")
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--seq", "H", "--n", "10", "--shuffle-config", h3}, "8 9 10 5 6 7 2 3 4 1\n"},
		{[]string{"--seq", "D", "--n", "10", "--shuffle-config", d3}, "4 7 10 3 6 9 2 5 8 1\n"},
		{[]string{"--seq", "D", "--n", "10", "--shuffle-config", d3, "--show", "deck"}, "10 7 4 1 8 5 2 9 6 3\n"},
		{[]string{"--seq", "F", "--n", "6", "--sets", "2"}, "1 3 5 2 4 6\n1 3 5 2 4 6\n"},
	}
	for _, tc := range tests {
		out, errOut, code := calcsol(t, "", append([]string{"shuffle", "apply"}, tc.args...)...)
		if code != 0 || out != tc.want {
			t.Errorf("shuffle apply %v: exit %d, %q %s; want %q", tc.args, code, out, errOut, tc.want)
		}
	}
}

// TestShuffleApplySeeded: same seed, same lines; another seed, other lines.
func TestShuffleApplySeeded(t *testing.T) {
	run := func(seed string) string {
		out, errOut, code := calcsol(t, "", "shuffle", "apply", "--seq", "HDHRDHH", "--seed", seed, "--sets", "3")
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		return out
	}
	a, b, c := run("7"), run("7"), run("8")
	if a != b || a == c || strings.Count(a, "\n") != 3 || len(strings.Fields(strings.Split(a, "\n")[0])) != 52 {
		t.Errorf("seed 7 twice: %q / %q; seed 8: %q", a, b, c)
	}
}

func TestShuffleCosts(t *testing.T) {
	out, errOut, code := calcsol(t, "", "shuffle", "costs", "--limit", "60", "--methods", "HRD", "--one-deal")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"D^1R^4", "D^1R^3H^3", "D^1R^2H^5", "D^1R^1H^7", "D^1H^10", "396", "5 combinations"} {
		if !strings.Contains(out, want) {
			t.Errorf("costs table lacks %q:\n%s", want, out)
		}
	}
	out, _, code = calcsol(t, "", "shuffle", "costs", "--limit", "60", "--methods", "HRD", "--one-deal", "--list")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != 0 || len(lines) != 396 || lines[0] != "DRRRR" {
		t.Errorf("--list: exit %d, %d lines starting %q; want 396 from DRRRR", code, len(lines), lines[0])
	}
	out, _, code = calcsol(t, "", "shuffle", "costs", "--limit", "12", "--repeat", "--methods", "CHFD")
	for _, want := range []string{"C^6", "H^4", "F^1", "D^0"} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("--repeat T=12 lacks %q (exit %d):\n%s", want, code, out)
		}
	}
}

func TestShuffleParamsRoundTrip(t *testing.T) {
	out, errOut, code := calcsol(t, "", "shuffle", "params")
	if code != 0 || !strings.Contains(out, "seed 001") {
		t.Fatalf("exit %d: %s %s", code, out, errOut)
	}
	p := filepath.Join(t.TempDir(), "s.yaml")
	if err := os.WriteFile(p, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	a, _, _ := calcsol(t, "", "shuffle", "apply", "--seq", "HDHRDHH", "--shuffle-config", p)
	b, _, _ := calcsol(t, "", "shuffle", "apply", "--seq", "HDHRDHH")
	if a != b || a == "" {
		t.Errorf("printed defaults shuffle differently: %q vs %q", a, b)
	}
}

func TestShuffleBadInput(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "bad.yaml")
	if err := os.WriteFile(bad, []byte("hindu:\n  size: 3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"shuffle", "apply"}, "--seq is required"},
		{[]string{"shuffle", "apply", "--seq", "HX"}, `position 2: unknown shuffle letter "X"`},
		{[]string{"shuffle", "apply", "--seq", "R^0"}, "at least 1"},
		{[]string{"shuffle", "apply", "--seq", "R", "--show", "both"}, "--show"},
		{[]string{"shuffle", "apply", "--seq", "R", "--shuffle-config", bad}, "bad.yaml:2: hindu.size: unknown key"},
		{[]string{"shuffle", "costs", "--methods", "HRO"}, "O has no time cost"},
		{[]string{"shuffle", "costs", "--limit", "-1"}, "--limit"},
		{[]string{"shuffle", "costs", "--repeat", "--methods", "U"}, "no time cost"},
		{[]string{"shuffle", "costs", "--repeat", "--one-deal"}, "does not combine"},
		{[]string{"shuffle", "costs", "--limit", "100000", "--methods", "CHRFD"}, "--limit 100000: want seconds in 0..3600"},
		{[]string{"shuffle", "costs", "--limit", "3600", "--methods", "CHRFD"}, "more than 100000 maximal combinations"},
		{[]string{"shuffle", "costs", "--limit", "300", "--methods", "HRD", "--list"}, "orderings, more than 1000000"},
		{[]string{"shuffle", "costs", "--methods", "HR", "--one-deal"}, "has no D"},
	}
	for _, tc := range tests {
		_, errOut, code := calcsol(t, "", tc.args...)
		if code != 2 || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: exit %d, %q; want 2 and %q", tc.args, code, errOut, tc.want)
		}
	}
}
