// Package longtest marks the tests that pin research figures — thousands
// of games, long searches, exact counts on the shipped 1,000- and
// 30,000-deck corpora — so that the default test run stays quick and those
// checks run only when asked for:
//
//	go test ./...                   # the quick suite, seconds a package
//	CALCSOL_LONG=1 go test ./...    # also the long checks (CI runs both)
//
// The switch is an environment variable rather than a test flag because
// go test hands a flag after ./... to every package's test binary, and a
// binary that does not define it fails; the go command's test cache keys
// on the variables a test reads, so a quick run's cached result is not
// taken for a long run's.
package longtest

import (
	"os"
	"testing"
)

// Env is the environment variable that turns the long checks on: "1".
const Env = "CALCSOL_LONG"

// Enabled reports whether the long checks run.
func Enabled() bool { return os.Getenv(Env) == "1" }

// Skip skips the calling test unless the long checks run.
func Skip(t testing.TB) {
	t.Helper()
	if !Enabled() {
		t.Skip("long check: " + Env + "=1 go test runs it")
	}
}

// Pick returns long when the long checks run and quick otherwise: the size
// of a test that runs in both, smaller by default.
func Pick[T any](quick, long T) T {
	if Enabled() {
		return long
	}
	return quick
}
