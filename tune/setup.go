package tune

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/calcsol/calcsol/solver"
	"github.com/calcsol/calcsol/strategies"
)

// SetupInput is what a user asks to tune, as `calcsol tune` takes it.
type SetupInput struct {
	Spec    string   // the strategy spec, KIND[:params][+…]
	Table   string   // the priority table to start from, if not the spec's
	Options []string // key=value options set on that table
	Params  []string // declared strategy parameters to tune
	NoOps   bool     // leave the table's operation lists alone
	Tune    []string // table options the search may change
	// Extended lets inserts choose the fit and empty-stack operations too.
	Extended bool
}

// Setup is what a search starts from: the candidate, the space of moves and
// how a candidate becomes a strategy.
type Setup struct {
	Start     Candidate
	StartName string
	Space     *Space
	Build     func(Candidate) (solver.Strategy, error)
	// Incremental: the strategy is the start table's priority strategy and
	// nothing else, so the search may play tables itself.
	Incremental bool

	parts     []strategies.Part
	paramPart map[string]int // tuned parameter → the part that declares it
}

// NewSetup resolves in against reg for rules r; load reads a priority table
// by name or path for a number of stacks (configs.LoadPriorityFor). The
// start must build, so that a bad spec fails before the search.
func NewSetup(reg *strategies.Registry, in SetupInput, r solver.Rules, load func(string, int) (*strategies.Table, error)) (*Setup, error) {
	parts, err := strategies.ParseSpec(in.Spec)
	if err != nil {
		return nil, fmt.Errorf("--strategy: %w", err)
	}
	given, err := optionFlags(in.Options)
	if err != nil {
		return nil, err
	}
	s := &Setup{parts: parts, paramPart: map[string]int{}, Space: &Space{Rules: r, Options: in.Tune, Extended: in.Extended}}
	s.Start.Params = map[string]string{}
	priority := parts[0].Kind == "priority"
	if !priority && (in.Table != "" || len(in.Options) > 0 || len(in.Tune) > 0 || in.Extended) {
		return nil, fmt.Errorf("--table, --option, --options and --extended-ops go with --strategy priority, not %s", parts[0].Kind)
	}
	if priority && (!in.NoOps || len(in.Tune) > 0) {
		name := in.Table
		if name == "" {
			name = parts[0].Params["table"]
		}
		t, err := load(name, r.Stacks)
		if err != nil {
			return nil, err
		}
		for _, kv := range given {
			if err := t.Options.SetOption(kv[0], kv[1]); err != nil {
				return nil, fmt.Errorf("--option: %w", err)
			}
		}
		delete(parts[0].Params, "table")
		// Options given in the spec become the start table's own, unless
		// they are tuned as parameters.
		for k, v := range parts[0].Params {
			if slices.Contains(OptionNames(), k) && !slices.Contains(in.Params, k) {
				if g, ok := lastValue(given, k); ok && g != v {
					return nil, fmt.Errorf("--option %s=%s: the strategy sets %s=%s", k, g, k, v)
				}
				if err := t.Options.SetOption(k, v); err != nil {
					return nil, fmt.Errorf("--strategy: %w", err)
				}
				delete(parts[0].Params, k)
			}
		}
		s.Start.Table, s.StartName = t, t.Name
		s.Space.Ops = !in.NoOps
	} else if priority {
		// The table is not tuned: --table and --option go into the spec,
		// as eval reads them.
		if parts[0].Params == nil {
			parts[0].Params = map[string]string{}
		}
		if in.Table != "" {
			parts[0].Params["table"] = in.Table
		}
		if in.Extended {
			return nil, fmt.Errorf("--extended-ops goes with tuning the table's operations, not with --no-ops")
		}
		for _, kv := range given {
			k, v := kv[0], kv[1]
			if old, ok := parts[0].Params[k]; ok && old != v {
				return nil, fmt.Errorf("--option %s=%s: the strategy sets %s=%s", k, v, k, old)
			}
			parts[0].Params[k] = v
		}
	}
	for _, name := range in.Params {
		if err := s.addParam(reg, in.Spec, name); err != nil {
			return nil, err
		}
	}
	if s.StartName == "" {
		s.StartName = strategies.FormatSpec(parts)
	}
	s.Build = func(c Candidate) (solver.Strategy, error) {
		rr := reg
		if c.Table != nil {
			t := c.Table
			rr = strategies.NewRegistry()
			rr.MustRegister(strategies.PriorityKind(func(string, int) (*strategies.Table, error) { return CloneTable(t), nil }))
			for _, k := range reg.Kinds() {
				if k.Name != "priority" {
					rr.MustRegister(k)
				}
			}
		}
		return rr.BuildParts(s.partsWith(c.Params))
	}
	s.Incremental = s.Start.Table != nil && len(parts) == 1 && len(parts[0].Params) == 0 && len(s.Space.Params) == 0
	if err := s.Space.Check(s.Start); err != nil {
		return nil, err
	}
	if _, err := s.Build(s.Start); err != nil {
		return nil, err
	}
	return s, nil
}

