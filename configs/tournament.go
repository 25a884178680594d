package configs

import (
	"bytes"
	"context"
	_ "embed"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/calcsol/calcsol/clairvoyant"
	"github.com/calcsol/calcsol/decks/corpora"
	"github.com/calcsol/calcsol/decks/corpus"
	"github.com/calcsol/calcsol/solver"
	"github.com/calcsol/calcsol/strategies"
	"github.com/calcsol/calcsol/tournament"
)

// tournamentYAML is the tournament `calcsol tournament` runs by default.
//
//go:embed tournament.yaml
var tournamentYAML []byte

// TournamentYAML returns the shipped tournament config.
func TournamentYAML() []byte { return slices.Clone(tournamentYAML) }

// TournamentConfig is a tournament config file: strategies × corpora × rules
// (docs/tournament.md). Each entry keeps its line for messages.
type TournamentConfig struct {
	File       string
	Seed       uint64
	Strategies []StrategyEntry
	Corpora    []CorpusEntry
	Rules      []RulesEntry
}

// StrategyEntry names a strategy: its layers, a base and the wrappers
// around it, innermost first (docs/tournament.md). A config writes them as a
// tree (base: and wrappers:, each layer's parameters under its kind) or as
// a one-line spec (strategy:), which is shorthand for the same tree.
type StrategyEntry struct {
	Name   string
	Layers []Layer
	Batch  int // 0: the strategy's preference
	// Corpora names the corpora the strategy plays (empty: all).
	Corpora []string
	Line    int
}

// Layer is one layer of a strategy, with where the config gives it.
type Layer struct {
	strategies.Part
	Key  string // "strategies[0].wrappers[1]", for messages
	Line int
}

// expand replaces a preset that begins the entry by its layers, each given
// where the preset is (Plan does it, so that the resolved config, the
// reports and the fingerprint say what plays, not its name).
func (s *StrategyEntry) expand(reg *strategies.Registry) error {
	parts, err := reg.Expand(s.parts())
	if err != nil || len(parts) == len(s.Layers) && parts[0].Kind == s.Layers[0].Kind {
		return err
	}
	first := s.Layers[0]
	layers := make([]Layer, 0, len(parts))
	for i, p := range parts {
		if n := len(parts) - len(s.Layers); i > n {
			layers = append(layers, s.Layers[i-n])
			continue
		}
		layers = append(layers, Layer{Part: p, Key: first.Key + " (preset " + first.Kind + ")", Line: first.Line})
	}
	s.Layers = layers
	return nil
}

// Spec is the entry's strategy as a canonical one-line spec.
func (s StrategyEntry) Spec() string { return strategies.FormatSpec(s.parts()) }

func (s StrategyEntry) parts() []strategies.Part {
	parts := make([]strategies.Part, len(s.Layers))
	for i, l := range s.Layers {
		parts[i] = l.Part
	}
	return parts
}

// CorpusEntry is a shipped corpus, a corpus file, or a generator spec.
type CorpusEntry struct {
	Name      string
	Shipped   string
	File      string
	Generator string
	Seed      uint64
	Count     int
	// Bounds are clairvoyant bound files (calcsol solve --out) for some of
	// the config's rules. A shipped corpus brings the shipped bounds of its
	// rules too; a file given here for the same rules takes their place.
	Bounds []string
	Line   int
}

// RulesEntry is a rule variant with its time budget.
type RulesEntry struct {
	Stacks    int
	Preplaced bool
	Move      time.Duration
	Game      time.Duration
	Line      int
}

