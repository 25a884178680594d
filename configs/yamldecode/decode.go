// Package yamldecode is the one way calcsol reads YAML: a document decoded
// into a typed struct by its yaml tags, with KnownFields semantics (a key
// the struct does not name is refused, and so is a key given twice), and
// every error in the form FILE:LINE: KEY.PATH: reason. It imports nothing
// of calcsol's, so that every package that reads YAML (configs, tune) can
// use it.
package yamldecode

import (
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/calcsol/calcsol/internal/suggest"
)

// Error is an error at one place of a YAML document: the file, the
// line, the key path ("strategies[0].base") and the reason. Line 0 and an
// empty path are left out of the message.
type Error struct {
	File string
	Line int
	Path string
	Err  error
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d", e.Line)
	}
	b.WriteString(": ")
	if e.Path != "" {
		b.WriteString(e.Path + ": ")
	}
	b.WriteString(e.Err.Error())
	return b.String()
}

func (e *Error) Unwrap() error { return e.Err }

// errorList are the errors of one document, in document order, one a line.
type errorList []*Error

func (es errorList) Error() string {
	lines := make([]string, len(es))
	for i, e := range es {
		lines[i] = e.Error()
	}
	return strings.Join(lines, "\n")
}

func (es errorList) Unwrap() []error {
	out := make([]error, len(es))
	for i, e := range es {
		out[i] = e
	}
	return out
}

// Decode decodes the YAML document data into v, a pointer, by v's yaml
// struct tags (a tag's name is the key; a field without one is keyed by
// its name in lower case; "-" skips it). Unknown keys and keys given twice
// are refused; file names the document in errors, each a *Error (several
// are joined, one a line). An empty document is the error "FILE: empty file"
// (errors.Is(err, ErrEmpty)).
//
// Beyond yaml.v3's tags, a field may say:
//   - `yaml:",line"` (an int): the line where the value of its struct
//     begins, its key's or, in a list or at the top, its own;
//   - `yaml:"key,nonempty"` (a string or list of strings): trimmed and
//     refused when empty.
//
// A *yaml.Node or yaml.Node field keeps the node as it is, for a reading
// of its own.
func Decode(data []byte, file string, v any) error {
	return Decoder{}.Decode(data, file, v)
}

// ErrEmpty is the reason Decode gives for an empty document.
var ErrEmpty = errors.New("empty file")

// A Value reads itself from a node in its own way: a value that may be
// a scalar or a mapping, or a list joined into one text. Its error, unless
// a *Error placed by ErrAt or DecodeNode (whose line and path are
// relative to n), is put at the value's line and key.
type Value interface {
	DecodeYAML(n *yaml.Node) error
}

// A Checker checks a struct once all its keys have decoded without an
// error; the error is put at the struct's line and key unless it is placed
// with ErrAt.
type Checker interface {
	CheckYAML() error
}

// ErrAt is an error at node n (nil: at the value being decoded), under
// key, a path relative to that value ("base", "[2]", "" for the value
// itself).
func ErrAt(n *yaml.Node, key string, err error) error {
	line := 0
	if n != nil {
		line = n.Line
	}
	return &Error{Line: line, Path: key, Err: err}
}

// DecodeNode decodes n into v for a Value, with errors relative to n.
func DecodeNode(n *yaml.Node, v any) error {
	d := &Decoder{}
	d.value(n, "", n.Line, reflect.ValueOf(v).Elem(), false)
	return d.result("")
}

// EachKey calls each for the keys of mapping n in order, refusing a
// key given twice and placing each's error under its key.
func EachKey(n *yaml.Node, each func(key string, v *yaml.Node) error) error {
	d := &Decoder{}
	if n.Kind != yaml.MappingNode {
		return ErrAt(n, "", errors.New("want a mapping"))
	}
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if seen[k.Value] {
			d.fail(k.Line, k.Value, "given twice")
			continue
		}
		seen[k.Value] = true
		d.add(each(k.Value, v), k.Value, k.Line)
	}
	return d.result("")
}

