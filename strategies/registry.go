package strategies

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

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
	kinds map[string]Kind
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
func (r *Registry) Kinds() []Kind {
	ks := make([]Kind, 0, len(r.kinds))
	for _, k := range r.kinds {
		ks = append(ks, k)
	}
	slices.SortFunc(ks, func(a, b Kind) int { return cmp.Compare(a.Name, b.Name) })
	return ks
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
		return fmt.Errorf("unknown strategy kind %q (known: %s)", p.Kind, strings.Join(r.Names(), ", "))
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
			return fmt.Errorf("%q: the strategy has no %s layer (%s)", a, kind, FormatSpec(parts))
		case i < 0:
			return fmt.Errorf("%q: no layer of %s declares %s", a, FormatSpec(parts), key)
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
