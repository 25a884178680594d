package tune

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"github.com/calcsol/calcsol/solver"
	"github.com/calcsol/calcsol/strategies"
)

// Candidate is one point of the search: a priority table, parameter values,
// or both.
type Candidate struct {
	// Table is the priority table, nil when no table is tuned.
	Table *strategies.Table
	// Params holds the value of every tuned parameter, by name.
	Params map[string]string
}

// Clone returns a deep copy of c, so that a move never changes its origin.
func (c Candidate) Clone() Candidate {
	out := Candidate{Params: make(map[string]string, len(c.Params))}
	for k, v := range c.Params {
		out.Params[k] = v
	}
	if c.Table != nil {
		out.Table = CloneTable(c.Table)
	}
	return out
}

// CloneTable returns a deep copy of t.
func CloneTable(t *strategies.Table) *strategies.Table {
	out := *t
	for k := range out.Ops {
		out.Ops[k] = slices.Clone(t.Ops[k])
	}
	return &out
}

// Text writes c canonically: per rank the operations, then the table's
// options, then the parameters sorted by name. Equal candidates, equal text.
func (c Candidate) Text() string {
	var b strings.Builder
	if t := c.Table; t != nil {
		fmt.Fprintf(&b, "stacks=%s;", t.Stacks)
		for k := solver.Rank(1); k <= solver.NumRanks; k++ {
			fmt.Fprintf(&b, "%s:%s;", k, strategies.FormatOps(t.Ops[k]))
		}
		b.WriteString(t.Options.String())
		b.WriteByte(';')
	}
	keys := make([]string, 0, len(c.Params))
	for k := range c.Params {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		fmt.Fprintf(&b, "%s=%s;", k, c.Params[k])
	}
	return b.String()
}

// Key is a short fingerprint of c (the first 16 hex digits of the SHA-256
// of its Text), used by the log to check that a resumed search replays the
// same candidates.
func (c Candidate) Key() string {
	sum := sha256.Sum256([]byte(c.Text()))
	return hex.EncodeToString(sum[:8])
}

// OptionNames lists the table options a Space may tune: those that
// strategies.Options declares, less reassign_tops, which changes which moves
// are legal for a top rather than how a table is read.
func OptionNames() []string {
	var names []string
	for _, p := range strategies.Declare(strategies.Options{}) {
		if p.Name != "reassign_tops" {
			names = append(names, p.Name)
		}
	}
	return names
}

// optionValues lists the values a move may give the table option name, as
// its declaration says.
func optionValues(name string) []string {
	for _, p := range strategies.Declare(strategies.Options{}) {
		if p.Name == name && p.Kind == solver.ParamBool {
			return []string{"true", "false"}
		}
		if p.Name == name {
			return p.Choices
		}
	}
	return nil
}

func optionValue(o strategies.Options, name string) string { return strategies.Values(o)[name] }

// Space is what the search may change, and how: its neighbourhood.
//
// The moves on a priority table (when Ops is set) are those on one rank's
// list of operations: swap two operations, move one to another place,
// insert an operation of the allowed set (Allowed) that the list lacks, or
// drop one. Besides, a move may change one of the table options named in
// Options, or one declared parameter in Params: a bool is flipped, a choice
// takes another value, an int or float steps by up to a tenth of its range.
// Every move gives a table that Validate accepts under Rules (a drop that
// would leave a stack unused is not made).
type Space struct {
	Rules solver.Rules
	Ops   bool
	// Extended adds calcsol's fit and empty-stack operations (F1–F4,
	// E1–E4) to the operations an insert may choose (Allowed).
	Extended bool
	Options  []string       // table options moves may change (OptionNames)
	Params   []solver.Param // declared parameters to tune (not ParamText)
}

