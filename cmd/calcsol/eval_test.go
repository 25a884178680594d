package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/calcsol/calcsol/internal/exitcode"
	goldenfile "github.com/calcsol/calcsol/internal/golden"
	"github.com/calcsol/calcsol/tournament"
	"github.com/calcsol/calcsol/tournament/report"
)

// goldenDir is absolute, so that tests may change directory.
var goldenDir, _ = filepath.Abs(filepath.Join("testdata", "eval"))

// golden compares got with testdata/eval/name, or rewrites it with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	goldenfile.Check(t, filepath.Join(goldenDir, name), []byte(got))
}

// runEvalCmd runs a fresh calcsol eval in-process with the hidden --timing
// flag off: the games/s column depends on the machine.
func runEvalCmd(t *testing.T, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	cmd := newEvalCmd()
	if err := cmd.Flags().Set("timing", "false"); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	cmd.SetOut(&out)
	cmd.SetErr(&errb)
	cmd.SetArgs(args)
	err = cmd.Execute()
	return out.String(), errb.String(), err
}

const smallCorpus = "testdata/eval/small.txt" // 200 decks, card notation with header

func TestEvalGolden(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		args []string
	}{
		// The newcomer's command: four variants and the literature's figure.
		{"four-variants", []string{"--corpus", smallCorpus, "--workers", "2"}},
		{"one-variant", []string{"--corpus", smallCorpus, "--workers", "3", "--stacks", "4"}},
		{"preplaced", []string{"--corpus", smallCorpus, "--workers", "1", "--preplaced"}},
		{"rank-only", []string{"--corpus", "testdata/eval/rank-only.txt", "--workers", "2", "--stacks", "3"}},
		// How the games ended, per variant.
		{"reasons", []string{"--corpus", smallCorpus, "--workers", "2", "--stacks", "3", "--reasons"}},
		// A table for 4 stacks: the 3-stack variants are skipped with a note.
		{"table-skips", []string{"--corpus", smallCorpus, "--workers", "2", "--table", "nanzaki-shintani-4"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, errOut, err := runEvalCmd(t, tc.args...)
			if err != nil {
				t.Fatal(err)
			}
			if errOut != "" {
				t.Errorf("stderr: %q", errOut)
			}
			golden(t, tc.name+".golden", out)
		})
	}
}

// The records do not depend on the number of workers, and --jsonl puts them
// on stdout with the summary on stderr.
func TestEvalJSONL(t *testing.T) {
	t.Parallel()
	out1, sum1, err := runEvalCmd(t, "--corpus", smallCorpus, "--workers", "1", "--jsonl")
	if err != nil {
		t.Fatal(err)
	}
	out3, _, err := runEvalCmd(t, "--corpus", smallCorpus, "--workers", "3", "--jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if out1 != out3 {
		t.Error("records differ between 1 and 3 workers")
	}
	_, res, err := tournament.ReadJSONL(strings.NewReader(out1))
	if err != nil {
		t.Fatal(err)
	}
	if len(res) != 200 {
		t.Fatalf("%d records, want 200", len(res))
	}
	golden(t, "jsonl-summary.golden", sum1)

	// --out writes the same records to a file and the summary to stdout.
	file := filepath.Join(t.TempDir(), "run.jsonl")
	sum2, errOut, err := runEvalCmd(t, "--corpus", smallCorpus, "--workers", "1", "--out", file)
	if err != nil || errOut != "" {
		t.Fatalf("--out: %v, stderr %q", err, errOut)
	}
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != out1 {
		t.Error("--out file differs from --jsonl records")
	}
	if want := sum1 + "per-deck records: " + file + "\n"; sum2 != want {
		t.Errorf("--out summary:\n%s\nwant:\n%s", sum2, want)
	}
}

