package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

var (
	binOnce sync.Once
	binDir  string
	binPath string
	binErr  error
)

// TestMain removes the binary the tests built.
func TestMain(m *testing.M) {
	code := m.Run()
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	os.Exit(code)
}

// calcsol builds the binary once per test run, so that exit statuses and
// the split of standard output and error are tested as a user sees them.
func calcsol(t *testing.T, stdin string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	return calcsolIn(t, "", nil, stdin, args...)
}

// calcsolIn runs calcsol in directory dir ("" = here) with extra environment.
func calcsolIn(t *testing.T, dir string, env []string, stdin string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	binOnce.Do(func() {
		dir, err := os.MkdirTemp("", "calcsol-test-")
		if err != nil {
			binErr = err
			return
		}
		binDir = dir
		binPath = filepath.Join(dir, "calcsol")
		if !filepath.IsAbs(binPath) {
			binPath, _ = filepath.Abs(binPath)
		}
		out, err := exec.Command("go", "build", "-o", binPath, ".").CombinedOutput()
		if err != nil {
			binErr = errors.New(string(out))
		}
	})
	if binErr != nil {
		t.Fatalf("building calcsol: %v", binErr)
	}
	// A hung command fails its test instead of outliving the test binary.
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, binPath, args...)
	cmd.Stdin = strings.NewReader(stdin)
	cmd.Env = append(append(os.Environ(), "HOME="+t.TempDir()), env...)
	cmd.Dir = dir
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return o.String(), e.String(), code
}

const testDeck = "A3474AK0JJ77Q580Q626639695324880KJAK2047A85Q25KJ99Q3"

func TestPlayGolden(t *testing.T) {
	tests := []struct {
		name string
		args []string
	}{
		{"3-stacks", []string{"play", "--deck", testDeck}},
		{"4-stacks-preplaced", []string{"play", "--deck", testDeck, "--stacks", "4", "--preplaced"}},
		{"exact-check", []string{"play", "--deck", testDeck, "--option", "deadlock_check=exact"}},
		{"json", []string{"play", "--deck", testDeck, "--json"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, errOut, code := calcsol(t, "", tc.args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			goldenFile(t, filepath.Join("testdata", "play", tc.name+".golden"), out)
		})
	}
}

func TestPlayJSONShape(t *testing.T) {
	out, errOut, code := calcsol(t, testDeck, "play", "--deck", "-", "--json", "--stacks", "4")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var j struct {
		Won    *bool    `json:"won"`
		Trace  []string `json:"trace"`
		Placed *int     `json:"placed"`
		Reason *string  `json:"reason"`
	}
	if err := json.Unmarshal([]byte(out), &j); err != nil {
		t.Fatal(err)
	}
	if j.Won == nil || j.Placed == nil || j.Reason == nil || len(j.Trace) == 0 {
		t.Errorf("missing fields in %s", out)
	}
}

func TestPlayBadInput(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"no deck", []string{"play"}, "--deck is required"},
		{"short deck", []string{"play", "--deck", testDeck[:51]}, "deck: 51 cards; want 52"},
		{"fifth ace", []string{"play", "--deck", "A" + testDeck[1:51] + "A"}, "a fifth A"},
		{"unknown character", []string{"play", "--deck", "X" + testDeck[1:]}, "unknown rank 'X'"},
		{"too many stacks", []string{"play", "--deck", testDeck, "--stacks", "9"}, "9 stacks; want 1..8"},
		{"no table for 5 stacks", []string{"play", "--deck", testDeck, "--stacks", "5"}, "no shipped priority table for 5 stacks"},
		{"3-stack table with 4 stacks", []string{"play", "--deck", testDeck, "--stacks", "4", "--table", "nanzaki-shintani"}, "is for 3 stacks (ZXC), the game has 4"},
		{"bad option", []string{"play", "--deck", testDeck, "--option", "deadlock_check=maybe"}, `"maybe" is not one of partial, exact, none`},
		{"unknown strategy", []string{"play", "--deck", testDeck, "--strategy", "oracle"}, `unknown strategy kind "oracle"`},
		{"unknown flag", []string{"play", "--dek", testDeck}, "unknown flag: --dek"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, errOut, code := calcsol(t, "", tc.args...)
			if code != 2 {
				t.Errorf("exit status %d, want 2", code)
			}
			if out != "" {
				t.Errorf("standard output %q, want nothing", out)
			}
			if !strings.Contains(errOut, tc.want) || strings.Count(strings.TrimSpace(errOut), "\n") > 1 {
				t.Errorf("standard error %q, want one or two lines containing %q", errOut, tc.want)
			}
		})
	}
}

