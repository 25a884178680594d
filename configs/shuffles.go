package configs

import (
	_ "embed"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/calcsol/calcsol/configs/yamldecode"
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
	f, err := os.Open(path)
	if err != nil {
		return shuffle.Params{}, err
	}
	defer f.Close()
	// A few hundred bytes; read no more than maxShuffleFile of /dev/zero.
	data, err := io.ReadAll(io.LimitReader(f, maxShuffleFile+1))
	if err != nil {
		return shuffle.Params{}, err
	}
	if len(data) > maxShuffleFile {
		return shuffle.Params{}, fmt.Errorf("%s: more than %d bytes: not a shuffle parameter file", path, maxShuffleFile)
	}
	return ParseShuffleParams(data, path)
}

// maxShuffleFile is the largest shuffle parameter file read.
const maxShuffleFile = 1 << 20

// ParseShuffleParams reads shuffle parameters from YAML; file names it in errors.
func ParseShuffleParams(data []byte, file string) (shuffle.Params, error) {
	p := shuffle.DefaultParams()
	f := shuffleFile{
		Cut:      cutFile{fraction(p.Cut.Centre), fraction(p.Cut.SD), rounding(p.Cut.Rounding)},
		Hindu:    hinduFile{fraction(p.Hindu.Mean), fraction(p.Hindu.SD), rounding(p.Hindu.Rounding), p.Hindu.Min},
		Riffle:   riffleFile(p.Riffle),
		Faro:     faroFile(p.Faro),
		Deal:     dealFile{p.Deal.Piles, pileOrder{p.Deal.Order, p.Deal.Custom}, face(p.Deal.FaceUp)},
		Overhand: overhandFile{fraction(p.Overhand.P)},
	}
	for i := range len(shuffle.Letters) {
		s, _ := p.Costs.Of(shuffle.Letters[i])
		f.Costs.set(shuffle.Letters[i], s)
	}
	// Keys match case-insensitively ("costs: {o: 4}"); messages use the
	// canonical spelling.
	err := yamldecode.Decoder{FoldCase: true}.Decode(data, file, &f)
	switch {
	case errors.Is(err, yamldecode.ErrEmpty):
		return p, nil // an empty file: all defaults
	case err != nil:
		return p, err
	}
	p.Cut, p.Hindu, p.Riffle, p.Faro = f.Cut.params(), f.Hindu.params(), shuffle.Riffle(f.Riffle), shuffle.Faro(f.Faro)
	p.Deal, p.Overhand = f.Deal.params(), shuffle.Overhand{P: float64(f.Overhand.P)}
	for i := range len(shuffle.Letters) {
		if err := p.Costs.Set(shuffle.Letters[i], f.Costs.of(shuffle.Letters[i])); err != nil {
			return shuffle.DefaultParams(), err
		}
	}
	return p, nil
}

// shuffleFile is a shuffle parameter file as yamldecode.Decode reads it, filled
// beforehand with the defaults, which keys left out keep. Each section's
// CheckYAML is its Validate, run when its keys read well.
type shuffleFile struct {
	Cut      cutFile      `yaml:"cut"`
	Hindu    hinduFile    `yaml:"hindu"`
	Riffle   riffleFile   `yaml:"riffle"`
	Faro     faroFile     `yaml:"faro"`
	Deal     dealFile     `yaml:"deal"`
	Overhand overhandFile `yaml:"overhand"`
	Costs    costsFile    `yaml:"costs"`
}

type cutFile struct {
	Centre   fraction `yaml:"centre"`
	SD       fraction `yaml:"sd"`
	Rounding rounding `yaml:"rounding"`
}

func (c cutFile) params() shuffle.Cut {
	return shuffle.Cut{Centre: float64(c.Centre), SD: float64(c.SD), Rounding: shuffle.Rounding(c.Rounding)}
}

func (c *cutFile) CheckYAML() error { return c.params().Validate() }

type hinduFile struct {
	Mean     fraction `yaml:"mean"`
	SD       fraction `yaml:"sd"`
	Rounding rounding `yaml:"rounding"`
	Min      int      `yaml:"min"`
}

func (h hinduFile) params() shuffle.Hindu {
	return shuffle.Hindu{Mean: float64(h.Mean), SD: float64(h.SD), Rounding: shuffle.Rounding(h.Rounding), Min: h.Min}
}

func (h *hinduFile) CheckYAML() error { return h.params().Validate() }

