package tournament

import (
	"strings"
	"testing"

	"github.com/calcsol/calcsol/tournament/stats"
)

func TestCompare(t *testing.T) {
	a := []DeckResult{{0, true, 52, false, ""}, {1, true, 52, false, ""}, {2, false, 30, false, ""}, {3, false, 9, true, "x"}, {4, true, 52, false, ""}}
	b := []DeckResult{{0, true, 52, false, ""}, {1, false, 50, false, ""}, {2, true, 52, false, ""}, {3, false, 20, false, ""}, {4, false, 1, false, ""}}
	got, err := Compare(a, b)
	if err != nil {
		t.Fatal(err)
	}
	want := stats.Paired{Games: 5, Both: 1, OnlyA: 2, OnlyB: 1, Neither: 1, P: stats.McNemarExact(2, 1)}
	if got != want {
		t.Errorf("got %+v, want %+v", got, want)
	}
	onlyA, onlyB, p, err := McNemar(a, b)
	if err != nil || onlyA != 2 || onlyB != 1 || p != want.P {
		t.Errorf("McNemar = %d, %d, %g, %v", onlyA, onlyB, p, err)
	}
	// Swapping the runs swaps the counts and keeps p.
	if onlyB2, onlyA2, p2, _ := McNemar(b, a); onlyA2 != onlyA || onlyB2 != onlyB || p2 != p {
		t.Errorf("McNemar(b, a) = %d, %d, %g", onlyB2, onlyA2, p2)
	}

	for _, tc := range []struct {
		name string
		a, b []DeckResult
		want string
	}{
		{"lengths", a, b[:4], "5 results against 4"},
		{"decks", a[:2], []DeckResult{{Deck: 0}, {Deck: 2}}, "result 1 is deck 1 in one run and deck 2"},
	} {
		if _, err := Compare(tc.a, tc.b); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.want)
		}
	}
}
