// Package configs holds the YAML files shipped with calcsol (embedded in the
// binary) and the loaders that turn YAML into the domain's types, with errors
// that name the file, the line and the reason.
package configs

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/calcsol/calcsol/configs/yamldecode"
	"github.com/calcsol/calcsol/solver"
	"github.com/calcsol/calcsol/strategies"
)

//go:embed priority/*.yaml
var priorityFS embed.FS

// DefaultPriority is the name of Table 1 of Nanzaki & Shintani [NanzakiShintani].
const DefaultPriority = "nanzaki-shintani"

// PriorityNames lists the embedded priority tables.
func PriorityNames() []string {
	entries, _ := fs.ReadDir(priorityFS, "priority")
	var names []string
	for _, e := range entries {
		names = append(names, strings.TrimSuffix(e.Name(), ".yaml"))
	}
	sort.Strings(names)
	return names
}

// DefaultPriorityFor returns the name of the shipped table for the given
// number of stacks: Table 1 for 3, its derived form for 4; "" for others.
func DefaultPriorityFor(stacks int) string {
	switch stacks {
	case 3:
		return DefaultPriority
	case 4:
		return DefaultPriority + "-4"
	}
	return ""
}

// LoadPriority reads a priority table: the path of a YAML file, or the name
// of an embedded table (see PriorityNames). An existing file wins over a
// shipped name.
func LoadPriority(nameOrPath string) (*strategies.Table, error) {
	if st, err := os.Stat(nameOrPath); err == nil && !st.IsDir() {
		data, err := os.ReadFile(nameOrPath)
		if err != nil {
			return nil, err
		}
		return parseFileTable(data, nameOrPath)
	}
	if !strings.ContainsAny(nameOrPath, "/\\") && !strings.HasSuffix(nameOrPath, ".yaml") && !strings.HasSuffix(nameOrPath, ".yml") {
		data, err := priorityFS.ReadFile(path.Join("priority", nameOrPath+".yaml"))
		if err != nil {
			return nil, fmt.Errorf("no priority table named %q (shipped: %s; or give a file path)", nameOrPath, strings.Join(PriorityNames(), ", "))
		}
		return ParsePriority(data, nameOrPath+".yaml")
	}
	data, err := os.ReadFile(nameOrPath)
	if err != nil {
		return nil, err
	}
	return parseFileTable(data, nameOrPath)
}

// parseFileTable reads a table from a file. A file that calls itself by a
// shipped table's name (a copy made with 'calcsol table show > mine.yaml')
// but plays differently is renamed after the file and its content,
// "mine@1a2b3c4d", so that reports never label an edited table as the
// shipped one.
func parseFileTable(data []byte, file string) (*strategies.Table, error) {
	t, err := ParsePriority(data, file)
	if err != nil {
		return nil, err
	}
	if !slices.Contains(PriorityNames(), t.Name) {
		return t, nil
	}
	shipped, err := LoadPriority(t.Name)
	if err != nil {
		return nil, err
	}
	mine := FormatPriority(t, "")
	if bytes.Equal(mine, FormatPriority(shipped, "")) {
		return t, nil
	}
	sum := sha256.Sum256(mine)
	t.Name = fmt.Sprintf("%s@%x", strings.TrimSuffix(path.Base(file), path.Ext(file)), sum[:4])
	return t, nil
}

// ParsePriority reads a priority table from YAML; file names it in errors.
//
// The format (configs/priority/nanzaki-shintani.yaml is the reference):
//
//	name: my-table
//	source: where it comes from
//	stacks: ZXC
//	options: {tx_respects_reservation: true, deadlock_check: partial, on_exhausted: lose}
//	ranks:
//	  - {rank: A, ops: "T1 T2 N4 ..."}
//
// Ranks are a list, not a map keyed by rank, because viper and YAML tooling
// lower-case or retype keys (see docs/priority.md).
func ParsePriority(data []byte, file string) (*strategies.Table, error) {
	f := priorityFile{Options: tableOptions(strategies.DefaultOptions())}
	if err := yamldecode.Decode(data, file, &f); err != nil {
		return nil, err
	}
	t := &strategies.Table{Name: f.Name, Source: f.Source, Stacks: string(f.Stacks), Options: strategies.Options(f.Options), Ops: f.ops}
	if t.Name == "" {
		t.Name = strings.TrimSuffix(path.Base(file), path.Ext(file))
	}
	return t, nil
}

