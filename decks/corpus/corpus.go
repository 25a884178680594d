// Package corpus reads, writes, generates and verifies corpus files: fixed
// lists of decks with the generator, seed and checksum that made them. It
// is the one corpus reader of calcsol: Calculation is a corpus as the
// players read it (a file streamed line by line, a shipped corpus, or decks
// generated on the fly), what tournaments, evaluations, the tuner and the
// clairvoyant solver play.
package corpus

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"strconv"
	"strings"

	"github.com/calcsol/calcsol/decks/cards"
	"github.com/calcsol/calcsol/internal/atomicfile"
	"github.com/calcsol/calcsol/solver"
)

// A corpus file (docs/corpora.md) is text, one deck per line, cards
// separated by single spaces, top card first; lines starting with '#' carry
// metadata as "# key value" before the first deck:
//
//	# format calcsol-corpus 1
//	# kind standard52
//	# generator shuffle U
//	# seed 20021001
//	# count 30000
//	# sha256 <64 hex digits>
//	AS 0H KC …
//
// Every key is optional on input (a bare list of decks is a standard52
// corpus); Write writes them all. Other '#' lines are comments, which
// the reader ignores anywhere, and blank lines are skipped; a file holds at
// least one deck line. (calcsol corpus verify demands more: the exact bytes
// Write writes, so no comment, blank line or CRLF line ending.)
//
// The checksum is SHA-256 over the deck lines in file order, each exactly as
// it stands in the file without its line ending, followed by one "\n" (a
// trailing "\r" is not hashed). '#' lines and blank lines are not hashed. For
// a file calcsol wrote: grep -v '^#' FILE | sha256sum.

// FormatName and FormatVersion are the value of the "# format" line.
const (
	FormatName    = "calcsol-corpus"
	FormatVersion = 1
)

// Corpus is a list of decks of one kind, with the generator that made them.
type Corpus struct {
	Kind cards.Kind
	// Generator is the generator spec ("shuffle U", "deal players=4,adjust=50,target=pairs"),
	// empty when unknown; Seed is meaningful only when Generator is set.
	Generator string
	Seed      uint64
	// RankOnly marks a standard52 corpus written (or read) as rank-only
	// lines ("603K0443…"); see parseDeckLine for the suits read back.
	RankOnly bool
	// Decks are the decks, each a permutation of the identities 0..Kind.Size()-1.
	Decks [][]int
	// Checksum is the hex SHA-256 of the deck lines as read by Read;
	// Write computes its own.
	Checksum string
	// GeneratorLine is the line of the "# generator" line in the file
	// Read read (0 otherwise), for messages about the generator.
	GeneratorLine int
	// HeaderCount and HeaderChecksum report whether the file Read read had a
	// "# count" and a "# sha256" line (Read checks them against the decks).
	HeaderCount, HeaderChecksum bool
}

// ParseError is a malformed corpus: the file's name, the 1-based line (0 when
// the error is about the whole file) and what is wrong.
type ParseError struct {
	Name string
	Line int
	Err  error
}

func (e *ParseError) Error() string {
	msg := e.Err.Error()
	// One line of bounded length, whatever the input quoted in it.
	if len(msg) > maxMessage {
		msg = strings.ToValidUTF8(msg[:maxMessage-3], "") + "..."
	}
	if e.Line == 0 {
		return fmt.Sprintf("%s: %s", e.Name, msg)
	}
	return fmt.Sprintf("%s line %d: %s", e.Name, e.Line, msg)
}

// maxMessage bounds the reason a ParseError gives.
const maxMessage = 200

func (e *ParseError) Unwrap() error { return e.Err }

// header is what the '#' lines said, with the line of each key for messages.
type header struct {
	kind          cards.Kind
	generator     string
	seed          uint64
	seedLine      int
	genLine       int
	count         int
	countLine     int
	sum           string
	sumLine       int
	sawDeck       bool
	keys          map[string]int
	formatPresent bool
}

// metaKeys are the keys of metadata lines; other '#' lines are comments.
var metaKeys = []string{"format", "kind", "generator", "seed", "count", "sha256"}

