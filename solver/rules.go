package solver

import (
	"fmt"
	"strings"
)

// MaxStacks is the largest number of stacks (waste piles) the engine supports.
const MaxStacks = 8

// DefaultStackNames are the stack names, left to right (docs/rules.md). The
// eighth name is not in the literature; L continues the keyboard row.
const DefaultStackNames = "ZXCVBNML"

// Rules are the variant being played.
type Rules struct {
	// Stacks is the number of stacks, 1..MaxStacks.
	Stacks int
	// Preplaced takes the first A, 2, 3 and 4 out of the stock and starts the
	// tables with them (PySol's rule). The default (false) is the rule of
	// Nanzaki & Shintani [NanzakiShintani]: tables start empty.
	Preplaced bool
	// Names are the stacks' one-letter names; empty means DefaultStackNames.
	Names string
}

// DefaultRules are the rules of Nanzaki & Shintani [NanzakiShintani]: 3 stacks,
// tables start empty.
func DefaultRules() Rules { return Rules{Stacks: 3} }

// Validate reports what is wrong with r, if anything.
func (r Rules) Validate() error {
	if r.Stacks < 1 || r.Stacks > MaxStacks {
		return fmt.Errorf("rules: %d stacks; want 1..%d", r.Stacks, MaxStacks)
	}
	names := r.names()
	if len(names) < r.Stacks {
		return fmt.Errorf("rules: %d stack names %q for %d stacks", len(names), names, r.Stacks)
	}
	for i := 0; i < r.Stacks; i++ {
		c := names[i]
		if rankOfChar[c] != 0 || (c >= '0' && c <= '9') || c <= ' ' || c > '~' {
			return fmt.Errorf("rules: stack name %q clashes with rank or table notation", c)
		}
		if strings.IndexByte(names[:i], c) >= 0 {
			return fmt.Errorf("rules: stack name %q used twice", c)
		}
	}
	return nil
}

func (r Rules) names() string {
	if r.Names == "" {
		return DefaultStackNames
	}
	return r.Names
}

// StackName returns the name of stack s (0-based).
func (r Rules) StackName(s int) byte {
	n := r.names()
	if s < 0 || s >= len(n) {
		return '?'
	}
	return n[s]
}

// StackIndex returns the index of the stack named c, or -1.
func (r Rules) StackIndex(c byte) int {
	n := r.names()
	if r.Stacks < len(n) {
		n = n[:max(r.Stacks, 0)]
	}
	return strings.IndexByte(n, c)
}

// String describes the variant, e.g. "3 stacks, base" or "4 stacks, preplaced".
func (r Rules) String() string {
	v := "base"
	if r.Preplaced {
		v = "preplaced"
	}
	return fmt.Sprintf("%d stacks, %s", r.Stacks, v)
}
