package solver

import "fmt"

// Deck is a Calculation stock, top card first. Only ranks matter.
type Deck [DeckSize]Rank

// SuitLetters are the suits of the card notation in order: card identity c
// (0..51) is rank c%13+1 of suit SuitLetters[c/13] ("AS" is 0, "KC" 51).
// Lower-case letters are read too.
const SuitLetters = "SHDC"

// suitOfChar maps a byte to its suit index plus one, or 0.
var suitOfChar = func() (m [256]uint8) {
	for i := 0; i < len(SuitLetters); i++ {
		m[SuitLetters[i]] = uint8(i + 1)
		m[SuitLetters[i]+'a'-'A'] = uint8(i + 1)
	}
	return m
}()

// ParseDeck reads a deck in either notation of corpus files (docs/corpora.md,
// ParseCards): 52 rank characters ("603K0443…", spaces ignored) or 52
// two-character cards rank+suit separated by white space ("AS 0H KC …").
func ParseDeck(s string) (Deck, error) {
	var d Deck
	var ids [DeckSize]int
	if _, err := ParseCards([]byte(s), &ids); err != nil {
		return d, err
	}
	for i, id := range ids {
		d[i] = Rank(id%NumRanks + 1)
	}
	return d, nil
}

// isSpace reports the separators of cards on a deck line.
func isSpace(c byte) bool { return c <= ' ' && (c == ' ' || c == '\t' || c == '\n' || c == '\r') }

// ParseCards reads one deck line into card identities (see SuitLetters),
// the one reader of both notations of Nanzaki & Shintani's decks and of the
// corpus files:
//
//   - card by card: 52 distinct cards rank+suit separated by white space
//     ("AS 0H KC …"), told apart by a suit letter after the first rank or
//     anywhere on the line (no rank character is a suit letter);
//   - rank-only: 52 rank characters, white space ignored, each rank four
//     times ("603K0443…"); the n-th occurrence of a rank gets suit n (S, H,
//     D, C), so a rank-only deck has one well-defined reading as cards.
//
// It reports whether the line was rank-only. Errors name the card by its
// 1-based position ("card 17: duplicate card 0H (also card 2)").
func ParseCards(line []byte, out *[DeckSize]int) (rankOnly bool, err error) {
	if !cardNotation(line) {
		return true, parseRankOnly(line, out)
	}
	return false, ReadCardLine(line, out[:], nil, FormatCard)
}

// ReadCardLine reads a line of len(out) cards separated by white space into
// out, each card read by parse into an identity 0..63 (nil: ParseCard's
// rank+suit, read inline, since corpora hold millions of cards) and named by
// format in messages. A card read twice is an error that names both positions
// ("card 17: duplicate card 0H (also card 2)"); so is a line of another
// length. ParseCards reads the Calculation deck with it; package cards the
// other deck kinds.
func ReadCardLine(line []byte, out []int, parse func([]byte) (int, error), format func(int) string) error {
	n := len(out)
	var seen uint64 // bit id set once card id was read
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
		var err error
		switch {
		case parse != nil:
			id, err = parse(f)
		case len(f) == 2 && rankOfChar[f[0]] != 0 && suitOfChar[f[1]] != 0:
			id = int(suitOfChar[f[1]]-1)*NumRanks + int(rankOfChar[f[0]]) - 1 // the common case, inline
		default:
			id, err = parseCard(f) // for the message
		}
		if err != nil {
			return fmt.Errorf("card %d: %w", count, err)
		}
		if id < 0 || id > 63 {
			return fmt.Errorf("card %d: identity %d out of range 0..63", count, id)
		}
		if seen&(1<<id) != 0 {
			first := 0
			for p := 0; p < count-1; p++ {
				if out[p] == id {
					first = p + 1
					break
				}
			}
			return fmt.Errorf("card %d: duplicate card %s (also card %d)", count, format(id), first)
		}
		seen |= 1 << id
		out[count-1] = id
	}
	if count != n {
		return fmt.Errorf("%d cards; want %d", count, n)
	}
	return nil
}

// ParseCard reads one card rank+suit ("AS", "0h", "TC") and returns its
// identity (see SuitLetters).
func ParseCard(s string) (int, error) { return parseCard([]byte(s)) }

func parseCard(f []byte) (int, error) {
	if len(f) != 2 {
		return 0, fmt.Errorf("card %q: want rank+suit like AS or 0H", f)
	}
	r, s := rankOfChar[f[0]], suitOfChar[f[1]]
	if r == 0 {
		return 0, fmt.Errorf("card %q: unknown rank %q (want one of A23456789 0/T JQK)", f, f[0])
	}
	if s == 0 {
		return 0, fmt.Errorf("card %q: unknown suit %q (want S H D C)", f, f[1])
	}
	return int(s-1)*NumRanks + int(r) - 1, nil
}

// FormatCard writes card identity id (0..51) as rank+suit ("AS", "0H").
func FormatCard(id int) string {
	return Rank(id%NumRanks+1).String() + SuitLetters[id/NumRanks:id/NumRanks+1]
}

// cardNotation reports whether a line is card by card: quickly when it
// starts with a rank+suit card, else by looking for a suit letter.
func cardNotation(line []byte) bool {
	i := 0
	for i < len(line) && isSpace(line[i]) {
		i++
	}
	if i+1 < len(line) && suitOfChar[line[i+1]] != 0 {
		return true
	}
	for _, c := range line {
		if suitOfChar[c] != 0 {
			return true
		}
	}
	return false
}

// parseRankOnly reads a rank-only line.
func parseRankOnly(line []byte, out *[DeckSize]int) error {
	var times [NumRanks + 1]int
	count := 0
	for _, c := range line {
		if isSpace(c) {
			continue
		}
		count++
		r := rankOfChar[c]
		if r == 0 {
			return fmt.Errorf("rank-only deck, card %d: unknown rank %q (want one of A23456789 0/T JQK)", count, c)
		}
		if count > DeckSize {
			continue
		}
		if times[r] == 4 {
			return fmt.Errorf("rank-only deck, card %d: a fifth %s", count, r)
		}
		out[count-1] = times[r]*NumRanks + int(r) - 1
		times[r]++
	}
	if count != DeckSize {
		return fmt.Errorf("rank-only deck: %d cards; want %d", count, DeckSize)
	}
	return nil
}

// Validate checks that every rank occurs exactly four times.
func (d *Deck) Validate() error {
	var count [NumRanks + 1]int
	for i, r := range d {
		if !r.Valid() {
			return fmt.Errorf("card %d: invalid rank %d", i+1, r)
		}
		count[r]++
		if count[r] > 4 {
			return fmt.Errorf("card %d: a fifth %s", i+1, r)
		}
	}
	return nil
}

// String writes the deck as 52 rank characters, top first.
func (d *Deck) String() string {
	var b [DeckSize]byte
	for i, r := range d {
		b[i] = r.String()[0]
	}
	return string(b[:])
}