// ParseTournament reads a tournament config; errors say the file, the line,
// the key and the reason ("t.yaml:7: strategies[1].kind: missing").
func ParseTournament(data []byte, file string) (*TournamentConfig, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	if len(doc.Content) == 0 {
		return nil, fmt.Errorf("%s: empty file", file)
	}
	p := &tparser{file: file}
	cfg := &TournamentConfig{File: file}
	root := doc.Content[0]
	err := p.mapping(root, "", map[string]func(k string, v *yaml.Node) error{
		"seed": p.seed(&cfg.Seed),
		"strategies": func(k string, v *yaml.Node) error {
			return p.list(v, k, func(key string, e *yaml.Node) error {
				s := StrategyEntry{Line: e.Line}
				var specNode, paramsNode, baseNode, wrappersNode *yaml.Node
				node := func(dst **yaml.Node) func(string, *yaml.Node) error {
					return func(k string, v *yaml.Node) error {
						if *dst != nil { // strategy: and kind: (its older name) both
							return p.errAt(v, k, "give the strategy once (kind: is the older name of strategy:)")
						}
						*dst = v
						return nil
					}
				}
				err := p.mapping(e, key, map[string]func(string, *yaml.Node) error{
					"name": p.str(&s.Name), "corpora": p.strs(&s.Corpora),
					"strategy": node(&specNode), "kind": node(&specNode),
					"params": node(&paramsNode), "base": node(&baseNode), "wrappers": node(&wrappersNode),
					"batch": func(k string, v *yaml.Node) error {
						n, err := strconv.Atoi(v.Value)
						if v.Kind != yaml.ScalarNode || err != nil || n < 1 || n > 1<<16 {
							return p.errAt(v, k, "want a whole number from 1 to 65536")
						}
						s.Batch = n
						return nil
					},
				}, nil)
				if err == nil {
					err = p.need(e, key, "name", s.Name)
				}
				if err == nil {
					s.Layers, err = p.layers(e, key, specNode, paramsNode, baseNode, wrappersNode)
				}
				cfg.Strategies = append(cfg.Strategies, s)
				return err
			})
		},
		"corpora": func(k string, v *yaml.Node) error {
			return p.list(v, k, func(key string, e *yaml.Node) error {
				c := CorpusEntry{Line: e.Line}
				if e.Kind == yaml.ScalarNode { // "- uniform-1000": a shipped corpus
					c.Name, c.Shipped = e.Value, e.Value
					cfg.Corpora = append(cfg.Corpora, c)
					return p.need(e, key, "name", c.Name)
				}
				err := p.mapping(e, key, map[string]func(string, *yaml.Node) error{
					"name": p.str(&c.Name), "shipped": p.str(&c.Shipped), "file": p.str(&c.File), "generator": p.str(&c.Generator),
					"seed": p.seed(&c.Seed), "bounds": p.strs(&c.Bounds),
					"count": func(k string, v *yaml.Node) error {
						n, err := strconv.Atoi(v.Value)
						if v.Kind != yaml.ScalarNode || err != nil || n < 1 || n > 100_000_000 {
							return p.errAt(v, k, "want a number of decks from 1 to 100000000")
						}
						c.Count = n
						return nil
					},
				}, nil)
				if err != nil {
					return err
				}
				if err := p.need(e, key, "name", c.Name); err != nil {
					return err
				}
				given := 0
				for _, s := range []string{c.Shipped, c.File, c.Generator} {
					if s != "" {
						given++
					}
				}
				if given != 1 {
					return p.errAt(e, key, "give exactly one of shipped, file and generator")
				}
				if c.Generator != "" && c.Count == 0 {
					return p.errAt(e, key, "a generator needs count (the number of decks)")
				}
				if c.Generator == "" && (c.Count != 0 || c.Seed != 0) {
					return p.errAt(e, key, "seed and count go with a generator only")
				}
				cfg.Corpora = append(cfg.Corpora, c)
				return nil
			})
		},
		"rules": func(k string, v *yaml.Node) error {
			return p.list(v, k, func(key string, e *yaml.Node) error {
				r := RulesEntry{Line: e.Line}
				dur := func(d *time.Duration) func(string, *yaml.Node) error {
					return func(k string, v *yaml.Node) error {
						x, err := time.ParseDuration(v.Value)
						if v.Kind != yaml.ScalarNode || err != nil || x <= 0 {
							return p.errAt(v, k, "want a positive duration like 2ms or 1s")
						}
						*d = x
						return nil
					}
				}
				err := p.mapping(e, key, map[string]func(string, *yaml.Node) error{
					"stacks": func(k string, v *yaml.Node) error {
						n, err := strconv.Atoi(v.Value)
						if v.Kind != yaml.ScalarNode || err != nil || n < 1 || n > solver.MaxStacks {
							return p.errAt(v, k, fmt.Sprintf("want a number of stacks from 1 to %d", solver.MaxStacks))
						}
						r.Stacks = n
						return nil
					},
					"preplaced": func(k string, v *yaml.Node) error {
						b, err := strconv.ParseBool(v.Value)
						if v.Kind != yaml.ScalarNode || err != nil {
							return p.errAt(v, k, "want true or false")
						}
						r.Preplaced = b
						return nil
					},
					"move_budget": dur(&r.Move),
					"game_budget": dur(&r.Game),
				}, nil)
				if err == nil && r.Stacks == 0 {
					err = p.errAt(e, key, "stacks: missing")
				}
				cfg.Rules = append(cfg.Rules, r)
				return err
			})
		},
	}, nil)
	if err != nil {
		return nil, err
	}
	for _, need := range []struct {
		key string
		n   int
	}{{"strategies", len(cfg.Strategies)}, {"corpora", len(cfg.Corpora)}, {"rules", len(cfg.Rules)}} {
		if need.n == 0 {
			return nil, p.errAt(root, need.key, "missing or empty: a tournament needs at least one")
		}
	}
	if err := cfg.checkUnique(); err != nil {
		return nil, err
	}
	return cfg, nil
}

