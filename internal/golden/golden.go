// Package golden compares test output with golden files byte for byte and,
// under the test flag -update, rewrites them instead.
//
// Every test binary that imports it has the one flag:
//
//	go test ./decks/shuffle -update   # accept the new output
//
// Paths are relative to the test's package directory, as the go command
// runs tests there ("testdata/models.golden").
package golden

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite the golden files instead of comparing with them")

// Updating reports whether the test binary runs with -update.
func Updating() bool { return *update }

// Check compares got with the file at path. With -update it writes got to
// path (creating its directory) and passes. A mismatch is reported as a
// diff, -want +got; a missing file says how to create it.
//
// A golden file lives in a testdata directory: a path outside one (a
// shipped file, say) fails the test, so that -update rewrites only test
// data.
func Check(t testing.TB, path string, got []byte) {
	t.Helper()
	if !inTestdata(path) {
		t.Fatalf("golden file %s: not under a testdata directory", path)
		return
	}
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test -update writes it)", err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("%s differs (-want +got; go test -update accepts the new output):\n%s", path, diff)
	}
}

// inTestdata reports whether path has a directory named testdata.
func inTestdata(path string) bool {
	for _, part := range strings.Split(filepath.ToSlash(filepath.Dir(path)), "/") {
		if part == "testdata" {
			return true
		}
	}
	return false
}
