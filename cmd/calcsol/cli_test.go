package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	goldenfile "github.com/calcsol/calcsol/internal/golden"
)

// The tests that need a real process (exit statuses, signals, resuming
// after kill -9) and the scripts run a calcsol binary built from this
// checkout (calcsolBinary). Like the scripts (script_test.go), they do not
// run under the race detector, where each process would play its games ten
// times slower to check the same output; go test ./cmd/calcsol runs them.
var (
	binDir  string // the directory of the calcsol binary, for PATH
	binPath string // the calcsol binary
)

// binary returns the calcsol binary's path (fatal if it cannot be built).
func binary(t testing.TB) string {
	t.Helper()
	if err := calcsolBinary(); err != nil {
		t.Fatalf("building calcsol: %v", err)
	}
	return binPath
}

// processTest builds the calcsol binary for a test that starts it itself
// (to signal or kill it), and skips the test under the race detector, as
// calcsolIn does.
func processTest(t *testing.T) {
	t.Helper()
	if raceDetector {
		t.Skip("runs calcsol as a process, without the race detector: go test ./cmd/calcsol")
	}
	binary(t)
}

// heavyUnderRace skips, under the race detector, a test that plays many
// games in this process (inProcess), ten times slower there: like the
// process tests, it runs in go test ./cmd/calcsol, and the packages it
// drives (tournament, tune) look for races in their own tests.
func heavyUnderRace(t *testing.T) {
	t.Helper()
	if raceDetector {
		t.Skip("plays many games, ten times slower under the race detector: go test ./cmd/calcsol")
	}
}

// calcsol runs the calcsol binary with stdin and args as a process, so that
// the exit status and the split of standard output and error are tested as
// a user sees them.
func calcsol(t *testing.T, stdin string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	return calcsolIn(t, "", nil, stdin, args...)
}

// calcsolIn runs calcsol in directory dir ("" = here) with extra environment.
func calcsolIn(t *testing.T, dir string, env []string, stdin string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	processTest(t)
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

// goldenFile compares got with the golden file at path (-update rewrites it).
func goldenFile(t *testing.T, path, got string) {
	t.Helper()
	goldenfile.Check(t, path, []byte(got))
}
