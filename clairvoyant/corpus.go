package clairvoyant

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/calcsol/calcsol/solver"
)

// Settled returns the verdicts of b as results (Nodes 0), for SolveAll to
// skip the decks already settled. It checks that b is about this corpus.
func (b *BoundFile) Settled(checksum string, rules solver.Rules, n int) ([]Result, error) {
	if b.Checksum != checksum || b.Rules() != (solver.Rules{Stacks: rules.Stacks, Preplaced: rules.Preplaced}) || len(b.Winnable) != n {
		return nil, fmt.Errorf("bound file is for corpus %s (sha256 %.12s…, %d decks, %s), not this one (sha256 %.12s…, %d decks, %s)",
			b.Corpus, b.Checksum, len(b.Winnable), b.Rules(), checksum, n, rules)
	}
	res := make([]Result, n)
	for i, v := range b.Winnable {
		switch {
		case v == nil:
		case *v:
			res[i].Winnable = Yes
		default:
			res[i].Winnable = No
		}
	}
	return res, nil
}

// SolveAll solves every deck of a corpus under rules with workers
// goroutines, each deck within budget. progress, if not nil, is called after
// each deck searched with the number searched so far (from one goroutine at
// a time). It
// stops early, with ctx's error, when ctx is cancelled; the results so far
// are returned, the rest Unknown.
//
// With prior not nil (as long as decks), the decks prior settles (Yes or
// No) are not solved again: their results are copied, and only the rest is
// searched (a second run with a larger budget, say).
func SolveAll(ctx context.Context, decks []solver.Deck, rules solver.Rules, opts Options, budget Budget, workers int, prior []Result, progress func(done int)) ([]Result, error) {
	if err := rules.Validate(); err != nil {
		return nil, err
	}
	if workers < 1 {
		workers = runtime.NumCPU()
	}
	if prior != nil && len(prior) != len(decks) {
		return nil, fmt.Errorf("%d earlier results for %d decks", len(prior), len(decks))
	}
	if opts.Start < 0 || (opts.Start > 0 && opts.Start >= len(decks)) {
		return nil, fmt.Errorf("start at deck %d of %d", opts.Start, len(decks))
	}
	results := make([]Result, len(decks))
	var todo []int
	for k := range decks {
		i := (opts.Start + k) % len(decks)
		if prior != nil && prior[i].Winnable != Unknown {
			results[i] = prior[i]
			continue
		}
		todo = append(todo, i)
	}
	var next, done atomic.Int64
	var mu sync.Mutex
	var firstErr error
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sv := NewSolver(opts)
			for ctx.Err() == nil {
				j := int(next.Add(1) - 1)
				if j >= len(todo) {
					return
				}
				i := todo[j]
				res, ok := witnessed(ctx, opts.Witness, &decks[i], rules)
				var err error
				if !ok {
					res, err = sv.Solve(ctx, decks[i], rules, budget)
				}
				if err != nil {
					mu.Lock()
					if firstErr == nil {
						firstErr = fmt.Errorf("deck %d: %w", i, err)
					}
					mu.Unlock()
					return
				}
				results[i] = res
				n := int(done.Add(1))
				if progress != nil {
					mu.Lock()
					progress(n)
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	if firstErr != nil {
		return results, firstErr
	}
	if NotReached(results, opts.Start) < 0 {
		return results, nil // every deck searched to its budget, however late
	}
	return results, ctx.Err()
}

// NotReached returns the first deck, in the order SolveAll searches them from
// start, that a stopped SolveAll left without an answer of its own: neither
// settled (by prior or this run) nor searched to its budget (not searched,
// or Stopped). It is where a run stopped by its context can go on
// (Options.Start); -1 when SolveAll reached every deck.
func NotReached(results []Result, start int) int {
	for k := range results {
		i := (start + k) % len(results)
		if r := results[i]; r.Winnable == Unknown && (r.Nodes == 0 || r.Stopped) {
			return i
		}
	}
	return -1
}

// witnessed asks w for a winning line of deck and returns it as a Yes when
// it replays to a won game.
func witnessed(ctx context.Context, w func(context.Context, *solver.Deck, solver.Rules) []solver.Move, deck *solver.Deck, rules solver.Rules) (Result, bool) {
	if w == nil {
		return Result{}, false
	}
	d := *deck // the witness's own copy: the replay below reads the original
	tr := w(ctx, &d, rules)
	if tr == nil {
		return Result{}, false
	}
	g, err := solver.Replay(deck, rules, tr)
	if err != nil || !g.Won() {
		return Result{}, false
	}
	return Result{Winnable: Yes, Trace: tr}, true
}

// Tally counts the verdicts of a corpus.
type Tally struct {
	Decks, Winnable, Unwinnable, Unknown int
	Nodes                                int64
}

// Count tallies results.
func Count(results []Result) Tally {
	t := Tally{Decks: len(results)}
	for _, r := range results {
		switch r.Winnable {
		case Yes:
			t.Winnable++
		case No:
			t.Unwinnable++
		default:
			t.Unknown++
		}
		t.Nodes += r.Nodes
	}
	return t
}

// BoundFile is the per-corpus record of which decks are winnable, written by
// calcsol solve --corpus --out and read by the tournament to put a strategy's
// wins beside what can be won. Winnable[i] is deck i's verdict in corpus
// order: true, false, or null when the budget did not settle it.
type BoundFile struct {
	Format    string `json:"format"`
	Corpus    string `json:"corpus"`
	Checksum  string `json:"checksum"` // the corpus file's sha256 (its "# sha256" line)
	Stacks    int    `json:"stacks"`
	Preplaced bool   `json:"preplaced"`
	Budget    int64  `json:"budget_nodes"` // per deck, 0 for none
	Decks     int    `json:"decks"`
	Won       int    `json:"winnable"`
	Lost      int    `json:"unwinnable"`
	Unknown   int    `json:"unknown"`
	// Lines names the file beside this one that holds a winning line for
	// every winnable deck (WriteBound, VerifyBound); "" in files without.
	Lines    string  `json:"lines,omitempty"`
	Winnable []*bool `json:"per_deck,omitempty"` // written last by Write, once
}

// BoundFormat is the Format of a BoundFile.
const BoundFormat = "calcsol-clairvoyant-bound 1"

// NewBoundFile records results for the corpus with the given name and checksum.
func NewBoundFile(corpus, checksum string, rules solver.Rules, budget Budget, results []Result) *BoundFile {
	t := Count(results)
	b := &BoundFile{Format: BoundFormat, Corpus: corpus, Checksum: checksum, Stacks: rules.Stacks,
		Preplaced: rules.Preplaced, Budget: budget.Nodes, Decks: t.Decks, Won: t.Winnable,
		Lost: t.Unwinnable, Unknown: t.Unknown, Winnable: make([]*bool, len(results))}
	for i, r := range results {
		b.Winnable[i] = r.Winnable.Bool()
	}
	return b
}

// Rules returns the variant the bound is for.
func (b *BoundFile) Rules() solver.Rules {
	return solver.Rules{Stacks: b.Stacks, Preplaced: b.Preplaced}
}

// Write writes b as indented JSON, one deck verdict a line.
func (b *BoundFile) Write(w io.Writer) error {
	per := b.Winnable
	head := *b
	head.Winnable = nil
	hb, err := json.MarshalIndent(head, "", "  ")
	if err != nil {
		return err
	}
	// Replace the closing brace with the per-deck list, one verdict a line,
	// so that the file diffs deck by deck.
	out := append(hb[:len(hb)-2], ",\n  \"per_deck\": ["...)
	for i, v := range per {
		if i > 0 {
			out = append(out, ',')
		}
		out = append(out, "\n    "...)
		switch {
		case v == nil:
			out = append(out, "null"...)
		case *v:
			out = append(out, "true"...)
		default:
			out = append(out, "false"...)
		}
	}
	out = append(out, "\n  ]\n}\n"...)
	_, err = w.Write(out)
	return err
}

// ErrCounts is the error of a bound file whose counts do not add up to its
// verdicts.
var ErrCounts = errors.New("the counts do not match the verdicts")

// ReadBoundFile reads a bound file and checks that its counts match its decks.
func ReadBoundFile(r io.Reader) (*BoundFile, error) {
	var b BoundFile
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&b); err != nil {
		return nil, fmt.Errorf("bound file: %w", err)
	}
	if b.Format != BoundFormat {
		return nil, fmt.Errorf("bound file: format %q, want %q", b.Format, BoundFormat)
	}
	var won, lost, unknown int
	for _, v := range b.Winnable {
		switch {
		case v == nil:
			unknown++
		case *v:
			won++
		default:
			lost++
		}
	}
	if len(b.Winnable) != b.Decks || won != b.Won || lost != b.Lost || unknown != b.Unknown {
		return nil, fmt.Errorf("bound file: %w: %d decks, %d/%d/%d winnable/unwinnable/unknown, but %d verdicts (%d/%d/%d)",
			ErrCounts, b.Decks, b.Won, b.Lost, b.Unknown, len(b.Winnable), won, lost, unknown)
	}
	if err := b.Rules().Validate(); err != nil {
		return nil, fmt.Errorf("bound file: %w", err)
	}
	return &b, nil
}

// ReadBoundHeader reads a bound file's fields up to its verdicts, which it
// leaves unread (Winnable is nil, the counts unchecked): enough to tell
// which corpus and rules the file is for without decoding a verdict a deck.
// ReadBoundFile reads and checks the whole file.
func ReadBoundHeader(r io.Reader) (*BoundFile, error) {
	dec := json.NewDecoder(r)
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, fmt.Errorf("bound file: want a JSON object")
	}
	fields := map[string]json.RawMessage{}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, fmt.Errorf("bound file: %w", err)
		}
		key, _ := t.(string)
		if key == "per_deck" {
			break
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, fmt.Errorf("bound file: %w", err)
		}
		fields[key] = v
	}
	head, err := json.Marshal(fields)
	if err != nil {
		return nil, err
	}
	var b BoundFile
	hd := json.NewDecoder(bytes.NewReader(head))
	hd.DisallowUnknownFields()
	if err := hd.Decode(&b); err != nil {
		return nil, fmt.Errorf("bound file: %w", err)
	}
	if b.Format != BoundFormat {
		return nil, fmt.Errorf("bound file: format %q, want %q", b.Format, BoundFormat)
	}
	return &b, nil
}

