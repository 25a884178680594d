package configs

import (
	"bytes"
	"context"
	_ "embed"
	"errors"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/calcsol/calcsol/clairvoyant"
	"github.com/calcsol/calcsol/configs/yamldecode"
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
	File string
	// Blind plays every corpus drawn fresh with a secret seed (configs/blind.go).
	Blind      bool
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
	var f tournamentFile
	if err := yamldecode.Decode(data, file, &f); err != nil {
		return nil, err
	}
	cfg := &TournamentConfig{File: file, Seed: f.Seed, Blind: f.Blind}
	for i, s := range f.Strategies {
		for j := range s.layers {
			s.layers[j].Key = yamldecode.JoinPath(fmt.Sprintf("strategies[%d]", i), s.layers[j].Key)
		}
		cfg.Strategies = append(cfg.Strategies, StrategyEntry{Name: s.Name, Layers: s.layers, Batch: int(s.Batch), Corpora: s.Corpora, Line: s.Line})
	}
	for _, c := range f.Corpora {
		cfg.Corpora = append(cfg.Corpora, c.CorpusEntry)
	}
	for _, r := range f.Rules {
		cfg.Rules = append(cfg.Rules, RulesEntry{Stacks: int(r.Stacks), Preplaced: r.Preplaced, Move: time.Duration(r.Move), Game: time.Duration(r.Game), Line: r.Line})
	}
	if err := cfg.checkUnique(); err != nil {
		return nil, err
	}
	return cfg, nil
}

// tournamentFile is a tournament config as yamldecode.Decode reads it. Keys are
// declared in alphabetical order, the order messages list them in.
type tournamentFile struct {
	Blind      bool           `yaml:"blind"`
	Corpora    []corpusNode   `yaml:"corpora"`
	Rules      []rulesFile    `yaml:"rules"`
	Seed       uint64         `yaml:"seed"`
	Strategies []strategyFile `yaml:"strategies"`
}

func (f *tournamentFile) CheckYAML() error {
	for _, need := range []struct {
		key string
		n   int
	}{{"strategies", len(f.Strategies)}, {"corpora", len(f.Corpora)}, {"rules", len(f.Rules)}} {
		if need.n == 0 {
			return yamldecode.ErrAt(nil, need.key, errors.New("missing or empty: a tournament needs at least one"))
		}
	}
	return nil
}

// strategyFile is a strategies entry; CheckYAML reads its layers.
type strategyFile struct {
	Line     int        `yaml:",line"`
	Batch    batchSize  `yaml:"batch"`
	Base     *yaml.Node `yaml:"base"`
	Corpora  []string   `yaml:"corpora,nonempty"`
	Kind     *yaml.Node `yaml:"kind"` // the older name of strategy
	Name     string     `yaml:"name,nonempty"`
	Params   *yaml.Node `yaml:"params"`
	Strategy *yaml.Node `yaml:"strategy"`
	Wrappers *yaml.Node `yaml:"wrappers"`
	layers   []Layer    // keys relative to the entry
}

func (s *strategyFile) CheckYAML() error {
	if s.Name == "" {
		return yamldecode.ErrAt(nil, "name", errors.New("missing"))
	}
	spec := s.Strategy
	if s.Kind != nil {
		if spec != nil { // strategy: and kind: (its older name) both
			later, key := s.Strategy, "strategy"
			if s.Kind.Line > s.Strategy.Line || s.Kind.Line == s.Strategy.Line && s.Kind.Column > s.Strategy.Column {
				later, key = s.Kind, "kind"
			}
			return yamldecode.ErrAt(later, key, errors.New("give the strategy once (kind: is the older name of strategy:)"))
		}
		spec = s.Kind
	}
	var err error
	s.layers, err = strategyLayers(spec, s.Params, s.Base, s.Wrappers)
	return err
}