// Decoder decodes documents as Decode does, with options; it walks a node
// tree into a Go value, collecting every error.
type Decoder struct {
	// FoldCase matches keys to tags case-insensitively ("CUT" is cut);
	// messages use the tag's spelling.
	FoldCase bool
	errs     []*Error
}

// Decode decodes data into v as the package's Decode does.
func (d Decoder) Decode(data []byte, file string, v any) error {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return fmt.Errorf("%s: %w", file, err)
	}
	if len(doc.Content) == 0 || IsNull(doc.Content[0]) {
		return &Error{File: file, Err: ErrEmpty}
	}
	root := doc.Content[0]
	d.value(root, "", root.Line, reflect.ValueOf(v).Elem(), false)
	return d.result(file)
}

func (d *Decoder) result(file string) error {
	for _, e := range d.errs {
		if e.File == "" {
			e.File = file
		}
	}
	switch len(d.errs) {
	case 0:
		return nil
	case 1:
		return d.errs[0]
	}
	return errorList(d.errs)
}

func (d *Decoder) fail(line int, path, reason string) {
	d.errs = append(d.errs, &Error{Line: line, Path: path, Err: errors.New(reason)})
}

// add records err at path and line; a *Error (or several) from a
// Value or Checker has its path and line relative to there.
func (d *Decoder) add(err error, path string, line int) {
	var rel []*Error
	switch e := err.(type) {
	case nil:
		return
	case *Error:
		rel = []*Error{e}
	case errorList:
		rel = e
	default:
		d.errs = append(d.errs, &Error{Line: line, Path: path, Err: err})
		return
	}
	for _, e := range rel {
		e.Path = JoinPath(path, e.Path)
		if e.Line == 0 {
			e.Line = line
		}
		d.errs = append(d.errs, e)
	}
}

func JoinPath(path, rel string) string {
	switch {
	case rel == "":
		return path
	case path == "" || strings.HasPrefix(rel, "["):
		return path + rel
	}
	return path + "." + rel
}

func IsNull(n *yaml.Node) bool { return n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null" }

var (
	nodeType     = reflect.TypeFor[yaml.Node]()
	durationType = reflect.TypeFor[time.Duration]()
)

// value decodes n into v; line is where the value begins (its key's line,
// or its own in a list or at the top), where its errors are put.
func (d *Decoder) value(n *yaml.Node, path string, line int, v reflect.Value, nonempty bool) {
	switch {
	case v.Type() == nodeType:
		v.Set(reflect.ValueOf(*n))
		return
	case v.Kind() == reflect.Pointer && v.Type().Elem() == nodeType:
		v.Set(reflect.ValueOf(n))
		return
	}
	if u, ok := v.Addr().Interface().(Value); ok {
		d.add(u.DecodeYAML(n), path, line)
		return
	}
	if v.Type() == durationType {
		x, err := time.ParseDuration(Text(n))
		if n.Kind != yaml.ScalarNode || err != nil {
			d.fail(line, path, "want a duration like 2ms or 1s")
			return
		}
		v.SetInt(int64(x))
		return
	}
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			v.Set(reflect.New(v.Type().Elem()))
		}
		d.value(n, path, line, v.Elem(), nonempty)
	case reflect.Struct:
		d.structure(n, path, line, v)
	case reflect.Slice:
		if n.Kind != yaml.SequenceNode {
			d.fail(line, path, "want a list")
			return
		}
		if len(n.Content) == 0 {
			v.Set(reflect.Zero(v.Type())) // [] is no list, as a key left out
			return
		}
		s := reflect.MakeSlice(v.Type(), len(n.Content), len(n.Content))
		for i, e := range n.Content {
			d.value(e, fmt.Sprintf("%s[%d]", path, i), e.Line, s.Index(i), nonempty)
		}
		v.Set(s)
	case reflect.String:
		switch s := strings.TrimSpace(Text(n)); {
		case nonempty && (n.Kind != yaml.ScalarNode || s == ""):
			d.fail(line, path, "want a non-empty text")
		case n.Kind != yaml.ScalarNode:
			d.fail(line, path, "want a text")
		case nonempty:
			v.SetString(s)
		default:
			v.SetString(Text(n))
		}
	case reflect.Bool:
		b, err := strconv.ParseBool(Text(n))
		switch {
		case n.Kind != yaml.ScalarNode || IsNull(n):
			d.fail(line, path, "want true or false")
		case err != nil:
			d.fail(line, path, fmt.Sprintf("%q is not true or false", n.Value))
		default:
			v.SetBool(b)
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		x, err := strconv.ParseInt(Text(n), 10, v.Type().Bits())
		switch {
		case n.Kind != yaml.ScalarNode || IsNull(n):
			d.fail(line, path, "want an integer")
		case err != nil:
			d.fail(line, path, fmt.Sprintf("%q is not an integer", n.Value))
		default:
			v.SetInt(x)
		}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		x, err := strconv.ParseUint(Text(n), 10, v.Type().Bits())
		if n.Kind != yaml.ScalarNode || err != nil {
			d.fail(line, path, "want a whole number ≥ 0")
			return
		}
		v.SetUint(x)
	default:
		panic(fmt.Sprintf("yamldecode: cannot decode into %s", v.Type()))
	}
}

