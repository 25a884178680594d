package strategies

import (
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/calcsol/calcsol/solver"
)

// A kind declares its parameters once, as the fields of a params struct;
// everything else — the declaration that --help, validation and tune read,
// the spec parser and printer, the YAML tree, a strategy's Info — is derived
// from it:
//
//	type EndgameParams struct {
//		K int `param:"k" min:"0" max:"12" doc:"the search takes over when the stock holds k or fewer cards"`
//	}
//
// Each exported field with a param tag is one parameter. Its type says what
// values it takes: bool, int (a whole number from min to max), float64 (a
// number from min to max), string (any text, or one of choices:"a,b,c"),
// []string (a list: ListSep-separated in a spec, a YAML list in a config) or
// time.Duration (50ms, 1s). A string type of its own (a mode) counts as a
// string. A pointer field is optional: nil means "not given", and its
// default:"…" tag is only what help shows (the priority kind's options,
// which otherwise come from the table). Embedded structs contribute their
// fields.

// ListSep separates the items of a list parameter in a spec
// ("alt_tables=tuned-3;tuned-4").
const ListSep = ";"

// paramField is one declared field of a params struct.
type paramField struct {
	index    []int
	decl     solver.Param
	optional bool   // a pointer: nil is "not given"
	def      string // an optional field's default tag, what help shows for nil
	list     bool
	duration bool
}

var paramFields sync.Map // reflect.Type → []paramField

var durationType = reflect.TypeOf(time.Duration(0))

// fieldsOf returns the declared fields of the struct type t; a malformed
// declaration is a programming error and panics.
func fieldsOf(t reflect.Type) []paramField {
	if fs, ok := paramFields.Load(t); ok {
		return fs.([]paramField)
	}
	if t.Kind() != reflect.Struct {
		panic(fmt.Sprintf("strategies: params of type %s: want a struct", t))
	}
	var fs []paramField
	var walk func(t reflect.Type, index []int)
	walk = func(t reflect.Type, index []int) {
		for i := range t.NumField() {
			sf := t.Field(i)
			idx := append(append([]int(nil), index...), i)
			name, tagged := sf.Tag.Lookup("param")
			if sf.Anonymous && !tagged && sf.Type.Kind() == reflect.Struct {
				walk(sf.Type, idx)
				continue
			}
			if !tagged || !sf.IsExported() {
				continue
			}
			fs = append(fs, newParamField(t, sf, name, idx))
		}
	}
	walk(t, nil)
	seen := map[string]bool{}
	for _, f := range fs {
		if seen[f.decl.Name] {
			panic(fmt.Sprintf("strategies: params %s declare %s twice", t, f.decl.Name))
		}
		seen[f.decl.Name] = true
	}
	paramFields.Store(t, fs)
	return fs
}

func newParamField(owner reflect.Type, sf reflect.StructField, name string, idx []int) paramField {
	bad := func(why string) {
		panic(fmt.Sprintf("strategies: %s.%s (param %q): %s", owner, sf.Name, name, why))
	}
	f := paramField{index: idx, decl: solver.Param{Name: name, Doc: sf.Tag.Get("doc")}, def: sf.Tag.Get("default")}
	if name == "" || strings.ContainsAny(name, "+:,= ") {
		bad("a parameter name is one word without + : , =")
	}
	t := sf.Type
	if t.Kind() == reflect.Pointer {
		f.optional, t = true, t.Elem()
	}
	bounds := func(lo, hi float64) {
		f.decl.Min, f.decl.Max = lo, hi
		for _, b := range []struct {
			tag string
			dst *float64
		}{{"min", &f.decl.Min}, {"max", &f.decl.Max}} {
			if s, ok := sf.Tag.Lookup(b.tag); ok {
				v, err := strconv.ParseFloat(s, 64)
				if err != nil {
					bad(b.tag + " is not a number")
				}
				*b.dst = v
			}
		}
	}
	switch {
	case t == durationType:
		f.duration, f.decl.Kind = true, solver.ParamText
	case t.Kind() == reflect.Bool:
		f.decl.Kind = solver.ParamBool
	case t.Kind() == reflect.Int:
		f.decl.Kind = solver.ParamInt
		bounds(math.MinInt32, math.MaxInt32)
	case t.Kind() == reflect.Float64:
		f.decl.Kind = solver.ParamFloat
		bounds(-math.MaxFloat64, math.MaxFloat64)
	case t.Kind() == reflect.String:
		f.decl.Kind = solver.ParamText
		if c, ok := sf.Tag.Lookup("choices"); ok {
			f.decl.Kind, f.decl.Choices = solver.ParamChoice, strings.Split(c, ",")
		}
	case t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.String && !f.optional:
		f.list, f.decl.Kind = true, solver.ParamText
	default:
		bad("unsupported type " + sf.Type.String())
	}
	return f
}

