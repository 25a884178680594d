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
//
// The race detector makes a test five to twenty times slower, and its
// value is in the concurrent paths, which a few cases exercise. A test
// that checks many cases picks a smaller count under it with [Size]:
//
//	n := longtest.Size(8, 40, 200) // race, quick, CALCSOL_LONG=1
//
// [Race] tells whether the binary was built with -race. With
// CALCSOL_LONG=1 the long size is used under the race detector too, so
// the long checks keep their meaning whichever way they are run (CI runs
// them as their own step, without -race).
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

// Size returns the size of a test that runs in every mode: long when the
// long checks run, race under the race detector otherwise, quick otherwise.
func Size[T any](race, quick, long T) T {
	switch {
	case Enabled():
		return long
	case Race:
		return race
	}
	return quick
}