// StrategyWitness plays a strategy on the decks of SolveAll (its Line is an
// Options.Witness): the game it plays on a deck, when that game is won. It
// opens a session when a worker needs one and keeps it for the worker's
// next deck (a plugin strategy starts a process per session, not per deck);
// Close closes them all.
//
// With a Handoff, a game the strategy loses is not the end: the search takes
// over from the positions the game passed through (see Handoff), so that the
// strategy's opening and the search's knowledge of the order together can
// show a deck winnable that neither shows alone within its budget.
type StrategyWitness struct {
	s     solver.Strategy
	rules solver.Rules
	mu    sync.Mutex
	free  []solver.Session
	all   []solver.Session

	hand    Handoff
	solvers []*Solver // idle solvers for the handoff searches
	sat     SATSolver // asked about the positions the searches leave unknown (SetSAT)
	satTime time.Duration
	nodes   atomic.Int64 // search nodes spent in handoff searches
	pilot   int          // the deepest pilot level played (SetPilot); 0: the strategy's game
	assign  bool         // the pilot stacks cards assigned (SetPilot)
}

// SetSAT has the searches from a game's positions (Autopsy; handoffs) ask
// sat, for up to d each (0: no limit), about the positions they leave
// unknown (Options.SAT). Call it before the witness is used.
func (w *StrategyWitness) SetSAT(sat SATSolver, d time.Duration) { w.sat, w.satTime = sat, d }

