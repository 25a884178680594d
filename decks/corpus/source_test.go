package corpus

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/calcsol/calcsol/decks/corpora"
)

// An existing file wins over a shipped name; a shipped name is read when no
// such file exists; a directory, an unknown name, or a file that is not a
// corpus is refused.
func TestResolve(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	shipped, _ := corpora.Bytes("uniform-1000")
	mine := swapCards(0, 1) + "\n"
	tests := []struct {
		name, arg, want, err string
		setup                func()
	}{
		{name: "shipped name", arg: "uniform-1000", want: string(shipped)},
		{name: "shipped name with .txt", arg: "uniform-1000.txt", want: string(shipped)},
		{name: "file wins over name", arg: "uniform-1000", want: mine, setup: func() {
			os.WriteFile("uniform-1000", []byte(mine), 0o644)
		}},
		{name: "file", arg: filepath.Join(dir, "f.txt"), want: freshLine + "\n", setup: func() {
			os.WriteFile(filepath.Join(dir, "f.txt"), []byte(freshLine+"\n"), 0o644)
		}},
		{name: "not a corpus", arg: "junk", err: "junk line 1: rank-only deck, card 2: unknown rank 'u'", setup: func() {
			os.WriteFile("junk", []byte("junk\n"+freshLine+"\n"), 0o644)
		}},
		{name: "directory", arg: dir, err: "a directory, not a corpus file"},
		{name: "neither", arg: "nope", err: "no such file, and no shipped corpus of that name"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if tc.setup != nil {
				tc.setup()
			}
			got, err := Resolve(tc.arg)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("Resolve(%q) error %v, want %q", tc.arg, err, tc.err)
				}
				return
			}
			if err != nil || string(got) != tc.want {
				t.Fatalf("Resolve(%q) = %.20q, %v; want %.20q", tc.arg, got, err, tc.want)
			}
		})
	}
	if _, err := Resolve("nope"); !errors.Is(err, ErrNotFound) {
		t.Errorf("Resolve(nope) = %v, want ErrNotFound", err)
	}
}

func TestLoadCalculationDecks(t *testing.T) {
	ds, err := LoadCalculationDecks("uniform-1000")
	if err != nil || len(ds) != 1000 {
		t.Fatalf("%d decks, %v", len(ds), err)
	}
	_, err = LoadCalculationDecks("nope")
	if !errors.Is(err, ErrNotFound) {
		t.Errorf("err = %v, want ErrNotFound", err)
	}
	var pe *ParseError
	os.WriteFile(filepath.Join(t.TempDir(), "x"), nil, 0o644)
	bad := filepath.Join(t.TempDir(), "bad.txt")
	os.WriteFile(bad, []byte("AS\n"), 0o644)
	if _, err := LoadCalculationDecks(bad); !errors.As(err, &pe) || pe.Line != 1 {
		t.Errorf("err = %v, want a *ParseError on line 1", err)
	}
}
