package configs

import (
	_ "embed"
	"errors"
	"fmt"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/calcsol/calcsol/decks/shuffle"
)

// shufflesYAML holds the default shuffle parameters, commented
// with their sources; it must agree with shuffle.DefaultParams.
//
//go:embed shuffles.yaml
var shufflesYAML []byte

// ShufflesYAML returns the shipped shuffle parameter file, a starting point
// for one's own.
func ShufflesYAML() []byte { return slices.Clone(shufflesYAML) }

// LoadShuffleParams reads shuffle model parameters from a YAML file in the
// format of configs/shuffles.yaml; the empty path gives the embedded
// defaults. Keys left out keep shuffle.DefaultParams; unknown keys and bad
// values are refused with the file, line and reason.
func LoadShuffleParams(path string) (shuffle.Params, error) {
	if path == "" {
		return ParseShuffleParams(shufflesYAML, "shuffles.yaml")
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return shuffle.Params{}, err
	}
	return ParseShuffleParams(data, path)
}

// ParseShuffleParams reads shuffle parameters from YAML; file names it in errors.
func ParseShuffleParams(data []byte, file string) (shuffle.Params, error) {
	p := shuffle.DefaultParams()
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return p, fmt.Errorf("%s: %w", file, err)
	}
	if doc.Kind == 0 || len(doc.Content) == 0 {
		return p, nil // an empty file: all defaults
	}
	root := doc.Content[0]
	if root.Kind == yaml.ScalarNode && root.Tag == "!!null" {
		return p, nil
	}
	d := shuffleDecoder{file: file}
	d.mapping(root, "", []shuffleField{
		{"cut", func(n *yaml.Node, at string) error {
			d.mapping(n, at, []shuffleField{
				{"centre", d.float(&p.Cut.Centre)},
				{"sd", d.float(&p.Cut.SD)},
				{"rounding", d.rounding(&p.Cut.Rounding)},
			})
			return p.Cut.Validate()
		}},
		{"hindu", func(n *yaml.Node, at string) error {
			d.mapping(n, at, []shuffleField{
				{"mean", d.float(&p.Hindu.Mean)},
				{"sd", d.float(&p.Hindu.SD)},
				{"rounding", d.rounding(&p.Hindu.Rounding)},
				{"min", d.int(&p.Hindu.Min)},
			})
			return p.Hindu.Validate()
		}},
		{"riffle", func(n *yaml.Node, at string) error {
			d.mapping(n, at, []shuffleField{
				{"packets", d.int(&p.Riffle.Packets)},
				{"drop", d.bool(&p.Riffle.Drop)},
			})
			return p.Riffle.Validate()
		}},
		{"faro", func(n *yaml.Node, at string) error {
			d.mapping(n, at, []shuffleField{{"in", d.bool(&p.Faro.In)}})
			return nil
		}},
		{"deal", func(n *yaml.Node, at string) error {
			d.mapping(n, at, []shuffleField{
				{"piles", d.int(&p.Deal.Piles)},
				{"order", d.pileOrder(&p.Deal)},
				{"face", d.face(&p.Deal.FaceUp)},
			})
			return p.Deal.Validate()
		}},
		{"overhand", func(n *yaml.Node, at string) error {
			d.mapping(n, at, []shuffleField{{"p", d.float(&p.Overhand.P)}})
			return p.Overhand.Validate()
		}},
		{"costs", func(n *yaml.Node, at string) error {
			var fields []shuffleField
			for i := range len(shuffle.Letters) {
				l := shuffle.Letters[i]
				fields = append(fields, shuffleField{string(l), func(v *yaml.Node, _ string) error {
					var s int
					if err := d.int(&s)(v, ""); err != nil {
						return err
					}
					if s < 0 {
						return fmt.Errorf("%d s is negative", s)
					}
					return p.Costs.Set(l, s)
				}})
			}
			d.mapping(n, at, fields)
			return nil
		}},
	})
	if len(d.errs) > 0 {
		return shuffle.DefaultParams(), errors.Join(d.errs...)
	}
	return p, nil
}