// Text is a scalar's text, "" for anything else.
func Text(n *yaml.Node) string {
	if n.Kind != yaml.ScalarNode || IsNull(n) {
		return ""
	}
	return n.Value
}

// field is a key of a struct.
type field struct {
	key      string
	index    int
	nonempty bool
}

// fieldsOf lists t's keys in declaration order (the order messages list
// them in), and the index of its ",line" field (-1: none).
func fieldsOf(t reflect.Type) (fields []field, line int) {
	line = -1
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		tag := f.Tag.Get("yaml")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if name == "" {
			name = strings.ToLower(f.Name)
		}
		field := field{key: name, index: i}
		isLine := false
		for _, o := range strings.Split(opts, ",") {
			switch o {
			case "line":
				isLine = true
			case "nonempty":
				field.nonempty = true
			}
		}
		if isLine {
			line = i
			continue
		}
		fields = append(fields, field)
	}
	return fields, line
}

func (d *Decoder) structure(n *yaml.Node, path string, line int, v reflect.Value) {
	fields, lineField := fieldsOf(v.Type())
	keys := make([]string, len(fields))
	for i, f := range fields {
		keys[i] = f.key
	}
	want := strings.Join(keys, ", ")
	if lineField >= 0 {
		v.Field(lineField).SetInt(int64(line))
	}
	if n.Kind != yaml.MappingNode {
		d.fail(line, path, "want a mapping of "+want)
		return
	}
	before := len(d.errs)
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, val := n.Content[i], n.Content[i+1]
		j := -1
		for fi, f := range fields {
			if f.key == k.Value || d.FoldCase && strings.EqualFold(f.key, k.Value) {
				j = fi
				break
			}
		}
		if k.Kind != yaml.ScalarNode || j < 0 {
			hint := ""
			if m := suggest.Mean(k.Value, keys, ""); m != "" {
				hint = "did you mean " + m + "? "
			}
			d.fail(k.Line, JoinPath(path, k.Value), "unknown key ("+hint+"want "+want+")")
			continue
		}
		f := fields[j]
		key := JoinPath(path, f.key)
		if seen[f.key] {
			d.fail(k.Line, key, "given twice")
			continue
		}
		seen[f.key] = true
		d.value(val, key, k.Line, v.Field(f.index), f.nonempty)
	}
	if c, ok := v.Addr().Interface().(Checker); ok && len(d.errs) == before {
		d.add(c.CheckYAML(), path, line)
	}
}

// Under puts err, relative to a value, under key: for a Value or
// Checker that decodes a part of its node with DecodeNode.
func Under(key string, err error) error {
	d := &Decoder{}
	d.add(err, key, 0)
	return d.result("")
}
