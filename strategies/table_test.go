package strategies

import (
	"strings"
	"testing"

	"github.com/calcsol/calcsol/solver"
)

func TestParseOp(t *testing.T) {
	const stacks = "ZXCVBNM"
	tests := []struct {
		in   string
		want Op
		err  string
	}{
		{in: "T1", want: Op{Kind: OpTable, Table: 1}},
		{in: "N4", want: Op{Kind: OpChain, Table: 4}},
		{in: "Z3", want: Op{Kind: OpStack, Table: 3, Stack: 'Z'}},
		{in: "SZ3", want: Op{Kind: OpStack, Table: 3, Stack: 'Z'}},
		{in: "SN2", want: Op{Kind: OpStack, Table: 2, Stack: 'N'}},
		{in: "M1", want: Op{Kind: OpStack, Table: 1, Stack: 'M'}},
		{in: "T5", err: "table '5' is not 1..4"},
		{in: "SQ2", err: "'Q' is not a stack of this table"},
		{in: "F2", want: Op{Kind: OpFit, Table: 2}},
		{in: "E3", want: Op{Kind: OpEmpty, Table: 3}},
		{in: "L2", err: "'L' is not T, N, F, E or a stack"},
		{in: "Z", err: "want T1, N4, F2, E3, Z3 or SZ3"},
	}
	for _, tc := range tests {
		got, err := ParseOp(tc.in, stacks)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("ParseOp(%q) error %v, want %q", tc.in, err, tc.err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("ParseOp(%q) = %+v, %v; want %+v", tc.in, got, err, tc.want)
		}
		// Written back, it reads the same.
		again, err := ParseOp(got.String(), stacks)
		if err != nil || again != got {
			t.Errorf("ParseOp(%q).String() = %q reads back as %+v, %v", tc.in, got.String(), again, err)
		}
	}
}

// A table derived for any number of stacks, written and read back, is the
// same table: stack N (the sixth) must not turn into chain stacking.
func TestDeriveWriteRead(t *testing.T) {
	base := &Table{Name: "t", Stacks: "ZXC", Options: DefaultOptions()}
	for r := solver.Rank(1); r <= solver.NumRanks; r++ {
		base.Ops[r] = []Op{{Kind: OpTable, Table: 1}, {Kind: OpChain, Table: 2}, {Kind: OpStack, Stack: 'Z', Table: 1},
			{Kind: OpStack, Stack: 'X', Table: 2}, {Kind: OpStack, Stack: 'C', Table: 3}}
	}
	for n := 3; n <= solver.MaxStacks; n++ {
		rules := solver.Rules{Stacks: n}
		d, err := Derive(base, rules)
		if err != nil {
			t.Fatalf("%d stacks: %v", n, err)
		}
		for r := solver.Rank(1); r <= solver.NumRanks; r++ {
			ops, err := ParseOps(FormatOps(d.Ops[r]), d.Stacks)
			if err != nil {
				t.Fatalf("%d stacks, rank %s: %q does not read back: %v", n, r, FormatOps(d.Ops[r]), err)
			}
			if FormatOps(ops) != FormatOps(d.Ops[r]) || len(ops) != len(d.Ops[r]) {
				t.Fatalf("%d stacks, rank %s: read back as %q", n, r, FormatOps(ops))
			}
			for i := range ops {
				if ops[i] != d.Ops[r][i] {
					t.Fatalf("%d stacks, rank %s: op %d %+v read back as %+v", n, r, i, d.Ops[r][i], ops[i])
				}
			}
		}
	}
}
