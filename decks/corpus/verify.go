package corpus

import (
	"bytes"
	"context"
	"crypto/sha256"
	"fmt"
	"hash"
	"io"
	"strings"

	"github.com/calcsol/calcsol/decks/shuffle"
)

// Verdict says what VerifyFile checked of a corpus file.
type Verdict struct {
	// Corpus is the corpus read; VerifyNamed leaves its Decks nil when the
	// file verified without being held.
	Corpus *Corpus
	// Decks is the number of decks.
	Decks int
	// Regenerated is set when the header names a generator and a seed and
	// they make the file again byte for byte.
	Regenerated bool
}

// Checked says in words what the verdict rests on: "format, count and
// checksum", "format and count", "format" — only what the file's header
// let the reader check — or, when regenerated, that it is byte-identical to
// what its generator makes.
func (v *Verdict) Checked() string {
	c := v.Corpus
	if v.Regenerated {
		return fmt.Sprintf("byte-identical to %q seed %d", c.Generator, c.Seed)
	}
	parts := []string{"format"}
	if c.HeaderCount {
		parts = append(parts, "count")
	}
	if c.HeaderChecksum {
		parts = append(parts, "checksum")
	}
	what := strings.Join(parts, " and ")
	if len(parts) == 3 {
		what = "format, count and checksum"
	}
	return "no generator in the header: " + what + " checked"
}

// VerifyFile reads data as a corpus file (name for messages) and, when its
// header names a generator and a seed, makes the corpus again — once — and
// compares: the decks first (the error names the first card that differs),
// then the bytes, since the reader accepts comment lines, blank lines and
// CRLF endings that calcsol never writes (the error names the first line
// that differs, and how). The generator's shuffle models come from p: a
// corpus made with other parameters needs the same ones here.
func VerifyFile(data []byte, name string, p shuffle.Params) (*Verdict, error) {
	c, err := Parse(data, name)
	if err != nil {
		return nil, err
	}
	v := &Verdict{Corpus: c, Decks: len(c.Decks)}
	if c.Generator == "" {
		return v, nil
	}
	want, err := Regenerate(c, p)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if err := sameDecks(c, want); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	wantBytes, err := want.MarshalText()
	if err != nil {
		return nil, err
	}
	if !bytes.Equal(data, wantBytes) {
		return nil, fmt.Errorf("%s: the decks match %q seed %d, but the file is not byte-identical to what calcsol writes: %s", name, c.Generator, c.Seed, firstDifference(data, wantBytes))
	}
	v.Regenerated = true
	return v, nil
}

// firstDifference says where file first differs from want (what calcsol
// writes), line by line, and how: "line 3 ends with CRLF …".
func firstDifference(file, want []byte) string {
	fl := bytes.SplitAfter(file, []byte("\n"))
	wl := bytes.SplitAfter(want, []byte("\n"))
	for i := 0; ; i++ {
		switch {
		case i >= len(fl) && i >= len(wl):
			return "no difference found"
		case i >= len(fl) || len(fl[i]) == 0:
			return fmt.Sprintf("line %d: the file ends; calcsol writes %q", i+1, clip(wl[i]))
		case i >= len(wl) || len(wl[i]) == 0:
			return fmt.Sprintf("line %d: calcsol writes no more lines; the file has %q", i+1, clip(fl[i]))
		}
		f, w := fl[i], wl[i]
		if bytes.Equal(f, w) {
			continue
		}
		switch {
		case i == 0 && bytes.HasPrefix(f, bomUTF8) && bytes.Equal(f[len(bomUTF8):], w):
			return "line 1 starts with a UTF-8 byte-order mark (EF BB BF); calcsol writes none"
		case bytes.HasSuffix(f, []byte("\r\n")) && bytes.Equal(f[:len(f)-2], w[:len(w)-1]):
			return fmt.Sprintf("line %d ends with CRLF (\\r\\n); calcsol writes LF (\\n) line endings", i+1)
		case !bytes.HasSuffix(f, []byte("\n")) && bytes.Equal(f, w[:len(w)-1]):
			return fmt.Sprintf("line %d has no final newline", i+1)
		case len(f) > 0 && f[0] == '#' && (len(w) == 0 || w[0] != '#'),
			len(f) > 0 && f[0] == '#' && i+1 < len(fl) && bytes.Equal(fl[i+1], w):
			return fmt.Sprintf("line %d: extra '#' line %q (comments are ignored when reading, but calcsol writes none)", i+1, clip(f))
		}
		return fmt.Sprintf("line %d: the file has %q, calcsol writes %q", i+1, clip(f), clip(w))
	}
}

// clip shortens a line for a message.
func clip(b []byte) string {
	s := strings.TrimRight(string(b), "\r\n")
	if len(s) > 60 {
		return s[:57] + "..."
	}
	return s
}

// VerifyNamed is VerifyFile for the corpus arg names: a file, or a shipped
// corpus (see Resolve). It reads the file line by line with every check of
// Read, keeping no deck, and when the header names a generator compares the
// SHA-256 of the whole file with that of the bytes the generator writes,
// made deck by deck: a file that verifies costs no memory per deck. Only a
// file that does not is read again whole, for VerifyFile to say where it
// differs.
func VerifyNamed(arg string, p shuffle.Params) (*Verdict, error) {
	f, b, err := open(arg)
	if err != nil {
		return nil, err
	}
	file := &hashCount{h: sha256.New()}
	src := bytesLines(b)
	if f != nil {
		defer f.Close()
		src = readerLines(io.TeeReader(f, file), arg)
	} else {
		file.Write(b)
	}
	decks, rankOnly := 0, false
	h, sum, err := scanCorpus(src, arg, true, func(_ []int, ro bool) error {
		decks, rankOnly = decks+1, ro
		return nil
	})
	if err != nil {
		return nil, err
	}
	c := &Corpus{Kind: h.kind, Generator: h.generator, Seed: h.seed, RankOnly: rankOnly, Checksum: sum,
		GeneratorLine: h.genLine, HeaderCount: h.countLine != 0, HeaderChecksum: h.sumLine != 0}
	v := &Verdict{Corpus: c, Decks: decks}
	if c.Generator == "" {
		return v, nil
	}
	if g, err := ParseGenerator(c.Generator, p); err == nil && g.Spec() == c.Generator {
		made := &hashCount{h: sha256.New()}
		s := Spec{Kind: c.Kind, Generator: g, Seed: c.Seed, Count: decks, RankOnly: rankOnly}
		if _, err := WriteGenerated(context.Background(), made, s); err == nil &&
			made.n == file.n && bytes.Equal(made.h.Sum(nil), file.h.Sum(nil)) {
			v.Regenerated = true
			return v, nil
		}
	}
	data, err := Resolve(arg)
	if err != nil {
		return nil, err
	}
	return VerifyFile(data, arg, p)
}

// hashCount hashes and counts the bytes written to it.
type hashCount struct {
	h hash.Hash
	n int64
}

func (w *hashCount) Write(p []byte) (int, error) {
	w.n += int64(len(p))
	return w.h.Write(p)
}
