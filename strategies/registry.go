package strategies

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/calcsol/calcsol/internal/suggest"
	"github.com/calcsol/calcsol/solver"
)

// Kind is a kind of strategy that a tournament config or a command line can
// name: "priority", "random", "greedy", a plugin, a search wrapper.
//
// A kind either builds a strategy from its parameters (Build), or wraps a
// base strategy to make a stronger one (Wrap: "priority+endgame:k=8" is the
// endgame kind wrapped around the priority kind).
type Kind struct {
	Name string
	Doc  string // one line for --help and `calcsol strategies`
	// Params are the parameters the kind takes, each with its default in
	// Value. Build and Wrap receive only declared parameters, each value
	// checked against its declaration; missing ones are left out of the map.
	Params     []solver.Param
	Stochastic bool
	Build      func(params map[string]string) (solver.Strategy, error)
	Wrap       func(base solver.Strategy, params map[string]string) (solver.Strategy, error)
}

// Registry holds the kinds of strategy calcsol can build. It is filled once
// (built-ins, then plugins) and then only read.
type Registry struct {
	kinds   map[string]Kind
	presets map[string]Preset
}

// NewRegistry returns an empty registry.
func NewRegistry() *Registry { return &Registry{kinds: map[string]Kind{}} }

// Register adds k; a second kind of the same name is refused.
func (r *Registry) Register(k Kind) error {
	if k.Name == "" || strings.ContainsAny(k.Name, "+:,= ") {
		return fmt.Errorf("strategy kind %q: a name is one word without + : , =", k.Name)
	}
	if (k.Build == nil) == (k.Wrap == nil) {
		return fmt.Errorf("strategy kind %s: give exactly one of Build and Wrap", k.Name)
	}
	if _, dup := r.kinds[k.Name]; dup {
		return fmt.Errorf("strategy kind %s registered twice", k.Name)
	}
	if _, dup := r.presets[k.Name]; dup {
		return fmt.Errorf("strategy kind %s: a preset has that name", k.Name)
	}
	r.kinds[k.Name] = k
	return nil
}

// MustRegister is Register for kinds known at build time.
func (r *Registry) MustRegister(k Kind) {
	if err := r.Register(k); err != nil {
		panic(err)
	}
}

// Kind returns the kind named name.
func (r *Registry) Kind(name string) (Kind, bool) {
	k, ok := r.kinds[name]
	return k, ok
}

// Kinds returns every kind, sorted by name.
func (r *Registry) Kinds() []Kind { return byName(r.kinds) }

// byName returns m's values in the order of their names.
func byName[V any](m map[string]V) []V {
	out := make([]V, 0, len(m))
	for _, name := range slices.Sorted(maps.Keys(m)) {
		out = append(out, m[name])
	}
	return out
}

// Names returns the kinds' names, sorted.
func (r *Registry) Names() []string {
	var names []string
	for _, k := range r.Kinds() {
		names = append(names, k.Name)
	}
	return names
}

// Part is one element of a strategy spec: a kind and its parameters.
type Part struct {
	Kind   string
	Params map[string]string
}

// ParseSpec reads a strategy spec: a base kind, then any wrappers, joined by
// "+", each with optional parameters after ":" as key=value pairs separated
// by commas: "priority", "priority:deadlock_check=exact",
// "priority+endgame:k=8".
func ParseSpec(spec string) ([]Part, error) {
	spec = strings.TrimSpace(spec)
	if spec == "" {
		return nil, fmt.Errorf("empty strategy spec")
	}
	var parts []Part
	for _, s := range strings.Split(spec, "+") {
		name, args, _ := strings.Cut(strings.TrimSpace(s), ":")
		p := Part{Kind: strings.TrimSpace(name), Params: map[string]string{}}
		if p.Kind == "" {
			return nil, fmt.Errorf("strategy spec %q: a part names no kind", spec)
		}
		if strings.TrimSpace(args) != "" {
			for _, kv := range strings.Split(args, ",") {
				k, v, ok := strings.Cut(kv, "=")
				k = strings.TrimSpace(k)
				if !ok || k == "" {
					return nil, fmt.Errorf("strategy spec %q: %q is not key=value", spec, kv)
				}
				if _, dup := p.Params[k]; dup {
					return nil, fmt.Errorf("strategy spec %q: %s given twice", spec, k)
				}
				p.Params[k] = strings.TrimSpace(v)
			}
		}
		parts = append(parts, p)
	}
	return parts, nil
}

