package configs_test

import (
	"fmt"

	"github.com/calcsol/calcsol/configs"
)

// A malformed table is refused with the file, the line and the reason.
func ExampleParsePriority() {
	_, err := configs.ParsePriority([]byte(`stacks: ZXC
ranks:
  - {rank: A, ops: "T1 T2 Z4 V4"}
`), "mine.yaml")
	fmt.Println(err)
	// Output:
	// mine.yaml:3: ranks[0].ops: rank A: operation "V4": 'V' is not T, N, F, E or a stack of this table (ZXC)
}