// parseMeta reads one '#' line (without the '#').
func (h *header) parseMeta(text string, line int) error {
	text = strings.TrimSpace(text)
	key, val, _ := strings.Cut(text, " ")
	val = strings.TrimSpace(val)
	known := false
	for _, k := range metaKeys {
		if k == key {
			known = true
		}
	}
	if !known {
		return nil // a comment
	}
	if h.sawDeck {
		return fmt.Errorf("metadata %q after the first deck", key)
	}
	if prev, dup := h.keys[key]; dup {
		return fmt.Errorf("second %q line (first on line %d)", key, prev)
	}
	h.keys[key] = line
	switch key {
	case "format":
		want := FormatName + " " + strconv.Itoa(FormatVersion)
		if val != want {
			return fmt.Errorf("format %q; this reader knows %q", val, want)
		}
		h.formatPresent = true
	case "kind":
		k, err := cards.ParseKind(val)
		if err != nil {
			return err
		}
		h.kind = k
	case "generator":
		if val == "" {
			return errors.New("empty generator")
		}
		for _, c := range val {
			if c < ' ' || c == 0x7f {
				return fmt.Errorf("generator %q: control character", val)
			}
		}
		h.generator, h.genLine = val, line
	case "seed":
		s, err := strconv.ParseUint(val, 10, 64)
		if err != nil {
			return fmt.Errorf("seed %q: want a decimal integer 0..2^64-1", val)
		}
		h.seed, h.seedLine = s, line
	case "count":
		n, err := strconv.Atoi(val)
		if err != nil || n < 0 {
			return fmt.Errorf("count %q: want a non-negative integer", val)
		}
		h.count, h.countLine = n, line
	case "sha256":
		if len(val) != 64 || strings.ToLower(val) != val {
			return fmt.Errorf("sha256 %q: want 64 lower-case hex digits", val)
		}
		if _, err := hex.DecodeString(val); err != nil {
			return fmt.Errorf("sha256 %q: want 64 lower-case hex digits", val)
		}
		h.sum, h.sumLine = val, line
	}
	return nil
}

// lines yields the lines of a corpus file without their "\n", each valid
// until the next; it returns the first read error.
type lines func(yield func(line []byte) bool) error

// bytesLines are the lines of a file held in memory.
func bytesLines(data []byte) lines {
	return func(yield func([]byte) bool) error {
		for len(data) > 0 {
			var line []byte
			if i := bytes.IndexByte(data, '\n'); i >= 0 {
				line, data = data[:i], data[i+1:]
			} else {
				line, data = data, nil
			}
			if !yield(line) {
				return nil
			}
		}
		return nil
	}
}

// MaxLine is the longest line a corpus file may hold, its line ending
// included: a deck line of the largest kind is a few hundred bytes, so a
// longer line means the input is not a corpus (binary data, /dev/zero), and
// it is refused there, before more of it is read.
const MaxLine = 64 << 10

// errLongLine is what a line source returns for a line longer than MaxLine;
// scanCorpus gives it the line's number.
var errLongLine = fmt.Errorf("longer than %d bytes: not a corpus file", MaxLine)

// readerLines are the lines of a file read as it is scanned, so that only
// one line of it is held at a time.
func readerLines(r io.Reader, name string) lines {
	return func(yield func([]byte) bool) error {
		br := bufio.NewReaderSize(r, MaxLine)
		for {
			line, err := br.ReadSlice('\n')
			switch {
			case err == bufio.ErrBufferFull:
				return errLongLine
			case err != nil && err != io.EOF:
				return fmt.Errorf("reading %s: %w", name, err)
			}
			if n := len(line); n > 0 && line[n-1] == '\n' {
				line = line[:n-1]
			}
			if len(line) > 0 || err == nil {
				if !yield(line) {
					return nil
				}
			}
			if err == io.EOF {
				return nil
			}
		}
	}
}

