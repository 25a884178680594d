//go:build !unix

package tournament

import "os"

// tryLock does not lock where flock(2) is missing: the report directory
// has no guard against a second writer there (docs/tournament.md).
func tryLock(f *os.File, exclusive bool) (busy bool, err error) { return false, nil }
