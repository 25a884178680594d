package strategies

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/calcsol/calcsol/solver"
)

// testParams declares one parameter of every supported type.
type testParams struct {
	Base    solver.Strategy // not a parameter: no tag
	N       int             `param:"n" min:"1" max:"64" doc:"a count"`
	Rate    float64         `param:"rate" min:"0" max:"1" doc:"a rate"`
	On      bool            `param:"on" doc:"a switch"`
	Mode    CheckMode       `param:"mode" choices:"partial,exact" doc:"a choice of a string type"`
	Name    string          `param:"name" doc:"a text"`
	Tables  []string        `param:"tables" doc:"a list"`
	Wait    time.Duration   `param:"wait" doc:"a duration"`
	Maybe   *bool           `param:"maybe" default:"true" doc:"optional"`
	Weights                 // embedded: its fields are parameters too
	hidden  int
}

func TestDeclare(t *testing.T) {
	p := testParams{N: 3, Rate: 0.5, Mode: CheckExact, Tables: []string{"a", "b"}, Wait: time.Second, Weights: Weights{W: 2}}
	var got []string
	for _, d := range Declare(p) {
		got = append(got, fmt.Sprintf("%s=%s kind %d [%g, %g] %v", d.Name, d.Value, d.Kind, d.Min, d.Max, d.Choices))
	}
	want := []string{
		"n=3 kind 2 [1, 64] []",
		"rate=0.5 kind 3 [0, 1] []",
		"on=false kind 1 [0, 0] []",
		"mode=exact kind 4 [0, 0] [partial exact]",
		"name= kind 0 [0, 0] []",
		"tables=a;b kind 0 [0, 0] []",
		"wait=1s kind 0 [0, 0] []",
		"maybe=true kind 1 [0, 0] []",
		"w=2 kind 3 [0, 10] []",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Declare (-want +got):\n%s", diff)
	}
}

// Weights stands for an embedded params struct.
type Weights struct {
	W float64 `param:"w" min:"0" max:"10" doc:"a weight"`
}

func TestDecode(t *testing.T) {
	yes := true
	tests := []struct {
		name  string
		given map[string]string
		want  testParams
		err   string
	}{
		{"nothing", nil, testParams{N: 1}, ""},
		{"every type", map[string]string{"n": "7", "rate": "0.25", "on": "true", "mode": "exact", "name": "x y", "tables": "a; b",
			"wait": "50ms", "maybe": "true", "w": "1.5"},
			testParams{N: 7, Rate: 0.25, On: true, Mode: CheckExact, Name: "x y", Tables: []string{"a", "b"}, Wait: 50 * time.Millisecond, Maybe: &yes, Weights: Weights{W: 1.5}}, ""},
		{"empty list", map[string]string{"tables": ""}, testParams{N: 1}, ""},
		{"unknown", map[string]string{"m": "1"}, testParams{}, `unknown parameter "m" (want n, rate, on, mode, name, tables, wait, maybe, w)`},
		{"misspelt", map[string]string{"tabels": "a"}, testParams{}, `unknown parameter "tabels" (did you mean tables? want n, rate, on, mode, name, tables, wait, maybe, w)`},
		{"misspelt twice over", map[string]string{"mybe": "true"}, testParams{}, `unknown parameter "mybe" (did you mean maybe? want n, rate, on, mode, name, tables, wait, maybe, w)`},
		{"out of range", map[string]string{"n": "65"}, testParams{}, `parameter n: "65" is not a whole number from 1 to 64`},
		{"not a number", map[string]string{"rate": "half"}, testParams{}, `parameter rate: "half" is not a number from 0 to 1`},
		{"not a bool", map[string]string{"on": "yes"}, testParams{}, `parameter on: "yes" is not true or false`},
		{"not a choice", map[string]string{"mode": "none"}, testParams{}, `parameter mode: "none" is not one of partial, exact`},
		{"empty item", map[string]string{"tables": "a;;b"}, testParams{}, `parameter tables: "a;;b" has an empty item`},
		{"not a duration", map[string]string{"wait": "soon"}, testParams{}, `parameter wait: "soon" is not a positive duration`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := testParams{N: 1}
			err := Decode(&p, tc.given)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want one containing %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, p, cmp.AllowUnexported(testParams{})); diff != "" {
				t.Errorf("Decode (-want +got):\n%s", diff)
			}
		})
	}
}