func TestTableCommands(t *testing.T) {
	dir := t.TempDir()
	derived := filepath.Join(dir, "t4.yaml")
	if _, errOut, code := calcsol(t, "", "table", "derive", "--stacks", "4", "--out", derived); code != 0 {
		t.Fatalf("derive: exit %d: %s", code, errOut)
	}
	got, _ := os.ReadFile(derived)
	want, _ := os.ReadFile("../../configs/priority/nanzaki-shintani-4.yaml")
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("table derive --stacks 4 differs from the shipped table (-want +got):\n%s", diff)
	}
	if out, errOut, code := calcsol(t, "", "table", "check", derived, "--stacks", "4"); code != 0 || !strings.HasPrefix(out, "ok: ") {
		t.Errorf("check: exit %d, %q %q", code, out, errOut)
	}
	bad := filepath.Join(dir, "bad.yaml")
	os.WriteFile(bad, bytes.Replace(want, []byte("T1 T2 N4"), []byte("T1 T2 N7"), 1), 0o644)
	_, errOut, code := calcsol(t, "", "table", "check", bad, "--stacks", "4")
	if code != 2 || !strings.Contains(errOut, "bad.yaml:14: rank A: operation \"N7\": table '7' is not 1..4") {
		t.Errorf("check of a bad table: exit %d, %q", code, errOut)
	}
	// A failed derive leaves no file behind.
	if _, _, code := calcsol(t, "", "table", "derive", "--from", bad, "--stacks", "5", "--out", filepath.Join(dir, "t5.yaml")); code != 2 {
		t.Errorf("derive from a bad table: exit %d, want 2", code)
	}
	if _, err := os.Stat(filepath.Join(dir, "t5.yaml")); err == nil {
		t.Errorf("derive from a bad table wrote a file")
	}
}

// goldenFile compares got with the file at path, or rewrites it with -update.
func goldenFile(t *testing.T, path, got string) {
	t.Helper()
	if updating() {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if diff := cmp.Diff(string(want), got); diff != "" {
		t.Errorf("%s differs (-want +got):\n%s", path, diff)
	}
}

// Flags come from the command line, else the environment, else calcsol.yaml.
func TestConfigAndEnvironment(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "calcsol.yaml"), []byte("play:\n  stacks: 4\n  preplaced: true\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "calcsol"), []byte("\x00\x01 not a config"), 0o644) // a binary named calcsol is ignored
	tests := []struct {
		name string
		env  []string
		args []string
		want string
	}{
		{"config file", nil, nil, "rules:    4 stacks, preplaced"},
		{"environment wins over the file", []string{"CALCSOL_PLAY_STACKS=3"}, nil, "rules:    3 stacks, preplaced"},
		{"flag wins over both", []string{"CALCSOL_PLAY_STACKS=3"}, []string{"--stacks", "4"}, "rules:    4 stacks, preplaced"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{"play", "--deck", testDeck}, tc.args...)
			out, errOut, code := calcsolIn(t, dir, tc.env, "", args...)
			if code != 0 || !strings.Contains(out, tc.want) {
				t.Errorf("exit %d, output %q %q; want %q", code, out, errOut, tc.want)
			}
		})
	}
	os.WriteFile(filepath.Join(dir, "calcsol.yaml"), []byte("play:\n  stacks: [\n"), 0o644)
	_, errOut, code := calcsolIn(t, dir, nil, "", "play", "--deck", testDeck)
	if code != 2 || !strings.Contains(errOut, "config calcsol.yaml") {
		t.Errorf("bad config: exit %d, %q", code, errOut)
	}
}

func TestReplayCommand(t *testing.T) {
	out, errOut, code := calcsol(t, "", "play", "--deck", testDeck, "--json")
	if code != 0 {
		t.Fatalf("play: %s", errOut)
	}
	var j struct{ Trace []string }
	if err := json.Unmarshal([]byte(out), &j); err != nil {
		t.Fatal(err)
	}
	trace := strings.Join(j.Trace, " ")
	out, errOut, code = calcsol(t, trace, "replay", "--deck", testDeck, "--trace", "-")
	if code != 0 || !strings.HasPrefix(out, "84 moves, all legal; 52 of 52 cards on the tables; won") {
		t.Errorf("replay of a winning trace: exit %d, %q %q", code, out, errOut)
	}
	tests := []struct {
		trace, want string
	}{
		{"A1 33 44 7X3 4X3 Z71", "calcsol: trace: move 6 (Z71): stack Z is empty"},
		{"A1 34", "calcsol: trace: move 2 (34): table 4 needs 4, not 3"},
		{"A1 3Q4", `calcsol: trace token 2: move "3Q4": no stack 'Q' with 3 stacks`},
	}
	for _, tc := range tests {
		out, errOut, code := calcsol(t, "", "replay", "--deck", testDeck, "--trace", tc.trace)
		if code != 2 || out != "" || strings.TrimSpace(errOut) != tc.want {
			t.Errorf("replay %q: exit %d, stdout %q, stderr %q; want exit 2 and %q", tc.trace, code, out, errOut, tc.want)
		}
	}
}
