package configs

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/calcsol/calcsol/solver"
	"github.com/calcsol/calcsol/strategies"
)

// The fingerprint covers what every layer reads, however deeply wrapped: an
// edit of a table's operations or options changes the fingerprint of every
// spec that plays it (as its own table or as an alternative one), and an
// edit of its comments changes none.
func TestFingerprintFollowsTables(t *testing.T) {
	shipped, err := os.ReadFile("priority/tuned-3.yaml")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "mine.yaml")
	specs := []string{
		"priority:table=" + file,
		"priority:table=" + file + ",deadlock_check=exact",
		"priority:table=" + file + "+rescue",
		"priority:table=" + file + "+rescue:give_up=true+sample:n=2+rescue+endgame:k=4",
		"priority+sample:n=2,alt_tables=tuned-3-exact;" + file,
		"priority+rescue+sample:n=2,alt_tables=" + file + "+endgame",
	}
	reg := builtInKinds()
	rules := []solver.Rules{{Stacks: 3}, {Stacks: 4}}
	fingerprints := func(table string) []string {
		t.Helper()
		if err := os.WriteFile(file, []byte(table), 0o644); err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, spec := range specs {
			s, err := reg.BuildSpec(spec)
			if err != nil {
				t.Fatalf("%s: %v", spec, err)
			}
			fp, err := strategies.Fingerprint(s, spec, rules)
			if err != nil {
				t.Fatalf("%s: %v", spec, err)
			}
			out = append(out, fp)
		}
		return out
	}
	edit := func(old, new string) string {
		t.Helper()
		if !strings.Contains(string(shipped), old) {
			t.Fatalf("tuned-3.yaml has no %q", old)
		}
		return strings.Replace(string(shipped), old, new, 1)
	}
	orig := fingerprints(string(shipped))
	tests := []struct {
		name    string
		table   string
		changes bool
	}{
		{"comment", "# another comment\n" + edit("# Search:", "# Searched:"), false},
		{"source text", edit(`source: "calcsol tune`, `source: "tuned by calcsol tune`), false},
		{"operations", edit(`{rank: A, ops: "T1 N4`, `{rank: A, ops: "N4 T1`), true},
		{"option", edit("tx_respects_reservation: true", "tx_respects_reservation: false"), true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := fingerprints(tc.table)
			for i, spec := range specs {
				if changed := got[i] != orig[i]; changed != tc.changes {
					t.Errorf("%s: fingerprint changed %t, want %t", spec, changed, tc.changes)
				}
			}
		})
	}
}

// Specs that differ in anything that decides a game differ in fingerprint;
// the same spec written twice does not.
func TestFingerprintFollowsSpecs(t *testing.T) {
	reg := builtInKinds()
	rules := []solver.Rules{{Stacks: 3}}
	seen := map[string]string{}
	for _, spec := range []string{"priority", "priority:deadlock_check=exact", "priority:table=tuned-3", "priority:table=tuned-3+rescue",
		"priority:table=tuned-3-exact+rescue", "priority+endgame", "priority+endgame:k=5", "greedy", "deadlock-graph:w_gap=2"} {
		s, err := reg.BuildSpec(spec)
		if err != nil {
			t.Fatal(err)
		}
		fp, err := strategies.Fingerprint(s, spec, rules)
		if err != nil {
			t.Fatal(err)
		}
		again, _ := strategies.Fingerprint(s, spec, rules)
		if again != fp {
			t.Errorf("%s: fingerprint %s, then %s", spec, fp, again)
		}
		if other, dup := seen[fp]; dup {
			t.Errorf("%s and %s share fingerprint %s", spec, other, fp)
		}
		seen[fp] = spec
	}
}