// shuffleField is one known key of a mapping and what to do with its value;
// at is the dotted path of the key ("hindu.sd") for messages.
type shuffleField struct {
	key string
	set func(v *yaml.Node, at string) error
}

// shuffleDecoder walks the YAML tree, collecting every error with its line.
type shuffleDecoder struct {
	file string
	errs []error
}

func (d *shuffleDecoder) fail(n *yaml.Node, at string, err error) {
	if at == "" {
		d.errs = append(d.errs, fmt.Errorf("%s:%d: %w", d.file, n.Line, err))
		return
	}
	d.errs = append(d.errs, fmt.Errorf("%s:%d: %s: %w", d.file, n.Line, at, err))
}

// mapping decodes a mapping node whose keys must be among fields, each at
// most once.
func (d *shuffleDecoder) mapping(n *yaml.Node, at string, fields []shuffleField) {
	if n.Kind != yaml.MappingNode {
		d.fail(n, at, fmt.Errorf("want a mapping of %s", shuffleKeys(fields)))
		return
	}
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		// Keys match case-insensitively ("costs: {o: 4}"); messages use
		// the canonical spelling.
		j := slices.IndexFunc(fields, func(f shuffleField) bool { return strings.EqualFold(f.key, k.Value) })
		name := k.Value
		if j >= 0 {
			name = fields[j].key
		}
		path := name
		if at != "" {
			path = at + "." + name
		}
		if k.Kind != yaml.ScalarNode || j < 0 {
			d.fail(k, path, fmt.Errorf("unknown key (want %s)", shuffleKeys(fields)))
			continue
		}
		if seen[name] {
			d.fail(k, path, errors.New("given twice"))
			continue
		}
		seen[name] = true
		before := len(d.errs)
		if err := fields[j].set(v, path); err != nil && len(d.errs) == before {
			// A section's own check (Validate) only when its keys read well.
			d.fail(k, path, err)
		}
	}
}

func shuffleKeys(fields []shuffleField) string {
	var ks []string
	for _, f := range fields {
		ks = append(ks, f.key)
	}
	return strings.Join(ks, ", ")
}

func shuffleScalar(v *yaml.Node, want string) (string, error) {
	if v.Kind != yaml.ScalarNode || v.Tag == "!!null" {
		return "", fmt.Errorf("want %s", want)
	}
	return v.Value, nil
}

// float reads a number, also written as a fraction "a/b" (sd: 5/3).
func (d *shuffleDecoder) float(dst *float64) func(*yaml.Node, string) error {
	return func(v *yaml.Node, _ string) error {
		s, err := shuffleScalar(v, "a number")
		if err != nil {
			return err
		}
		x, err := parseShuffleNumber(s)
		if err != nil {
			return err
		}
		*dst = x
		return nil
	}
}

func parseShuffleNumber(s string) (float64, error) {
	num, den, frac := strings.Cut(s, "/")
	a, err := strconv.ParseFloat(strings.TrimSpace(num), 64)
	if err == nil && frac {
		var b float64
		b, err = strconv.ParseFloat(strings.TrimSpace(den), 64)
		if err == nil && b == 0 {
			return 0, fmt.Errorf("%q divides by zero", s)
		}
		a /= b
	}
	if err != nil || math.IsNaN(a) || math.IsInf(a, 0) {
		return 0, fmt.Errorf("%q is not a finite number or fraction", s)
	}
	return a, nil
}

func (d *shuffleDecoder) int(dst *int) func(*yaml.Node, string) error {
	return func(v *yaml.Node, _ string) error {
		s, err := shuffleScalar(v, "an integer")
		if err != nil {
			return err
		}
		x, err := strconv.Atoi(s)
		if err != nil {
			return fmt.Errorf("%q is not an integer", s)
		}
		*dst = x
		return nil
	}
}

func (d *shuffleDecoder) bool(dst *bool) func(*yaml.Node, string) error {
	return func(v *yaml.Node, _ string) error {
		if v.Kind != yaml.ScalarNode || v.Tag != "!!bool" {
			return fmt.Errorf("%q is not true or false", v.Value)
		}
		return v.Decode(dst)
	}
}

