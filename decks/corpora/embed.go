// Package corpora ships the project's deck corpora inside the binary, so that
// every machine scores strategies on the same decks (SPEC §9). Each corpus is
// a corpus file of package decks; docs/corpora.md gives the exact command
// that regenerates each one, and this package's tests check that it does.
package corpora

import (
	"bytes"
	"embed"
	"fmt"
	"io"
	"io/fs"
	"sort"
	"strings"
)

// Default is the corpus strategies are scored on: 30,000 uniformly shuffled
// standard52 decks, the size of seed 003's experiment.
const Default = "uniform-30000"

//go:embed *.txt
var files embed.FS

// Names lists the embedded corpora, sorted; a name is the file name without ".txt".
func Names() []string {
	entries, err := fs.ReadDir(files, ".")
	if err != nil {
		panic(err) // the embedded directory always exists
	}
	var names []string
	for _, e := range entries {
		names = append(names, strings.TrimSuffix(e.Name(), ".txt"))
	}
	sort.Strings(names)
	return names
}

// Open returns the corpus file of an embedded corpus, by name
// ("uniform-30000"; a trailing ".txt" is accepted).
func Open(name string) (io.Reader, error) {
	b, err := Bytes(name)
	if err != nil {
		return nil, err
	}
	return bytes.NewReader(b), nil
}

// Bytes returns the contents of an embedded corpus (shared: do not modify).
func Bytes(name string) ([]byte, error) {
	b, err := files.ReadFile(strings.TrimSuffix(name, ".txt") + ".txt")
	if err != nil {
		return nil, fmt.Errorf("no embedded corpus %q (have %s)", name, strings.Join(Names(), ", "))
	}
	return b, nil
}