func TestEvalCompare(t *testing.T) {
	corpus, err := filepath.Abs(smallCorpus)
	if err != nil {
		t.Fatal(err)
	}
	// Work in a temporary directory so that the file names in the output
	// are the same on every run.
	t.Chdir(t.TempDir())
	a, b := "a.jsonl", "b.jsonl"
	for _, run := range []struct {
		file string
		args []string
	}{
		{a, []string{"--stacks", "3"}},
		{b, []string{"--stacks", "3", "--option", "deadlock_check=exact"}},
	} {
		args := append([]string{"--corpus", corpus, "--workers", "2", "--out", run.file}, run.args...)
		if _, _, err := runEvalCmd(t, args...); err != nil {
			t.Fatal(err)
		}
	}
	out, _, err := runEvalCmd(t, "compare", a, b)
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "compare.golden", out)
	// The same comparison for scripts, and with A named by a pattern.
	js, _, err := runEvalCmd(t, "compare", "--format", "json", "a.js*", b)
	if err != nil {
		t.Fatal(err)
	}
	var got report.CompareJSON
	if err := json.Unmarshal([]byte(js), &got); err != nil {
		t.Fatalf("compare --format json: %v\n%s", err, js)
	}
	if got.A.Records != "a.js*" || got.A.Wins != 10 || got.B.Wins != 14 || got.Games != 200 || got.OnlyB != 4 || got.OnlyA != 0 || got.A.LeftOut != 0 || got.Diff >= 0 || math.Abs(got.P-0.125) > 1e-9 {
		t.Errorf("compare --format json: %+v", got)
	}

	// Runs on other rules or another corpus are refused, with the reason.
	other := "other.txt"
	data, err := os.ReadFile(corpus)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	var kept []string
	for _, l := range lines {
		if !strings.HasPrefix(l, "#") {
			kept = append(kept, l)
		}
	}
	if err := os.WriteFile(other, []byte(strings.Join(kept[1:], "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, run := range []struct{ file, corpus, stacks string }{{"four.jsonl", corpus, "4"}, {"other.jsonl", other, "3"}} {
		if _, _, err := runEvalCmd(t, "--corpus", run.corpus, "--stacks", run.stacks, "--out", run.file); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct{ b, want string }{
		{"four.jsonl", "compare a.jsonl four.jsonl: the runs played different rules (3-base; 4-base)"},
		{"other.jsonl", "compare a.jsonl other.jsonl: the runs played different corpora"},
	} {
		_, _, err := runEvalCmd(t, "compare", a, tc.b)
		var ie exitcode.InputError
		if !errors.As(err, &ie) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("compare %s: error %v, want an input error containing %q", tc.b, err, tc.want)
		}
	}
}

// With --common two runs that recorded different decks are compared on the
// decks both recorded, and the output says how many were left out.
func TestEvalCompareCommon(t *testing.T) {
	t.Parallel()
	out, _, err := runEvalCmd(t, "compare", "--common", "testdata/eval/two.jsonl", "testdata/eval/three.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"compared on the 2 decks both recorded; left out: 0 recorded by A only, 1 by B only", "both won 1, only A 0, only B 0, neither 1"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

// An unwritable --out is refused before any game is played, with exit
// status 2: the corpus named here does not exist, so an error about it would
// mean the corpus was read (and the games played) first.
func TestEvalOutCheckedFirst(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, out := range []string{filepath.Join(dir, "nonexistent", "r.jsonl"), dir} {
		_, _, err := runEvalCmd(t, "--corpus", "no-such-corpus", "--out", out)
		var ie exitcode.InputError
		if !errors.As(err, &ie) || !strings.HasPrefix(err.Error(), "--out: ") {
			t.Errorf("--out %s: error %v, want an input error about --out", out, err)
		}
	}
}

func TestEvalBadInput(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"bad corpus line", []string{"--corpus", "testdata/eval/bad.txt"}, "corpus testdata/eval/bad.txt line 3: "},
		{"unknown corpus", []string{"--corpus", "no-such-corpus"}, "corpus no-such-corpus: no such file, and no shipped corpus of that name (have "},
		{"directory", []string{"--corpus", "testdata"}, "corpus testdata: a directory"},
		{"workers", []string{"--corpus", smallCorpus, "--workers", "0"}, "--workers 0: want at least 1"},
		{"stacks", []string{"--corpus", smallCorpus, "--stacks", "9"}, "9 stacks"},
		{"compare lengths", []string{"compare", "testdata/eval/two.jsonl", "testdata/eval/three.jsonl"}, "the runs cover different decks (2 and 3, 2 recorded by both); --common compares them on the 2 decks both recorded"},
		{"compare format", []string{"compare", "--format", "csv", "testdata/eval/two.jsonl", "testdata/eval/three.jsonl"}, `--format "csv": want table or json`},
		{"compare no match", []string{"compare", "testdata/eval/two.jsonl", "testdata/eval/nothing-*.jsonl"}, `"testdata/eval/nothing-*.jsonl": no file or directory matches`},
		{"compare empty name", []string{"compare", "testdata/eval/two.jsonl,", "testdata/eval/three.jsonl"}, "an empty name in the list"},
		{"compare a deck twice", []string{"compare", "testdata/eval/two.jsonl,testdata/eval/three.jsonl", "testdata/eval/three.jsonl"}, "deck 0 is recorded in testdata/eval/two.jsonl too"},
		{"compare bad record", []string{"compare", "testdata/eval/two.jsonl", "testdata/eval/bad.jsonl"}, "testdata/eval/bad.jsonl: results line 2: deck 0 after deck 0"},
		{"compare old format", []string{"compare", "testdata/eval/two.jsonl", "testdata/eval/old-format.jsonl"}, `testdata/eval/old-format.jsonl: results line 1: no "v" (format version): not a tournament record`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := runEvalCmd(t, tc.args...)
			var ie exitcode.InputError
			if !errors.As(err, &ie) {
				t.Fatalf("error %v is not an input error (exit status 2)", err)
			}
			if !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
				t.Errorf("error %q, want one line containing %q", err, tc.want)
			}
		})
	}
}