// FormatSpec writes parts back as a spec, parameters sorted by key, so that
// equal strategies get equal specs.
func FormatSpec(parts []Part) string {
	var b strings.Builder
	for i, p := range parts {
		if i > 0 {
			b.WriteByte('+')
		}
		b.WriteString(p.Kind)
		keys := make([]string, 0, len(p.Params))
		for k := range p.Params {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for j, k := range keys {
			if j == 0 {
				b.WriteByte(':')
			} else {
				b.WriteByte(',')
			}
			b.WriteString(k + "=" + p.Params[k])
		}
	}
	return b.String()
}

// BuildSpec builds the strategy a spec names (see ParseSpec).
func (r *Registry) BuildSpec(spec string) (solver.Strategy, error) {
	parts, err := ParseSpec(spec)
	if err != nil {
		return nil, err
	}
	return r.BuildParts(parts)
}

// CheckLayer checks one layer of a strategy before anything is built: its
// kind is known, can stand where it stands (a base first, wrappers after
// it) and every parameter fits its declaration.
func (r *Registry) CheckLayer(p Part, base bool) error {
	k, ok := r.kinds[p.Kind]
	if !ok {
		return r.unknownKind(p.Kind)
	}
	switch {
	case base && k.Build == nil:
		return fmt.Errorf("strategy %s wraps another: write base+%s", p.Kind, p.Kind)
	case !base && k.Wrap == nil:
		return fmt.Errorf("strategy %s cannot wrap another (only a first part may be %s)", p.Kind, p.Kind)
	}
	if err := CheckParams(k.Params, p.Params); err != nil {
		return fmt.Errorf("strategy %s: %w", p.Kind, err)
	}
	return nil
}

// BuildParts builds a base strategy and wraps it with each wrapper in turn.
func (r *Registry) BuildParts(parts []Part) (solver.Strategy, error) {
	if len(parts) == 0 {
		return nil, fmt.Errorf("no strategy named")
	}
	parts, err := r.Expand(parts)
	if err != nil {
		return nil, err
	}
	var s solver.Strategy
	for i, p := range parts {
		if err := r.CheckLayer(p, i == 0); err != nil {
			return nil, err
		}
		k := r.kinds[p.Kind]
		var err error
		if i == 0 {
			s, err = k.Build(p.Params)
		} else {
			s, err = k.Wrap(s, p.Params)
		}
		if err != nil {
			return nil, fmt.Errorf("strategy %s: %w", p.Kind, err)
		}
	}
	return s, nil
}

// CommandLine names a strategy as calcsol's commands take it: a spec
// (--strategy), parameters of any layer as [KIND.]KEY=VALUE (--set), and
// the priority kind's shorthands: a table (--table) and table options as
// key=value (--option).
type CommandLine struct {
	Spec    string
	Set     []string
	Table   string
	Options []string
}

// Parts returns the layers a command line names: the spec with each
// --table, --option and --set applied (see Registry.Set).
func (r *Registry) Parts(c CommandLine) ([]Part, error) {
	parts, err := ParseSpec(c.Spec)
	if err == nil {
		parts, err = r.Expand(parts)
	}
	if err != nil {
		return nil, fmt.Errorf("--strategy: %w", err)
	}
	if c.Table != "" || len(c.Options) > 0 {
		if parts[0].Kind != "priority" {
			return nil, fmt.Errorf("--table and --option go with --strategy priority, not %s (--set KIND.KEY=VALUE sets any layer's parameter)", parts[0].Kind)
		}
		if c.Table != "" {
			parts[0].Params["table"] = c.Table
		}
		if err := parts[0].Set(c.Options); err != nil {
			return nil, fmt.Errorf("--option %w", err)
		}
	}
	if err := r.Set(parts, c.Set); err != nil {
		return nil, fmt.Errorf("--set %w", err)
	}
	return parts, nil
}

// Set sets layers' parameters, each given as KIND.KEY=VALUE (the first
// layer of that kind) or KEY=VALUE (the first layer whose kind declares
// KEY), replacing any value the spec gave.
func (r *Registry) Set(parts []Part, assignments []string) error {
	for _, a := range assignments {
		lhs, v, ok := strings.Cut(a, "=")
		if !ok {
			return fmt.Errorf("%q: want [KIND.]KEY=VALUE", a)
		}
		kind, key, scoped := strings.Cut(strings.TrimSpace(lhs), ".")
		if !scoped {
			kind, key = "", kind
		}
		i := slices.IndexFunc(parts, func(p Part) bool {
			if scoped {
				return p.Kind == kind
			}
			k, ok := r.kinds[p.Kind]
			return ok && slices.ContainsFunc(k.Params, func(d solver.Param) bool { return d.Name == key })
		})
		switch {
		case i < 0 && scoped:
			var kinds []string
			for _, p := range parts {
				kinds = append(kinds, p.Kind)
			}
			return fmt.Errorf("%q: the strategy has no %s layer (%s)%s", a, kind, FormatSpec(parts), suggest.Hint(kind, kinds, ""))
		case i < 0:
			var keys []string
			for _, p := range parts {
				for _, d := range r.kinds[p.Kind].Params {
					keys = append(keys, d.Name)
				}
			}
			return fmt.Errorf("%q: no layer of %s declares %s%s", a, FormatSpec(parts), key, suggest.Hint(key, keys, ""))
		}
		if parts[i].Params == nil {
			parts[i].Params = map[string]string{}
		}
		parts[i].Params[key] = strings.TrimSpace(v)
	}
	return nil
}

// Build builds the strategy a command line names for rules, and the label
// that names it in reports: the spec, or for the priority kind its table
// and the options that differ from the defaults. A priority table must fit
// rules, so that a wrong table fails before any game.
func (r *Registry) Build(c CommandLine, rules solver.Rules) (solver.Strategy, string, error) {
	parts, err := r.Parts(c)
	if err != nil {
		return nil, "", err
	}
	s, err := r.BuildParts(parts)
	if err != nil {
		return nil, "", err
	}
	p, ok := s.(*PriorityStrategy)
	if !ok {
		return s, FormatSpec(parts), nil
	}
	t, err := p.Table(rules.Stacks)
	if err != nil {
		return nil, "", err
	}
	if err := t.Validate(rules); err != nil {
		return nil, "", err
	}
	return s, p.Label(rules.Stacks), nil
}

// Set adds parameters given as key=value, each replacing any value the
// part had for its key.
func (p Part) Set(kvs []string) error {
	for _, kv := range kvs {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			return fmt.Errorf("%q: want key=value", kv)
		}
		p.Params[strings.TrimSpace(k)] = strings.TrimSpace(v)
	}
	return nil
}

