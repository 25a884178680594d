package tournament

import (
	"fmt"

	"github.com/calcsol/calcsol/tournament/stats"
)

// Compare pairs two runs deck by deck. They must cover the same decks in the
// same order (as Evaluate and ReadJSONL give them).
func Compare(a, b []DeckResult) (stats.Paired, error) {
	if len(a) != len(b) {
		return stats.Paired{}, fmt.Errorf("compare: %d results against %d; the runs must cover the same decks", len(a), len(b))
	}
	c := stats.Paired{Games: len(a)}
	for i := range a {
		if a[i].Deck != b[i].Deck {
			return stats.Paired{}, fmt.Errorf("compare: result %d is deck %d in one run and deck %d in the other", i, a[i].Deck, b[i].Deck)
		}
		switch {
		case a[i].Won && b[i].Won:
			c.Both++
		case a[i].Won:
			c.OnlyA++
		case b[i].Won:
			c.OnlyB++
		default:
			c.Neither++
		}
	}
	c.P = stats.McNemarExact(c.OnlyA, c.OnlyB)
	return c, nil
}

// McNemar compares two strategies played on the same decks: onlyA decks won
// by A alone, onlyB by B alone, and the two-sided p-value of McNemar's exact
// test that both win equally often. Decks both won or both lost say nothing
// about which is better; see stats.McNemarExact.
func McNemar(a, b []DeckResult) (onlyA, onlyB int, p float64, err error) {
	c, err := Compare(a, b)
	if err != nil {
		return 0, 0, 0, err
	}
	return c.OnlyA, c.OnlyB, c.P, nil
}
