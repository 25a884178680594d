package plugin

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
