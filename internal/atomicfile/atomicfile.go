// Package atomicfile writes files so that readers never see them half-written:
// the data goes to a temporary file in the same directory, which is renamed
// over the target only when everything was written, and removed otherwise —
// also when the write is cancelled.
//
//	f, err := atomicfile.Create(path)
//	if err != nil { … }
//	defer f.Abort()          // removes the temporary file unless committed
//	… write to f, checking ctx …
//	return f.Commit()
package atomicfile

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// File is a temporary file that becomes path on Commit. It is an *os.File,
// so it can seek and WriteAt.
type File struct {
	*os.File
	path string
	done bool
}

// Create opens a temporary file beside path (".NAME.tmp-NNN"), locked
// while it is open (see RemoveStale).
func Create(path string) (*File, error) {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return nil, fmt.Errorf("write %s: %w", path, err)
	}
	// A file system without locks leaves it unlocked: RemoveStale then
	// takes it for a running writer's.
	_, _ = TryLock(f, true)
	return &File{File: f, path: path}, nil
}

// Path is the file the temporary file becomes.
func (f *File) Path() string { return f.path }

// Abort closes and removes the temporary file, leaving path as it was. It
// does nothing after Commit or a first Abort, so it can be deferred.
func (f *File) Abort() {
	if f.done {
		return
	}
	f.done = true
	f.File.Close()
	os.Remove(f.File.Name())
}

// Commit makes the temporary file path: mode 0644, synced, closed and
// renamed, so that a crash leaves the old file or the whole new one. On an
// error the temporary file is removed.
func (f *File) Commit() error {
	if f.done {
		return fmt.Errorf("write %s: already committed or aborted", f.path)
	}
	tmp := f.File.Name()
	err := f.File.Chmod(0o644) // CreateTemp makes the file 0600
	if err == nil {
		err = f.File.Sync()
	}
	if cerr := f.File.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, f.path)
	}
	f.done = true
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("write %s: %w", f.path, err)
	}
	return nil
}

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
	return WriteContext(context.Background(), path, write)
}

// WriteContext is WriteFunc that also gives up, removing the temporary file,
// once ctx is done: every write after that fails with ctx's error, so a
// write function that does not watch ctx stops at its next write.
func WriteContext(ctx context.Context, path string, write func(w io.Writer) error) error {
	f, err := Create(path)
	if err != nil {
		return err
	}
	defer f.Abort()
	if err := write(ctxWriter{ctx, f.File}); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	return f.Commit()
}

// ctxWriter fails every write once ctx is done.
type ctxWriter struct {
	ctx context.Context
	w   io.Writer
}

func (c ctxWriter) Write(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.w.Write(p)
}

// Output is one file of WriteAll.
type Output struct {
	Path  string
	Write func(w io.Writer) error
}