// scanCorpus reads a corpus and calls deck for each deck line with the
// card identities (reused between calls) and whether the line was rank-only.
// It checks the header's count and checksum at the end.
func scanCorpus(src lines, name string, rankOK bool, deck func(ids []int, rankOnly bool) error) (*header, string, error) {
	s := &scanner{h: &header{kind: cards.Standard52, keys: map[string]int{}}, name: name, rankOK: rankOK, deck: deck, sum: sha256.New()}
	var bad error
	readErr := src(func(line []byte) bool {
		bad = s.line(line)
		return bad == nil
	})
	if bad != nil {
		return nil, "", bad
	}
	if errors.Is(readErr, errLongLine) {
		return nil, "", &ParseError{name, s.lineNo + 1, readErr}
	}
	if readErr != nil {
		return nil, "", readErr
	}
	return s.finish()
}

// scanner is scanCorpus's state between lines.
type scanner struct {
	h             *header
	name          string
	rankOK        bool
	deck          func(ids []int, rankOnly bool) error
	sum           hash.Hash
	ids           []int
	lineNo, decks int
	firstDeckLine int
	firstRankOnly bool
}

var newline = []byte{'\n'}

// Byte-order marks: UTF-8's is accepted at the start of a file (editors on
// Windows write it) and is not part of the first line; UTF-16's are refused
// by name, since a corpus is ASCII text.
var (
	bomUTF8    = []byte{0xef, 0xbb, 0xbf}
	bomUTF16LE = []byte{0xff, 0xfe}
	bomUTF16BE = []byte{0xfe, 0xff}
)

// line reads the next line of the file, without its "\n".
func (s *scanner) line(line []byte) error {
	h, name := s.h, s.name
	s.lineNo++
	lineNo := s.lineNo
	if len(line) >= MaxLine {
		return &ParseError{name, lineNo, errLongLine}
	}
	if lineNo == 1 {
		switch {
		case bytes.HasPrefix(line, bomUTF8):
			line = line[len(bomUTF8):]
		case bytes.HasPrefix(line, bomUTF16LE), bytes.HasPrefix(line, bomUTF16BE):
			return &ParseError{name, lineNo, errors.New("UTF-16 text (it starts with a UTF-16 byte-order mark): a corpus file is ASCII text")}
		}
	}
	if n := len(line); n > 0 && line[n-1] == '\r' {
		line = line[:n-1]
	}
	if len(line) > 0 && line[0] == '#' {
		if err := h.parseMeta(string(line[1:]), lineNo); err != nil {
			return &ParseError{name, lineNo, err}
		}
		return nil
	}
	if len(bytes.TrimLeft(line, " \t")) == 0 {
		return nil
	}
	if !h.sawDeck {
		h.sawDeck = true
		s.firstDeckLine = lineNo
		if h.generator != "" && h.seedLine == 0 {
			return &ParseError{name, h.genLine, errors.New("generator without a seed line")}
		}
		s.ids = make([]int, h.kind.Size())
	}
	if err := asciiText(line); err != nil {
		return &ParseError{name, lineNo, err}
	}
	rankOnly, err := h.kind.ParseLine(line, s.ids, s.rankOK)
	if err != nil {
		return &ParseError{name, lineNo, err}
	}
	if s.decks == 0 {
		s.firstRankOnly = rankOnly
	} else if rankOnly != s.firstRankOnly {
		return &ParseError{name, lineNo, fmt.Errorf("%s deck, but line %d is %s: one notation per file", notation(rankOnly), s.firstDeckLine, notation(s.firstRankOnly))}
	}
	s.sum.Write(line)
	s.sum.Write(newline)
	s.decks++
	if err := s.deck(s.ids, rankOnly); err != nil {
		return &ParseError{name, lineNo, err}
	}
	return nil
}

