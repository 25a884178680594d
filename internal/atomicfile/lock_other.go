//go:build !unix

package atomicfile

import "os"

// Locking reports whether TryLock locks on this system: not without
// flock(2). A writer's temporary file is then not locked, none is taken for
// stale (RemoveStale removes nothing), and a report directory has no guard
// against a second writer.
const Locking = false

// TryLock locks nothing where flock(2) is missing.
func TryLock(f *os.File, exclusive bool) (busy bool, err error) { return false, nil }
