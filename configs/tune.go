package configs

import (
	"embed"
	"io/fs"
	"sort"
	"strings"
)

// The corpus specs of calcsol tune (configs/tune/*.yaml): training,
// validation and test decks, made on the fly from deck kind, shuffle, count
// and seed rather than shipped as corpus files.
//
//go:embed tune/*.yaml
var tuneFS embed.FS

// TuneCorpusNames lists the shipped tuning corpus specs.
func TuneCorpusNames() []string {
	entries, _ := fs.ReadDir(tuneFS, "tune")
	var names []string
	for _, e := range entries {
		names = append(names, strings.TrimSuffix(e.Name(), ".yaml"))
	}
	sort.Strings(names)
	return names
}

// TuneCorpusSpec returns the YAML of the shipped tuning corpus spec name.
func TuneCorpusSpec(name string) ([]byte, bool) {
	b, err := tuneFS.ReadFile("tune/" + strings.TrimSuffix(name, ".yaml") + ".yaml")
	return b, err == nil
}
