package tournament

import (
	"cmp"
	"slices"
)

// Ending is one way games ended and how many did.
type Ending struct {
	Reason string
	Games  int
}

// Endings counts the games by how they ended (DeckResult.Reason), most
// frequent first, ties by reason. It says where a strategy loses: for the
// priority strategy, which rank exhausted its list, or a deadlock the check
// let through.
func Endings(results []DeckResult) []Ending {
	count := map[string]int{}
	for _, r := range results {
		count[r.Reason]++
	}
	out := make([]Ending, 0, len(count))
	for reason, n := range count {
		out = append(out, Ending{reason, n})
	}
	slices.SortFunc(out, func(a, b Ending) int {
		return cmp.Or(cmp.Compare(b.Games, a.Games), cmp.Compare(a.Reason, b.Reason))
	})
	return out
}