func (d *shuffleDecoder) rounding(dst *shuffle.Rounding) func(*yaml.Node, string) error {
	return func(v *yaml.Node, _ string) error {
		s, err := shuffleScalar(v, "nearest, floor or ceil")
		if err != nil {
			return err
		}
		r, err := shuffle.ParseRounding(s)
		if err != nil {
			return err
		}
		*dst = r
		return nil
	}
}

// face reads down (each dealt card on top of its pile, the docs/shuffles-models.md worked
// example) or up (each pile keeps the order dealt).
func (d *shuffleDecoder) face(dst *bool) func(*yaml.Node, string) error {
	return func(v *yaml.Node, _ string) error {
		s, err := shuffleScalar(v, "down or up")
		if err != nil {
			return err
		}
		switch s {
		case "down":
			*dst = false
		case "up":
			*dst = true
		default:
			return fmt.Errorf("unknown face %q (want down or up)", s)
		}
		return nil
	}
}

// FormatShuffleParams writes p as YAML in the format ParseShuffleParams reads
// (every key, no comments); parsing the result gives p back exactly (numbers
// are written with the shortest decimal that reads back as the same float64).
func FormatShuffleParams(p shuffle.Params) []byte {
	num := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
	var b strings.Builder
	fmt.Fprintf(&b, "cut:\n  centre: %s\n  sd: %s\n  rounding: %s\n", num(p.Cut.Centre), num(p.Cut.SD), p.Cut.Rounding)
	fmt.Fprintf(&b, "hindu:\n  mean: %s\n  sd: %s\n  rounding: %s\n  min: %d\n", num(p.Hindu.Mean), num(p.Hindu.SD), p.Hindu.Rounding, p.Hindu.Min)
	fmt.Fprintf(&b, "riffle:\n  packets: %d\n  drop: %t\n", p.Riffle.Packets, p.Riffle.Drop)
	fmt.Fprintf(&b, "faro:\n  in: %t\n", p.Faro.In)
	order := p.Deal.Order.String()
	if p.Deal.Order == shuffle.PilesCustom {
		var piles []string
		for _, x := range p.Deal.Custom {
			piles = append(piles, strconv.Itoa(x))
		}
		order = "[" + strings.Join(piles, ", ") + "]"
	}
	face := "down"
	if p.Deal.FaceUp {
		face = "up"
	}
	fmt.Fprintf(&b, "deal:\n  piles: %d\n  order: %s\n  face: %s\n", p.Deal.Piles, order, face)
	fmt.Fprintf(&b, "overhand:\n  p: %s\n", num(p.Overhand.P))
	b.WriteString("costs:\n")
	for i := range len(shuffle.Letters) {
		c := p.Costs
		v, _ := c.Of(shuffle.Letters[i])
		fmt.Fprintf(&b, "  %c: %d\n", shuffle.Letters[i], v)
	}
	return []byte(b.String())
}

// pileOrder reads odd-even, natural, or a list of pile numbers (top first).
func (d *shuffleDecoder) pileOrder(dst *shuffle.Deal) func(*yaml.Node, string) error {
	return func(v *yaml.Node, at string) error {
		if v.Kind == yaml.SequenceNode {
			var order []int
			for _, e := range v.Content {
				var x int
				if err := d.int(&x)(e, ""); err != nil {
					return fmt.Errorf("pile list: %w", err)
				}
				order = append(order, x)
			}
			dst.Order, dst.Custom = shuffle.PilesCustom, order
			return nil
		}
		s, err := shuffleScalar(v, "odd-even, natural or a list of piles")
		if err != nil {
			return err
		}
		o, err := shuffle.ParsePileOrder(s)
		if err != nil || o == shuffle.PilesCustom {
			return fmt.Errorf("unknown pile order %q (want odd-even, natural or a list of piles such as [2, 1, 3])", s)
		}
		dst.Order, dst.Custom = o, nil
		return nil
	}
}
