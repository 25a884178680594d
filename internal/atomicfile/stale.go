package atomicfile

import (
	"os"
	"path/filepath"
	"strings"
)

// A writer killed with SIGKILL (or a machine that crashed) cannot remove its
// temporary file: ".NAME.tmp-NNN" stays beside the target, hidden, never
// the target itself, so no reader takes it for the output. Create locks the
// temporary file (flock, where the system has it) for as long as the writer
// has it open; the kernel drops the lock when the writer dies, which is how
// RemoveStale tells a stale temporary file from one being written.

// RemoveStale removes the temporary files Create made beside path that no
// process holds any more — left by a writer that was killed — and returns
// their names. A file being written is left alone, as is every file where
// locks are not available (there RemoveStale removes nothing). Commit
// renames the file just after closing it: a writer of path caught in that
// instant loses its file and fails on the rename, loudly; two writers of
// one path race anyway, the last rename winning.
func RemoveStale(path string) ([]string, error) {
	dir, prefix := filepath.Dir(path), "."+filepath.Base(path)+".tmp-"
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var removed []string
	for _, e := range entries {
		if !e.Type().IsRegular() || !strings.HasPrefix(e.Name(), prefix) {
			continue
		}
		name := filepath.Join(dir, e.Name())
		if !unheld(name) {
			continue
		}
		if err := os.Remove(name); err == nil {
			removed = append(removed, name)
		}
	}
	return removed, nil
}

// unheld reports whether no process holds a lock on the file at name, by
// taking one (released at once); false when locks are not available.
func unheld(name string) bool {
	if !Locking {
		return false
	}
	f, err := os.Open(name)
	if err != nil {
		return false
	}
	defer f.Close()
	busy, err := TryLock(f, true)
	return err == nil && !busy
}
