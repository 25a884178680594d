package plugin

import "time"

// RunningOf returns the number of s's processes still running: what a test
// checks of its own plugin while other tests run theirs beside it.
func RunningOf(s *Strategy) int {
	live.Lock()
	defer live.Unlock()
	n := 0
	for p := range live.m {
		if p.s == s {
			n++
		}
	}
	return n
}

// SetMinBatchTimeout sets the least time s gives a batch (MinBatchTimeout
// otherwise), before s starts a session: a plugin that never answers then
// costs a test d a batch, not a second.
func SetMinBatchTimeout(s *Strategy, d time.Duration) { s.minBatch = d }
