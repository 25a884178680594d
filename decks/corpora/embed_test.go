package corpora_test

import (
	"bytes"
	"fmt"
	"io"
	"slices"
	"testing"

	"github.com/calcsol/calcsol/decks/cards"
	"github.com/calcsol/calcsol/decks/corpora"
	"github.com/calcsol/calcsol/decks/corpus"
	"github.com/calcsol/calcsol/decks/shuffle"
)

// TestRegenerate checks that every shipped corpus is exactly what its header's
// generator and seed make today: the commands in docs/corpora.md still
// reproduce the files byte for byte.
func TestRegenerate(t *testing.T) {
	for _, name := range corpora.Names() {
		t.Run(name, func(t *testing.T) {
			data, err := corpora.Bytes(name)
			if err != nil {
				t.Fatal(err)
			}
			c, err := corpus.Read(bytes.NewReader(data), name)
			if err != nil {
				t.Fatal(err)
			}
			if c.Generator == "" {
				t.Fatal("no generator in the header")
			}
			again, err := corpus.Regenerate(c, shuffle.DefaultParams())
			if err != nil {
				t.Fatal(err)
			}
			b, err := again.MarshalText()
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(b, data) {
				t.Errorf("regenerating %q seed %d does not give the shipped bytes", c.Generator, c.Seed)
			}
		})
	}
}

// TestShipped pins what the shipped corpora are (docs/corpora.md).
func TestShipped(t *testing.T) {
	want := []struct {
		name      string
		generator string
		seed      uint64
		count     int
	}{
		{"uniform-1000", "shuffle U", 1, 1000},
		{"uniform-30000", "shuffle U", 20021001, 30000},
	}
	var names []string
	for _, w := range want {
		names = append(names, w.name)
		r, err := corpora.Open(w.name)
		if err != nil {
			t.Fatal(err)
		}
		ds, err := corpus.ReadCalculationDecks(r, w.name)
		if err != nil {
			t.Fatal(err)
		}
		if len(ds) != w.count {
			t.Errorf("%s: %d decks, want %d", w.name, len(ds), w.count)
		}
		c, err := corpus.Read(mustOpen(t, w.name+".txt"), w.name)
		if err != nil {
			t.Fatal(err)
		}
		if c.Generator != w.generator || c.Seed != w.seed || c.Kind != cards.Standard52 {
			t.Errorf("%s: %s %q seed %d, want standard52 %q seed %d", w.name, c.Kind, c.Generator, c.Seed, w.generator, w.seed)
		}
	}
	if got := corpora.Names(); !slices.Equal(got, names) {
		t.Errorf("Names() = %v, want %v", got, names)
	}
	if !slices.Contains(corpora.Names(), corpora.Default) {
		t.Errorf("Default %q is not shipped", corpora.Default)
	}
	if _, err := corpora.Open("nope"); err == nil {
		t.Error("Open(nope) succeeded")
	}
}

func mustOpen(t *testing.T, name string) io.Reader {
	t.Helper()
	r, err := corpora.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func ExampleOpen() {
	r, err := corpora.Open(corpora.Default)
	if err != nil {
		panic(err)
	}
	ds, err := corpus.ReadCalculationDecks(r, corpora.Default)
	if err != nil {
		panic(err)
	}
	fmt.Println(len(ds), "decks; the first:", ds[0].String())
	// Output: 30000 decks; the first: 5269Q34J4898002878A572AJ4937A709KQKK5Q3AQ504K326J66J
}

// Bytes shares one copy of a corpus between calls, as it says: the default
// corpus is 4.7 MB.
func TestBytesShared(t *testing.T) {
	a, err := corpora.Bytes(corpora.Default)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := corpora.Bytes(corpora.Default + ".txt")
	if &a[0] != &b[0] {
		t.Error("two calls returned two copies")
	}
	if allocs := testing.AllocsPerRun(5, func() { corpora.Bytes(corpora.Default) }); allocs > 1 {
		t.Errorf("%v allocations per call", allocs)
	}
}
