//go:build unix

package atomicfile

import (
	"os"
	"syscall"
)

// lock takes an exclusive lock on f, held until f is closed or its process
// ends; a file system without locks leaves f unlocked.
func lock(f *os.File) { _ = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) }

// unheld reports whether no process holds a lock on the file at name, by
// taking one (released at once); false when locks are not available.
func unheld(name string) bool {
	f, err := os.Open(name)
	if err != nil {
		return false
	}
	defer f.Close()
	return syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) == nil
}
