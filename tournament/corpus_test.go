package tournament

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/calcsol/calcsol/decks/corpus"
	"github.com/calcsol/calcsol/solver"
)

// A corpus file is read again as it is played: the same results as the
// decks in memory, and a run whose file changed after it was opened fails,
// saying so, instead of playing other decks under the corpus's checksum.
func TestRunCorpusFile(t *testing.T) {
	ds := testDecks(300, 5)
	mem, err := corpus.NewCalculation("c", ds)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for i := range ds {
		b.WriteString(ds[i].String() + "\n")
	}
	path := filepath.Join(t.TempDir(), "c.txt")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	e := Entrant{Name: "greedy", Strategy: newGreedy()}
	v := Variant{Rules: solver.Rules{Stacks: 3}}
	ctx := context.Background()
	want, _, err := Single(ctx, e, mem, v, RunOptions{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	file, err := corpus.OpenCalculation("c", path)
	if err != nil {
		t.Fatal(err)
	}
	if file.Checksum != mem.Checksum {
		t.Fatalf("checksum %s, in memory %s", file.Checksum, mem.Checksum)
	}
	got, _, err := Single(ctx, e, file, v, RunOptions{Workers: 2})
	if err != nil || got.Wins != want.Wins || got.Games != want.Games {
		t.Fatalf("from the file: %d of %d won, %v; in memory %d of %d", got.Wins, got.Games, err, want.Wins, want.Games)
	}
	later := time.Now().Add(time.Hour)
	if err := os.Chtimes(path, later, later); err != nil {
		t.Fatal(err)
	}
	_, _, err = Single(ctx, e, file, v, RunOptions{Workers: 2})
	if err == nil || !strings.Contains(err.Error(), "corpus "+path+": written to since it was first read") {
		t.Fatalf("a run of a changed file: %v", err)
	}
}