func (c *TournamentConfig) checkUnique() error {
	seen := map[string]int{}
	for i, s := range c.Strategies {
		if j, dup := seen[s.Name]; dup {
			return fmt.Errorf("%s:%d: strategies[%d].name: %q is also strategies[%d]'s name", c.File, s.Line, i, s.Name, j)
		}
		seen[s.Name] = i
	}
	seen = map[string]int{}
	for i, s := range c.Corpora {
		if j, dup := seen[s.Name]; dup {
			return fmt.Errorf("%s:%d: corpora[%d].name: %q is also corpora[%d]'s name", c.File, s.Line, i, s.Name, j)
		}
		seen[s.Name] = i
	}
	for i, s := range c.Strategies {
		for j, name := range s.Corpora {
			if _, ok := seen[name]; !ok {
				return fmt.Errorf("%s:%d: strategies[%d].corpora[%d]: no corpus %q in the config", c.File, s.Line, i, j, name)
			}
		}
	}
	seen = map[string]int{}
	for i, r := range c.Rules {
		k := r.variant().Key()
		if j, dup := seen[k]; dup {
			return fmt.Errorf("%s:%d: rules[%d]: the same rules as rules[%d] (%s)", c.File, r.Line, i, j, k)
		}
		seen[k] = i
	}
	return nil
}

func (r RulesEntry) variant() tournament.Variant {
	return tournament.Variant{Rules: solver.Rules{Stacks: r.Stacks, Preplaced: r.Preplaced}, Budget: solver.Budget{Move: r.Move, Game: r.Game}}
}

// tparser walks YAML nodes, naming the key of every error.
type tparser struct{ file string }

func (p *tparser) errAt(n *yaml.Node, key, reason string) error {
	if key == "" {
		return fmt.Errorf("%s:%d: %s", p.file, n.Line, reason)
	}
	return fmt.Errorf("%s:%d: %s: %s", p.file, n.Line, key, reason)
}

