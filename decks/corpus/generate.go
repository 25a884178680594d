package corpus

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"

	"github.com/calcsol/calcsol/decks/cards"
	"github.com/calcsol/calcsol/decks/shuffle"
)

// Generator makes the decks of a corpus from fresh decks.
type Generator interface {
	// Spec names the generator in a corpus header: "shuffle U",
	// "deal players=4,adjust=50,target=pairs". ParseGenerator reads it back.
	Spec() string
	// Supports reports whether the generator can make decks of kind k.
	Supports(k cards.Kind) bool
	// Generate turns deck, a fresh deck (identities 0..n-1 in order), into
	// the next deck of the corpus in place, drawing randomness from r only.
	Generate(deck []int, r *rand.Rand)
}

// ShuffleGenerator makes each deck by applying a shuffle (a sequence of
// shuffle models) to a fresh deck. Its spec is "shuffle " followed by the
// sequence.
type ShuffleGenerator struct{ Shuffle shuffle.Shuffler }

// Spec implements Generator.
func (g ShuffleGenerator) Spec() string { return "shuffle " + g.Shuffle.String() }

// Supports implements Generator: a shuffle works on any deck.
func (g ShuffleGenerator) Supports(cards.Kind) bool { return true }

// Generate implements Generator.
func (g ShuffleGenerator) Generate(deck []int, r *rand.Rand) { g.Shuffle.Shuffle(deck, r) }

// MaxCount is the most decks one corpus may hold.
const MaxCount = 1_000_000_000

// Spec says which corpus to make: Count decks of Kind made by Generator
// from Seed, written rank-only when RankOnly (standard52 only).
type Spec struct {
	Kind      cards.Kind
	Generator Generator
	Seed      uint64
	Count     int
	RankOnly  bool
	// Progress, if set, is told how many more decks WriteGenerated wrote,
	// every 1024 decks and at the end.
	Progress func(decks int64)
}

// Validate checks the spec before anything is generated.
func (s Spec) Validate() error {
	switch {
	case !s.Kind.Valid():
		return fmt.Errorf("invalid deck kind %d", uint8(s.Kind))
	case s.Generator == nil:
		return fmt.Errorf("no generator")
	case !s.Generator.Supports(s.Kind):
		return fmt.Errorf("generator %q cannot make %s decks", s.Generator.Spec(), s.Kind.Name())
	case s.Count < 1 || s.Count > MaxCount:
		return fmt.Errorf("count %d: want 1..%d decks", s.Count, MaxCount)
	case s.RankOnly && s.Kind != cards.Standard52:
		return fmt.Errorf("rank-only lines need standard52, not %s", s.Kind.Name())
	case strings.ContainsAny(s.Generator.Spec(), "\r\n"):
		return fmt.Errorf("generator %q spans lines", s.Generator.Spec())
	}
	return nil
}

// each calls deck with the spec's decks in order, reusing one slice. One
// generator shuffle.NewRand(seed) is consumed in deck order: deck 1 is made
// from a fresh deck with the first numbers it yields, deck 2 continues where
// deck 1 stopped, and so on. So deck j depends on every deck before it, and
// the same kind, generator spec and seed give the same corpus, byte for
// byte, on every machine. ctx is checked every 1024 decks.
func (s Spec) each(ctx context.Context, progress func(int64), deck func(j int, d []int) error) error {
	r := shuffle.NewRand(s.Seed)
	d := make([]int, s.Kind.Size())
	for j := range s.Count {
		if j%1024 == 0 && j > 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
			if progress != nil {
				progress(1024)
			}
		}
		for i := range d {
			d[i] = i
		}
		s.Generator.Generate(d, r)
		if err := deck(j, d); err != nil {
			return err
		}
	}
	if progress != nil {
		progress(int64((s.Count-1)%1024 + 1))
	}
	return ctx.Err()
}

// writerAt returns w as an io.WriterAt and its current offset, if it is
// one that can seek and write in place (a file, not a pipe nor a file
// opened for appending).
func writerAt(w io.Writer) (io.WriterAt, int64, bool) {
	wa, ok := w.(io.WriterAt)
	s, ok2 := w.(io.Seeker)
	if !ok || !ok2 {
		return nil, 0, false
	}
	base, err := s.Seek(0, io.SeekCurrent)
	if err != nil {
		return nil, 0, false
	}
	if _, err := wa.WriteAt(nil, base); err != nil {
		return nil, 0, false // a file opened for appending (>>)
	}
	return wa, base, true
}

// Generate makes count ≥ 1 decks of kind k in memory (see Spec for the
// order in which the random numbers are used). WriteGenerated writes a
// corpus of any size without holding it.
func Generate(k cards.Kind, g Generator, seed uint64, count int) (*Corpus, error) {
	s := Spec{Kind: k, Generator: g, Seed: seed, Count: count}
	if err := s.Validate(); err != nil {
		return nil, err
	}
	n := k.Size()
	flat := make([]int, count*n)
	c := &Corpus{Kind: k, Generator: g.Spec(), Seed: seed, Decks: make([][]int, count)}
	err := s.each(context.Background(), nil, func(j int, d []int) error {
		c.Decks[j] = flat[j*n : (j+1)*n : (j+1)*n]
		copy(c.Decks[j], d)
		return nil
	})
	return c, err
}

// WriteGenerated writes the corpus file of s to w deck by deck, hashing as
// it goes, so memory does not grow with the count; the bytes are those of
// Write(Generate(…)). The header's checksum precedes the decks: when w is a
// file that can seek it is written as zeros and filled in at the end;
// otherwise (a pipe, a buffer) the decks are generated twice, once to hash them and once to
// write them. It stops with ctx's error once ctx is done. It returns the
// checksum.
func WriteGenerated(ctx context.Context, w io.Writer, s Spec) (string, error) {
	if err := s.Validate(); err != nil {
		return "", err
	}
	c := &Corpus{Kind: s.Kind, RankOnly: s.RankOnly}
	var line []byte
	hash := func(out io.Writer, progress func(int64)) error {
		return s.each(ctx, progress, func(_ int, d []int) error {
			line = append(c.appendDeckLine(line[:0], d), '\n')
			_, err := out.Write(line)
			return err
		})
	}
	wa, base, seekable := writerAt(w)
	sum := strings.Repeat("0", 64)
	if !seekable {
		h := sha256.New()
		if err := hash(h, nil); err != nil {
			return "", err
		}
		sum = hex.EncodeToString(h.Sum(nil))
	}
	header, at := appendHeader(nil, s.Kind, s.Generator.Spec(), s.Seed, s.Count, sum)
	bw := bufio.NewWriterSize(w, 1<<16)
	bw.Write(header)
	h := sha256.New()
	if err := hash(io.MultiWriter(bw, h), s.Progress); err != nil {
		return "", err
	}
	if err := bw.Flush(); err != nil {
		return "", err
	}
	got := hex.EncodeToString(h.Sum(nil))
	if seekable {
		if _, err := wa.WriteAt([]byte(got), base+int64(at)); err != nil {
			return "", err
		}
	} else if got != sum {
		return "", fmt.Errorf("generator %q made other decks the second time: it must draw only from its generator", s.Generator.Spec())
	}
	return got, nil
}