// strategyLayers reads an entry's strategy: a tree (base: and wrappers:) or
// a one-line spec (strategy:, or kind: as older configs say), with params:
// (older configs) adding to the base's parameters.
func strategyLayers(spec, params, base, wrappers *yaml.Node) ([]Layer, error) {
	var layers []Layer
	switch {
	case spec != nil && base != nil:
		return nil, yamldecode.ErrAt(base, "base", errors.New("give the strategy as a tree (base:, wrappers:) or as a spec (strategy:), not both"))
	case spec != nil:
		if spec.Kind != yaml.ScalarNode {
			return nil, yamldecode.ErrAt(spec, "strategy", errors.New("want a spec like priority:deadlock_check=exact+endgame:k=4 (or write the strategy as a tree: base:, wrappers:)"))
		}
		parts, err := strategies.ParseSpec(spec.Value)
		if err != nil {
			return nil, yamldecode.ErrAt(spec, "strategy", err)
		}
		for _, part := range parts {
			layers = append(layers, Layer{Part: part, Key: "strategy", Line: spec.Line})
		}
		if wrappers != nil {
			return nil, yamldecode.ErrAt(wrappers, "wrappers", errors.New("wrappers go with base:; a spec names its wrappers after +"))
		}
	case base != nil:
		var l treeLayer
		if err := yamldecode.DecodeNode(base, &l); err != nil {
			return nil, yamldecode.Under("base", err)
		}
		layers = append(layers, l.layer("base"))
		if wrappers != nil {
			var ws []treeLayer
			if err := yamldecode.DecodeNode(wrappers, &ws); err != nil {
				return nil, yamldecode.Under("wrappers", err)
			}
			for i, w := range ws {
				layers = append(layers, w.layer(fmt.Sprintf("wrappers[%d]", i)))
			}
		}
		if params != nil {
			return nil, yamldecode.ErrAt(params, "params", errors.New("a tree gives each layer's parameters under its kind (base: {priority: {table: tuned-4}})"))
		}
	default:
		return nil, errors.New("strategy: missing (a spec like priority+endgame:k=4, or a tree: base:, wrappers:)")
	}
	if params != nil {
		given, err := paramValues(params)
		if err != nil {
			return nil, yamldecode.Under("params", err)
		}
		for k, v := range given {
			if _, dup := layers[0].Params[k]; dup {
				return nil, yamldecode.ErrAt(params, "params."+k, errors.New("also given in the spec"))
			}
			layers[0].Params[k] = v
		}
	}
	return layers, nil
}

// treeLayer is one layer of a tree: a kind alone ("rescue") or a kind and
// its parameters ({sample: {n: 256, tops: true}}).
type treeLayer struct {
	strategies.Part
	keyed bool // written as a kind and its parameters
	line  int
}

func (l *treeLayer) DecodeYAML(n *yaml.Node) error {
	*l = treeLayer{Part: strategies.Part{Params: map[string]string{}}, line: n.Line}
	switch {
	case n.Kind == yaml.ScalarNode && strings.TrimSpace(n.Value) != "":
		l.Kind = strings.TrimSpace(n.Value)
	case n.Kind == yaml.MappingNode && len(n.Content) == 2:
		l.Kind, l.keyed = n.Content[0].Value, true
		if v := n.Content[1]; !yamldecode.IsNull(v) {
			params, err := paramValues(v)
			if err != nil {
				return yamldecode.Under(l.Kind, err)
			}
			l.Params = params
		}
	default:
		return errors.New("want a kind, or a kind and its parameters: {endgame: {k: 4}}")
	}
	if strings.ContainsAny(l.Kind, "+:,= ") {
		return fmt.Errorf("%q is not a kind (a tree names one kind a layer; a one-line spec goes under strategy:)", l.Kind)
	}
	return nil
}

// layer is the layer l is, at key (relative to its entry).
func (l treeLayer) layer(key string) Layer {
	if l.keyed {
		key += "." + l.Kind
	}
	return Layer{Part: l.Part, Key: key, Line: l.line}
}