// riffleFile and faroFile are shuffle.Riffle and shuffle.Faro with tags.
type riffleFile struct {
	Packets int  `yaml:"packets"`
	Drop    bool `yaml:"drop"`
}

func (r *riffleFile) CheckYAML() error { return shuffle.Riffle(*r).Validate() }

type faroFile struct {
	In bool `yaml:"in"`
}

type dealFile struct {
	Piles int       `yaml:"piles"`
	Order pileOrder `yaml:"order"`
	Face  face      `yaml:"face"`
}

func (d dealFile) params() shuffle.Deal {
	return shuffle.Deal{Piles: d.Piles, Order: d.Order.order, Custom: d.Order.custom, FaceUp: bool(d.Face)}
}

func (d *dealFile) CheckYAML() error { return d.params().Validate() }

type overhandFile struct {
	P fraction `yaml:"p"`
}

func (o *overhandFile) CheckYAML() error { return shuffle.Overhand{P: float64(o.P)}.Validate() }

// costsFile holds the seconds of each shuffle letter.
type costsFile struct {
	C seconds `yaml:"C"`
	H seconds `yaml:"H"`
	R seconds `yaml:"R"`
	F seconds `yaml:"F"`
	D seconds `yaml:"D"`
	O seconds `yaml:"O"`
	U seconds `yaml:"U"`
}

func (c *costsFile) field(letter byte) *seconds {
	return map[byte]*seconds{'C': &c.C, 'H': &c.H, 'R': &c.R, 'F': &c.F, 'D': &c.D, 'O': &c.O, 'U': &c.U}[letter]
}

func (c *costsFile) set(letter byte, s int) { *c.field(letter) = seconds(s) }
func (c *costsFile) of(letter byte) int     { return int(*c.field(letter)) }

// The values of a shuffle file that read in their own way.
type (
	fraction  float64
	rounding  shuffle.Rounding
	seconds   int
	face      bool
	pileOrder struct {
		order  shuffle.PileOrder
		custom []int
	}
)

// shuffleScalar is the text of scalar n; want says what else is wanted.
func shuffleScalar(n *yaml.Node, want string) (string, error) {
	if n.Kind != yaml.ScalarNode || yamldecode.IsNull(n) {
		return "", errors.New("want " + want)
	}
	return n.Value, nil
}

// DecodeYAML reads a number, also written as a fraction "a/b" (sd: 5/3).
func (f *fraction) DecodeYAML(n *yaml.Node) error {
	s, err := shuffleScalar(n, "a number")
	if err != nil {
		return err
	}
	x, err := parseShuffleNumber(s)
	*f = fraction(x)
	return err
}

func (r *rounding) DecodeYAML(n *yaml.Node) error {
	s, err := shuffleScalar(n, "nearest, floor or ceil")
	if err != nil {
		return err
	}
	x, err := shuffle.ParseRounding(s)
	*r = rounding(x)
	return err
}

func (s *seconds) DecodeYAML(n *yaml.Node) error {
	var x int
	if err := yamldecode.DecodeNode(n, &x); err != nil {
		return err
	}
	if x < 0 {
		return fmt.Errorf("%d s is negative", x)
	}
	*s = seconds(x)
	return nil
}

// DecodeYAML reads down (each dealt card on top of its pile, the
// docs/shuffles-models.md worked example) or up (each pile keeps the order
// dealt).
func (f *face) DecodeYAML(n *yaml.Node) error {
	s, err := shuffleScalar(n, "down or up")
	if err != nil {
		return err
	}
	switch s {
	case "down":
		*f = false
	case "up":
		*f = true
	default:
		return fmt.Errorf("unknown face %q (want down or up)", s)
	}
	return nil
}

// DecodeYAML reads odd-even, natural, or a list of pile numbers (top first).
func (o *pileOrder) DecodeYAML(n *yaml.Node) error {
	if n.Kind == yaml.SequenceNode {
		var order []int
		if err := yamldecode.DecodeNode(n, &order); err != nil {
			return err
		}
		*o = pileOrder{shuffle.PilesCustom, order}
		return nil
	}
	s, err := shuffleScalar(n, "odd-even, natural or a list of piles")
	if err != nil {
		return err
	}
	x, err := shuffle.ParsePileOrder(s)
	if err != nil || x == shuffle.PilesCustom {
		return fmt.Errorf("unknown pile order %q (want odd-even, natural or a list of piles such as [2, 1, 3])", s)
	}
	*o = pileOrder{x, nil}
	return nil
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
