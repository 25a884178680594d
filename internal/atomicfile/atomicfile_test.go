package atomicfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
)

func TestWriteFunc(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.txt")
	if err := Write(path, []byte("old\n")); err != nil {
		t.Fatal(err)
	}
	boom := errors.New("boom")
	err := WriteFunc(path, func(w io.Writer) error {
		w.Write([]byte("half"))
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("err = %v, want boom", err)
	}
	got, _ := os.ReadFile(path)
	if string(got) != "old\n" {
		t.Errorf("after a failed write the file holds %q, want the old content", got)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("temporary files left behind: %v", entries)
	}
	if err := Write(path, []byte("new\n")); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(path); string(got) != "new\n" {
		t.Errorf("file holds %q, want new", got)
	}
	if st, err := os.Stat(path); err != nil || st.Mode().Perm() != 0o644 {
		t.Errorf("mode %v (%v), want 0644", st.Mode().Perm(), err)
	}
}

func TestCheckFileAndDir(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "f.txt")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		check func(string) error
		path  string
		ok    bool
	}{
		{"new file", CheckFile, filepath.Join(dir, "new.jsonl"), true},
		{"existing file", CheckFile, file, true},
		{"file is a directory", CheckFile, dir, false},
		{"file in a missing directory", CheckFile, filepath.Join(dir, "nonexistent", "r.jsonl"), false},
		{"new directory", CheckDir, filepath.Join(dir, "report"), true},
		{"existing directory", CheckDir, dir, true},
		{"directory is a file", CheckDir, file, false},
		{"directories made", CheckDir, filepath.Join(dir, "a", "b"), true},
		{"directory under a file", CheckDir, filepath.Join(file, "b"), false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if err := tc.check(tc.path); (err == nil) != tc.ok {
				t.Errorf("%s: error %v, want ok=%t", tc.path, err, tc.ok)
			}
		})
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if e.Name() != "f.txt" && e.Name() != "report" && e.Name() != "a" {
			t.Errorf("left behind: %s", e.Name())
		}
	}
}