// mapping calls fields[k] for each key k of n (other keys are an error,
// unless rest is given, which then takes them).
func (p *tparser) mapping(n *yaml.Node, prefix string, fields map[string]func(string, *yaml.Node) error, rest func(string, *yaml.Node) error) error {
	if n.Kind != yaml.MappingNode {
		return p.errAt(n, prefix, "want a mapping")
	}
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		key := k.Value
		if prefix != "" {
			key = prefix + "." + k.Value
		}
		if seen[k.Value] {
			return p.errAt(k, key, "given twice")
		}
		seen[k.Value] = true
		f, ok := fields[k.Value]
		switch {
		case ok:
		case rest != nil:
			f = rest
		default:
			names := make([]string, 0, len(fields))
			for name := range fields {
				names = append(names, name)
			}
			slices.Sort(names)
			return p.errAt(k, key, "unknown key (want "+strings.Join(names, ", ")+")")
		}
		if err := f(key, v); err != nil {
			return err
		}
	}
	return nil
}

func (p *tparser) list(n *yaml.Node, key string, each func(string, *yaml.Node) error) error {
	if n.Kind != yaml.SequenceNode {
		return p.errAt(n, key, "want a list")
	}
	for i, e := range n.Content {
		if err := each(fmt.Sprintf("%s[%d]", key, i), e); err != nil {
			return err
		}
	}
	return nil
}

func (p *tparser) str(dst *string) func(string, *yaml.Node) error {
	return func(k string, v *yaml.Node) error {
		if v.Kind != yaml.ScalarNode || strings.TrimSpace(v.Value) == "" {
			return p.errAt(v, k, "want a non-empty text")
		}
		*dst = strings.TrimSpace(v.Value)
		return nil
	}
}

// strs reads a list of texts.
func (p *tparser) strs(dst *[]string) func(string, *yaml.Node) error {
	return func(k string, v *yaml.Node) error {
		return p.list(v, k, func(key string, e *yaml.Node) error {
			var s string
			if err := p.str(&s)(key, e); err != nil {
				return err
			}
			*dst = append(*dst, s)
			return nil
		})
	}
}

func (p *tparser) seed(dst *uint64) func(string, *yaml.Node) error {
	return func(k string, v *yaml.Node) error {
		n, err := strconv.ParseUint(v.Value, 10, 64)
		if v.Kind != yaml.ScalarNode || err != nil {
			return p.errAt(v, k, "want a whole number ≥ 0")
		}
		*dst = n
		return nil
	}
}

// layers reads an entry's strategy: a tree (base: and wrappers:) or a
// one-line spec (strategy:, or kind: as older configs say), with params:
// (older configs) adding to the base's parameters.
func (p *tparser) layers(e *yaml.Node, key string, spec, params, base, wrappers *yaml.Node) ([]Layer, error) {
	var layers []Layer
	switch {
	case spec != nil && base != nil:
		return nil, p.errAt(base, key+".base", "give the strategy as a tree (base:, wrappers:) or as a spec (strategy:), not both")
	case spec != nil:
		k := key + ".strategy"
		if spec.Kind != yaml.ScalarNode {
			return nil, p.errAt(spec, k, "want a spec like priority:deadlock_check=exact+endgame:k=4 (or write the strategy as a tree: base:, wrappers:)")
		}
		parts, err := strategies.ParseSpec(spec.Value)
		if err != nil {
			return nil, p.errAt(spec, k, err.Error())
		}
		for _, part := range parts {
			layers = append(layers, Layer{Part: part, Key: k, Line: spec.Line})
		}
		if wrappers != nil {
			return nil, p.errAt(wrappers, key+".wrappers", "wrappers go with base:; a spec names its wrappers after +")
		}
	case base != nil:
		l, err := p.layer(base, key+".base")
		if err != nil {
			return nil, err
		}
		layers = append(layers, l)
		if wrappers != nil {
			err := p.list(wrappers, key+".wrappers", func(k string, w *yaml.Node) error {
				l, err := p.layer(w, k)
				layers = append(layers, l)
				return err
			})
			if err != nil {
				return nil, err
			}
		}
		if params != nil {
			return nil, p.errAt(params, key+".params", "a tree gives each layer's parameters under its kind (base: {priority: {table: tuned-4}})")
		}
	default:
		return nil, p.errAt(e, key, "strategy: missing (a spec like priority+endgame:k=4, or a tree: base:, wrappers:)")
	}
	if params != nil {
		given, err := p.paramValues(params, key+".params")
		if err != nil {
			return nil, err
		}
		for k, v := range given {
			if _, dup := layers[0].Params[k]; dup {
				return nil, p.errAt(params, key+".params."+k, "also given in the spec")
			}
			layers[0].Params[k] = v
		}
	}
	return layers, nil
}