// Values writes what Decode reads: decoding a struct's values into another
// gives the same struct.
func TestValuesRoundTrip(t *testing.T) {
	no := false
	p := testParams{N: 9, Rate: 1, Mode: CheckPartial, Name: "t", Tables: []string{"x"}, Wait: 2 * time.Minute, Maybe: &no, Weights: Weights{W: 0.125}}
	var q testParams
	if err := Decode(&q, Values(p)); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(p, q, cmp.AllowUnexported(testParams{})); diff != "" {
		t.Errorf("round trip (-want +got):\n%s", diff)
	}
	if _, ok := Values(testParams{})["maybe"]; ok {
		t.Error("an optional parameter left nil has a value")
	}
}

// A malformed declaration is a programming error, caught on first use.
func TestDeclarePanics(t *testing.T) {
	tests := []struct {
		name string
		v    any
	}{
		{"not a struct", 3},
		{"unsupported type", struct {
			M map[string]int `param:"m"`
		}{}},
		{"bad name", struct {
			N int `param:"a=b"`
		}{}},
		{"bad bound", struct {
			N int `param:"n" min:"one"`
		}{}},
		{"declared twice", struct {
			A int `param:"n"`
			B int `param:"n"`
		}{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Error("no panic")
				}
			}()
			Declare(tc.v)
		})
	}
}

// The priority kind's options, given or not: only given ones override the
// table's own.
func TestPriorityOverrides(t *testing.T) {
	load := func(string, int) (*Table, error) {
		t := &Table{Name: "t", Stacks: "ZXC", Options: DefaultOptions()}
		t.Options.Check = CheckNone
		return t, nil
	}
	for _, tc := range []struct {
		params map[string]string
		want   Options
	}{
		{nil, Options{TxRespectsReservation: true, Check: CheckNone, OnExhausted: ExhaustLose}},
		{map[string]string{"deadlock_check": "exact", "reassign_tops": "true"}, Options{TxRespectsReservation: true, Check: CheckExact, OnExhausted: ExhaustLose, ReassignTops: true}},
		{map[string]string{"tx_respects_reservation": "false", "on_exhausted": "last-stack"}, Options{Check: CheckNone, OnExhausted: ExhaustLastStack}},
	} {
		s, err := PriorityKind(load).Build(tc.params)
		if err != nil {
			t.Fatal(err)
		}
		tb, err := s.(*PriorityStrategy).Table(3)
		if err != nil {
			t.Fatal(err)
		}
		if tb.Options != tc.want {
			t.Errorf("%v: options %+v, want %+v", tc.params, tb.Options, tc.want)
		}
	}
}

func ExampleDefine() {
	type params struct {
		Depth int  `param:"depth" min:"1" max:"8" doc:"how far to look"`
		Fast  bool `param:"fast" doc:"cut corners"`
	}
	k := Define("lookahead", "an example kind", params{Depth: 2}, func(p params) (solver.Strategy, error) {
		fmt.Printf("built with depth %d, fast %t\n", p.Depth, p.Fast)
		return nil, nil
	})
	for _, p := range k.Params {
		fmt.Printf("%s (default %s): %s\n", p.Name, p.Value, p.Doc)
	}
	_, _ = k.Build(map[string]string{"fast": "true"})
	// Output:
	// depth (default 2): how far to look
	// fast (default false): cut corners
	// built with depth 2, fast true
}
