package yamldecode

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"go.yaml.in/yaml/v3"
)

type testDoc struct {
	Name    string        `yaml:"name,nonempty"`
	Seed    uint64        `yaml:"seed"`
	Count   int           `yaml:"count"`
	On      bool          `yaml:"on"`
	Wait    time.Duration `yaml:"wait"`
	Items   []testItem    `yaml:"items"`
	Tags    []string      `yaml:"tags,nonempty"`
	Raw     *yaml.Node    `yaml:"raw"`
	Odd     testOdd       `yaml:"odd"`
	Skipped string        `yaml:"-"`
}

type testItem struct {
	Line  int    `yaml:",line"`
	Stack int    `yaml:"stack"`
	Note  string `yaml:"note"`
}

// CheckYAML refuses stack 0, at the item.
func (it *testItem) CheckYAML() error {
	if it.Stack == 0 {
		return errors.New("stack: missing")
	}
	return nil
}

// testOdd is a scalar or a list, joined with ";".
type testOdd string

func (o *testOdd) DecodeYAML(n *yaml.Node) error {
	if n.Kind == yaml.ScalarNode {
		*o = testOdd(n.Value)
		return nil
	}
	var items []string
	if err := DecodeNode(n, &items); err != nil {
		return err
	}
	for i, it := range items {
		if strings.Contains(it, ";") {
			return ErrAt(n.Content[i], "", errors.New("want a plain value"))
		}
	}
	*o = testOdd(strings.Join(items, ";"))
	return nil
}

func TestDecodeYAML(t *testing.T) {
	in := "name: ' a '\nseed: 7\ncount: -3\non: true\nwait: 2ms\nitems:\n  - {stack: 1}\n  - stack: 2\n    note: x\ntags: [p, q]\nraw: {any: [thing]}\nodd: [a, b]\n"
	var got testDoc
	if err := Decode([]byte(in), "t.yaml", &got); err != nil {
		t.Fatal(err)
	}
	want := testDoc{Name: "a", Seed: 7, Count: -3, On: true, Wait: 2 * time.Millisecond,
		Items: []testItem{{Line: 7, Stack: 1}, {Line: 8, Stack: 2, Note: "x"}}, Tags: []string{"p", "q"}, Odd: "a;b"}
	if got.Raw == nil || got.Raw.Kind != yaml.MappingNode || got.Raw.Line != 11 {
		t.Errorf("raw node %+v", got.Raw)
	}
	got.Raw = nil
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestDecodeYAMLErrors(t *testing.T) {
	const keys = "name, seed, count, on, wait, items, tags, raw, odd"
	tests := []struct {
		name, in, want string
	}{
		{"empty", "", "t.yaml: empty file"},
		{"null", "~\n", "t.yaml: empty file"},
		{"syntax", "a: [", "t.yaml: yaml: "},
		{"not a mapping", "- a\n", "t.yaml:1: want a mapping of " + keys},
		{"unknown key", "seed: 1\ncolour: red\n", "t.yaml:2: colour: unknown key (want " + keys + ")"},
		{"skipped key", "Skipped: x\n", "t.yaml:1: Skipped: unknown key"},
		{"twice", "seed: 1\nname: a\nseed: 2\n", "t.yaml:3: seed: given twice"},
		{"whole number", "seed: -1\n", "t.yaml:1: seed: want a whole number ≥ 0"},
		{"integer", "count: 2.5\n", `t.yaml:1: count: "2.5" is not an integer`},
		{"integer null", "count:\n", "t.yaml:1: count: want an integer"},
		{"bool", "on: maybe\n", `t.yaml:1: on: "maybe" is not true or false`},
		{"bool list", "on: [true]\n", "t.yaml:1: on: want true or false"},
		{"duration", "wait: soon\n", "t.yaml:1: wait: want a duration like 2ms or 1s"},
		{"text", "name: {a: b}\n", "t.yaml:1: name: want a non-empty text"},
		{"empty text", "name: '  '\n", "t.yaml:1: name: want a non-empty text"},
		{"list", "tags: p\n", "t.yaml:1: tags: want a list"},
		{"list item", "tags: [p, '']\n", "t.yaml:1: tags[1]: want a non-empty text"},
		{"nested unknown key", "items:\n  - {stack: 1}\n  - stack: 2\n    colour: red\n", "t.yaml:4: items[1].colour: unknown key (want stack, note)"},
		{"misspelt key", "items:\n  - {stakc: 1}\n", "t.yaml:2: items[0].stakc: unknown key (did you mean stack? want stack, note)"},
		{"nested scalar", "items:\n  - stack: x\n", `t.yaml:2: items[0].stack: "x" is not an integer`},
		{"nested not a mapping", "items: [3]\n", "t.yaml:1: items[0]: want a mapping of stack, note"},
		{"check", "items:\n  - {stack: 1}\n  - note: x\n", "t.yaml:3: items[1]: stack: missing"},
		{"custom", "odd: [a, 'b;c']\n", "t.yaml:1: odd: want a plain value"},
		{"custom nested", "odd:\n  - a\n  - [b]\n", "t.yaml:3: odd[1]: want a text"},
		{"several, in order", "seed: x\ncount: y\n", "t.yaml:1: seed: want a whole number ≥ 0\nt.yaml:2: count: \"y\" is not an integer"},
		{"no check after an error", "items:\n  - {note: x, stack: y}\n", `t.yaml:2: items[0].stack: "y" is not an integer`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var doc testDoc
			err := Decode([]byte(tc.in), "t.yaml", &doc)
			if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
				t.Errorf("error\n%v\nwant it to begin\n%s", err, tc.want)
			}
			if tc.name != "syntax" && strings.Count(err.Error(), "\n") != strings.Count(tc.want, "\n") {
				t.Errorf("error\n%v\nwant %d lines", err, strings.Count(tc.want, "\n")+1)
			}
		})
	}
}