// Check reports whether the space can move start at all, and whether start
// fits it.
func (s *Space) Check(start Candidate) error {
	if !s.Ops && len(s.Options) == 0 && len(s.Params) == 0 {
		return fmt.Errorf("nothing to tune: give a table, options or parameters")
	}
	if (s.Ops || len(s.Options) > 0) && start.Table == nil {
		return fmt.Errorf("tuning a table's operations or options needs a start table")
	}
	if start.Table != nil {
		if err := start.Table.Validate(s.Rules); err != nil {
			return err
		}
	}
	for _, o := range s.Options {
		if !slices.Contains(OptionNames(), o) {
			return fmt.Errorf("unknown table option %q (want %s)", o, strings.Join(OptionNames(), ", "))
		}
	}
	for _, p := range s.Params {
		switch p.Kind {
		case solver.ParamText:
			return fmt.Errorf("parameter %s is text: only bool, int, float and choice parameters can be tuned", p.Name)
		case solver.ParamInt, solver.ParamFloat:
			if !(p.Min < p.Max) || math.IsInf(p.Max-p.Min, 0) {
				return fmt.Errorf("parameter %s: bounds [%g, %g] do not make a range to search", p.Name, p.Min, p.Max)
			}
		case solver.ParamChoice:
			if len(p.Choices) < 2 {
				return fmt.Errorf("parameter %s has fewer than two choices", p.Name)
			}
		}
		if _, ok := start.Params[p.Name]; !ok {
			return fmt.Errorf("parameter %s has no start value", p.Name)
		}
		if err := strategies.CheckValue(p, start.Params[p.Name]); err != nil {
			return err
		}
	}
	return nil
}

// Allowed returns the operations a table for stacks may hold: T1–T4,
// N1–N4, with extended F1–F4 and E1–E4, then each stack with each table, in
// that order.
func Allowed(stacks string, extended bool) []strategies.Op {
	kinds := []strategies.OpKind{strategies.OpTable, strategies.OpChain}
	if extended {
		kinds = append(kinds, strategies.OpFit, strategies.OpEmpty)
	}
	var ops []strategies.Op
	for _, k := range kinds {
		for x := 1; x <= solver.Tables; x++ {
			ops = append(ops, strategies.Op{Kind: k, Table: x})
		}
	}
	for i := 0; i < len(stacks); i++ {
		for x := 1; x <= solver.Tables; x++ {
			ops = append(ops, strategies.Op{Kind: strategies.OpStack, Table: x, Stack: stacks[i]})
		}
	}
	return ops
}

// moveKind is one kind of move of a space.
type moveKind struct {
	name  string // swap, move, insert, drop, option, param
	which string // the option's or parameter's name
}

func (s *Space) kinds() []moveKind {
	var ks []moveKind
	if s.Ops {
		ks = append(ks, moveKind{name: "swap"}, moveKind{name: "move"}, moveKind{name: "insert"}, moveKind{name: "drop"})
	}
	for _, o := range s.Options {
		ks = append(ks, moveKind{name: "option", which: o})
	}
	for _, p := range s.Params {
		ks = append(ks, moveKind{name: "param", which: p.Name})
	}
	return ks
}

// maxTries bounds the attempts to draw a move that applies and gives a
// valid table; a space in which no move applies is an error.
const maxTries = 1000

// Neighbour returns a random neighbour of c, one move away, and the move in
// words ("swap K: C1 T1"). It draws only from rng.
func (s *Space) Neighbour(rng *rand.Rand, c Candidate) (Candidate, string, error) {
	ks := s.kinds()
	if len(ks) == 0 {
		return Candidate{}, "", fmt.Errorf("nothing to tune")
	}
	for range maxTries {
		k := ks[rng.IntN(len(ks))]
		n := c.Clone()
		desc, ok := s.apply(rng, k, &n)
		if !ok {
			continue
		}
		if n.Table != nil {
			if err := n.Table.Validate(s.Rules); err != nil {
				continue
			}
		}
		return n, desc, nil
	}
	return Candidate{}, "", fmt.Errorf("no move applies to this candidate in %d tries", maxTries)
}

// Kick returns c after n random moves (the perturbation of iterated local
// search), the moves joined by "; ".
func (s *Space) Kick(rng *rand.Rand, c Candidate, n int) (Candidate, string, error) {
	var descs []string
	for range n {
		var d string
		var err error
		c, d, err = s.Neighbour(rng, c)
		if err != nil {
			return Candidate{}, "", err
		}
		descs = append(descs, d)
	}
	return c, strings.Join(descs, "; "), nil
}