// WriteAll writes every output or none: each goes to a temporary file
// beside its target, and the temporary files are renamed onto the targets
// only once every one was written. On a failure or a cancelled ctx they are
// removed and no target is touched. (A rename failing half-way, in a
// directory just written to, could still leave some renamed.)
func WriteAll(ctx context.Context, outs []Output) error {
	var files []*File
	defer func() {
		for _, f := range files {
			f.Abort()
		}
	}()
	for _, o := range outs {
		if st, err := os.Stat(o.Path); err == nil && st.IsDir() {
			return fmt.Errorf("write %s: is a directory", o.Path)
		}
		f, err := Create(o.Path)
		if err != nil {
			return err
		}
		files = append(files, f)
		if err := o.Write(ctxWriter{ctx, f.File}); err != nil {
			return fmt.Errorf("write %s: %w", o.Path, err)
		}
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	for _, f := range files {
		if err := f.Commit(); err != nil {
			return err
		}
	}
	return nil
}

// CheckPrefix refuses an output prefix whose directory does not exist, is
// not a directory or cannot be written to, and a prefix+suffix that is a
// directory. Commands call it before a long computation, so that a typo
// does not cost the run.
func CheckPrefix(prefix string, suffixes ...string) error {
	dir := filepath.Dir(prefix)
	st, err := os.Stat(dir)
	switch {
	case err != nil:
		return fmt.Errorf("directory %s does not exist or cannot be read", dir)
	case !st.IsDir():
		return fmt.Errorf("%s is not a directory", dir)
	}
	f, err := os.CreateTemp(dir, ".calcsol-write-check-*")
	if err != nil {
		return fmt.Errorf("directory %s is not writable", dir)
	}
	f.Close()
	os.Remove(f.Name())
	for _, suf := range suffixes {
		if st, err := os.Stat(prefix + suf); err == nil && st.IsDir() {
			return fmt.Errorf("%s is a directory", prefix+suf)
		}
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
// not exist yet and its nearest existing parent is a directory that takes
// new ones. Nothing is created: the caller makes dir (os.MkdirAll) once its
// inputs are found good, so that a bad input leaves no empty directory.
func CheckDir(dir string) error {
	st, err := os.Stat(dir)
	switch {
	case err == nil && !st.IsDir():
		return fmt.Errorf("%s is a file, not a directory", dir)
	case err == nil:
		return checkDirWritable(dir, dir)
	case !os.IsNotExist(err):
		return err
	}
	parent := filepath.Dir(dir)
	for {
		st, err := os.Stat(parent)
		if err == nil && !st.IsDir() {
			return fmt.Errorf("cannot create directory %s: %s is a file, not a directory", dir, parent)
		}
		if err == nil {
			return checkDirWritable(parent, dir)
		}
		if !os.IsNotExist(err) {
			return fmt.Errorf("cannot create directory %s: %w", dir, err)
		}
		up := filepath.Dir(parent)
		if up == parent {
			return fmt.Errorf("cannot create directory %s", dir)
		}
		parent = up
	}
}

// CheckExistingDir reports whether dir is an existing directory that takes
// new files; it creates nothing (a directory to continue work in).
func CheckExistingDir(dir string) error {
	st, err := os.Stat(dir)
	switch {
	case os.IsNotExist(err):
		return fmt.Errorf("%s: no such directory", dir)
	case err != nil:
		return err
	case !st.IsDir():
		return fmt.Errorf("%s is a file, not a directory", dir)
	}
	return checkDirWritable(dir, dir)
}

// WriteDir makes the directory dir whole or not at all: write fills a new
// temporary directory beside it (".NAME.tmp-NNN"), which is renamed to dir
// once write succeeded, and removed otherwise, with any parent directories
// made for it. dir must not exist, or be an empty directory.
func WriteDir(dir string, write func(tmp string) error) (err error) {
	dir = filepath.Clean(dir)
	if entries, rerr := os.ReadDir(dir); rerr == nil && len(entries) > 0 {
		return fmt.Errorf("%s is not empty", dir)
	}
	parent := filepath.Dir(dir)
	made := ""
	for p := parent; ; p = filepath.Dir(p) {
		if _, serr := os.Stat(p); serr == nil || filepath.Dir(p) == p {
			break
		}
		made = p // the outermost parent that does not exist yet
	}
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return fmt.Errorf("cannot create directory %s: %w", parent, err)
	}
	tmp, err := os.MkdirTemp(parent, "."+filepath.Base(dir)+".tmp-")
	if err != nil {
		return fmt.Errorf("write %s: %w", dir, err)
	}
	defer func() {
		if err != nil {
			os.RemoveAll(tmp)
			if made != "" {
				os.RemoveAll(made)
			}
		}
	}()
	if err = write(tmp); err != nil {
		return err
	}
	if err = os.Chmod(tmp, 0o755); err != nil { // MkdirTemp makes it 0700
		return err
	}
	os.Remove(dir) // an empty directory in the way (os.Rename will not replace one)
	if err = os.Rename(tmp, dir); err != nil {
		return fmt.Errorf("write %s: %w", dir, err)
	}
	return nil
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
