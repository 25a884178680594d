package strategies_test

import (
	"strings"
	"testing"

	"github.com/calcsol/calcsol/configs"
	"github.com/calcsol/calcsol/solver"
	"github.com/calcsol/calcsol/strategies"
)

// TestBuild builds strategies as the commands' --strategy, --table and
// --option flags name them, and checks the label or the error.
func TestBuild(t *testing.T) {
	three, four := solver.Rules{Stacks: 3}, solver.Rules{Stacks: 4}
	tests := []struct {
		name    string
		c       strategies.CommandLine
		rules   solver.Rules
		label   string
		wantErr string
	}{
		{"default table", strategies.CommandLine{Spec: "priority"}, three, "priority/nanzaki-shintani", ""},
		{"table for the stacks", strategies.CommandLine{Spec: "priority"}, four, "priority/nanzaki-shintani-4", ""},
		{"option in the spec", strategies.CommandLine{Spec: "priority:deadlock_check=exact"}, three, "priority/nanzaki-shintani (deadlock_check=exact)", ""},
		{"option flag", strategies.CommandLine{Spec: "priority", Options: []string{" deadlock_check = exact "}}, three, "priority/nanzaki-shintani (deadlock_check=exact)", ""},
		{"table flag", strategies.CommandLine{Spec: "priority", Table: "nanzaki-shintani-4"}, four, "priority/nanzaki-shintani-4", ""},
		{"other kind", strategies.CommandLine{Spec: "greedy"}, three, "greedy", ""},
		{"wrapped", strategies.CommandLine{Spec: "priority+endgame:k=8"}, three, "", "unknown strategy kind \"endgame\""},
		{"empty spec", strategies.CommandLine{Spec: " "}, three, "", "--strategy: empty strategy spec"},
		{"table with another kind", strategies.CommandLine{Spec: "greedy", Table: "x"}, three, "", "--table and --option go with --strategy priority, not greedy"},
		{"option without =", strategies.CommandLine{Spec: "priority", Options: []string{"deadlock_check"}}, three, "", `--option "deadlock_check": want key=value`},
		{"unknown option", strategies.CommandLine{Spec: "priority", Options: []string{"foo=bar"}}, three, "", "strategy priority: unknown parameter \"foo\""},
		{"misspelt kind", strategies.CommandLine{Spec: "prioirty"}, three, "", `unknown strategy kind "prioirty" (did you mean priority? `},
		{"misspelt option", strategies.CommandLine{Spec: "priority", Options: []string{"tabel=x"}}, three, "", `strategy priority: unknown parameter "tabel" (did you mean table? want `},
		{"table too narrow", strategies.CommandLine{Spec: "priority", Table: "nanzaki-shintani-4"}, three, "", "stacks"},
		{"set by kind", strategies.CommandLine{Spec: "priority", Set: []string{"priority.table=nanzaki-shintani-4"}}, four, "priority/nanzaki-shintani-4", ""},
		{"set by key", strategies.CommandLine{Spec: "priority", Set: []string{"deadlock_check=exact"}}, three, "priority/nanzaki-shintani (deadlock_check=exact)", ""},
		{"set replaces the spec's", strategies.CommandLine{Spec: "priority:deadlock_check=none", Set: []string{"deadlock_check=exact"}}, three, "priority/nanzaki-shintani (deadlock_check=exact)", ""},
		{"set on a missing layer", strategies.CommandLine{Spec: "priority", Set: []string{"endgame.k=4"}}, three, "", `--set "endgame.k=4": the strategy has no endgame layer (priority)`},
		{"set an undeclared key", strategies.CommandLine{Spec: "greedy", Set: []string{"k=4"}}, three, "", `--set "k=4": no layer of greedy declares k`},
		{"set without =", strategies.CommandLine{Spec: "priority", Set: []string{"table"}}, three, "", `--set "table": want [KIND.]KEY=VALUE`},
		{"set a misspelt layer", strategies.CommandLine{Spec: "priority+endgame", Set: []string{"endgmae.k=4"}}, three, "", `--set "endgmae.k=4": the strategy has no endgmae layer (priority+endgame) (did you mean endgame?)`},
		{"set a misspelt key", strategies.CommandLine{Spec: "priority", Set: []string{"tabel=x"}}, three, "", `--set "tabel=x": no layer of priority declares tabel (did you mean table?)`},
		{"set a bad value", strategies.CommandLine{Spec: "priority", Set: []string{"priority.deadlock_check=maybe"}}, three, "", `parameter deadlock_check: "maybe" is not one of`},
	}
	reg := configs.Strategies()
	for _, tt := range tests {
		s, label, err := reg.Build(tt.c, tt.rules)
		switch {
		case tt.wantErr != "":
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("%s: error %v, want one containing %q", tt.name, err, tt.wantErr)
			}
		case err != nil:
			t.Errorf("%s: %v", tt.name, err)
		case s == nil || label != tt.label:
			t.Errorf("%s: label %q, want %q", tt.name, label, tt.label)
		}
	}
}

func TestPartSet(t *testing.T) {
	tests := []struct {
		name    string
		kvs     []string
		want    string
		wantErr string
	}{
		{"none", nil, "priority:table=t", ""},
		{"adds and replaces", []string{"table = u", "k=v"}, "priority:k=v,table=u", ""},
		{"empty value", []string{"k="}, "priority:k=,table=t", ""},
		{"no =", []string{"k"}, "", `"k": want key=value`},
	}
	for _, tt := range tests {
		p := strategies.Part{Kind: "priority", Params: map[string]string{"table": "t"}}
		err := p.Set(tt.kvs)
		if tt.wantErr != "" {
			if err == nil || err.Error() != tt.wantErr {
				t.Errorf("%s: error %v, want %q", tt.name, err, tt.wantErr)
			}
			continue
		}
		if got := strategies.FormatSpec([]strategies.Part{p}); err != nil || got != tt.want {
			t.Errorf("%s: %q, %v; want %q", tt.name, got, err, tt.want)
		}
	}
}