// Declare returns the parameters the params struct v declares, each with
// its value in v as Value (for an optional field left nil, its default tag).
// v is a struct or a pointer to one.
func Declare(v any) []solver.Param {
	rv := reflect.Indirect(reflect.ValueOf(v))
	fs := fieldsOf(rv.Type())
	out := make([]solver.Param, len(fs))
	for i, f := range fs {
		out[i] = f.decl
		if s, ok := f.format(rv.FieldByIndex(f.index)); ok {
			out[i].Value = s
		} else {
			out[i].Value = f.def
		}
	}
	return out
}

// Values returns the parameters of the params struct v as a spec writes
// them, by name; optional fields left nil are left out.
func Values(v any) map[string]string {
	rv := reflect.Indirect(reflect.ValueOf(v))
	out := map[string]string{}
	for _, f := range fieldsOf(rv.Type()) {
		if s, ok := f.format(rv.FieldByIndex(f.index)); ok {
			out[f.decl.Name] = s
		}
	}
	return out
}

// Decode sets the fields of the params struct *dst that given names (a
// spec's key=value pairs), each value checked against its declaration;
// fields not given keep their values. An unknown name is an error.
func Decode(dst any, given map[string]string) error {
	rv := reflect.ValueOf(dst)
	if rv.Kind() != reflect.Pointer || rv.Elem().Kind() != reflect.Struct {
		panic(fmt.Sprintf("strategies: Decode into %T: want a pointer to a struct", dst))
	}
	rv = rv.Elem()
	fs := fieldsOf(rv.Type())
	decls := make([]solver.Param, len(fs))
	for i, f := range fs {
		decls[i] = f.decl
	}
	if err := CheckParams(decls, given); err != nil {
		return err
	}
	for _, f := range fs {
		s, ok := given[f.decl.Name]
		if !ok {
			continue
		}
		if err := f.parse(rv.FieldByIndex(f.index), s); err != nil {
			return err
		}
	}
	return nil
}

// format writes the field's value; ok is false for an optional field left nil.
func (f paramField) format(v reflect.Value) (string, bool) {
	if f.optional {
		if v.IsNil() {
			return "", false
		}
		v = v.Elem()
	}
	switch {
	case f.duration:
		return time.Duration(v.Int()).String(), true
	case f.list:
		return strings.Join(v.Interface().([]string), ListSep), true
	}
	switch v.Kind() {
	case reflect.Bool:
		return strconv.FormatBool(v.Bool()), true
	case reflect.Int:
		return strconv.FormatInt(v.Int(), 10), true
	case reflect.Float64:
		return strconv.FormatFloat(v.Float(), 'g', -1, 64), true
	}
	return v.String(), true
}

// parse sets the field from s, which CheckValue has accepted.
func (f paramField) parse(v reflect.Value, s string) error {
	if f.optional {
		p := reflect.New(v.Type().Elem())
		v.Set(p)
		v = p.Elem()
	}
	switch {
	case f.duration:
		d, err := time.ParseDuration(s)
		if err != nil || d <= 0 {
			return fmt.Errorf("parameter %s: %q is not a positive duration (50ms, 1s)", f.decl.Name, s)
		}
		v.SetInt(int64(d))
		return nil
	case f.list:
		var items []string
		if strings.TrimSpace(s) != "" {
			for _, it := range strings.Split(s, ListSep) {
				if it = strings.TrimSpace(it); it == "" {
					return fmt.Errorf("parameter %s: %q has an empty item (items are separated by %q)", f.decl.Name, s, ListSep)
				}
				items = append(items, it)
			}
		}
		v.Set(reflect.ValueOf(items))
		return nil
	}
	switch v.Kind() {
	case reflect.Bool:
		v.SetBool(s == "true")
	case reflect.Int:
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return fmt.Errorf("parameter %s: %w", f.decl.Name, err)
		}
		v.SetInt(n)
	case reflect.Float64:
		x, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return fmt.Errorf("parameter %s: %w", f.decl.Name, err)
		}
		v.SetFloat(x)
	default:
		v.SetString(s)
	}
	return nil
}

// Define makes a kind that builds a strategy from its params P: defaults
// holds each parameter's default, and build gets defaults with the given
// parameters set.
func Define[P any](name, doc string, defaults P, build func(P) (solver.Strategy, error)) Kind {
	return Kind{Name: name, Doc: doc, Params: Declare(defaults), Build: func(given map[string]string) (solver.Strategy, error) {
		p, err := decodeOver(defaults, given)
		if err != nil {
			return nil, err
		}
		return build(p)
	}}
}

// DefineWrapper makes a kind that wraps a base strategy, as Define does.
func DefineWrapper[P any](name, doc string, defaults P, wrap func(solver.Strategy, P) (solver.Strategy, error)) Kind {
	return Kind{Name: name, Doc: doc, Params: Declare(defaults), Wrap: func(base solver.Strategy, given map[string]string) (solver.Strategy, error) {
		p, err := decodeOver(defaults, given)
		if err != nil {
			return nil, err
		}
		return wrap(base, p)
	}}
}

func decodeOver[P any](defaults P, given map[string]string) (P, error) {
	p := defaults
	err := Decode(&p, given)
	return p, err
}
