package configs

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/calcsol/calcsol/decks/corpora"
	"github.com/calcsol/calcsol/search"
	"github.com/calcsol/calcsol/strategies"
	"github.com/calcsol/calcsol/tournament"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func TestShippedTournamentConfig(t *testing.T) {
	files, err := filepath.Glob("strength-*.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 4 {
		t.Errorf("strength configs %v, want one for each of the four rule variants", files)
	}
	contenders, err := filepath.Glob("contender-*.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if len(contenders) == 0 {
		t.Error("no contender-*.yaml")
	}
	files = append(files, contenders...)
	type config struct {
		name string
		data []byte
	}
	configs := []config{{"tournament.yaml", TournamentYAML()}}
	for _, name := range append([]string{"tournament-full.yaml"}, files...) {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		configs = append(configs, config{name, data})
	}
	for _, c := range configs {
		t.Run(c.name, func(t *testing.T) {
			plan, seed := checkShippedConfig(t, c.name, c.data)
			if !strings.HasPrefix(c.name, "strength-") && !strings.HasPrefix(c.name, "contender-") {
				return
			}
			// A strength (or contender) config plays one player under one variant on the
			// 30,000 decks, and the player's table must be for that
			// variant's stacks (a cell reported "not applicable" would
			// measure nothing).
			tm, err := tournament.New(context.Background(), plan, seed)
			if err != nil {
				t.Fatal(err)
			}
			cells := tm.Cells()
			if len(cells) != 1 || cells[0].Corpus.Name != corpora.Default || cells[0].Corpus.Len != 30000 {
				t.Fatalf("%d cells, want one on the 30,000 decks of %s", len(cells), corpora.Default)
			}
			if !cells[0].Applicable {
				t.Errorf("%s under %s: not applicable: %s", cells[0].Entrant.Name, cells[0].Variant.Key(), cells[0].Reason)
			}
		})
	}
}

// checkShippedConfig parses a shipped config, checks that it uses only
// strategies built into the binary and plans, and returns the plan and the
// config's seed.
func checkShippedConfig(t *testing.T, name string, data []byte) (tournament.Plan, uint64) {
	cfg, err := ParseTournament(data, name)
	if err != nil {
		t.Fatal(err)
	}
	// Only strategies built into the binary (the built-ins, the searching
	// players and presets of them), no plugin: the default needs nothing
	// but Go.
	reg := builtInKinds()
	for _, s := range cfg.Strategies {
		parts, err := reg.Expand(s.parts())
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range parts {
			if _, ok := reg.Kind(p.Kind); !ok {
				t.Errorf("shipped config uses kind %q, not built into the binary", p.Kind)
			}
		}
	}
	plan, err := cfg.Plan(reg)
	if err != nil {
		t.Fatal(err)
	}
	if len(plan.Entrants) != len(cfg.Strategies) || len(plan.Corpora) != len(cfg.Corpora) || len(plan.Variants) != len(cfg.Rules) {
		t.Errorf("plan %d×%d×%d", len(plan.Entrants), len(plan.Corpora), len(plan.Variants))
	}
	roundTrip(t, cfg)
	return plan, cfg.Seed
}

// roundTrip checks that Format writes what ParseTournament reads back.
func roundTrip(t *testing.T, cfg *TournamentConfig) {
	t.Helper()
	again, err := ParseTournament(cfg.Format(), "formatted")
	if err != nil {
		t.Fatalf("re-reading\n%s: %v", cfg.Format(), err)
	}
	ignore := cmp.Options{cmpopts.IgnoreFields(TournamentConfig{}, "File"), cmpopts.IgnoreFields(StrategyEntry{}, "Line"), cmpopts.IgnoreFields(Layer{}, "Key", "Line"),
		cmpopts.IgnoreFields(CorpusEntry{}, "Line"), cmpopts.IgnoreFields(RulesEntry{}, "Line"), cmpopts.EquateEmpty()}
	if diff := cmp.Diff(cfg, again, ignore); diff != "" {
		t.Fatalf("round trip (-first +second):\n%s", diff)
	}
}

