package yamldecode_test

import (
	"fmt"

	"github.com/calcsol/calcsol/configs/yamldecode"
)

// A document decodes into a typed struct; what the struct does not name,
// what is given twice and what does not convert are refused with the file,
// the line and the key path.
func ExampleDecode() {
	type rules struct {
		Line   int  `yaml:",line"`
		Stacks int  `yaml:"stacks"`
		Pre    bool `yaml:"preplaced"`
	}
	var cfg struct {
		Seed  uint64  `yaml:"seed"`
		Rules []rules `yaml:"rules"`
	}
	err := yamldecode.Decode([]byte("seed: 7\nrules:\n  - {stacks: 4}\n  - {stacks: 3, preplaced: true}\n"), "t.yaml", &cfg)
	fmt.Println(err, cfg.Seed, cfg.Rules)
	err = yamldecode.Decode([]byte("rules:\n  - stacks: 4\n    colour: red\n  - stacks: three\nseed: 1\nseed: 2\n"), "t.yaml", &cfg)
	fmt.Println(err)
	// Output:
	// <nil> 7 [{3 4 false} {4 3 true}]
	// t.yaml:3: rules[0].colour: unknown key (want stacks, preplaced)
	// t.yaml:4: rules[1].stacks: "three" is not an integer
	// t.yaml:6: seed: given twice
}