// paramValues reads a mapping of parameters: plain values, or lists, which
// a spec writes separated by strategies.ListSep.
func paramValues(n *yaml.Node) (map[string]string, error) {
	out := map[string]string{}
	err := yamldecode.EachKey(n, func(name string, v *yaml.Node) error {
		switch v.Kind {
		case yaml.ScalarNode:
			out[name] = v.Value
		case yaml.SequenceNode:
			var items []string
			for _, it := range v.Content {
				if it.Kind != yaml.ScalarNode || strings.Contains(it.Value, strategies.ListSep) {
					return yamldecode.ErrAt(it, "", errors.New("want a list of plain values"))
				}
				items = append(items, it.Value)
			}
			out[name] = strings.Join(items, strategies.ListSep)
		default:
			return yamldecode.ErrAt(v, "", errors.New("want a plain value or a list"))
		}
		return nil
	})
	return out, err
}

// corpusNode is a corpora entry: a shipped corpus's name ("- uniform-1000")
// or a corpusFile.
type corpusNode struct{ CorpusEntry }

func (c *corpusNode) DecodeYAML(n *yaml.Node) error {
	if n.Kind == yaml.ScalarNode {
		c.CorpusEntry = CorpusEntry{Name: n.Value, Shipped: n.Value, Line: n.Line}
		if n.Value == "" {
			return yamldecode.ErrAt(nil, "name", errors.New("missing"))
		}
		return nil
	}
	var f corpusFile
	if err := yamldecode.DecodeNode(n, &f); err != nil {
		return err
	}
	c.CorpusEntry = CorpusEntry{Name: f.Name, Shipped: f.Shipped, File: f.File, Generator: f.Generator,
		Seed: f.Seed, Count: int(f.Count), Bounds: f.Bounds, Line: f.Line}
	return nil
}

// corpusFile is a corpora entry written as a mapping.
type corpusFile struct {
	Line      int       `yaml:",line"`
	Bounds    []string  `yaml:"bounds,nonempty"`
	Count     deckCount `yaml:"count"`
	File      string    `yaml:"file,nonempty"`
	Generator string    `yaml:"generator,nonempty"`
	Name      string    `yaml:"name,nonempty"`
	Seed      uint64    `yaml:"seed"`
	Shipped   string    `yaml:"shipped,nonempty"`
}

func (c *corpusFile) CheckYAML() error {
	if c.Name == "" {
		return yamldecode.ErrAt(nil, "name", errors.New("missing"))
	}
	given := 0
	for _, s := range []string{c.Shipped, c.File, c.Generator} {
		if s != "" {
			given++
		}
	}
	switch {
	case given != 1:
		return errors.New("give exactly one of shipped, file and generator")
	case c.Generator != "" && c.Count == 0:
		return errors.New("a generator needs count (the number of decks)")
	case c.Generator == "" && (c.Count != 0 || c.Seed != 0):
		return errors.New("seed and count go with a generator only")
	}
	return nil
}

// rulesFile is a rules entry.
type rulesFile struct {
	Line      int              `yaml:",line"`
	Game      positiveDuration `yaml:"game_budget"`
	Move      positiveDuration `yaml:"move_budget"`
	Preplaced bool             `yaml:"preplaced"`
	Stacks    stackCount       `yaml:"stacks"`
}

func (r *rulesFile) CheckYAML() error {
	if r.Stacks == 0 {
		return errors.New("stacks: missing")
	}
	return nil
}

// The numbers of a config, each with its range.
type (
	batchSize        int
	deckCount        int
	stackCount       int
	positiveDuration time.Duration
)

func (b *batchSize) DecodeYAML(n *yaml.Node) error {
	return wholeNumber(n, (*int)(b), 1, 1<<16, "want a whole number from 1 to 65536")
}