// HandoffNodes returns the search nodes spent so far in handoff searches,
// the failed ones included (SolveAll's results count only the search from
// the start of each deck).
func (w *StrategyWitness) HandoffNodes() int64 { return w.nodes.Load() }

// Handoff says where a StrategyWitness's search takes over from a lost game:
// at the position where the stock first holds s cards (a card drawn), for
// each s of Stock, the fewest cards first (the cheapest searches), each with
// Budget. The first search that finds a win ends the attempts; the line is
// the game's moves up to that position followed by the search's.
type Handoff struct {
	Stock  []int
	Budget Budget
}

// SetHandoff makes the witness search on from its lost games (see Handoff).
// Call it before the witness is used.
func (w *StrategyWitness) SetHandoff(h Handoff) {
	h.Stock = slices.Clone(h.Stock)
	slices.Sort(h.Stock)
	h.Stock = slices.Compact(h.Stock)
	w.hand = h
}

// NewStrategyWitness opens a first session of s for rules, so that a
// strategy that cannot play them (a table for another number of stacks, a
// plugin that does not start) is an error here, not a silent lack of
// witnesses.
func NewStrategyWitness(ctx context.Context, s solver.Strategy, rules solver.Rules) (*StrategyWitness, error) {
	sess, err := s.Start(ctx, rules)
	if err != nil {
		return nil, err
	}
	return &StrategyWitness{s: s, rules: rules, free: []solver.Session{sess}, all: []solver.Session{sess}}, nil
}

