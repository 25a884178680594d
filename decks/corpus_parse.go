package decks

import (
	"fmt"
)

// isSpace reports the separators of cards on a deck line.
func isSpace(c byte) bool { return c == ' ' || c == '\t' }

// hasSuitLetter reports whether line holds a suit letter; a standard52 line
// without one is read as rank-only (no rank character is a suit letter).
func hasSuitLetter(line []byte) bool {
	for _, c := range line {
		if suitOf[c] >= 0 {
			return true
		}
	}
	return false
}

// cardNotation reports whether a standard52 line is card by card: quickly
// when it starts with a rank+suit card, else by looking for a suit letter.
func cardNotation(line []byte) bool {
	i := 0
	for i < len(line) && isSpace(line[i]) {
		i++
	}
	if i+1 < len(line) && suitOf[line[i+1]] >= 0 {
		return true
	}
	return hasSuitLetter(line)
}

// parseDeckLine reads one deck line of kind k into out (len k.Size()). With
// rankOK, a standard52 line without any suit letter is read as rank-only
// (SPEC §9, "603K0443…"): 52 rank characters, white space ignored, each rank
// four times; the n-th occurrence of a rank gets suit n (S, H, D, C), so a
// rank-only deck has a well-defined standard52 reading. It reports whether
// the line was rank-only. Errors name the card by its 1-based position.
func parseDeckLine(k Kind, line []byte, out []int, rankOK bool) (rankOnly bool, err error) {
	n := k.Size()
	if rankOK && k == Standard52 && !cardNotation(line) {
		return true, parseRankOnly(line, out)
	}
	var seen uint64 // bit id set once card id was read; every kind has at most 64 cards
	count := 0
	for i := 0; i < len(line); {
		if isSpace(line[i]) {
			i++
			continue
		}
		j := i
		for j < len(line) && !isSpace(line[j]) {
			j++
		}
		f := line[i:j]
		i = j
		count++
		if count > n {
			continue // only counted, for the message
		}
		var id int
		if k == Standard52 && len(f) == 2 && rankOf[f[0]] >= 0 && suitOf[f[1]] >= 0 {
			id = int(suitOf[f[1]])*13 + int(rankOf[f[0]])
		} else if id, err = k.parseCard(f); err != nil {
			return false, fmt.Errorf("card %d: %w", count, err)
		}
		if seen&(1<<id) != 0 {
			first := 0
			for p := 0; p < count-1; p++ {
				if out[p] == id {
					first = p + 1
					break
				}
			}
			return false, fmt.Errorf("card %d: duplicate card %s (also card %d)", count, k.FormatCard(id), first)
		}
		seen |= 1 << id
		out[count-1] = id
	}
	if count != n {
		return false, fmt.Errorf("%d cards; want %d for %s", count, n, k.Name())
	}
	return false, nil
}

// parseRankOnly reads a rank-only standard52 line.
func parseRankOnly(line []byte, out []int) error {
	var times [13]int
	count := 0
	for i, c := range line {
		if isSpace(c) {
			continue
		}
		r := rankOf[c]
		if r < 0 {
			return fmt.Errorf("rank-only deck, character %d: unknown rank %q (want one of A23456789 0/T JQK)", i+1, c)
		}
		count++
		if count > 52 {
			continue
		}
		if times[r] == 4 {
			return fmt.Errorf("rank-only deck, card %d: a fifth %c", count, rankChars[r])
		}
		out[count-1] = times[r]*13 + int(r)
		times[r]++
	}
	if count != 52 {
		return fmt.Errorf("rank-only deck: %d ranks; want 52", count)
	}
	return nil
}
