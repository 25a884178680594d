package main

import (
	"path/filepath"
	"sync"
	"testing"

	"github.com/calcsol/calcsol/internal/testprog"
)

// calcsolBinary finds the programs the scripts and the process tests run,
// built from this checkout (package testprog: once per version of the
// sources, shared with the plugin tests), and sets binDir and binPath. A
// real binary starts faster than the test binary run as calcsol, and the
// scripts start it some hundred times.
var calcsolBinary = sync.OnceValue(func() error {
	dir, err := testprog.Dir("../..")
	if err != nil {
		return err
	}
	binDir, binPath = dir, filepath.Join(dir, "calcsol")
	return nil
})

// testProgram returns the path of the test program name (the last element
// of one of testprog.Programs: goplugin, lookup), built with calcsol.
func testProgram(t testing.TB, name string) string {
	t.Helper()
	binary(t)
	return filepath.Join(binDir, name)
}
