//go:build unix

package atomicfile

import (
	"errors"
	"os"
	"syscall"
)

// Locking reports whether TryLock locks on this system (flock(2)).
const Locking = true

// TryLock takes f's flock(2) lock, exclusive or shared, without waiting:
// busy when another open file holds a conflicting one. The lock is held
// until f is closed or its process ends, however it ends.
func TryLock(f *os.File, exclusive bool) (busy bool, err error) {
	how := syscall.LOCK_SH
	if exclusive {
		how = syscall.LOCK_EX
	}
	err = syscall.Flock(int(f.Fd()), how|syscall.LOCK_NB)
	if errors.Is(err, syscall.EWOULDBLOCK) {
		return true, nil
	}
	return false, err
}
