//go:build !unix

package atomicfile

import "os"

// Without flock a writer's temporary file is not locked, and none is taken
// for stale: RemoveStale removes nothing.
func lock(*os.File) {}

func unheld(string) bool { return false }
