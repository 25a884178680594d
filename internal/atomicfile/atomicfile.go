// Package atomicfile writes files so that readers never see them half-written:
// the data goes to a temporary file in the same directory, which is renamed
// over the target only when everything was written.
package atomicfile

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// Write writes data to path atomically.
func Write(path string, data []byte) error {
	return WriteFunc(path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// WriteFunc calls write with a temporary file beside path and renames it to
// path if write and the close succeed; otherwise the temporary file is removed
// and path is left as it was.
func WriteFunc(path string, write func(w io.Writer) error) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	tmp := f.Name()
	if err := write(f); err != nil {
		f.Close()
		os.Remove(tmp)
		return err
	}
	// CreateTemp makes the file 0600; a written result is an ordinary file.
	// Sync before the rename, so that a crash leaves the old file or the
	// whole new one.
	if err := f.Chmod(0o644); err != nil {
		f.Close()
		os.Remove(tmp)
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		os.Remove(tmp)
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// CheckFile reports, before any work is done, whether a file could be
// written at path: path is not a directory, and its directory exists and
// takes new files (a temporary file is made there and removed).
func CheckFile(path string) error {
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return fmt.Errorf("%s is a directory, not a file", path)
	}
	return checkDirWritable(filepath.Dir(path), path)
}

// CheckDir reports, before any work is done, whether files could be written
// in the directory dir: it is a directory that takes new files, or it does
// not exist yet and can be made (it is then created, with its parents).
func CheckDir(dir string) error {
	st, err := os.Stat(dir)
	switch {
	case err == nil && !st.IsDir():
		return fmt.Errorf("%s is a file, not a directory", dir)
	case err == nil:
	case os.IsNotExist(err):
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return fmt.Errorf("cannot create directory %s: %w", dir, err)
		}
	default:
		return err
	}
	return checkDirWritable(dir, dir)
}

func checkDirWritable(dir, target string) error {
	st, err := os.Stat(dir)
	if err != nil {
		return fmt.Errorf("cannot write %s: directory %s: %w", target, dir, err)
	}
	if !st.IsDir() {
		return fmt.Errorf("cannot write %s: %s is not a directory", target, dir)
	}
	f, err := os.CreateTemp(dir, ".calcsol-check-*")
	if err != nil {
		return fmt.Errorf("cannot write %s: %w", target, err)
	}
	name := f.Name()
	f.Close()
	return os.Remove(name)
}