// layer reads one layer of a tree: a kind alone ("rescue") or a kind and
// its parameters ({sample: {n: 256, tops: true}}).
func (p *tparser) layer(n *yaml.Node, key string) (Layer, error) {
	l := Layer{Part: strategies.Part{Params: map[string]string{}}, Key: key, Line: n.Line}
	switch {
	case n.Kind == yaml.ScalarNode && strings.TrimSpace(n.Value) != "":
		l.Kind = strings.TrimSpace(n.Value)
	case n.Kind == yaml.MappingNode && len(n.Content) == 2:
		l.Kind, l.Key = n.Content[0].Value, key+"."+n.Content[0].Value
		if v := n.Content[1]; !(v.Kind == yaml.ScalarNode && v.Tag == "!!null") {
			params, err := p.paramValues(v, l.Key)
			if err != nil {
				return l, err
			}
			l.Params = params
		}
	default:
		return l, p.errAt(n, key, "want a kind, or a kind and its parameters: {endgame: {k: 4}}")
	}
	if strings.ContainsAny(l.Kind, "+:,= ") {
		return l, p.errAt(n, key, fmt.Sprintf("%q is not a kind (a tree names one kind a layer; a one-line spec goes under strategy:)", l.Kind))
	}
	return l, nil
}

// paramValues reads a mapping of parameters: plain values, or lists, which
// a spec writes separated by strategies.ListSep.
func (p *tparser) paramValues(n *yaml.Node, key string) (map[string]string, error) {
	out := map[string]string{}
	err := p.mapping(n, key, nil, func(k string, v *yaml.Node) error {
		name := k[len(key)+1:]
		switch v.Kind {
		case yaml.ScalarNode:
			out[name] = v.Value
		case yaml.SequenceNode:
			var items []string
			for _, it := range v.Content {
				if it.Kind != yaml.ScalarNode || strings.Contains(it.Value, strategies.ListSep) {
					return p.errAt(it, k, "want a list of plain values")
				}
				items = append(items, it.Value)
			}
			out[name] = strings.Join(items, strategies.ListSep)
		default:
			return p.errAt(v, k, "want a plain value or a list")
		}
		return nil
	})
	return out, err
}

// need checks that required fields, given as name, value pairs, are set.
func (p *tparser) need(n *yaml.Node, key string, pairs ...string) error {
	for i := 0; i+1 < len(pairs); i += 2 {
		if pairs[i+1] == "" {
			return p.errAt(n, key+"."+pairs[i], "missing")
		}
	}
	return nil
}

// Format writes the config back in canonical form (what a report records as
// the resolved config): every entry in full, parameters sorted.
func (c *TournamentConfig) Format() []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "seed: %d\nstrategies:\n", c.Seed)
	for _, s := range c.Strategies {
		fmt.Fprintf(&b, "  - name: %s\n    strategy: %s\n", yamlString(s.Name), yamlString(s.Spec()))
		if s.Batch > 0 {
			fmt.Fprintf(&b, "    batch: %d\n", s.Batch)
		}
		writeList(&b, "corpora", s.Corpora)
	}
	b.WriteString("corpora:\n")
	for _, cp := range c.Corpora {
		fmt.Fprintf(&b, "  - name: %s\n", yamlString(cp.Name))
		switch {
		case cp.Shipped != "":
			fmt.Fprintf(&b, "    shipped: %s\n", yamlString(cp.Shipped))
		case cp.File != "":
			fmt.Fprintf(&b, "    file: %s\n", yamlString(cp.File))
		default:
			fmt.Fprintf(&b, "    generator: %s\n    seed: %d\n    count: %d\n", yamlString(cp.Generator), cp.Seed, cp.Count)
		}
		writeList(&b, "bounds", cp.Bounds)
	}
	b.WriteString("rules:\n")
	for _, r := range c.Rules {
		fmt.Fprintf(&b, "  - {stacks: %d, preplaced: %t", r.Stacks, r.Preplaced)
		if r.Move > 0 {
			fmt.Fprintf(&b, ", move_budget: %s", r.Move)
		}
		if r.Game > 0 {
			fmt.Fprintf(&b, ", game_budget: %s", r.Game)
		}
		b.WriteString("}\n")
	}
	return b.Bytes()
}