// finish checks what only the whole file can show.
func (s *scanner) finish() (*header, string, error) {
	h, name, decks := s.h, s.name, s.decks
	if h.generator != "" && h.seedLine == 0 {
		return nil, "", &ParseError{name, h.genLine, errors.New("generator without a seed line")}
	}
	if decks == 0 {
		// An empty corpus measures nothing, and a header-only file is more
		// likely a truncated one than a corpus.
		return nil, "", &ParseError{name, 0, errors.New("no deck lines: a corpus holds at least one deck")}
	}
	if h.countLine != 0 && h.count != decks {
		held := fmt.Sprintf("%d decks", decks)
		if decks == 1 {
			held = "1 deck"
		}
		return nil, "", &ParseError{name, h.countLine, fmt.Errorf("count %d, but the file holds %s", h.count, held)}
	}
	got := hex.EncodeToString(s.sum.Sum(nil))
	if h.sumLine != 0 && h.sum != got {
		return nil, "", &ParseError{name, h.sumLine, fmt.Errorf("checksum mismatch: header sha256 %s, the deck lines hash to %s", h.sum, got)}
	}
	return h, got, nil
}

// asciiText refuses a deck line with a byte no deck line holds: a control
// character other than a tab or a carriage return, or a byte outside ASCII. It names the first,
// so that binary input is refused on its first line with a short message.
func asciiText(line []byte) error {
	for i, c := range line {
		if (c < ' ' && c != '\t' && c != '\r') || c >= 0x7f {
			return fmt.Errorf("byte 0x%02x at column %d: a deck line is ASCII text (is this a corpus file?)", c, i+1)
		}
	}
	return nil
}

func notation(rankOnly bool) string {
	if rankOnly {
		return "a rank-only"
	}
	return "a card-by-card"
}

// Read reads a corpus file line by line as it parses it, so that input
// that is not a corpus is refused at its first bad line, never read whole.
// name is used in error messages, which give the line and the reason
// ("corpus.txt line 17: card 5: duplicate card 0H (also card 2)"); a count
// or checksum that does not match the decks is an error too. Rank-only lines
// are accepted for standard52.
func Read(r io.Reader, name string) (*Corpus, error) {
	return parseLines(readerLines(r, name), name, 0)
}

// Parse is Read of a corpus file's bytes; it does not keep data.
func Parse(data []byte, name string) (*Corpus, error) {
	return parseLines(bytesLines(data), name, len(data))
}

// parseLines reads a corpus from src; size, when known, is the file's length
// in bytes, to size the decks' backing array once.
func parseLines(src lines, name string, size int) (*Corpus, error) {
	c := &Corpus{}
	var flat []int
	h, sum, err := scanCorpus(src, name, true, func(ids []int, rankOnly bool) error {
		if flat == nil && size > 0 {
			// The deck lines are at least 2 bytes per card.
			flat = make([]int, 0, size/(2*len(ids))*len(ids)+len(ids))
		}
		flat = append(flat, ids...)
		c.RankOnly = rankOnly
		return nil
	})
	if err != nil {
		return nil, err
	}
	c.Kind, c.Generator, c.Seed, c.Checksum, c.GeneratorLine = h.kind, h.generator, h.seed, sum, h.genLine
	c.HeaderCount, c.HeaderChecksum = h.countLine != 0, h.sumLine != 0
	n := h.kind.Size()
	c.Decks = make([][]int, len(flat)/n)
	for i := range c.Decks {
		c.Decks[i] = flat[i*n : (i+1)*n : (i+1)*n]
	}
	return c, nil
}

// ReadCalculationDecks reads a standard52 corpus (card-by-card or rank-only
// lines) as Calculation decks, line by line, with every check of Read. name
// is used in error messages ("corpus.txt line 17: …").
func ReadCalculationDecks(r io.Reader, name string) ([]solver.Deck, error) {
	return calculationDecks(readerLines(r, name), name, 0)
}

// ParseCalculationDecks is ReadCalculationDecks of a corpus file's bytes.
func ParseCalculationDecks(data []byte, name string) ([]solver.Deck, error) {
	return calculationDecks(bytesLines(data), name, len(data))
}

