package lines

import (
	"bufio"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/calcsol/calcsol/solver"
)

// Format is the first word of a lines file's header.
const Format = "calcsol-bound-lines 1"

// File holds the encoded winning lines of a corpus's decks, in corpus order
// (nil: no line), for one variant of the rules.
type File struct {
	Checksum string // the corpus's sha256
	Rules    solver.Rules
	Lines    [][]byte
}

// Write writes f gzip-compressed: a header line
//
//	calcsol-bound-lines 1 sha256=<hex> stacks=N preplaced=BOOL decks=N
//
// then, per deck, one byte that is 0 for no line or 1 + the length of the
// encoded line, and the line's bytes. The output depends on f alone (no
// time stamp in the gzip header).
func (f *File) Write(w io.Writer) error {
	zw, err := gzip.NewWriterLevel(w, gzip.BestCompression)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(zw)
	fmt.Fprintf(bw, "%s sha256=%s stacks=%d preplaced=%t decks=%d\n", Format, f.Checksum, f.Rules.Stacks, f.Rules.Preplaced, len(f.Lines))
	for i, l := range f.Lines {
		if len(l) > 254 {
			return fmt.Errorf("deck %d: encoded line of %d bytes (at most 254)", i, len(l))
		}
		n := 0
		if l != nil {
			n = len(l) + 1
		}
		bw.WriteByte(byte(n))
		bw.Write(l)
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	return zw.Close()
}

// Read reads what Write wrote.
func Read(r io.Reader) (*File, error) {
	zr, err := gzip.NewReader(r)
	if err != nil {
		return nil, fmt.Errorf("lines file: %w", err)
	}
	br := bufio.NewReader(zr)
	head, err := br.ReadString('\n')
	if err != nil {
		return nil, fmt.Errorf("lines file: header: %w", err)
	}
	var f File
	var n int
	rest, ok := strings.CutPrefix(head, Format+" ")
	if !ok {
		return nil, fmt.Errorf("lines file: header %q, want %q", strings.TrimSpace(head), Format+" sha256=…")
	}
	if _, err := fmt.Sscanf(rest, "sha256=%s stacks=%d preplaced=%t decks=%d\n", &f.Checksum, &f.Rules.Stacks, &f.Rules.Preplaced, &n); err != nil {
		return nil, fmt.Errorf("lines file: header %q: %w", strings.TrimSpace(head), err)
	}
	if err := f.Rules.Validate(); err != nil {
		return nil, fmt.Errorf("lines file: %w", err)
	}
	if n < 0 {
		return nil, fmt.Errorf("lines file: %d decks", n)
	}
	f.Lines = make([][]byte, 0, min(n, 1<<16))
	for i := 0; i < n; i++ {
		c, err := br.ReadByte()
		if err != nil {
			return nil, fmt.Errorf("lines file: deck %d of %d: %w", i, n, unexpected(err))
		}
		var l []byte
		if c > 0 {
			l = make([]byte, c-1)
			if _, err := io.ReadFull(br, l); err != nil {
				return nil, fmt.Errorf("lines file: deck %d: %w", i, unexpected(err))
			}
		}
		f.Lines = append(f.Lines, l)
	}
	if _, err := br.ReadByte(); err != io.EOF {
		if err == nil {
			err = errors.New("data after the last deck")
		}
		return nil, fmt.Errorf("lines file: %w", err)
	}
	return &f, nil
}

func unexpected(err error) error {
	if err == io.EOF {
		return io.ErrUnexpectedEOF
	}
	return err
}
