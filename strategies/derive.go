package strategies

import (
	"fmt"

	"github.com/calcsol/calcsol/solver"
)

// Derive extends a priority table written for m stacks to n > m stacks named
// by rules r, so that every stack is used. Table 1 of Nanzaki & Shintani
// [NanzakiShintani] has three stacks, and its last one (C) is the "king
// stack": kings try it first. The derivation keeps that role and widens the
// middle:
//
//   - the first m−1 stacks keep their names and operations;
//   - the last stack's operations move to the new last stack;
//   - each new stack in between copies the operations of stack m−1 (X in
//     Table 1): after every run of consecutive operations on stack m−1, the
//     same run follows on each new stack in turn.
//
// For Table 1 and four stacks: A's "Z4 Z3 Z2 X4 X3 X2 C4 C3 C2" becomes
// "Z4 Z3 Z2 X4 X3 X2 C4 C3 C2 V4 V3 V2", where the new C repeats X's run and
// V is the old king stack. It is a mechanical extension, not a tuned table.
func Derive(t *Table, r solver.Rules) (*Table, error) {
	m, n := len(t.Stacks), r.Stacks
	if m < 2 || n < m {
		return nil, fmt.Errorf("derive: table %s has %d stacks; can only widen a table of 2 or more stacks to more", t.Name, m)
	}
	names := stackNames(r)
	rename := map[byte]byte{}
	for i := 0; i < m-1; i++ {
		rename[t.Stacks[i]] = names[i]
	}
	rename[t.Stacks[m-1]] = names[n-1]
	middle := t.Stacks[m-2]
	added := names[m-1 : n-1]

	d := &Table{
		Name:    fmt.Sprintf("%s-%d", t.Name, n),
		Source:  fmt.Sprintf("derived from %s by strategies.Derive (%d → %d stacks)", t.Name, m, n),
		Stacks:  names,
		Options: t.Options,
	}
	for k := 1; k <= solver.NumRanks; k++ {
		ops := t.Ops[k]
		var out []Op
		for i := 0; i < len(ops); {
			o := ops[i]
			if o.Kind != OpStack || o.Stack != middle {
				if o.Kind == OpStack {
					o.Stack = rename[o.Stack]
				}
				out = append(out, o)
				i++
				continue
			}
			j := i
			for j < len(ops) && ops[j].Kind == OpStack && ops[j].Stack == middle {
				j++
			}
			run := ops[i:j]
			for _, ro := range run {
				ro.Stack = rename[middle]
				out = append(out, ro)
			}
			for _, s := range []byte(added) {
				for _, ro := range run {
					ro.Stack = s
					out = append(out, ro)
				}
			}
			i = j
		}
		d.Ops[k] = out
	}
	return d, d.Validate(r)
}
