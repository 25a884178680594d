package atomicfile

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
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

// A write cancelled half-way (Ctrl-C in a command) leaves the target as it
// was and no temporary file behind, even when the writer ignores ctx.
func TestWriteContextCancelled(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.txt")
	ctx, cancel := context.WithCancel(context.Background())
	err := WriteContext(ctx, path, func(w io.Writer) error {
		if _, err := w.Write([]byte("first half\n")); err != nil {
			return err
		}
		cancel()
		_, err := w.Write([]byte("second half\n"))
		return err
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("left behind: %v", entries)
	}
}

// Abort after Create removes the temporary file; Commit after Abort fails.
func TestCreateAbortCommit(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.txt")
	f, err := Create(path)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("x")
	f.Abort()
	f.Abort() // twice is fine
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("left behind: %v", entries)
	}
	if err := f.Commit(); err == nil {
		t.Error("Commit after Abort succeeded")
	}
	f, err = Create(path)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("12345")
	f.WriteAt([]byte("ab"), 1)
	if err := f.Commit(); err != nil {
		t.Fatal(err)
	}
	f.Abort() // after Commit: does nothing
	if got, _ := os.ReadFile(path); string(got) != "1ab45" {
		t.Errorf("file holds %q, want 1ab45", got)
	}
}

// When a later output fails, the earlier ones are not written either and no
// temporary file is left.
func TestWriteAllNoneOnFailure(t *testing.T) {
	dir := t.TempDir()
	write := func(s string) func(io.Writer) error {
		return func(w io.Writer) error { _, err := io.WriteString(w, s); return err }
	}
	boom := errors.New("boom")
	err := WriteAll(context.Background(), []Output{
		{filepath.Join(dir, "a.png"), write("a")},
		{filepath.Join(dir, "b.png"), func(io.Writer) error { return boom }},
	})
	if !errors.Is(err, boom) {
		t.Fatalf("err = %v, want boom", err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("left behind: %v", entries)
	}
	if err := WriteAll(context.Background(), []Output{{filepath.Join(dir, "a.png"), write("a")}}); err != nil {
		t.Fatal(err)
	}
	if got, err := os.ReadFile(filepath.Join(dir, "a.png")); err != nil || string(got) != "a" {
		t.Errorf("a.png = %q, %v", got, err)
	}
}

func TestCheckPrefix(t *testing.T) {
	dir := t.TempDir()
	os.Mkdir(filepath.Join(dir, "r-bwr.png"), 0o755)
	tests := []struct {
		prefix   string
		suffixes []string
		want     string
	}{
		{filepath.Join(dir, "x"), nil, ""},
		{filepath.Join(dir, "no", "x"), nil, "does not exist"},
		{filepath.Join(dir, "r"), []string{"-grey.png", "-bwr.png"}, "r-bwr.png is a directory"},
	}
	for _, tc := range tests {
		err := CheckPrefix(tc.prefix, tc.suffixes...)
		if (err == nil) != (tc.want == "") || err != nil && !strings.Contains(err.Error(), tc.want) {
			t.Errorf("CheckPrefix(%s) = %v, want %q", tc.prefix, err, tc.want)
		}
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
		{"directories to make", CheckDir, filepath.Join(dir, "a", "b"), true},
		{"directory under a file", CheckDir, filepath.Join(file, "b"), false},
		{"existing directory to continue", CheckExistingDir, dir, true},
		{"missing directory to continue", CheckExistingDir, filepath.Join(dir, "typo", "deep"), false},
		{"file to continue", CheckExistingDir, file, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if err := tc.check(tc.path); (err == nil) != tc.ok {
				t.Errorf("%s: error %v, want ok=%t", tc.path, err, tc.ok)
			}
		})
	}
	// The checks create nothing.
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if e.Name() != "f.txt" {
			t.Errorf("left behind: %s", e.Name())
		}
	}
}

// WriteDir renames a directory into place only when it was written whole;
// a failed write leaves nothing, not even the parents made for it.
func TestWriteDir(t *testing.T) {
	dir := t.TempDir()
	fill := func(tmp string) error { return os.WriteFile(filepath.Join(tmp, "x"), []byte("x\n"), 0o644) }
	failing := func(tmp string) error {
		fill(tmp)
		return errors.New("half-way")
	}
	tests := []struct {
		name   string
		target string
		write  func(string) error
		err    string
	}{
		{"new", filepath.Join(dir, "new"), fill, ""},
		{"new with parents", filepath.Join(dir, "p", "q", "new"), fill, ""},
		{"empty directory", filepath.Join(dir, "empty"), fill, ""},
		{"not empty", filepath.Join(dir, "new"), fill, "is not empty"},
		{"failed", filepath.Join(dir, "gone", "deep", "target"), failing, "half-way"},
	}
	os.Mkdir(filepath.Join(dir, "empty"), 0o755)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := WriteDir(tc.target, tc.write)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want one containing %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if b, err := os.ReadFile(filepath.Join(tc.target, "x")); err != nil || string(b) != "x\n" {
				t.Errorf("%s/x: %q, %v", tc.target, b, err)
			}
		})
	}
	if _, err := os.Stat(filepath.Join(dir, "gone")); !os.IsNotExist(err) {
		t.Errorf("a failed write left its parents: %v", err)
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.Contains(e.Name(), ".tmp-") {
			t.Errorf("left behind: %s", e.Name())
		}
	}
}