// addParam makes the declared parameter name of the first part that declares
// it a dimension of the search, starting from its given or default value.
func (s *Setup) addParam(reg *strategies.Registry, spec, name string) error {
	for i, p := range s.parts {
		k, ok := reg.Kind(p.Kind)
		if !ok {
			return fmt.Errorf("--strategy: unknown kind %q (known: %s)", p.Kind, strings.Join(reg.Names(), ", "))
		}
		j := slices.IndexFunc(k.Params, func(d solver.Param) bool { return d.Name == name })
		if j < 0 {
			continue
		}
		d := k.Params[j]
		v, given := p.Params[name]
		if !given {
			v = d.Value
			if s.Start.Table != nil && slices.Contains(OptionNames(), name) {
				v = OptionValue(s.Start.Table.Options, name)
			}
		}
		s.Start.Params[name] = v
		s.paramPart[name] = i
		delete(s.parts[i].Params, name)
		s.Space.Params = append(s.Space.Params, d)
		return nil
	}
	return fmt.Errorf("--param %s: no kind of %q declares it", name, spec)
}

// partsWith is the strategy's parts with the tuned parameters set to params.
func (s *Setup) partsWith(params map[string]string) []strategies.Part {
	ps := make([]strategies.Part, len(s.parts))
	for i, p := range s.parts {
		ps[i] = strategies.Part{Kind: p.Kind, Params: maps.Clone(p.Params)}
	}
	for name, v := range params {
		ps[s.paramPart[name]].Params[name] = v
	}
	return ps
}

// Output is a search's result as a file says it.
type Output struct {
	// Provenance says how the result was made: the command (args, less the
	// flags that do not change the result), the search, the corpora and
	// the scores; one line a sentence.
	Provenance string
	// Table is the tuned priority table (the tuned parameters that are its
	// options folded in), when a table was tuned; nil otherwise.
	Table *strategies.Table
	// Spec is the tuned strategy spec, when no table was tuned.
	Spec string
}

// Output is the result of a search from s: res, scored on the test decks by
// rep (nil when none were), made by opt and the command line args; name
// names a tuned table.
func (s *Setup) Output(res *Result, rep *Report, opt Options, name string, args []string) Output {
	best := res.Best.Candidate
	var c strings.Builder
	fmt.Fprintf(&c, "Tuned by calcsol tune from %s (%s), seed %d, %d evaluations.\n", s.StartName, opt.Rules, opt.Seed, res.Evals)
	fmt.Fprintf(&c, "  calcsol %s\n", strings.Join(ResultArgs(args), " "))
	fmt.Fprintf(&c, "Search: iterated local search; accept: %s; best at evaluation %d.\n", opt.Accept, res.Best.Eval)
	corpusLine := func(role string, k *Corpus, startWins, bestWins, n int) {
		fmt.Fprintf(&c, "%s: %s (%s), sha256 %s\n", role, k.Name, k.About, k.Checksum)
		fmt.Fprintf(&c, "  start %s, tuned %s\n", rate(startWins, n), rate(bestWins, n))
	}
	corpusLine("training", opt.Train, res.Start.TrainWins, res.Best.TrainWins, res.TrainDecks)
	corpusLine("validation", opt.Validate, res.Start.ValWins, res.Best.ValWins, res.ValDecks)
	if rep != nil {
		fmt.Fprintf(&c, "test: %s (%s), sha256 %s\n", rep.Corpus.Name, rep.Corpus.About, rep.Corpus.Checksum)
		fmt.Fprintf(&c, "  start %d/%d = %.2f %% [%.2f, %.2f], tuned %d/%d = %.2f %% [%.2f, %.2f]\n",
			rep.Start.Wins, rep.Start.Games, 100*rep.Start.Rate, 100*rep.Start.Lo, 100*rep.Start.Hi,
			rep.Tuned.Wins, rep.Tuned.Games, 100*rep.Tuned.Rate, 100*rep.Tuned.Lo, 100*rep.Tuned.Hi)
		fmt.Fprintf(&c, "  difference %+.2f points [%+.2f, %+.2f]; McNemar exact p = %.3g\n", 100*rep.Diff, 100*rep.Lo, 100*rep.Hi, rep.Paired.P)
	}
	out := Output{Provenance: c.String()}
	if best.Table == nil {
		out.Spec = strategies.FormatSpec(s.partsWith(best.Params))
		return out
	}
	t := CloneTable(best.Table)
	for k, v := range best.Params {
		if slices.Contains(OptionNames(), k) && s.paramPart[k] == 0 {
			_ = t.Options.SetOption(k, v)
		}
	}
	t.Name = name
	t.Source = fmt.Sprintf("calcsol tune from %s, seed %d, %d evaluations", s.StartName, opt.Seed, res.Evals)
	out.Table = t
	return out
}

// SpecFile is a tuned strategy spec as a YAML file, the provenance in
// comments.
func (o Output) SpecFile() []byte {
	var b strings.Builder
	for _, line := range strings.Split(strings.TrimRight(o.Provenance, "\n"), "\n") {
		fmt.Fprintf(&b, "# %s\n", line)
	}
	fmt.Fprintf(&b, "strategy: %q\n", o.Spec)
	return []byte(b.String())
}

// rate is "wins/n = rate %".
func rate(wins, n int) string {
	return fmt.Sprintf("%d/%d = %.2f %%", wins, n, 100*float64(wins)/float64(n))
}

// optionFlags reads the --option flags, key=value each, in order.
func optionFlags(options []string) ([][2]string, error) {
	out := make([][2]string, 0, len(options))
	for _, kv := range options {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			return nil, fmt.Errorf("--option %q: want key=value", kv)
		}
		out = append(out, [2]string{strings.TrimSpace(k), strings.TrimSpace(v)})
	}
	return out, nil
}

// lastValue returns the value the last of kvs gives key.
func lastValue(kvs [][2]string, key string) (string, bool) {
	for i := len(kvs) - 1; i >= 0; i-- {
		if kvs[i][0] == key {
			return kvs[i][1], true
		}
	}
	return "", false
}
