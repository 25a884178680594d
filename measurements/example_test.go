package measurements_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/calcsol/calcsol/measurements"
)

// A kept measurement expands into the shard reports its tournament wrote,
// which calcsol merge and tournament.Progress read.
func ExampleMeasurement_Expand() {
	m, err := measurements.Read("contender-4")
	if err != nil {
		fmt.Println(err)
		return
	}
	dir, err := os.MkdirTemp("", "contender-4-")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	shards, err := m.Expand(dir)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(len(shards), "shards, the first", filepath.Base(shards[0]), "of", m.Header.Shards[0].Games, "games")
	// Output: 30 shards, the first shard-1 of 1000 games
}