// Errors keep their chain: errors.As finds the place, errors.Is the reason.
func TestDecodeYAMLErrorChain(t *testing.T) {
	var doc testDoc
	err := Decode([]byte("items:\n  - {stack: 1}\n  - {note: x}\n"), "t.yaml", &doc)
	var ye *Error
	if !errors.As(err, &ye) || ye.File != "t.yaml" || ye.Line != 3 || ye.Path != "items[1]" {
		t.Errorf("%v: %+v", err, ye)
	}
	if err := Decode(nil, "t.yaml", &doc); !errors.Is(err, ErrEmpty) {
		t.Errorf("empty: %v", err)
	}
}

func TestDecodeYAMLFoldCase(t *testing.T) {
	var doc testDoc
	d := Decoder{FoldCase: true}
	if err := d.Decode([]byte("SEED: 3\n"), "t.yaml", &doc); err != nil || doc.Seed != 3 {
		t.Errorf("%v, seed %d", err, doc.Seed)
	}
	if err := d.Decode([]byte("Seed: 3\nseed: 4\n"), "t.yaml", &doc); err == nil || err.Error() != "t.yaml:2: seed: given twice" {
		t.Errorf("%v", err)
	}
}

func TestDecodeMapping(t *testing.T) {
	var n yaml.Node
	if err := yaml.Unmarshal([]byte("a: 1\nb: 2\na: 3\nc: x\n"), &n); err != nil {
		t.Fatal(err)
	}
	var got []string
	err := EachKey(n.Content[0], func(k string, v *yaml.Node) error {
		got = append(got, k+"="+v.Value)
		if v.Value == "x" {
			return errors.New("not x")
		}
		return nil
	})
	if diff := cmp.Diff([]string{"a=1", "b=2", "c=x"}, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	var doc struct {
		M testMap `yaml:"m"`
	}
	err = Decode([]byte("m:\n  a: 1\n  b: 2\n  a: 3\n  c: x\n"), "t.yaml", &doc)
	if want := "t.yaml:4: m.a: given twice\nt.yaml:5: m.c: not x"; err == nil || err.Error() != want {
		t.Errorf("error\n%v\nwant\n%s", err, want)
	}
}

// testMap reads any keys whose values are not x.
type testMap struct{}

func (*testMap) DecodeYAML(n *yaml.Node) error {
	return EachKey(n, func(_ string, v *yaml.Node) error {
		if v.Value == "x" {
			return errors.New("not x")
		}
		return nil
	})
}