// Line plays the deck and returns the moves when the game is won, else nil:
// the strategy's game, or its pilots' (SetPilot), then the handoff searches
// from the deepest lost game (SetHandoff). See Witnesses for several
// strategies.
func (w *StrategyWitness) Line(ctx context.Context, d *solver.Deck, r solver.Rules) []solver.Move {
	return Witnesses{w}.Line(ctx, d, r)
}

// handoff searches on from the positions of the lost game trace where the
// stock holds the sizes of w.hand.Stock, and returns the first winning line.
func (w *StrategyWitness) handoff(ctx context.Context, d *solver.Deck, r solver.Rules, trace []solver.Move) []solver.Move {
	if len(w.hand.Stock) == 0 {
		return nil
	}
	cut, err := cuts(d, r, trace)
	if err != nil {
		return nil
	}
	sv := w.solver()
	defer w.putSolver(sv)
	for _, s := range w.hand.Stock {
		n, ok := cut[s]
		if !ok || ctx.Err() != nil {
			continue
		}
		res, err := sv.SolveAfter(ctx, *d, r, trace[:n], w.hand.Budget)
		w.nodes.Add(res.Nodes)
		if err == nil && res.Winnable == Yes {
			return append(slices.Clone(trace[:n]), res.Trace...)
		}
	}
	return nil
}

// cuts maps each number of cards s that the stock holds, with a card drawn,
// somewhere in the game trace plays on d, to the length of the prefix of
// trace after which that first happens.
func cuts(d *solver.Deck, r solver.Rules, trace []solver.Move) (map[int]int, error) {
	cut := map[int]int{}
	g, err := solver.NewGame(d, r)
	if err != nil {
		return nil, err
	}
	for i := 0; ; i++ {
		if g.Drawn() != 0 {
			if _, ok := cut[g.StockLen()]; !ok {
				cut[g.StockLen()] = i
			}
		}
		if i == len(trace) || g.Apply(trace[i]) != nil {
			break
		}
	}
	return cut, nil
}

// solver returns an idle handoff solver, or a new one with a smaller memo
// than the corpus search's (a handoff search is short).
func (w *StrategyWitness) solver() *Solver {
	w.mu.Lock()
	defer w.mu.Unlock()
	if sv, ok := pop(&w.solvers); ok {
		return sv
	}
	return NewSolver(Options{MemoBits: 18, SAT: w.sat, SATTime: w.satTime})
}

// pop removes and returns the last element of *s, if there is one.
func pop[T any](s *[]T) (T, bool) {
	var v T
	n := len(*s)
	if n == 0 {
		return v, false
	}
	v, *s = (*s)[n-1], (*s)[:n-1]
	return v, true
}

func (w *StrategyWitness) putSolver(sv *Solver) {
	w.mu.Lock()
	w.solvers = append(w.solvers, sv)
	w.mu.Unlock()
}

func (w *StrategyWitness) get(ctx context.Context) solver.Session {
	w.mu.Lock()
	defer w.mu.Unlock()
	if sess, ok := pop(&w.free); ok {
		return sess
	}
	sess, err := w.s.Start(ctx, w.rules)
	if err != nil {
		return nil
	}
	w.all = append(w.all, sess)
	return sess
}

func (w *StrategyWitness) put(sess solver.Session) {
	w.mu.Lock()
	w.free = append(w.free, sess)
	w.mu.Unlock()
}

// Close closes every session the witness opened.
func (w *StrategyWitness) Close() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	var first error
	for _, sess := range w.all {
		if err := sess.Close(); err != nil && first == nil {
			first = err
		}
	}
	w.all, w.free = nil, nil
	return first
}