// CheckParams checks that every given parameter is declared and that its
// value fits the declaration.
func CheckParams(declared []solver.Param, given map[string]string) error {
	for name, v := range given {
		i := slices.IndexFunc(declared, func(p solver.Param) bool { return p.Name == name })
		if i < 0 {
			var known []string
			for _, p := range declared {
				known = append(known, p.Name)
			}
			if len(known) == 0 {
				return fmt.Errorf("unknown parameter %q (it takes none)", name)
			}
			if m := suggest.Mean(name, known, ""); m != "" {
				return fmt.Errorf("unknown parameter %q (did you mean %s? want %s)", name, m, strings.Join(known, ", "))
			}
			return fmt.Errorf("unknown parameter %q (want %s)", name, strings.Join(known, ", "))
		}
		if err := CheckValue(declared[i], v); err != nil {
			return err
		}
	}
	return nil
}

// CheckValue checks one value against its parameter's declaration.
func CheckValue(p solver.Param, v string) error {
	switch p.Kind {
	case solver.ParamBool:
		if v != "true" && v != "false" {
			return fmt.Errorf("parameter %s: %q is not true or false", p.Name, v)
		}
	case solver.ParamInt:
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || float64(n) < p.Min || float64(n) > p.Max {
			return fmt.Errorf("parameter %s: %q is not a whole number from %g to %g", p.Name, v, p.Min, p.Max)
		}
	case solver.ParamFloat:
		f, err := strconv.ParseFloat(v, 64)
		if err != nil || f < p.Min || f > p.Max {
			return fmt.Errorf("parameter %s: %q is not a number from %g to %g", p.Name, v, p.Min, p.Max)
		}
	case solver.ParamChoice:
		if !slices.Contains(p.Choices, v) {
			return fmt.Errorf("parameter %s: %q is not one of %s", p.Name, v, strings.Join(p.Choices, ", "))
		}
	}
	return nil
}

