package strategies

import (
	"context"
	"errors"
	"fmt"
	"io"
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

// PriorityParams are the priority kind's parameters: the table and the
// table options, each of which, when given, overrides what the table file
// says (nil: the table's own).
type PriorityParams struct {
	Table                 string         `param:"table" doc:"a shipped table name or a YAML file; empty: the shipped table for the number of stacks"`
	TxRespectsReservation *bool          `param:"tx_respects_reservation" default:"true" doc:"Tx is refused when a stacked card reserves the slot"`
	Check                 *CheckMode     `param:"deadlock_check" choices:"partial,exact,none" default:"partial" doc:"the check before stacking"`
	OnExhausted           *ExhaustedMode `param:"on_exhausted" choices:"lose,last-stack" default:"lose" doc:"what happens when every operation is rejected"`
	ReassignTops          *bool          `param:"reassign_tops" default:"false" doc:"a stack top its assigned table does not need may go to another table that needs it (slot not reserved)"`
}

// PriorityKind is the priority-table strategy of Nanzaki & Shintani as a kind:
// its parameters are the table (a shipped name or a file; default: the
// shipped table for the number of stacks) and the table's options, which
// override what the table file says.
func PriorityKind(load TableLoader) Kind {
	return Define("priority", "the priority table of Nanzaki & Shintani: per rank, operations tried in order",
		PriorityParams{}, func(p PriorityParams) (solver.Strategy, error) {
			return NewPriorityStrategy(load, p), nil
		})
}

// PriorityStrategy is the priority kind's solver.Strategy: it loads its table
// for the number of stacks of each session's rules.
type PriorityStrategy struct {
	load   TableLoader
	params PriorityParams

	mu     sync.Mutex
	tables map[int]*Table // by number of stacks
}

// NewPriorityStrategy returns the priority strategy for params (see
// PriorityKind); the table is loaded when a session starts.
func NewPriorityStrategy(load TableLoader, params PriorityParams) *PriorityStrategy {
	return &PriorityStrategy{load: load, params: params, tables: map[int]*Table{}}
}

// Info implements solver.Strategy.
func (s *PriorityStrategy) Info() solver.Info {
	return solver.Info{Name: "priority", Params: Declare(s.params)}
}

// Table returns the table the strategy plays with the given number of
// stacks, options applied.
func (s *PriorityStrategy) Table(stacks int) (*Table, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if t, ok := s.tables[stacks]; ok {
		return t, nil
	}
	t, err := s.load(s.params.Table, stacks)
	if err != nil {
		return nil, err
	}
	overrides := Values(s.params)
	delete(overrides, "table")
	if err := Decode(&t.Options, overrides); err != nil {
		return nil, err
	}
	s.tables[stacks] = t
	return t, nil
}

// WriteFingerprint implements Fingerprinter: the table it plays for each
// number of stacks among rules, options applied.
func (s *PriorityStrategy) WriteFingerprint(w io.Writer, rules []solver.Rules) error {
	done := map[int]bool{}
	for _, r := range rules {
		if done[r.Stacks] {
			continue
		}
		done[r.Stacks] = true
		t, err := s.Table(r.Stacks)
		if errors.Is(err, solver.ErrNotApplicable) {
			continue // it plays no game of these rules
		}
		if err != nil {
			return err
		}
		t.WriteCanonical(w)
	}
	return nil
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
	p := s.params
	p.Table = nameOrPath
	return NewPriorityStrategy(s.load, p), nil
}
