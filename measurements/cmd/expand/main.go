// Command expand writes the shard reports of the kept measurements back as
// `calcsol tournament --shard k/N --out DIR` wrote them (package
// measurements), byte for byte, for calcsol merge and calcsol eval compare
// to read:
//
//	go run ./cmd/expand [-out DIR] [NAME...]
//
// writes DIR/NAME/shard-k/{config.yaml,manifest.json,results.jsonl} for each
// measurement NAME (all of them by default). DIR defaults to the current
// directory, the measurements' own, where .gitignore leaves the shards out.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/calcsol/calcsol/measurements"
)

func main() {
	out := flag.String("out", ".", "where NAME/shard-k go")
	flag.Parse()
	names := flag.Args()
	if len(names) == 0 {
		headers, err := filepath.Glob(filepath.Join("*", measurements.HeaderFile))
		if err != nil || len(headers) == 0 {
			fmt.Fprintln(os.Stderr, "expand: no measurement here (run it in the measurements directory, or name them)")
			os.Exit(2)
		}
		for _, h := range headers {
			names = append(names, filepath.Dir(h))
		}
	}
	for _, name := range names {
		m, err := measurements.Read(name)
		if err != nil {
			fmt.Fprintln(os.Stderr, "expand:", err)
			os.Exit(1)
		}
		dirs, err := m.Expand(filepath.Join(*out, filepath.Base(name)))
		if err != nil {
			fmt.Fprintf(os.Stderr, "expand %s: %v\n", name, err)
			os.Exit(1)
		}
		fmt.Printf("%s: %d shards\n", filepath.Join(*out, filepath.Base(name)), len(dirs))
	}
}
