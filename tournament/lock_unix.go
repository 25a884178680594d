//go:build unix

package tournament

import (
	"errors"
	"os"
	"syscall"
)

// tryLock takes f's flock(2) lock, exclusive or shared, without waiting:
// busy when another open file holds a conflicting one.
func tryLock(f *os.File, exclusive bool) (busy bool, err error) {
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