// priorityFile is a priority table file as yamldecode.Decode reads it.
type priorityFile struct {
	Name    string       `yaml:"name"`
	Source  string       `yaml:"source"`
	Stacks  tableStacks  `yaml:"stacks"`
	Options tableOptions `yaml:"options"`
	Ranks   *rankList    `yaml:"ranks"`
	ops     [solver.NumRanks + 1][]strategies.Op
}

// CheckYAML reads each rank's operations, which need the stacks.
func (f *priorityFile) CheckYAML() error {
	if f.Stacks == "" {
		return yamldecode.ErrAt(nil, "stacks", errors.New("missing (the stack names the table uses, like ZXC)"))
	}
	if f.Ranks == nil {
		return yamldecode.ErrAt(nil, "ranks", errors.New(`missing: a list of {rank: A, ops: "T1 ..."}`))
	}
	for i, e := range f.Ranks.entries {
		var text string
		err := yamldecode.DecodeNode(e.Ops, &text)
		if err == nil {
			f.ops[e.Rank], err = strategies.ParseOps(text, string(f.Stacks))
			if err != nil {
				err = yamldecode.ErrAt(e.Ops, "", fmt.Errorf("rank %s: %w", solver.Rank(e.Rank), err))
			}
		}
		if err != nil {
			return yamldecode.Under(fmt.Sprintf("ranks[%d].ops", i), err)
		}
	}
	for k := solver.Rank(1); k <= solver.NumRanks; k++ {
		if f.ops[k] == nil {
			return &yamldecode.Error{Line: f.Ranks.line, Path: "ranks", Err: fmt.Errorf("rank %s is missing", k)}
		}
	}
	return nil
}

// tableStacks are the stack names of a table, in order ("ZXC").
type tableStacks string

func (s *tableStacks) DecodeYAML(n *yaml.Node) error {
	if n.Kind != yaml.ScalarNode || yamldecode.Text(n) == "" {
		return errors.New("want the stack names in order, like ZXC")
	}
	r := solver.Rules{Stacks: len(n.Value), Names: n.Value}
	if err := r.Validate(); err != nil {
		return fmt.Errorf("%q: %w", n.Value, err)
	}
	*s = tableStacks(n.Value)
	return nil
}

// tableOptions are a table's options, each set by its name.
type tableOptions strategies.Options

func (o *tableOptions) DecodeYAML(n *yaml.Node) error {
	return yamldecode.EachKey(n, func(name string, v *yaml.Node) error {
		var s string
		if err := yamldecode.DecodeNode(v, &s); err != nil {
			return err
		}
		return (*strategies.Options)(o).SetOption(name, s)
	})
}

// rankList is the ranks of a table, each once, with its operations as
// written (they are read once the stacks are known, and then every rank
// must have them).
type rankList struct {
	entries []rankEntry
	line    int
}

type rankEntry struct {
	Line int        `yaml:",line"`
	Rank rankValue  `yaml:"rank"`
	Ops  *yaml.Node `yaml:"ops"`
}

func (e *rankEntry) CheckYAML() error {
	if e.Rank == 0 || e.Ops == nil {
		return errors.New("want both rank and ops")
	}
	return nil
}

func (l *rankList) DecodeYAML(n *yaml.Node) error {
	if err := yamldecode.DecodeNode(n, &l.entries); err != nil {
		return err
	}
	seen := map[rankValue]bool{}
	for i, e := range l.entries {
		if seen[e.Rank] {
			return &yamldecode.Error{Line: e.Line, Path: fmt.Sprintf("[%d].rank", i), Err: fmt.Errorf("rank %s given twice", solver.Rank(e.Rank))}
		}
		seen[e.Rank] = true
	}
	l.line = n.Line
	return nil
}

