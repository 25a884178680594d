package configs

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/calcsol/calcsol/decks/shuffle"
)

// TestShufflesYAMLMatchesDefaults: the shipped file and shuffle.DefaultParams
// are written separately; they must agree.
func TestShufflesYAMLMatchesDefaults(t *testing.T) {
	p, err := LoadShuffleParams("")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(shuffle.DefaultParams(), p); diff != "" {
		t.Errorf("configs/shuffles.yaml differs from shuffle.DefaultParams (-defaults +file):\n%s", diff)
	}
}

func TestParseShuffleParams(t *testing.T) {
	tests := []struct {
		name string
		yaml string
		edit func(p *shuffle.Params)
	}{
		{"empty", "", func(*shuffle.Params) {}},
		{"comment only", "# nothing\n", func(*shuffle.Params) {}},
		{"Nose & Fukagawa hindu h=5", "hindu: {mean: 5, sd: 5/6}\n", func(p *shuffle.Params) {
			p.Hindu.Mean, p.Hindu.SD = 5, 5.0/6
		}},
		{"Nose & Fukagawa deal order", "deal:\n  order: natural\n", func(p *shuffle.Params) {
			p.Deal.Order = shuffle.PilesNatural
		}},
		{"custom deal", "deal: {piles: 3, order: [3, 1, 2]}\n", func(p *shuffle.Params) {
			p.Deal = shuffle.Deal{Piles: 3, Order: shuffle.PilesCustom, Custom: []int{3, 1, 2}}
		}},
		{"cut and rounding", "cut: {sd: 2.5, centre: 0.4, rounding: floor}\n", func(p *shuffle.Params) {
			p.Cut = shuffle.Cut{Centre: 0.4, SD: 2.5, Rounding: shuffle.RoundFloor}
		}},
		{"in faro, 3-riffle, overhand", "faro: {in: true}\nriffle: {packets: 3, drop: true}\noverhand: {p: 1/2}\n", func(p *shuffle.Params) {
			p.Faro.In, p.Riffle.Packets, p.Riffle.Drop, p.Overhand.P = true, 3, true, 0.5
		}},
		{"costs", "costs: {o: 4, U: 1, D: 25}\n", func(p *shuffle.Params) {
			p.Costs.O, p.Costs.U, p.Costs.D = 4, 1, 25
		}},
		{"face-up deal", "deal: {face: up, piles: 1000}\n", func(p *shuffle.Params) {
			p.Deal.FaceUp, p.Deal.Piles = true, 1000
		}},
		{"hindu min and ceil", "hindu:\n  min: 2\n  rounding: ceil\n", func(p *shuffle.Params) {
			p.Hindu.Min, p.Hindu.Rounding = 2, shuffle.RoundCeil
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseShuffleParams([]byte(tc.yaml), "t.yaml")
			if err != nil {
				t.Fatal(err)
			}
			want := shuffle.DefaultParams()
			tc.edit(&want)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestParseShuffleParamsErrors(t *testing.T) {
	tests := []struct {
		name string
		yaml string
		want string // the whole message, or each line of it for several
	}{
		{"unknown top key", "cut: {sd: 4}\nshuffle: 3\n", "t.yaml:2: shuffle: unknown key (want cut, hindu, riffle, faro, deal, overhand, costs)"},
		{"unknown inner key", "hindu:\n  mean: 10\n  size: 4\n", "t.yaml:3: hindu.size: unknown key (want mean, sd, rounding, min)"},
		{"bad number", "cut:\n  sd: five\n", `t.yaml:2: cut.sd: "five" is not a finite number or fraction`},
		{"divide by zero", "hindu:\n  sd: 5/0\n", `t.yaml:2: hindu.sd: "5/0" divides by zero`},
		{"bad int", "deal:\n  piles: 2.5\n", `t.yaml:2: deal.piles: "2.5" is not an integer`},
		{"bad bool", "faro:\n  in: maybe\n", `t.yaml:2: faro.in: "maybe" is not true or false`},
		{"bad rounding", "\nhindu:\n  rounding: up\n", `t.yaml:3: hindu.rounding: unknown rounding "up" (want nearest, floor or ceil)`},
		{"bad order", "deal:\n  order: random\n", `t.yaml:2: deal.order: unknown pile order "random" (want odd-even, natural or a list of piles such as [2, 1, 3])`},
		{"bad face", "deal:\n  face: sideways\n", `t.yaml:2: deal.face: unknown face "sideways" (want down or up)`},
		{"too many piles", "deal: {piles: 1000000000}\n", "t.yaml:1: deal: deal piles 1000000000: must be 1..1000"},
		{"validate section", "deal:\n  piles: 3\n  order: [1, 2, 2]\n", "t.yaml:1: deal: deal order [1 2 2]: pile 2 twice"},
		{"validate hindu", "x: 1\nhindu: {min: 0}\n", "t.yaml:1: x: unknown key (want cut, hindu, riffle, faro, deal, overhand, costs)\nt.yaml:2: hindu: hindu min 0: a packet holds at least 1 card"},
		{"negative cost", "costs:\n  H: -3\n", "t.yaml:2: costs.H: -3 s is negative"},
		{"cost letter", "costs:\n  Z: 3\n", "t.yaml:2: costs.Z: unknown key (want C, H, R, F, D, O, U)"},
		{"duplicate", "cut: {sd: 1}\ncut: {sd: 2}\n", "t.yaml:2: cut: given twice"},
		{"not a mapping", "- cut\n", "t.yaml:1: want a mapping of cut, hindu, riffle, faro, deal, overhand, costs"},
		{"section not a mapping", "riffle: 3\n", "t.yaml:1: riffle: want a mapping of packets, drop"},
		{"null value", "overhand:\n  p:\n", "t.yaml:2: overhand.p: want a number"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseShuffleParams([]byte(tc.yaml), "t.yaml")
			if err == nil {
				t.Fatalf("accepted:\n%s", tc.yaml)
			}
			if err.Error() != tc.want {
				t.Errorf("error\n%s\nwant\n%s", err, tc.want)
			}
		})
	}
	if _, err := ParseShuffleParams([]byte("cut: [1,\n"), "t.yaml"); err == nil || !strings.HasPrefix(err.Error(), "t.yaml: ") {
		t.Errorf("YAML syntax error: %v", err)
	}
}

func TestLoadShuffleParamsFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.yaml")
	if err := os.WriteFile(path, []byte("deal: {piles: 4}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := LoadShuffleParams(path)
	if err != nil || p.Deal.Piles != 4 {
		t.Errorf("LoadShuffleParams(%s) = %+v, %v", path, p.Deal, err)
	}
	if _, err := LoadShuffleParams(filepath.Join(t.TempDir(), "missing.yaml")); err == nil {
		t.Error("missing file accepted")
	}
}

// TestFormatShuffleParams: the writer's output parses back to the same
// parameters, for the defaults and for every kind of non-default value.
func TestFormatShuffleParams(t *testing.T) {
	edits := []func(p *shuffle.Params){
		func(*shuffle.Params) {},
		func(p *shuffle.Params) {
			p.Cut = shuffle.Cut{Centre: 0.1, SD: 1.0 / 3, Rounding: shuffle.RoundCeil}
			p.Hindu = shuffle.Hindu{Mean: -2.5e-7, SD: 1e300, Rounding: shuffle.RoundFloor, Min: 7}
			p.Riffle, p.Faro, p.Overhand = shuffle.Riffle{Packets: 5, Drop: true}, shuffle.Faro{In: true}, shuffle.Overhand{P: 0.3}
			p.Deal = shuffle.Deal{Piles: 4, Order: shuffle.PilesCustom, Custom: []int{4, 2, 1, 3}, FaceUp: true}
			p.Costs = shuffle.Costs{C: 1, U: 9}
		},
		func(p *shuffle.Params) { p.Deal = shuffle.Deal{Piles: 1000, Order: shuffle.PilesNatural} },
	}
	for i, edit := range edits {
		want := shuffle.DefaultParams()
		edit(&want)
		text := FormatShuffleParams(want)
		got, err := ParseShuffleParams(text, "w.yaml")
		if err != nil {
			t.Fatalf("case %d: %v in\n%s", i, err, text)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("case %d: round trip (-want +got):\n%s\n%s", i, diff, text)
		}
	}
}

// FuzzParseShuffleParams: whatever is accepted is valid, and its round trip
// parse → FormatShuffleParams → parse gives the same parameters; nothing
// panics. Every accepted value is bounded (piles ≤ shuffle.MaxPiles, riffle
// packets ≤ 128), so nothing is slow either.
func FuzzParseShuffleParams(f *testing.F) {
	f.Add(string(ShufflesYAML()))
	f.Add("hindu: {mean: 5, sd: 5/6}\ndeal: {order: [2, 1], piles: 2, face: up}\n")
	f.Add("costs: {o: 4}\n")
	f.Add("cut: {centre: 1/3, sd: 1e-300}\n")
	f.Fuzz(func(t *testing.T, s string) {
		p, err := ParseShuffleParams([]byte(s), "f.yaml")
		if err != nil {
			return
		}
		if err := p.Validate(); err != nil {
			t.Fatalf("accepted invalid params from %q: %v", s, err)
		}
		text := FormatShuffleParams(p)
		p2, err := ParseShuffleParams(text, "w.yaml")
		if err != nil {
			t.Fatalf("written params do not parse: %v\n%s", err, text)
		}
		if diff := cmp.Diff(p, p2); diff != "" {
			t.Fatalf("round trip of %q (-first +second):\n%s", s, diff)
		}
	})
}

func ExampleFormatShuffleParams() {
	p := shuffle.DefaultParams()
	p.Deal = shuffle.Deal{Piles: 3, Order: shuffle.PilesCustom, Custom: []int{3, 1, 2}, FaceUp: true}
	text := FormatShuffleParams(p)
	back, err := ParseShuffleParams(text, "example.yaml")
	fmt.Println(err, back.Deal.Custom, back.Deal.FaceUp)
	fmt.Print(string(text[strings.Index(string(text), "deal:"):strings.Index(string(text), "overhand:")]))
	// Output:
	// <nil> [3 1 2] true
	// deal:
	//   piles: 3
	//   order: [3, 1, 2]
	//   face: up
}