// writeList writes a list of texts under key, if it has any.
func writeList(b *bytes.Buffer, key string, list []string) {
	if len(list) == 0 {
		return
	}
	fmt.Fprintf(b, "    %s:\n", key)
	for _, s := range list {
		fmt.Fprintf(b, "      - %s\n", yamlString(s))
	}
}

// yamlString quotes s when YAML would read it as something else.
func yamlString(s string) string {
	var n yaml.Node
	if err := yaml.Unmarshal([]byte("x: "+s), &n); err == nil && len(n.Content) == 1 && len(n.Content[0].Content) == 2 {
		v := n.Content[0].Content[1]
		if v.Kind == yaml.ScalarNode && v.Value == s && v.Tag == "!!str" && !strings.ContainsAny(s, "#\n") {
			return s
		}
	}
	return strconv.Quote(s)
}

// Plan builds what the config names: every strategy from reg, every corpus
// (read or generated and checksummed), every rule variant. Errors name the
// file, the line and the key.
func (c *TournamentConfig) Plan(reg *strategies.Registry) (tournament.Plan, error) {
	var plan tournament.Plan
	var rules []solver.Rules
	for _, r := range c.Rules {
		rules = append(rules, r.variant().Rules)
	}
	for i := range c.Strategies {
		if err := c.Strategies[i].expand(reg); err != nil {
			return plan, fmt.Errorf("%s:%d: %s: %v", c.File, c.Strategies[i].Layers[0].Line, c.Strategies[i].Layers[0].Key, err)
		}
		s := c.Strategies[i]
		for j, l := range s.Layers {
			if err := reg.CheckLayer(l.Part, j == 0); err != nil {
				return plan, fmt.Errorf("%s:%d: %s: %v", c.File, l.Line, l.Key, err)
			}
		}
		st, err := reg.BuildParts(s.parts())
		if err != nil {
			return plan, fmt.Errorf("%s:%d: strategies[%d] (%s): %v", c.File, s.Line, i, s.Name, err)
		}
		spec := s.Spec()
		hash, err := strategies.Fingerprint(st, spec, rules)
		if err != nil {
			return plan, fmt.Errorf("%s:%d: strategies[%d] (%s): %v", c.File, s.Line, i, s.Name, err)
		}
		plan.Entrants = append(plan.Entrants, tournament.Entrant{Name: s.Name, Spec: spec, Hash: hash, Strategy: st, Batch: s.Batch, Corpora: s.Corpora})
	}
	for i, cp := range c.Corpora {
		var cs *corpus.Calculation
		var err error
		switch {
		case cp.Generator != "":
			cs, err = corpus.GenerateCalculation(cp.Name, cp.Generator, cp.Seed, cp.Count)
		case cp.File != "":
			cs, err = corpus.OpenCalculation(cp.Name, cp.File)
		default:
			if !slices.Contains(corpus.Shipped(), strings.TrimSuffix(cp.Shipped, ".txt")) {
				err = fmt.Errorf("no shipped corpus %q (have %s)", cp.Shipped, strings.Join(corpus.Shipped(), ", "))
			} else {
				cs, err = corpus.OpenCalculation(cp.Name, cp.Shipped)
			}
		}
		if err != nil {
			return plan, fmt.Errorf("%s:%d: corpora[%d] (%s): %v", c.File, cp.Line, i, cp.Name, err)
		}
		plan.Corpora = append(plan.Corpora, cs)
		bounds, err := c.bounds(cp, cs)
		if err != nil {
			return plan, fmt.Errorf("%s:%d: corpora[%d] (%s): %v", c.File, cp.Line, i, cp.Name, err)
		}
		plan.Bounds = append(plan.Bounds, bounds...)
	}
	for _, r := range c.Rules {
		plan.Variants = append(plan.Variants, r.variant())
	}
	return plan, nil
}