// calculationDecks reads the Calculation decks of a corpus from src (size
// as for parseLines).
func calculationDecks(src lines, name string, size int) ([]solver.Deck, error) {
	var out []solver.Deck
	h, _, err := scanCorpus(src, name, true, func(ids []int, _ bool) error {
		if len(ids) != solver.DeckSize {
			return fmt.Errorf("a %d-card deck: Calculation needs standard52", len(ids))
		}
		if out == nil && size > 0 {
			out = make([]solver.Deck, 0, size/(2*solver.DeckSize)+1)
		}
		var d solver.Deck
		toDeck(&d, ids)
		out = append(out, d)
		return nil
	})
	if err != nil {
		return nil, err
	}
	if h.kind != cards.Standard52 {
		return nil, &ParseError{name, h.keys["kind"], fmt.Errorf("deck kind %s: Calculation needs standard52", h.kind.Name())}
	}
	return out, nil
}

// DeckLine is deck j as its corpus line.
func (c *Corpus) DeckLine(j int) string { return string(c.appendDeckLine(nil, c.Decks[j])) }

// appendDeckLine appends the corpus line of deck (without "\n").
func (c *Corpus) appendDeckLine(b []byte, deck []int) []byte {
	if c.RankOnly {
		for _, id := range deck {
			b = append(b, cards.RankOf(id).String()[0])
		}
		return b
	}
	return c.Kind.AppendDeck(b, deck)
}

// check validates c before writing: a known kind, and every deck a
// permutation of the kind's identities.
func (c *Corpus) check() error {
	if !c.Kind.Valid() {
		return fmt.Errorf("invalid deck kind %d", uint8(c.Kind))
	}
	if c.RankOnly && c.Kind != cards.Standard52 {
		return fmt.Errorf("rank-only lines need standard52, not %s", c.Kind.Name())
	}
	if strings.ContainsAny(c.Generator, "\r\n") {
		return fmt.Errorf("generator %q spans lines", c.Generator)
	}
	n := c.Kind.Size()
	for j, d := range c.Decks {
		if len(d) != n {
			return fmt.Errorf("deck %d: %d cards; want %d", j+1, len(d), n)
		}
		var seen uint64
		for i, id := range d {
			if id < 0 || id >= n {
				return fmt.Errorf("deck %d card %d: identity %d out of range", j+1, i+1, id)
			}
			if seen&(1<<id) != 0 {
				return fmt.Errorf("deck %d card %d: duplicate card %s", j+1, i+1, c.Kind.FormatCard(id))
			}
			seen |= 1 << id
		}
	}
	return nil
}

// MarshalText renders c as a corpus file, header first.
func (c *Corpus) MarshalText() ([]byte, error) {
	if err := c.check(); err != nil {
		return nil, err
	}
	n := c.Kind.Size()
	body := make([]byte, 0, len(c.Decks)*(3*n+1))
	for _, d := range c.Decks {
		body = c.appendDeckLine(body, d)
		body = append(body, '\n')
	}
	sum := sha256.Sum256(body)
	b := make([]byte, 0, len(body)+256)
	b, _ = appendHeader(b, c.Kind, c.Generator, c.Seed, len(c.Decks), hex.EncodeToString(sum[:]))
	return append(b, body...), nil
}

// appendHeader appends the header WriteCorpus writes, and returns the offset
// of the checksum's 64 hex digits in it.
func appendHeader(b []byte, k cards.Kind, generator string, seed uint64, count int, sum string) ([]byte, int) {
	b = fmt.Appendf(b, "# format %s %d\n", FormatName, FormatVersion)
	b = fmt.Appendf(b, "# kind %s\n", k.Name())
	if generator != "" {
		b = fmt.Appendf(b, "# generator %s\n", generator)
		b = fmt.Appendf(b, "# seed %d\n", seed)
	}
	b = fmt.Appendf(b, "# count %d\n", count)
	b = append(b, "# sha256 "...)
	at := len(b)
	return append(append(b, sum...), '\n'), at
}

// Write writes c to w as a corpus file.
func Write(w io.Writer, c *Corpus) error {
	b, err := c.MarshalText()
	if err != nil {
		return err
	}
	_, err = w.Write(b)
	return err
}

// WriteFile writes c to path atomically: to a temporary file in the
// same directory, then renamed over path, so a reader never sees half a file.
func WriteFile(path string, c *Corpus) error {
	b, err := c.MarshalText()
	if err != nil {
		return err
	}
	return atomicfile.Write(path, b)
}
