package configs

// The one way calcsol reads YAML: a document decoded into a typed struct
// by its yaml tags, with KnownFields semantics (a key the struct does not
// name is refused, and so is a key given twice), and every error in the
// form FILE:LINE: KEY.PATH: reason.

import (
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"
)

// YAMLError is an error at one place of a YAML document: the file, the
// line, the key path ("strategies[0].base") and the reason. Line 0 and an
// empty path are left out of the message.
type YAMLError struct {
	File string
	Line int
	Path string
	Err  error
}

func (e *YAMLError) Error() string {
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

func (e *YAMLError) Unwrap() error { return e.Err }

// yamlErrors are the errors of one document, in document order, one a line.
type yamlErrors []*YAMLError

func (es yamlErrors) Error() string {
	lines := make([]string, len(es))
	for i, e := range es {
		lines[i] = e.Error()
	}
	return strings.Join(lines, "\n")
}

func (es yamlErrors) Unwrap() []error {
	out := make([]error, len(es))
	for i, e := range es {
		out[i] = e
	}
	return out
}

// DecodeYAML decodes the YAML document data into v, a pointer, by v's yaml
// struct tags (a tag's name is the key; a field without one is keyed by
// its name in lower case; "-" skips it). Unknown keys and keys given twice
// are refused; file names the document in errors, each a *YAMLError (several
// are joined, one a line). An empty document is the error "FILE: empty file"
// (errors.Is(err, ErrEmptyYAML)).
//
// Beyond yaml.v3's tags, a field may say:
//   - `yaml:",line"` (an int): the line where the value of its struct
//     begins, its key's or, in a list or at the top, its own;
//   - `yaml:"key,nonempty"` (a string or list of strings): trimmed and
//     refused when empty.
//
// A *yaml.Node or yaml.Node field keeps the node as it is, for a reading
// of its own.
func DecodeYAML(data []byte, file string, v any) error {
	return yamlDecoder{}.decode(data, file, v)
}

// ErrEmptyYAML is the reason DecodeYAML gives for an empty document.
var ErrEmptyYAML = errors.New("empty file")

// A yamlValue reads itself from a node in its own way: a value that may be
// a scalar or a mapping, or a list joined into one text. Its error, unless
// a *YAMLError placed by yamlErrAt or decodeNode (whose line and path are
// relative to n), is put at the value's line and key.
type yamlValue interface {
	decodeYAML(n *yaml.Node) error
}

// A yamlChecker checks a struct once all its keys have decoded without an
// error; the error is put at the struct's line and key unless it is placed
// with yamlErrAt.
type yamlChecker interface {
	checkYAML() error
}

// yamlErrAt is an error at node n (nil: at the value being decoded), under
// key, a path relative to that value ("base", "[2]", "" for the value
// itself).
func yamlErrAt(n *yaml.Node, key string, err error) error {
	line := 0
	if n != nil {
		line = n.Line
	}
	return &YAMLError{Line: line, Path: key, Err: err}
}

// decodeNode decodes n into v for a yamlValue, with errors relative to n.
func decodeNode(n *yaml.Node, v any) error {
	d := &yamlDecoder{}
	d.value(n, "", n.Line, reflect.ValueOf(v).Elem(), false)
	return d.result("")
}

// decodeMapping calls each for the keys of mapping n in order, refusing a
// key given twice and placing each's error under its key.
func decodeMapping(n *yaml.Node, each func(key string, v *yaml.Node) error) error {
	d := &yamlDecoder{}
	if n.Kind != yaml.MappingNode {
		return yamlErrAt(n, "", errors.New("want a mapping"))
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

// yamlDecoder walks a node tree into a Go value, collecting every error.
type yamlDecoder struct {
	// foldCase matches keys to tags case-insensitively ("CUT" is cut);
	// messages use the tag's spelling.
	foldCase bool
	errs     []*YAMLError
}

func (d yamlDecoder) decode(data []byte, file string, v any) error {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return fmt.Errorf("%s: %w", file, err)
	}
	if len(doc.Content) == 0 || isNull(doc.Content[0]) {
		return &YAMLError{File: file, Err: ErrEmptyYAML}
	}
	root := doc.Content[0]
	d.value(root, "", root.Line, reflect.ValueOf(v).Elem(), false)
	return d.result(file)
}

func (d *yamlDecoder) result(file string) error {
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
	return yamlErrors(d.errs)
}

func (d *yamlDecoder) fail(line int, path, reason string) {
	d.errs = append(d.errs, &YAMLError{Line: line, Path: path, Err: errors.New(reason)})
}

// add records err at path and line; a *YAMLError (or several) from a
// yamlValue or yamlChecker has its path and line relative to there.
func (d *yamlDecoder) add(err error, path string, line int) {
	var rel []*YAMLError
	switch e := err.(type) {
	case nil:
		return
	case *YAMLError:
		rel = []*YAMLError{e}
	case yamlErrors:
		rel = e
	default:
		d.errs = append(d.errs, &YAMLError{Line: line, Path: path, Err: err})
		return
	}
	for _, e := range rel {
		e.Path = joinPath(path, e.Path)
		if e.Line == 0 {
			e.Line = line
		}
		d.errs = append(d.errs, e)
	}
}

func joinPath(path, rel string) string {
	switch {
	case rel == "":
		return path
	case path == "" || strings.HasPrefix(rel, "["):
		return path + rel
	}
	return path + "." + rel
}

func isNull(n *yaml.Node) bool { return n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null" }

var (
	nodeType     = reflect.TypeFor[yaml.Node]()
	durationType = reflect.TypeFor[time.Duration]()
)

// value decodes n into v; line is where the value begins (its key's line,
// or its own in a list or at the top), where its errors are put.
func (d *yamlDecoder) value(n *yaml.Node, path string, line int, v reflect.Value, nonempty bool) {
	switch {
	case v.Type() == nodeType:
		v.Set(reflect.ValueOf(*n))
		return
	case v.Kind() == reflect.Pointer && v.Type().Elem() == nodeType:
		v.Set(reflect.ValueOf(n))
		return
	}
	if u, ok := v.Addr().Interface().(yamlValue); ok {
		d.add(u.decodeYAML(n), path, line)
		return
	}
	if v.Type() == durationType {
		x, err := time.ParseDuration(scalarText(n))
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
		switch s := strings.TrimSpace(scalarText(n)); {
		case nonempty && (n.Kind != yaml.ScalarNode || s == ""):
			d.fail(line, path, "want a non-empty text")
		case n.Kind != yaml.ScalarNode:
			d.fail(line, path, "want a text")
		case nonempty:
			v.SetString(s)
		default:
			v.SetString(scalarText(n))
		}
	case reflect.Bool:
		b, err := strconv.ParseBool(scalarText(n))
		switch {
		case n.Kind != yaml.ScalarNode || isNull(n):
			d.fail(line, path, "want true or false")
		case err != nil:
			d.fail(line, path, fmt.Sprintf("%q is not true or false", n.Value))
		default:
			v.SetBool(b)
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		x, err := strconv.ParseInt(scalarText(n), 10, v.Type().Bits())
		switch {
		case n.Kind != yaml.ScalarNode || isNull(n):
			d.fail(line, path, "want an integer")
		case err != nil:
			d.fail(line, path, fmt.Sprintf("%q is not an integer", n.Value))
		default:
			v.SetInt(x)
		}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		x, err := strconv.ParseUint(scalarText(n), 10, v.Type().Bits())
		if n.Kind != yaml.ScalarNode || err != nil {
			d.fail(line, path, "want a whole number ≥ 0")
			return
		}
		v.SetUint(x)
	default:
		panic(fmt.Sprintf("configs: DecodeYAML cannot decode into %s", v.Type()))
	}
}

// scalarText is a scalar's text, "" for anything else.
func scalarText(n *yaml.Node) string {
	if n.Kind != yaml.ScalarNode || isNull(n) {
		return ""
	}
	return n.Value
}

// yamlField is a key of a struct.
type yamlField struct {
	key      string
	index    int
	nonempty bool
}

// yamlFields lists t's keys in declaration order (the order messages list
// them in), and the index of its ",line" field (-1: none).
func yamlFields(t reflect.Type) (fields []yamlField, line int) {
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
		field := yamlField{key: name, index: i}
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

func (d *yamlDecoder) structure(n *yaml.Node, path string, line int, v reflect.Value) {
	fields, lineField := yamlFields(v.Type())
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
			if f.key == k.Value || d.foldCase && strings.EqualFold(f.key, k.Value) {
				j = fi
				break
			}
		}
		if k.Kind != yaml.ScalarNode || j < 0 {
			d.fail(k.Line, joinPath(path, k.Value), "unknown key (want "+want+")")
			continue
		}
		f := fields[j]
		key := joinPath(path, f.key)
		if seen[f.key] {
			d.fail(k.Line, key, "given twice")
			continue
		}
		seen[f.key] = true
		d.value(val, key, k.Line, v.Field(f.index), f.nonempty)
	}
	if c, ok := v.Addr().Interface().(yamlChecker); ok && len(d.errs) == before {
		d.add(c.checkYAML(), path, line)
	}
}

// yamlUnder puts err, relative to a value, under key: for a yamlValue or
// yamlChecker that decodes a part of its node with decodeNode.
func yamlUnder(key string, err error) error {
	d := &yamlDecoder{}
	d.add(err, key, 0)
	return d.result("")
}
