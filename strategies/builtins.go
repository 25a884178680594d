package strategies

import (
	"context"
	"fmt"
	"sync"

	"github.com/calcsol/calcsol/solver"
)

// TableLoader loads a priority table by shipped name or file path; an empty
// name means the shipped table for the given number of stacks, and when
// there is none the error wraps solver.ErrNotApplicable. Package configs
// provides the loader of the shipped tables.
type TableLoader func(nameOrPath string, stacks int) (*Table, error)

// Builtins returns a registry holding the strategies built into calcsol:
// the priority table (its tables read through load), and the random and
// greedy baselines.
func Builtins(load TableLoader) *Registry {
	r := NewRegistry()
	r.MustRegister(PriorityKind(load))
	r.MustRegister(RandomKind())
	r.MustRegister(GreedyKind())
	return r
}

// PriorityKind is the priority-table strategy of Nanzaki & Shintani as a kind:
// its parameters are the table (a shipped name or a file; default: the
// shipped table for the number of stacks) and the table's options, which
// override what the table file says.
func PriorityKind(load TableLoader) Kind {
	def := DefaultOptions()
	return Kind{
		Name: "priority",
		Doc:  "the priority table of Nanzaki & Shintani: per rank, operations tried in order",
		Params: []solver.Param{
			{Name: "table", Kind: solver.ParamText, Doc: "a shipped table name or a YAML file; empty: the shipped table for the number of stacks"},
			{Name: "tx_respects_reservation", Kind: solver.ParamBool, Value: fmt.Sprint(def.TxRespectsReservation), Doc: "Tx is refused when a stacked card reserves the slot"},
			{Name: "deadlock_check", Kind: solver.ParamChoice, Value: string(def.Check), Choices: []string{string(CheckPartial), string(CheckExact), string(CheckNone)}, Doc: "the check before stacking"},
			{Name: "on_exhausted", Kind: solver.ParamChoice, Value: string(def.OnExhausted), Choices: []string{string(ExhaustLose), string(ExhaustLastStack)}, Doc: "what happens when every operation is rejected"},
			{Name: "reassign_tops", Kind: solver.ParamBool, Value: fmt.Sprint(def.ReassignTops), Doc: "a stack top its assigned table does not need may go to another table that needs it (slot not reserved)"},
		},
		Build: func(params map[string]string) (solver.Strategy, error) {
			return NewPriorityStrategy(load, params)
		},
	}
}

// PriorityStrategy is the priority kind's solver.Strategy: it loads its table
// for the number of stacks of each session's rules.
type PriorityStrategy struct {
	load      TableLoader
	table     string
	overrides map[string]string
	params    []solver.Param

	mu     sync.Mutex
	tables map[int]*Table // by number of stacks
}

// NewPriorityStrategy returns the priority strategy for params (see
// PriorityKind); the table is loaded when a session starts.
func NewPriorityStrategy(load TableLoader, params map[string]string) (*PriorityStrategy, error) {
	s := &PriorityStrategy{load: load, table: params["table"], overrides: map[string]string{}, tables: map[int]*Table{}}
	for k, v := range params {
		if k == "table" {
			continue
		}
		var o Options
		if err := o.SetOption(k, v); err != nil {
			return nil, err
		}
		s.overrides[k] = v
	}
	s.params = WithValues(PriorityKind(load).Params, params)
	return s, nil
}

// Info implements solver.Strategy.
func (s *PriorityStrategy) Info() solver.Info {
	return solver.Info{Name: "priority", Params: s.params}
}

// Table returns the table the strategy plays with the given number of
// stacks, options applied.
func (s *PriorityStrategy) Table(stacks int) (*Table, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if t, ok := s.tables[stacks]; ok {
		return t, nil
	}
	t, err := s.load(s.table, stacks)
	if err != nil {
		return nil, err
	}
	for k, v := range s.overrides {
		if err := t.Options.SetOption(k, v); err != nil {
			return nil, err
		}
	}
	s.tables[stacks] = t
	return t, nil
}

// Start implements solver.Strategy. A table written for other stacks than
// the rules' is not applicable (widen it with Derive).
func (s *PriorityStrategy) Start(_ context.Context, r solver.Rules) (solver.Session, error) {
	if err := r.Validate(); err != nil {
		return nil, err
	}
	t, err := s.Table(r.Stacks)
	if err != nil {
		return nil, err
	}
	if len(t.Stacks) != r.Stacks {
		return nil, fmt.Errorf("table %s is for %d stacks: %w", t.Name, len(t.Stacks), solver.ErrNotApplicable)
	}
	p, err := NewPriority(t, r)
	if err != nil {
		return nil, err
	}
	return &solver.ChooserSession{C: p}, nil
}

// Label names the strategy in reports: "priority/TABLE" plus the options
// that differ from the defaults.
func (s *PriorityStrategy) Label(stacks int) string {
	t, err := s.Table(stacks)
	if err != nil {
		return "priority"
	}
	label := "priority/" + t.Name
	if diff := t.Options.Diff(DefaultOptions()); diff != "" {
		label += " (" + diff + ")"
	}
	return label
}

// WithTable returns the priority strategy with the table nameOrPath instead
// of s's, and s's options: the same player with another table.
func (s *PriorityStrategy) WithTable(nameOrPath string) (solver.Strategy, error) {
	params := map[string]string{"table": nameOrPath}
	for k, v := range s.overrides {
		params[k] = v
	}
	return NewPriorityStrategy(s.load, params)
}