func TestTournamentConfigErrors(t *testing.T) {
	const ok = "strategies: [{name: g, kind: greedy}]\ncorpora: [uniform-1000]\nrules: [{stacks: 3}]\n"
	tests := []struct {
		name, in, want string
	}{
		{"empty", "", "t.yaml: empty file"},
		{"not yaml", "a: [", "t.yaml: yaml:"},
		{"unknown key", ok + "players: 4\n", "t.yaml:4: players: unknown key (want blind, corpora, rules, seed, strategies)"},
		{"misspelt key", ok + "sede: 4\n", "t.yaml:4: sede: unknown key (did you mean seed? want blind, corpora, rules, seed, strategies)"},
		{"no strategies", "corpora: [uniform-1000]\nrules: [{stacks: 3}]\n", "t.yaml:1: strategies: missing or empty"},
		{"strategy without kind", "strategies: [{name: g}]\ncorpora: [uniform-1000]\nrules: [{stacks: 3}]\n", "t.yaml:1: strategies[0]: strategy: missing"},
		{"strategy and kind", "strategies: [{name: g, kind: greedy, strategy: random}]\ncorpora: [uniform-1000]\nrules: [{stacks: 3}]\n", "t.yaml:1: strategies[0].strategy: give the strategy once"},
		{"spec and tree", "strategies: [{name: g, strategy: greedy, base: random}]\ncorpora: [uniform-1000]\nrules: [{stacks: 3}]\n", "t.yaml:1: strategies[0].base: give the strategy as a tree"},
		{"tree and params", "strategies: [{name: g, base: greedy, params: {a: b}}]\ncorpora: [uniform-1000]\nrules: [{stacks: 3}]\n", "t.yaml:1: strategies[0].params: a tree gives each layer's parameters under its kind"},
		{"spec in a tree", "strategies: [{name: g, base: greedy+endgame}]\ncorpora: [uniform-1000]\nrules: [{stacks: 3}]\n", `t.yaml:1: strategies[0].base: "greedy+endgame" is not a kind`},
		{"layer of two kinds", "strategies: [{name: g, base: {greedy: {}, random: {}}}]\ncorpora: [uniform-1000]\nrules: [{stacks: 3}]\n", "t.yaml:1: strategies[0].base: want a kind, or a kind and its parameters"},
		{"tree param not plain", "strategies:\n  - name: g\n    base: greedy\n    wrappers:\n      - endgame: {k: {x: 1}}\ncorpora: [uniform-1000]\nrules: [{stacks: 3}]\n", "t.yaml:5: strategies[0].wrappers[0].endgame.k: want a plain value or a list"},
		{"strategy key", "strategies:\n  - {name: g, kind: greedy, colour: red}\ncorpora: [uniform-1000]\nrules: [{stacks: 3}]\n", "t.yaml:2: strategies[0].colour: unknown key"},
		{"batch", "strategies: [{name: g, kind: greedy, batch: 0}]\ncorpora: [uniform-1000]\nrules: [{stacks: 3}]\n", "t.yaml:1: strategies[0].batch: want a whole number from 1 to 65536"},
		{"param not plain", "strategies: [{name: g, kind: greedy, params: {a: {b: 1}}}]\ncorpora: [uniform-1000]\nrules: [{stacks: 3}]\n", "strategies[0].params.a: want a plain value or a list"},
		{"same name", "strategies: [{name: g, kind: greedy}, {name: g, kind: random}]\ncorpora: [uniform-1000]\nrules: [{stacks: 3}]\n", `strategies[1].name: "g" is also strategies[0]'s name`},
		{"corpus two sources", "strategies: [{name: g, kind: greedy}]\ncorpora: [{name: c, shipped: uniform-1000, file: x.txt}]\nrules: [{stacks: 3}]\n", "t.yaml:2: corpora[0]: give exactly one of shipped, file and generator"},
		{"generator count", "strategies: [{name: g, kind: greedy}]\ncorpora: [{name: c, generator: shuffle U}]\nrules: [{stacks: 3}]\n", "corpora[0]: a generator needs count"},
		{"count", "strategies: [{name: g, kind: greedy}]\ncorpora: [{name: c, generator: shuffle U, count: -1}]\nrules: [{stacks: 3}]\n", "t.yaml:2: corpora[0].count: want a number of decks"},
		{"stacks", "strategies: [{name: g, kind: greedy}]\ncorpora: [uniform-1000]\nrules: [{stacks: 9}]\n", "t.yaml:3: rules[0].stacks: want a number of stacks from 1 to 8"},
		{"no stacks", "strategies: [{name: g, kind: greedy}]\ncorpora: [uniform-1000]\nrules: [{preplaced: true}]\n", "t.yaml:3: rules[0]: stacks: missing"},
		{"budget", "strategies: [{name: g, kind: greedy}]\ncorpora: [uniform-1000]\nrules: [{stacks: 3, move_budget: fast}]\n", "rules[0].move_budget: want a positive duration"},
		{"same rules", "strategies: [{name: g, kind: greedy}]\ncorpora: [uniform-1000]\nrules: [{stacks: 3}, {stacks: 3, preplaced: false}]\n", "t.yaml:3: rules[1]: the same rules as rules[0] (3-base)"},
		{"key twice", ok + "seed: 1\nseed: 2\n", "t.yaml:5: seed: given twice"},
		{"strategy on an unknown corpus", "strategies: [{name: g, kind: greedy, corpora: [uniform-100]}]\ncorpora: [uniform-1000]\nrules: [{stacks: 3}]\n", `t.yaml:1: strategies[0].corpora[0]: no corpus "uniform-100" in the config`},
		{"corpora not a list", "strategies: [{name: g, kind: greedy, corpora: uniform-1000}]\ncorpora: [uniform-1000]\nrules: [{stacks: 3}]\n", "t.yaml:1: strategies[0].corpora: want a list"},
		{"bounds not texts", "strategies: [{name: g, kind: greedy}]\ncorpora: [{name: c, shipped: uniform-1000, bounds: [[a]]}]\nrules: [{stacks: 3}]\n", "t.yaml:2: corpora[0].bounds[0]: want a non-empty text"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseTournament([]byte(tc.in), "t.yaml")
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
}

// builtInKinds is the registry of every kind built into the binary: the
// built-ins and the searching players.
func builtInKinds() *strategies.Registry {
	reg := Strategies()
	for _, k := range search.Kinds() {
		reg.MustRegister(k)
	}
	return reg
}

// Errors that need the registry or the corpora come from Plan, with the line.
func TestTournamentPlanErrors(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"unknown kind", "strategies: [{name: g, kind: gready}]\ncorpora: [uniform-1000]\nrules: [{stacks: 3}]\n", `t.yaml:1: strategies[0].strategy: unknown strategy kind "gready" (did you mean greedy? calcsol strategies lists them all)`},
		{"unknown kind in a tree", "strategies:\n  - name: g\n    base: greedy\n    wrappers: [endgame, {smaple: {n: 2}}]\ncorpora: [uniform-1000]\nrules: [{stacks: 3}]\n", `t.yaml:4: strategies[0].wrappers[1].smaple: unknown strategy kind "smaple" (did you mean sample?`},
		{"base that wraps", "strategies:\n  - name: g\n    base: endgame\ncorpora: [uniform-1000]\nrules: [{stacks: 3}]\n", `t.yaml:3: strategies[0].base: strategy endgame wraps another`},
		{"bad param in a tree", "strategies:\n  - name: g\n    base: greedy\n    wrappers:\n      - endgame: {k: 99}\ncorpora: [uniform-1000]\nrules: [{stacks: 3}]\n", `t.yaml:5: strategies[0].wrappers[0].endgame: strategy endgame: parameter k: "99" is not a whole number from 0 to 20`},
		{"bad param", "strategies:\n  - name: p\n    kind: priority\n    params: {deadlock_check: maybe}\ncorpora: [uniform-1000]\nrules: [{stacks: 3}]\n", `t.yaml:3: strategies[0].strategy: strategy priority: parameter deadlock_check: "maybe" is not one of`},
		{"no corpus", "strategies: [{name: g, kind: greedy}]\ncorpora: [uniform-7]\nrules: [{stacks: 3}]\n", `t.yaml:2: corpora[0] (uniform-7): no shipped corpus "uniform-7"`},
		{"no file", "strategies: [{name: g, kind: greedy}]\ncorpora: [{name: c, file: /nonexistent.txt}]\nrules: [{stacks: 3}]\n", "t.yaml:2: corpora[0] (c): corpus /nonexistent.txt: no such file"},
		{"bad generator", "strategies: [{name: g, kind: greedy}]\ncorpora: [{name: c, generator: shuffle QQ, count: 5}]\nrules: [{stacks: 3}]\n", `t.yaml:2: corpora[0] (c): corpus c: shuffle sequence "QQ"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cfg, err := ParseTournament([]byte(tc.in), "t.yaml")
			if err != nil {
				t.Fatal(err)
			}
			_, err = cfg.Plan(builtInKinds())
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
}

// A generated corpus has the checksum of the corpus file the same generator
// writes: the shipped uniform-1000 is "shuffle U", seed 1, 1000 decks.
func TestGeneratedCorpusMatchesShipped(t *testing.T) {
	cfg, err := ParseTournament([]byte("strategies: [{name: g, kind: greedy}]\ncorpora:\n  - uniform-1000\n  - {name: gen, generator: shuffle U, seed: 1, count: 1000}\nrules: [{stacks: 3}]\n"), "t.yaml")
	if err != nil {
		t.Fatal(err)
	}
	plan, err := cfg.Plan(Strategies())
	if err != nil {
		t.Fatal(err)
	}
	if a, b := plan.Corpora[0], plan.Corpora[1]; a.Checksum != b.Checksum || a.Len != b.Len {
		t.Errorf("shipped %s %d decks, generated %s %d decks", a.Checksum, a.Len, b.Checksum, b.Len)
	}
}

// FuzzParseTournament: whatever parses, formats to a config that parses to
// the same (parse → write → parse).
func FuzzParseTournament(f *testing.F) {
	f.Add(string(TournamentYAML()))
	f.Add("strategies: [{name: g, kind: greedy, batch: 3, params: {a: b}}]\ncorpora: [uniform-1000, {name: c, generator: shuffle U, seed: 2, count: 9}, {name: f, file: 'x: y.txt'}]\nrules: [{stacks: 3, move_budget: 1ms, game_budget: 1s}]\nseed: 7\n")
	f.Fuzz(func(t *testing.T, in string) {
		cfg, err := ParseTournament([]byte(in), "fuzz.yaml")
		if err != nil {
			return
		}
		roundTrip(t, cfg)
	})
}

// LoadTournament passes on the parser's and the planner's errors, and builds
// a tournament whose config text parses again to the same text.
func TestLoadTournament(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"ok", "strategies: [{name: g, kind: greedy}]\ncorpora: [uniform-1000]\nrules: [{stacks: 3}]\n", ""},
		{"parse", "strategies: [{name: g}]\ncorpora: [uniform-1000]\nrules: [{stacks: 3}]\n", "t.yaml:1: strategies[0]: strategy: missing"},
		{"plan", "strategies: [{name: g, kind: gready}]\ncorpora: [uniform-1000]\nrules: [{stacks: 3}]\n", `t.yaml:1: strategies[0].strategy: unknown strategy kind "gready"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tour, text, err := LoadTournament(context.Background(), []byte(tc.in), "t.yaml", Strategies())
			if tc.want != "" {
				if err == nil || !strings.Contains(err.Error(), tc.want) {
					t.Errorf("error %v, want one containing %q", err, tc.want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := tour.Games(tournament.Shard{}); got != 1000 {
				t.Errorf("%d games, want 1000", got)
			}
			cfg, err := ParseTournament(text, "again.yaml")
			if err != nil {
				t.Fatal(err)
			}
			if again := cfg.Format(); string(again) != string(text) {
				t.Errorf("the config text does not parse back to itself:\n%s\n%s", text, again)
			}
		})
	}
}

// A shipped corpus brings its shipped bounds for the rules played; a bound
// file given for the same rules takes their place; bad files are refused
// with the line.
func TestTournamentBounds(t *testing.T) {
	_, read := corpora.Bounds()
	shipped, err := read("uniform-1000-s4.json")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	edited := filepath.Join(dir, "edited.json")
	// The first deck left unknown (the counts in the header follow).
	text := strings.Replace(string(shipped), "\n    true,", "\n    null,", 1)
	text = strings.Replace(text, `"winnable": 1000,`, `"winnable": 999,`, 1)
	text = strings.Replace(text, `"unknown": 0,`, `"unknown": 1,`, 1)
	if err := os.WriteFile(edited, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	const strategies = "strategies: [{name: g, kind: greedy}, {name: r, kind: random, corpora: [u]}]\n"
	tests := []struct {
		name, in string
		want     []string // the bounds' sources, or
		err      string
	}{
		{"shipped, every variant played", strategies + "corpora: [{name: u, shipped: uniform-1000}]\nrules: [{stacks: 3}, {stacks: 4}, {stacks: 4, preplaced: true}]\n",
			[]string{"shipped uniform-1000-s3.json", "shipped uniform-1000-s4.json", "shipped uniform-1000-s4p.json"}, ""},
		{"a file in place of the shipped one", strategies + "corpora: [{name: u, shipped: uniform-1000, bounds: [" + edited + "]}]\nrules: [{stacks: 4}, {stacks: 4, preplaced: true}]\n",
			[]string{edited, "shipped uniform-1000-s4p.json"}, ""},
		{"the same decks generated: found by checksum", strategies + "corpora: [{name: u, generator: shuffle U, seed: 1, count: 1000}]\nrules: [{stacks: 4}]\n", []string{"shipped uniform-1000-s4.json"}, ""},
		{"other decks: none", strategies + "corpora: [{name: u, generator: shuffle U, seed: 2, count: 1000}]\nrules: [{stacks: 4}]\n", nil, ""},
		{"a file for the same decks, generated", strategies + "corpora: [{name: u, generator: shuffle U, seed: 1, count: 1000, bounds: [" + edited + "]}]\nrules: [{stacks: 4}]\n", []string{edited}, ""},
		{"other decks", strategies + "corpora: [{name: u, generator: shuffle U, seed: 2, count: 1000, bounds: [" + edited + "]}]\nrules: [{stacks: 4}]\n", nil, "t.yaml:2: corpora[0] (u): bounds: " + edited + " is for other decks"},
		{"rules not played", strategies + "corpora: [{name: u, shipped: uniform-1000, bounds: [" + edited + "]}]\nrules: [{stacks: 3}]\n", nil, "is for 4 stacks, base, which the config does not play"},
		{"no file", strategies + "corpora: [{name: u, shipped: uniform-1000, bounds: [/nonexistent.json]}]\nrules: [{stacks: 4}]\n", nil, "t.yaml:2: corpora[0] (u): bounds: open /nonexistent.json"},
		{"twice", strategies + "corpora: [{name: u, shipped: uniform-1000, bounds: [" + edited + ", " + edited + "]}]\nrules: [{stacks: 4}]\n", nil, "bounds: two files for 4 stacks"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cfg, err := ParseTournament([]byte(tc.in), "t.yaml")
			if err != nil {
				t.Fatal(err)
			}
			roundTrip(t, cfg)
			plan, err := cfg.Plan(Strategies())
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want one containing %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, b := range plan.Bounds {
				got = append(got, b.Source)
				if b.Source == edited && (b.Winnable.Has(0) || b.Winnable.Count() != 999) {
					t.Errorf("the edited bound reads %d winnable, deck 0 winnable %t", b.Winnable.Count(), b.Winnable.Has(0))
				}
			}
			if diff := cmp.Diff(tc.want, got, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("bounds (-want +got):\n%s", diff)
			}
			if _, err := tournament.New(context.Background(), plan, 1); err != nil {
				t.Fatal(err)
			}
		})
	}
}
