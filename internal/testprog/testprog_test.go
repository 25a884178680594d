package testprog

import (
	"os"
	"path/filepath"
	"testing"
)

// The key changes with a program's source, a file it may embed and the
// test plugins' own testdata, and not with a test or other testdata (a
// script beside a test plugin).
func TestSourceKey(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{
		"go.mod":                              "module m\n",
		"cmd/calcsol/main.go":                 "package main\n",
		"cmd/calcsol/main_test.go":            "package main\n",
		"cmd/calcsol/testdata/script/a.txtar": "exec calcsol\n",
		"decks/corpora/uniform-1000.txt":      "A23\n",
		"plugin/testdata/misbehave/main.go":   "package main\n",
		"cmd/calcsol/testdata/lookup/main.go": "package main\n",
		"cmd/calcsol/testdata/lookup/x/x.go":  "package x\n",
		".git/HEAD":                           "ref: refs/heads/main\n",
		"examples/pyplugin/plugin.py":         "print()\n",
		"examples/pyplugin/__pycache__/p.pyc": "\x00\x01",
	}
	write := func(name, data string) {
		t.Helper()
		path := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	key := func() string {
		t.Helper()
		k, err := sourceKey(root)
		if err != nil {
			t.Fatal(err)
		}
		return k
	}
	for name, data := range files {
		write(name, data)
	}
	base := key()
	for _, tc := range []struct {
		file    string
		changes bool
	}{
		{"cmd/calcsol/main.go", true},
		{"decks/corpora/uniform-1000.txt", true},
		{"plugin/testdata/misbehave/main.go", true},
		{"cmd/calcsol/testdata/lookup/main.go", true},
		{"cmd/calcsol/testdata/lookup/x/x.go", true},
		{"go.mod", true},
		{"cmd/calcsol/main_test.go", false},
		{"cmd/calcsol/testdata/script/a.txtar", false},
		{".git/HEAD", false},
		{"examples/pyplugin/plugin.py", true},
		{"examples/pyplugin/__pycache__/p.pyc", false},
	} {
		write(tc.file, files[tc.file]+"// edited\n")
		if got := key() != base; got != tc.changes {
			t.Errorf("editing %s: key changed %v, want %v", tc.file, got, tc.changes)
		}
		write(tc.file, files[tc.file])
		if k := key(); k != base {
			t.Errorf("%s as it was: key %s, want %s", tc.file, k, base)
		}
	}
}
