package corpus

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/calcsol/calcsol/decks/cards"
	"github.com/calcsol/calcsol/decks/deal"
	"github.com/calcsol/calcsol/decks/shuffle"
)

// WriteGenerated writes the bytes Write(Generate(…)) writes, to a file (the
// checksum filled in at the end) and to a stream (generated twice).
func TestWriteGeneratedSameBytes(t *testing.T) {
	u := ShuffleGenerator{shuffle.Uniform{}}
	specs := []Spec{
		{Kind: cards.Standard52, Generator: u, Seed: 20021001, Count: 300},
		{Kind: cards.Standard52, Generator: u, Seed: 1, Count: 7, RankOnly: true},
		{Kind: cards.Set64, Generator: u, Seed: 2, Count: 5},
		{Kind: cards.Standard52, Generator: deal.DefaultSpec(), Seed: 3, Count: 20},
	}
	for _, s := range specs {
		c, err := Generate(s.Kind, s.Generator, s.Seed, s.Count)
		if err != nil {
			t.Fatal(err)
		}
		c.RankOnly = s.RankOnly
		want, err := c.MarshalText()
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if _, err := WriteGenerated(context.Background(), &buf, s); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(buf.Bytes(), want) {
			t.Errorf("%s %s: streamed bytes differ from Write(Generate)", s.Kind, s.Generator.Spec())
		}
		path := filepath.Join(t.TempDir(), "c.txt")
		f, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := WriteGenerated(context.Background(), f, s); err != nil {
			t.Fatal(err)
		}
		f.Close()
		if got, _ := os.ReadFile(path); !bytes.Equal(got, want) {
			t.Errorf("%s %s: file bytes differ from Write(Generate)", s.Kind, s.Generator.Spec())
		}
	}
}

// discard is a stream that is not an io.WriterAt.
type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }

// Memory stays flat in the count: 40 times the decks, about the same bytes
// allocated (the in-memory corpus of 3,000,000 decks took 2.2 GB).
func TestWriteGeneratedMemoryFlat(t *testing.T) {
	s := Spec{Kind: cards.Standard52, Generator: ShuffleGenerator{shuffle.Uniform{}}, Seed: 1}
	alloc := func(count int) uint64 {
		s.Count = count
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		if _, err := WriteGenerated(context.Background(), discard{}, s); err != nil {
			t.Fatal(err)
		}
		runtime.ReadMemStats(&after)
		return after.TotalAlloc - before.TotalAlloc
	}
	small, large := alloc(1000), alloc(40000)
	if large > 2*small+64<<10 {
		t.Errorf("1,000 decks allocate %d bytes, 40,000 decks %d: memory grows with the count", small, large)
	}
}

func TestWriteGeneratedCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	s := Spec{Kind: cards.Standard52, Generator: ShuffleGenerator{shuffle.Uniform{}}, Seed: 1, Count: 10}
	if _, err := WriteGenerated(ctx, io.Discard, s); !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want context.Canceled", err)
	}
}

func TestSpecValidate(t *testing.T) {
	u := ShuffleGenerator{shuffle.Uniform{}}
	tests := []struct {
		name string
		s    Spec
	}{
		{"no kind", Spec{Generator: u, Count: 1}},
		{"no generator", Spec{Kind: cards.Standard52, Count: 1}},
		{"zero count", Spec{Kind: cards.Standard52, Generator: u}},
		{"huge count", Spec{Kind: cards.Standard52, Generator: u, Count: MaxCount + 1}},
		{"rank-only tcg60", Spec{Kind: cards.TCG60, Generator: u, Count: 1, RankOnly: true}},
		{"deal of tcg60", Spec{Kind: cards.TCG60, Generator: deal.DefaultSpec(), Count: 1}},
	}
	for _, tc := range tests {
		if err := tc.s.Validate(); err == nil {
			t.Errorf("%s: no error", tc.name)
		}
	}
}

func TestWriteGeneratedProgress(t *testing.T) {
	var done int64
	s := Spec{Kind: cards.Standard52, Generator: ShuffleGenerator{shuffle.Uniform{}}, Seed: 1, Count: 3000,
		Progress: func(n int64) { done += n }}
	if _, err := WriteGenerated(context.Background(), discard{}, s); err != nil {
		t.Fatal(err)
	}
	if done != 3000 {
		t.Errorf("progress counted %d decks, want 3000", done)
	}
}

// A file opened for appending (a shell's >>) cannot be written in place:
// the decks are hashed first, and the bytes are still right.
func TestWriteGeneratedAppend(t *testing.T) {
	s := Spec{Kind: cards.Standard52, Generator: ShuffleGenerator{shuffle.Uniform{}}, Seed: 4, Count: 3}
	c, _ := Generate(s.Kind, s.Generator, s.Seed, s.Count)
	want, _ := c.MarshalText()
	path := filepath.Join(t.TempDir(), "c.txt")
	os.WriteFile(path, []byte("before\n"), 0o644)
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := WriteGenerated(context.Background(), f, s); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if got, _ := os.ReadFile(path); string(got) != "before\n"+string(want) {
		t.Errorf("appended bytes differ from Write(Generate)")
	}
}