// Preset is a named strategy: a spec under a name that commands and configs
// take wherever a strategy goes (--strategy best-4p, strategy: best-4p).
type Preset struct {
	Name string
	Spec string
	// Rules names the rule variant the preset is meant for ("4 stacks,
	// A 2 3 4 pre-placed"); Doc says what it is; Measured what it won and
	// what it cost, and where.
	Rules, Doc, Measured string
	// Cost is the CPU time of one game as measured (0: not stated): what a
	// run's time-left estimate counts for it before its games start.
	Cost time.Duration
}

// RegisterPreset adds a preset; its name may be neither a kind's nor
// another preset's, and its spec must parse.
func (r *Registry) RegisterPreset(p Preset) error {
	if p.Name == "" || strings.ContainsAny(p.Name, "+:,= ") {
		return fmt.Errorf("preset %q: a name is one word without + : , =", p.Name)
	}
	if _, dup := r.kinds[p.Name]; dup {
		return fmt.Errorf("preset %s: a strategy kind has that name", p.Name)
	}
	if _, dup := r.presets[p.Name]; dup {
		return fmt.Errorf("preset %s registered twice", p.Name)
	}
	if _, err := ParseSpec(p.Spec); err != nil {
		return fmt.Errorf("preset %s: %w", p.Name, err)
	}
	if r.presets == nil {
		r.presets = map[string]Preset{}
	}
	r.presets[p.Name] = p
	return nil
}

// Presets returns the presets, sorted by name.
func (r *Registry) Presets() []Preset { return byName(r.presets) }

// Preset returns the preset named name.
func (r *Registry) Preset(name string) (Preset, bool) {
	p, ok := r.presets[name]
	return p, ok
}

// Cost is the measured cost of one game (Preset.Cost) of the preset whose
// strategy spec, canonical (FormatSpec), is spec; 0 when no preset is
// exactly that strategy.
func (r *Registry) Cost(spec string) time.Duration {
	for _, p := range r.presets {
		if p.Cost == 0 {
			continue
		}
		if parts, err := ParseSpec(p.Spec); err == nil && FormatSpec(parts) == spec {
			return p.Cost
		}
	}
	return 0
}

// Expand replaces a preset that begins parts by the layers of its spec
// ("best-4p+endgame" is the preset's strategy with one more wrapper). A
// preset takes no parameters of its own (--set sets those of its layers),
// and stands only first.
func (r *Registry) Expand(parts []Part) ([]Part, error) {
	for i, p := range parts {
		pr, ok := r.presets[p.Kind]
		switch {
		case !ok:
			continue
		case i > 0:
			return nil, fmt.Errorf("preset %s is a whole strategy: it can only come first (%s+…)", p.Kind, p.Kind)
		case len(p.Params) > 0:
			return nil, fmt.Errorf("preset %s takes no parameters: set those of its layers with --set KIND.KEY=VALUE (%s is %s)", p.Kind, p.Kind, pr.Spec)
		}
		base, _ := ParseSpec(pr.Spec) // checked by RegisterPreset
		return append(base, parts[1:]...), nil
	}
	return parts, nil
}

// unknownKind is the error for a name that is neither a kind nor a preset:
// the closest names when some are near, else every name.
func (r *Registry) unknownKind(name string) error {
	if m := suggest.Mean(name, append(r.Names(), r.presetNames()...), ""); m != "" {
		return fmt.Errorf("unknown strategy kind %q (did you mean %s? calcsol strategies lists them all)", name, m)
	}
	if len(r.presets) > 0 {
		return fmt.Errorf("unknown strategy kind %q (kinds: %s; presets: %s)", name, strings.Join(r.Names(), ", "), strings.Join(r.presetNames(), ", "))
	}
	return fmt.Errorf("unknown strategy kind %q (known: %s)", name, strings.Join(r.Names(), ", "))
}

func (r *Registry) presetNames() []string {
	var names []string
	for _, p := range r.Presets() {
		names = append(names, p.Name)
	}
	return names
}