func (c *deckCount) DecodeYAML(n *yaml.Node) error {
	return wholeNumber(n, (*int)(c), 1, 100_000_000, "want a number of decks from 1 to 100000000")
}

func (s *stackCount) DecodeYAML(n *yaml.Node) error {
	return wholeNumber(n, (*int)(s), 1, solver.MaxStacks, fmt.Sprintf("want a number of stacks from 1 to %d", solver.MaxStacks))
}

func (d *positiveDuration) DecodeYAML(n *yaml.Node) error {
	x, err := time.ParseDuration(yamldecode.Text(n))
	if err != nil || x <= 0 {
		return errors.New("want a positive duration like 2ms or 1s")
	}
	*d = positiveDuration(x)
	return nil
}

// wholeNumber reads a whole number from lo to hi into dst; reason says
// what is wanted.
func wholeNumber(n *yaml.Node, dst *int, lo, hi int, reason string) error {
	x, err := strconv.Atoi(yamldecode.Text(n))
	if err != nil || x < lo || x > hi {
		return errors.New(reason)
	}
	*dst = x
	return nil
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

// Format writes the config back in canonical form (what a report records as
// the resolved config): every entry in full, parameters sorted.
func (c *TournamentConfig) Format() []byte {
	var b bytes.Buffer
	if c.Blind {
		b.WriteString("blind: true\n")
	}
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
	return c.plan(reg, nil)
}

// plan is Plan with a blind run's secret given (nil: drawn when the config
// plays blind).
func (c *TournamentConfig) plan(reg *strategies.Registry, secret *tournament.Blind) (tournament.Plan, error) {
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
	if c.Blind {
		var err error
		if plan.Blind, err = blindSecret(secret); err != nil {
			return plan, err
		}
	}
	for i, cp := range c.Corpora {
		var cs *corpus.Calculation
		var err error
		switch {
		case c.Blind:
			cs, err = drawBlind(plan.Blind, cp)
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
		if c.Blind {
			continue // no bound is for decks drawn blind
		}
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
	return LoadTournamentBlind(ctx, data, file, reg, false, nil)
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
	files, err := shippedBoundFiles()
	if err != nil {
		return nil, err
	}
	var out []tournament.Bound
	for _, f := range files {
		if f.Checksum != c.Checksum || f.Decks != c.Len {
			continue
		}
		bf, err := f.read()
		if err != nil {
			return nil, err
		}
		out = append(out, tournament.NewBound(c.Name, c.Checksum, bf.Rules(), "shipped "+f.name, bf.Winnable))
	}
	return out, nil
}

// shippedBoundFiles reads the shipped bound files' headers once a process:
// every plan of a tournament config looks them up by checksum. A file's
// verdicts are decoded, once, only for the corpus they are for (read): the
// 30,000-deck ones take tens of milliseconds, more than a small tournament
// on uniform-1000 spends on its games. Nothing modifies them.
var shippedBoundFiles = sync.OnceValues(func() ([]shippedBoundFile, error) {
	var out []shippedBoundFile
	names, read := corpora.Bounds()
	for _, name := range names {
		data, err := read(name)
		if err != nil {
			return nil, err
		}
		head, err := clairvoyant.ReadBoundHeader(bytes.NewReader(data))
		if err != nil {
			return nil, fmt.Errorf("shipped bound %s: %w", name, err)
		}
		out = append(out, shippedBoundFile{head, name, sync.OnceValues(func() (*clairvoyant.BoundFile, error) {
			bf, err := clairvoyant.ReadBoundFile(bytes.NewReader(data))
			if err != nil {
				return nil, fmt.Errorf("shipped bound %s: %w", name, err)
			}
			return bf, nil
		})})
	}
	return out, nil
})

type shippedBoundFile struct {
	*clairvoyant.BoundFile // the header: Winnable is nil
	name                   string
	read                   func() (*clairvoyant.BoundFile, error)
}
