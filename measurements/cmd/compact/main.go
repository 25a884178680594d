// Command compact keeps the shard reports of one run as a measurement:
//
//	go run ./cmd/compact -out NAME SHARD_DIR...
//
// writes NAME/header.json, NAME/config.yaml and NAME/records.tsv.gz
// (package measurements), after checking that they expand back into the
// shards' manifest.json and results.jsonl byte for byte. The shard
// reports themselves are left as they are.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/calcsol/calcsol/measurements"
)

func main() {
	out := flag.String("out", "", "the measurement's directory")
	flag.Parse()
	if *out == "" || flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: compact -out NAME SHARD_DIR...")
		os.Exit(2)
	}
	m, err := measurements.Compact(flag.Args())
	if err == nil {
		err = m.Write(*out)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "compact:", err)
		os.Exit(1)
	}
	games := 0
	for _, s := range m.Header.Shards {
		games += s.Games
	}
	fmt.Printf("%s: %d shards, %d games\n", *out, len(m.Header.Shards), games)
}