// rankValue is a rank written as one character: A23456789 0/T JQK.
type rankValue solver.Rank

func (r *rankValue) DecodeYAML(n *yaml.Node) error {
	s := yamldecode.Text(n)
	if len(s) != 1 {
		return fmt.Errorf("rank %q: want one of A23456789 0/T JQK", s)
	}
	x, err := solver.ParseRank(s[0])
	*r = rankValue(x)
	return err
}

// FormatPriority writes t in the format ParsePriority reads, comment first
// as '#' lines. Every value goes through the YAML encoder, so a name like
// "a: b" or "x # y" reads back as written.
func FormatPriority(t *strategies.Table, comment string) []byte {
	scalar := func(v string, style yaml.Style) *yaml.Node {
		return &yaml.Node{Kind: yaml.ScalarNode, Value: v, Style: style}
	}
	mapping := func(style yaml.Style, kv ...*yaml.Node) *yaml.Node {
		return &yaml.Node{Kind: yaml.MappingNode, Style: style, Content: kv}
	}
	key := func(k string) *yaml.Node { return scalar(k, 0) }
	ranks := &yaml.Node{Kind: yaml.SequenceNode}
	for k := solver.Rank(1); k <= solver.NumRanks; k++ {
		ranks.Content = append(ranks.Content, mapping(yaml.FlowStyle,
			key("rank"), scalar(k.String(), 0),
			key("ops"), scalar(strategies.FormatOps(t.Ops[k]), yaml.DoubleQuotedStyle)))
	}
	options := mapping(0,
		key("tx_respects_reservation"), scalar(fmt.Sprint(t.Options.TxRespectsReservation), 0),
		key("deadlock_check"), scalar(fmt.Sprint(t.Options.Check), 0),
		key("on_exhausted"), scalar(fmt.Sprint(t.Options.OnExhausted), 0))
	if t.Options.ReassignTops { // written only when set: older files and readers know no such key
		options.Content = append(options.Content, key("reassign_tops"), scalar("true", 0))
	}
	doc := mapping(0,
		key("name"), scalar(t.Name, 0),
		key("source"), scalar(t.Source, yaml.DoubleQuotedStyle),
		key("stacks"), scalar(t.Stacks, 0),
		key("options"), options,
		key("ranks"), ranks)
	var b bytes.Buffer
	for _, line := range strings.Split(strings.TrimRight(comment, "\n"), "\n") {
		if line != "" {
			fmt.Fprintf(&b, "# %s\n", line)
		}
	}
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(doc); err != nil {
		panic(fmt.Sprintf("configs: encoding a priority table: %v", err)) // only plain strings: cannot fail
	}
	enc.Close()
	return b.Bytes()
}

// DeriveComment is the header of a table made by strategies.Derive: how it
// was made, so that the file says it is not the paper's.
func DeriveComment(t *strategies.Table, r solver.Rules) string {
	return fmt.Sprintf(`Derived from %s for %d stacks by
  calcsol table derive --from %s --stacks %d --out FILE
strategies.Derive keeps the last (king) stack last and makes each new stack
repeat the operations of the stack before it. A mechanical extension of the
paper's 3-stack table, not a tuned one.`, t.Name, r.Stacks, t.Name, r.Stacks)
}

// DerivePriority widens the table from names (a shipped name or a file) to
// r's stacks with strategies.Derive: the file "calcsol table derive" writes,
// headed by DeriveComment.
func DerivePriority(from string, r solver.Rules) ([]byte, error) {
	t, err := LoadPriority(from)
	if err != nil {
		return nil, err
	}
	d, err := strategies.Derive(t, r)
	if err != nil {
		return nil, err
	}
	return FormatPriority(d, DeriveComment(t, r)), nil
}

