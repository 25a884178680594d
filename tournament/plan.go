package tournament

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/calcsol/calcsol/solver"
)

// Entrant is a strategy that takes part in a tournament.
type Entrant struct {
	// Name labels the entrant in records and reports; unique in a plan.
	Name string
	// Spec says what was built ("priority:deadlock_check=exact"), for reports.
	Spec string
	// Hash identifies the entrant's configuration, including the contents of
	// any file it reads (a table), so that a baseline can tell a changed
	// strategy from a regression. The caller computes it.
	Hash     string
	Strategy solver.Strategy
	// Batch is the number of games whose decisions reach a session in one
	// Decide call; 0 means the strategy's own preference (solver.Batcher),
	// else 1.
	Batch int
	// Corpora names the corpora the entrant plays; empty means all of the
	// plan's. A slow strategy can so be entered on a small corpus only.
	Corpora []string
}

// plays reports whether e is entered on the corpus named c.
func (e *Entrant) plays(c string) bool {
	return len(e.Corpora) == 0 || slices.Contains(e.Corpora, c)
}

// batch is the entrant's batch size (see Entrant.Batch).
func (e *Entrant) batch() int {
	if e.Batch > 0 {
		return e.Batch
	}
	if b, ok := e.Strategy.(solver.Batcher); ok && b.BatchSize() > 0 {
		return b.BatchSize()
	}
	return 1
}

// Variant is a rule variant of a tournament: the rules and the time budget
// that applies to every strategy alike.
type Variant struct {
	Rules  solver.Rules
	Budget solver.Budget
}

// Key names the variant in records: "3-base", "4-preplaced", with a budget
// "3-base/move=1ms,game=100ms".
func (v Variant) Key() string {
	k := strconv.Itoa(v.Rules.Stacks) + "-base"
	if v.Rules.Preplaced {
		k = strconv.Itoa(v.Rules.Stacks) + "-preplaced"
	}
	var b []string
	if v.Budget.Move > 0 {
		b = append(b, "move="+v.Budget.Move.String())
	}
	if v.Budget.Game > 0 {
		b = append(b, "game="+v.Budget.Game.String())
	}
	if len(b) > 0 {
		k += "/" + strings.Join(b, ",")
	}
	return k
}

// ParseVariant reads a Key back.
func ParseVariant(key string) (Variant, error) {
	var v Variant
	base, budget, _ := strings.Cut(key, "/")
	n, kind, ok := strings.Cut(base, "-")
	stacks, err := strconv.Atoi(n)
	if !ok || err != nil || (kind != "base" && kind != "preplaced") {
		return v, fmt.Errorf("rules %q: want STACKS-base or STACKS-preplaced", key)
	}
	v.Rules = solver.Rules{Stacks: stacks, Preplaced: kind == "preplaced"}
	if err := v.Rules.Validate(); err != nil {
		return v, fmt.Errorf("rules %q: %w", key, err)
	}
	if budget != "" {
		for _, kv := range strings.Split(budget, ",") {
			k, val, _ := strings.Cut(kv, "=")
			d, err := time.ParseDuration(val)
			if err != nil || d <= 0 {
				return v, fmt.Errorf("rules %q: budget %q", key, kv)
			}
			switch k {
			case "move":
				v.Budget.Move = d
			case "game":
				v.Budget.Game = d
			default:
				return v, fmt.Errorf("rules %q: budget %q: want move= or game=", key, kv)
			}
		}
	}
	return v, nil
}

// Plan is what a tournament plays: every entrant on every corpus it is
// entered on, under every rule variant, each deck once. Bounds, if any, say
// which decks of a corpus can be won at all under some rules; the report then
// counts each strategy's wins among those decks.
type Plan struct {
	Entrants []Entrant
	Corpora  []*Corpus
	Variants []Variant
	Bounds   []Bound
	// Blind, when set, makes the tournament blind (blind.go): every corpus
	// must have been drawn by it (Blind.Draw).
	Blind *Blind
}

// Cell is one strategy × corpus × rules of a plan.
type Cell struct {
	Entrant *Entrant
	Corpus  *Corpus
	Variant Variant
	// Applicable is false when the strategy cannot play the rules
	// (solver.ErrNotApplicable); Reason then says why.
	Applicable bool
	Reason     string
	// Stochastic is the strategy's Info().Stochastic.
	Stochastic bool
	seed       uint64 // the cell's part of each game's seed
}

// Tournament is a checked plan, ready to run: every entrant has been started
// once under every variant, so that a strategy that cannot play a variant is
// known (and reported as not applicable) and one that fails to start stops
// the tournament before any game.
type Tournament struct {
	plan  Plan
	cells []Cell
	seed  uint64
	blind *blindPlay // nil: public corpora
}