// LoadTournament parses a tournament config, plans it and builds the
// tournament (strategies started once, corpora read or made). It returns the
// resolved config text too, which a report directory keeps and a manifest
// checksums.
func LoadTournament(ctx context.Context, data []byte, file string, reg *strategies.Registry) (*tournament.Tournament, []byte, error) {
	cfg, err := ParseTournament(data, file)
	if err != nil {
		return nil, nil, err
	}
	plan, err := cfg.Plan(reg)
	if err != nil {
		return nil, nil, err
	}
	t, err := tournament.New(ctx, plan, cfg.Seed)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", file, err)
	}
	return t, cfg.Format(), nil
}

// bounds reads the clairvoyant bounds of a corpus for the config's rules:
// the files the entry names, and the shipped bound of each rules no file
// covers, if one was made for these decks. A file for rules the config does not play, or
// for other decks, is an error.
func (c *TournamentConfig) bounds(cp CorpusEntry, corpus *tournament.Corpus) ([]tournament.Bound, error) {
	var out []tournament.Bound
	covered := map[solver.Rules]bool{}
	for _, file := range cp.Bounds {
		f, err := os.Open(file)
		if err != nil {
			return nil, fmt.Errorf("bounds: %w", err)
		}
		bf, err := clairvoyant.ReadBoundFile(f)
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("bounds: %s: %w", file, err)
		}
		if !slices.ContainsFunc(c.Rules, func(r RulesEntry) bool { return r.variant().Rules == bf.Rules() }) {
			return nil, fmt.Errorf("bounds: %s is for %s, which the config does not play", file, bf.Rules())
		}
		if covered[bf.Rules()] {
			return nil, fmt.Errorf("bounds: two files for %s", bf.Rules())
		}
		if bf.Checksum != corpus.Checksum || len(bf.Winnable) != corpus.Len {
			return nil, fmt.Errorf("bounds: %s is for other decks (corpus %s, %d decks, sha256 %.12s…), not these (%d decks, sha256 %.12s…)",
				file, bf.Corpus, len(bf.Winnable), bf.Checksum, corpus.Len, corpus.Checksum)
		}
		covered[bf.Rules()] = true
		out = append(out, tournament.NewBound(cp.Name, corpus.Checksum, bf.Rules(), file, bf.Winnable))
	}
	shipped, err := ShippedBounds(corpus)
	if err != nil {
		return nil, err
	}
	for _, b := range shipped {
		if !covered[b.Rules] && slices.ContainsFunc(c.Rules, func(r RulesEntry) bool { return r.variant().Rules == b.Rules }) {
			b.Corpus = cp.Name
			out = append(out, b)
		}
	}
	return out, nil
}

// ShippedBounds returns the shipped clairvoyant bounds made for the decks of
// c (found by checksum, whatever c is called or wherever it was read from),
// one per rules that has one.
func ShippedBounds(c *tournament.Corpus) ([]tournament.Bound, error) {
	var out []tournament.Bound
	names, read := corpora.Bounds()
	for _, name := range names {
		data, err := read(name)
		if err != nil {
			return nil, err
		}
		bf, err := clairvoyant.ReadBoundFile(bytes.NewReader(data))
		if err != nil {
			return nil, fmt.Errorf("shipped bound %s: %w", name, err)
		}
		if bf.Checksum == c.Checksum && len(bf.Winnable) == c.Len {
			out = append(out, tournament.NewBound(c.Name, c.Checksum, bf.Rules(), "shipped "+name, bf.Winnable))
		}
	}
	return out, nil
}