// CheckPriority loads the table nameOrPath names and checks that it fits
// r: what "calcsol table check" reports.
func CheckPriority(nameOrPath string, r solver.Rules) (*strategies.Table, error) {
	t, err := LoadPriority(nameOrPath)
	if err != nil {
		return nil, err
	}
	return t, t.Validate(r)
}

// LoadPriorityFor is the strategies.TableLoader of the shipped tables: the
// table nameOrPath names, or, if it is empty, the shipped table for the
// number of stacks (an error wrapping solver.ErrNotApplicable when none is
// shipped for that many).
func LoadPriorityFor(nameOrPath string, stacks int) (*strategies.Table, error) {
	if nameOrPath == "" {
		nameOrPath = DefaultPriorityFor(stacks)
		if nameOrPath == "" {
			return nil, noTable{stacks}
		}
	}
	return LoadPriority(nameOrPath)
}

// Strategies returns the registry of the strategies built into calcsol,
// priority tables read by LoadPriorityFor, with the shipped presets (some
// of whose layers are kinds registered later: the searching players), and
// each shipped table's name as a preset of the priority strategy playing
// it (tuned-3 is priority:table=tuned-3).
func Strategies() *strategies.Registry {
	r := strategies.Builtins(LoadPriorityFor)
	for _, name := range PriorityNames() {
		p := strategies.Preset{Name: name, Spec: "priority:table=" + name,
			Doc: "the priority strategy with the shipped table " + name + " (calcsol table show " + name + ")"}
		if err := r.RegisterPreset(p); err != nil {
			panic(fmt.Sprintf("configs: table %s: %v", name, err)) // shipped: a test builds them
		}
	}
	for _, p := range Presets() {
		if err := r.RegisterPreset(p); err != nil {
			panic(fmt.Sprintf("configs/presets.yaml: %v", err)) // shipped: a test reads it
		}
	}
	return r
}

//go:embed presets.yaml
var presetsYAML []byte

// Presets returns the shipped presets (configs/presets.yaml), read once.
func Presets() []strategies.Preset { return slices.Clone(shippedPresets()) }

var shippedPresets = sync.OnceValue(func() []strategies.Preset {
	var entries []struct {
		Name     string        `yaml:"name"`
		Rules    string        `yaml:"rules"`
		Doc      string        `yaml:"doc"`
		Measured string        `yaml:"measured"`
		Cost     time.Duration `yaml:"cost"`
		Spec     string        `yaml:"spec"`
	}
	if err := yamldecode.Decode(presetsYAML, "configs/presets.yaml", &entries); err != nil {
		panic(err) // shipped: a test reads it
	}
	ps := make([]strategies.Preset, len(entries))
	for i, e := range entries {
		ps[i] = strategies.Preset{Name: e.Name, Spec: e.Spec, Rules: e.Rules, Doc: e.Doc, Measured: e.Measured, Cost: e.Cost}
	}
	return ps
})

// noTable is the error for a number of stacks no shipped table serves: it
// is solver.ErrNotApplicable, and says what works instead.
type noTable struct{ stacks int }

func (e noTable) Error() string { return noTableHint(e.stacks) }
func (e noTable) Unwrap() error { return solver.ErrNotApplicable }

// noTableHint says why no shipped table fits the number of stacks and what
// works instead: a table can be widened to more stacks, never narrowed
// (every operation on a stack that is gone would have to be dropped, which
// changes what the table means).
func noTableHint(stacks int) string {
	if stacks > 4 {
		return fmt.Sprintf("no shipped priority table for %d stacks; widen Table 1 with 'calcsol table derive --stacks %d --out table-%d.yaml' and give it with --table table-%d.yaml", stacks, stacks, stacks, stacks)
	}
	return fmt.Sprintf("no priority table for %d %s: the shipped tables are for 3 and 4 stacks, and a table can be widened to more stacks (calcsol table derive) but not narrowed to fewer; write one for %d with --table FILE (see docs/priority.md)", stacks, plural(stacks, "stack", "stacks"), stacks)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
