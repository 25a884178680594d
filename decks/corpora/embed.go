// Package corpora ships the project's deck corpora inside the binary, so that
// every machine scores strategies on the same decks. Each corpus is a corpus
// file of package corpus; docs/corpora.md gives the exact command that
// regenerates each one, and this package's tests check that it does.
package corpora

import (
	"bytes"
	"embed"
	"fmt"
	"io"
	"io/fs"
	"sort"
	"strings"
	"sync"
)

// Default is the corpus strategies are scored on: 30,000 uniformly shuffled
// standard52 decks, the size of Nanzaki & Shintani's experiment.
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

// read holds each corpus read so far: embed.FS copies a file on every
// ReadFile, and the default corpus is 4.7 MB.
var read sync.Map // name → []byte

// Bytes returns the contents of an embedded corpus. The slice is shared by
// every caller: do not modify it.
func Bytes(name string) ([]byte, error) {
	name = strings.TrimSuffix(name, ".txt")
	if b, ok := read.Load(name); ok {
		return b.([]byte), nil
	}
	b, err := files.ReadFile(name + ".txt")
	if err != nil {
		return nil, fmt.Errorf("no embedded corpus %q (have %s)", name, strings.Join(Names(), ", "))
	}
	b2, _ := read.LoadOrStore(name, b)
	return b2.([]byte), nil
}

//go:embed bounds/*.json
var bounds embed.FS

// Bounds returns the shipped clairvoyant bound files (written by calcsol
// solve --out; docs/clairvoyant.md), by file name, sorted. Each names the
// corpus, its checksum and the rules it is for.
func Bounds() (names []string, read func(name string) ([]byte, error)) {
	entries, err := fs.ReadDir(bounds, "bounds")
	if err != nil {
		panic(err) // the embedded directory always exists
	}
	for _, e := range entries {
		names = append(names, e.Name())
	}
	sort.Strings(names)
	return names, func(name string) ([]byte, error) { return bounds.ReadFile("bounds/" + name) }
}