// apply makes move k on n in place; false when it does not apply.
func (s *Space) apply(rng *rand.Rand, k moveKind, n *Candidate) (string, bool) {
	switch k.name {
	case "option":
		vals := optionValues(k.which)
		cur := optionValue(n.Table.Options, k.which)
		v := otherValue(rng, vals, cur)
		if err := n.Table.Options.SetOption(k.which, v); err != nil {
			return "", false
		}
		return fmt.Sprintf("option %s=%s", k.which, v), true
	case "param":
		i := slices.IndexFunc(s.Params, func(p solver.Param) bool { return p.Name == k.which })
		p := s.Params[i]
		v, ok := stepParam(rng, p, n.Params[p.Name])
		if !ok {
			return "", false
		}
		n.Params[p.Name] = v
		return fmt.Sprintf("param %s=%s", p.Name, v), true
	}
	t := n.Table
	r := solver.Rank(1 + rng.IntN(solver.NumRanks))
	ops := t.Ops[r]
	switch k.name {
	case "swap":
		if len(ops) < 2 {
			return "", false
		}
		i, j := twoIndices(rng, len(ops))
		ops[i], ops[j] = ops[j], ops[i]
		return fmt.Sprintf("swap %s: %s %s", r, ops[j], ops[i]), true
	case "move":
		if len(ops) < 2 {
			return "", false
		}
		i, j := twoIndices(rng, len(ops))
		op := ops[i]
		ops = slices.Delete(ops, i, i+1)
		ops = slices.Insert(ops, j, op)
		t.Ops[r] = ops
		return fmt.Sprintf("move %s: %s from %d to %d", r, op, i+1, j+1), true
	case "insert":
		var missing []strategies.Op
		for _, op := range Allowed(t.Stacks, s.Extended) {
			if !slices.Contains(ops, op) {
				missing = append(missing, op)
			}
		}
		if len(missing) == 0 {
			return "", false
		}
		op := missing[rng.IntN(len(missing))]
		j := rng.IntN(len(ops) + 1)
		t.Ops[r] = slices.Insert(ops, j, op)
		return fmt.Sprintf("insert %s: %s at %d", r, op, j+1), true
	case "drop":
		if len(ops) < 2 {
			return "", false
		}
		i := rng.IntN(len(ops))
		op := ops[i]
		t.Ops[r] = slices.Delete(ops, i, i+1)
		return fmt.Sprintf("drop %s: %s at %d", r, op, i+1), true
	}
	return "", false
}

// twoIndices draws i != j from 0..n-1, n >= 2.
func twoIndices(rng *rand.Rand, n int) (int, int) {
	i := rng.IntN(n)
	j := rng.IntN(n - 1)
	if j >= i {
		j++
	}
	return i, j
}

// otherValue draws a value of vals other than cur.
func otherValue(rng *rand.Rand, vals []string, cur string) string {
	var others []string
	for _, v := range vals {
		if v != cur {
			others = append(others, v)
		}
	}
	return others[rng.IntN(len(others))]
}

// stepParam draws a new value for p near cur: a bool flips, a choice takes
// another value, an int moves by 1 up to a tenth of its range, a float by a
// uniform step of up to a tenth of its range (rounded to 4 significant
// digits, so that logs and YAML stay readable); both stay within bounds.
func stepParam(rng *rand.Rand, p solver.Param, cur string) (string, bool) {
	switch p.Kind {
	case solver.ParamBool:
		if cur == "true" {
			return "false", true
		}
		return "true", true
	case solver.ParamChoice:
		return otherValue(rng, p.Choices, cur), true
	case solver.ParamInt:
		v, err := strconv.ParseInt(cur, 10, 64)
		if err != nil {
			return "", false
		}
		maxStep := max(int64((p.Max-p.Min)/10), 1)
		d := 1 + rng.Int64N(maxStep)
		if rng.IntN(2) == 0 {
			d = -d
		}
		n := min(max(v+d, int64(math.Ceil(p.Min))), int64(math.Floor(p.Max)))
		if n == v {
			return "", false
		}
		return strconv.FormatInt(n, 10), true
	case solver.ParamFloat:
		v, err := strconv.ParseFloat(cur, 64)
		if err != nil {
			return "", false
		}
		d := (p.Max - p.Min) / 10 * (2*rng.Float64() - 1)
		n := min(max(v+d, p.Min), p.Max)
		n, _ = strconv.ParseFloat(strconv.FormatFloat(n, 'g', 4, 64), 64)
		n = min(max(n, p.Min), p.Max)
		if n == v {
			return "", false
		}
		return strconv.FormatFloat(n, 'g', -1, 64), true
	}
	return "", false
}

// OptionValue returns the value of the table option name in o, as written
// in a table file ("" for an unknown name).
func OptionValue(o strategies.Options, name string) string { return optionValue(o, name) }
