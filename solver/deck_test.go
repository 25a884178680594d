package solver

import (
	"strings"
	"testing"
)

// ParseCards gives identities: card by card as written, rank-only with the
// n-th occurrence of a rank in suit n; ReadCardLine names both places of a
// duplicate.
func TestParseCards(t *testing.T) {
	var ids [DeckSize]int
	rankOnly, err := ParseCards([]byte(sortedRanks), &ids)
	if err != nil || !rankOnly {
		t.Fatalf("rank-only: %v, %v", rankOnly, err)
	}
	// AAAA: the aces of S, H, D, C in that order.
	if got := []string{FormatCard(ids[0]), FormatCard(ids[1]), FormatCard(ids[2]), FormatCard(ids[3])}; strings.Join(got, " ") != "AS AH AD AC" {
		t.Errorf("first four: %v, want AS AH AD AC", got)
	}
	var cards []string
	for i := range DeckSize {
		cards = append(cards, FormatCard(DeckSize-1-i))
	}
	line := " " + strings.Join(cards, "\t") + "\r\n"
	rankOnly, err = ParseCards([]byte(line), &ids)
	if err != nil || rankOnly || ids[0] != DeckSize-1 || FormatCard(ids[0]) != "KC" {
		t.Errorf("cards: %v, %v, first %s", rankOnly, err, FormatCard(ids[0]))
	}
	var out [3]int
	err = ReadCardLine([]byte("AS 2S AS"), out[:], nil, FormatCard)
	if err == nil || err.Error() != "card 3: duplicate card AS (also card 1)" {
		t.Errorf("duplicate: %v", err)
	}
	if id, err := ParseCard("th"); err != nil || FormatCard(id) != "0H" {
		t.Errorf("ParseCard(th) = %d, %v; want 0H", id, err)
	}
}
