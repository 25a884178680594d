package configs

import (
	"os"
	"strings"
	"testing"

	"github.com/calcsol/calcsol/strategies"
)

// Each shipped preset builds, is written in canonical form, and is exactly
// the strategy of the shipped config entry whose measurement it quotes.
func TestPresets(t *testing.T) {
	measuredBy := map[string]struct{ file, entry string }{
		"best-4p": {"strength-4p.yaml", ""},
		"best-4":  {"contender-4.yaml", ""},
		"best-3p": {"contender-3p.yaml", ""},
		"best-3":  {"contender-3.yaml", ""},
		"mid-4p":  {"middle.yaml", "mid-4p"},
		"mid-4":   {"middle.yaml", "mid-4"},
		"mid-3p":  {"middle.yaml", "mid-3p"},
		"mid-3":   {"middle.yaml", "mid-3"},
		"fast-4p": {"tournament-full.yaml", "tuned-4p+reassign+rescue+endgame"},
		"fast-4":  {"tournament-full.yaml", "tuned-4+reassign+rescue+endgame"},
		"fast-3p": {"tournament-full.yaml", "tuned-3p+reassign+rescue+endgame"},
		"fast-3":  {"tournament-full.yaml", "tuned-3x+reassign+rescue+endgame"},
	}
	reg := builtInKinds()
	presets := Presets()
	if len(presets) != len(measuredBy) {
		t.Errorf("%d presets, want %d", len(presets), len(measuredBy))
	}
	for _, name := range PriorityNames() {
		if _, err := reg.BuildSpec(name); err != nil {
			t.Errorf("table %s as a preset: %v", name, err)
		}
	}
	for _, p := range presets {
		if _, err := reg.BuildSpec(p.Name); err != nil {
			t.Errorf("%s: %v", p.Name, err)
		}
		parts, err := reg.Parts(strategies.CommandLine{Spec: p.Name})
		if err != nil {
			t.Fatal(err)
		}
		if got := strategies.FormatSpec(parts); got != p.Spec {
			t.Errorf("%s: spec %s, canonically %s", p.Name, p.Spec, got)
		}
		if p.Rules == "" || p.Doc == "" || p.Measured == "" {
			t.Errorf("%s: rules, doc or measured missing", p.Name)
		}
		m, ok := measuredBy[p.Name]
		if !ok {
			t.Errorf("%s: no config says where it was measured", p.Name)
			continue
		}
		data, err := os.ReadFile(m.file)
		if err != nil {
			t.Fatal(err)
		}
		cfg, err := ParseTournament(data, m.file)
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for i, s := range cfg.Strategies {
			if m.entry == "" && i == 0 || s.Name == m.entry {
				found = true
				if s.Spec() != p.Spec {
					t.Errorf("%s is %s, but %s's %s is %s", p.Name, p.Spec, m.file, s.Name, s.Spec())
				}
			}
		}
		if !found {
			t.Errorf("%s: no entry %q in %s", p.Name, m.entry, m.file)
		}
	}
}

// A preset stands wherever a strategy does: first, with more wrappers after
// it, in a config too; with parameters of its own, or as a wrapper, it is
// refused with the way to say it.
func TestPresetUse(t *testing.T) {
	reg := builtInKinds()
	tests := []struct{ spec, want, err string }{
		{"fast-3", "priority:reassign_tops=true,table=tuned-3-exact+rescue+endgame:k=4", ""},
		{"fast-3+sample:n=2", "priority:reassign_tops=true,table=tuned-3-exact+rescue+endgame:k=4+sample:n=2", ""},
		{"fast-3:n=2", "", "preset fast-3 takes no parameters: set those of its layers with --set KIND.KEY=VALUE"},
		{"priority+fast-3", "", "preset fast-3 is a whole strategy: it can only come first"},
		{"fsat-3", "", `unknown strategy kind "fsat-3" (did you mean fast-3? calcsol strategies lists them all)`},
		{"oracle", "", `unknown strategy kind "oracle" (kinds: deadlock-graph, endgame, greedy, pimc, priority, random, rescue, sample, subgame; presets: best-3, `},
		{"tuned-3+endgame", "priority:table=tuned-3+endgame", ""},
	}
	for _, tc := range tests {
		parts, err := reg.Parts(strategies.CommandLine{Spec: tc.spec})
		if err == nil {
			_, err = reg.BuildParts(parts)
		}
		switch {
		case tc.err != "":
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s: error %v, want one containing %q", tc.spec, err, tc.err)
			}
		case err != nil:
			t.Errorf("%s: %v", tc.spec, err)
		case strategies.FormatSpec(parts) != tc.want:
			t.Errorf("%s: %s, want %s", tc.spec, strategies.FormatSpec(parts), tc.want)
		}
	}
	cfg, err := ParseTournament([]byte("strategies:\n  - {name: f, strategy: fast-4p}\n  - name: g\n    base: fast-4p\n    wrappers: [{sample: {n: 2}}]\ncorpora: [uniform-1000]\nrules: [{stacks: 4, preplaced: true}]\n"), "t.yaml")
	if err != nil {
		t.Fatal(err)
	}
	plan, err := cfg.Plan(reg)
	if err != nil {
		t.Fatal(err)
	}
	if got := plan.Entrants[1].Spec; got != "priority:reassign_tops=true,table=tuned-4-preplaced+rescue+endgame:k=4+sample:n=2" {
		t.Errorf("a preset with a wrapper in a tree: %s", got)
	}
	if !strings.Contains(string(cfg.Format()), "strategy: priority:reassign_tops=true,table=tuned-4-preplaced+rescue+endgame:k=4\n") {
		t.Errorf("the resolved config names the preset, not its strategy:\n%s", cfg.Format())
	}
}