// New checks plan and probes each entrant under each variant (Start, then
// Close). seed is the run seed from which stochastic strategies' game seeds
// are derived (see GameSeed).
func New(ctx context.Context, plan Plan, seed uint64) (*Tournament, error) {
	if len(plan.Entrants) == 0 || len(plan.Corpora) == 0 || len(plan.Variants) == 0 {
		return nil, errors.New("tournament: the plan needs at least one strategy, corpus and rule variant")
	}
	names := map[string]bool{}
	for _, e := range plan.Entrants {
		if e.Name == "" || names["s"+e.Name] {
			return nil, fmt.Errorf("tournament: strategy name %q empty or given twice", e.Name)
		}
		if e.Strategy == nil {
			return nil, fmt.Errorf("tournament: strategy %s: nothing built", e.Name)
		}
		names["s"+e.Name] = true
	}
	for _, c := range plan.Corpora {
		if c.Name == "" || names["c"+c.Name] {
			return nil, fmt.Errorf("tournament: corpus name %q empty or given twice", c.Name)
		}
		names["c"+c.Name] = true
	}
	for _, e := range plan.Entrants {
		for _, c := range e.Corpora {
			if !names["c"+c] {
				return nil, fmt.Errorf("tournament: strategy %s: no corpus %q in the plan", e.Name, c)
			}
		}
	}
	for _, v := range plan.Variants {
		if err := v.Rules.Validate(); err != nil {
			return nil, fmt.Errorf("tournament: %w", err)
		}
		if names["r"+v.Key()] {
			return nil, fmt.Errorf("tournament: rules %s given twice", v.Key())
		}
		names["r"+v.Key()] = true
	}
	seen := map[string]bool{}
	for i := range plan.Bounds {
		if err := plan.Bounds[i].check(&plan, seen); err != nil {
			return nil, fmt.Errorf("tournament: %w", err)
		}
	}
	if err := checkBlind(plan); err != nil {
		return nil, fmt.Errorf("tournament: %w", err)
	}
	t := &Tournament{plan: plan, seed: seed}
	gameSeed := seed
	if plan.Blind != nil {
		gameSeed ^= plan.Blind.GameSeedBase()
	}
	for i := range plan.Entrants {
		e := &t.plan.Entrants[i]
		type probe struct {
			ok     bool
			reason string
		}
		probes := make([]probe, len(plan.Variants))
		for j, v := range plan.Variants {
			sess, err := startSession(ctx, e.Strategy, v.Rules)
			switch {
			case err == nil:
				probes[j].ok = true
				if cerr := sess.Close(); cerr != nil {
					return nil, fmt.Errorf("tournament: strategy %s, rules %s: closing: %w", e.Name, v.Key(), cerr)
				}
			case errors.Is(err, solver.ErrNotApplicable):
				probes[j].reason = err.Error()
			default:
				return nil, fmt.Errorf("tournament: strategy %s, rules %s: %w", e.Name, v.Key(), err)
			}
		}
		stochastic := e.Strategy.Info().Stochastic
		for _, c := range plan.Corpora {
			if !e.plays(c.Name) {
				continue
			}
			for j, v := range plan.Variants {
				t.cells = append(t.cells, Cell{Entrant: e, Corpus: c, Variant: v,
					Applicable: probes[j].ok, Reason: probes[j].reason, Stochastic: stochastic,
					seed: cellSeed(gameSeed, e.Name, c.Checksum)})
			}
		}
	}
	if plan.Blind != nil {
		t.blind = newBlindPlay(plan.Blind, t)
	}
	return t, nil
}

// Cells returns the cells in the plan's order: strategies in the order given,
// then the corpora each is entered on, then variants. Records come in this order, decks ascending.
func (t *Tournament) Cells() []Cell { return t.cells }

// Plan returns the plan.
func (t *Tournament) Plan() Plan { return t.plan }

// Shard is a deterministic share of a tournament's games: shard K of N plays
// the decks d with d mod N = K−1 of every cell. The zero Shard is the whole.
type Shard struct{ K, N int }

// ParseShard reads "k/N".
func ParseShard(s string) (Shard, error) {
	a, b, ok := strings.Cut(s, "/")
	k, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || n < 1 || k < 1 || k > n {
		return Shard{}, fmt.Errorf("shard %q: want k/N with 1 ≤ k ≤ N", s)
	}
	return Shard{k, n}, nil
}

func (s Shard) String() string {
	if s.N <= 1 {
		return ""
	}
	return fmt.Sprintf("%d/%d", s.K, s.N)
}

// Has reports whether deck d is in the shard.
func (s Shard) Has(d int) bool { return s.N <= 1 || d%s.N == s.K-1 }

// count is the number of decks of an n-deck corpus in the shard.
func (s Shard) count(n int) int {
	if s.N <= 1 {
		return n
	}
	k := s.K - 1
	if k >= n {
		return 0
	}
	return (n-k-1)/s.N + 1
}

// Games is the number of games the shard plays: every deck in the shard of
// every applicable cell.
func (t *Tournament) Games(s Shard) int {
	n := 0
	for _, c := range t.cells {
		if c.Applicable {
			n += s.count(c.Corpus.Len)
		}
	}
	return n
}

// GameSeed is the seed of a game: a hash of the run seed, the strategy's
// name, the corpus checksum and the deck, so that every shard, resumed run
// and regression check gives a stochastic strategy the same randomness for
// the same game.
func GameSeed(runSeed uint64, strategy, corpusSHA string, deck int) uint64 {
	return mix(cellSeed(runSeed, strategy, corpusSHA) ^ uint64(deck))
}

func cellSeed(runSeed uint64, strategy, corpusSHA string) uint64 {
	// FNV-1a over the names, then mixed with the run seed.
	h := uint64(14695981039346656037)
	for _, s := range []string{strategy, "\x00", corpusSHA} {
		for i := 0; i < len(s); i++ {
			h ^= uint64(s[i])
			h *= 1099511628211
		}
	}
	return mix(h ^ mix(runSeed))
}

// mix is SplitMix64's finaliser (Steele, Lea & Flood, "Fast splittable
// pseudorandom number generators", OOPSLA 2014).
func mix(z uint64) uint64 {
	z += 0x9e3779b97f4a7c15
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}
