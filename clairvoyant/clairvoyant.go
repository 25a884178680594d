// Package clairvoyant decides whether a deal of Calculation can be won when
// the order of the stock is known, and gives a winning trace when it can.
//
// The share of winnable deals bounds every strategy from above: a player who
// sees only the cards drawn so far can win no deal that a player who sees the
// whole stock cannot. The search and the proof of each pruning it uses are in
// docs/clairvoyant.md; the answers are exact: a deal is Yes (with a trace that
// solver.Replay accepts), No (every line of play was refuted), or Unknown
// (the budget ran out first) — never a guess.
package clairvoyant

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/calcsol/calcsol/solver"
)

// Verdict is the answer for one deal.
type Verdict uint8

// The three verdicts. Unknown is the zero value: a search that was stopped
// settles nothing.
const (
	Unknown Verdict = iota
	Yes             // winnable: Result.Trace wins it
	No              // unwinnable: every line of play loses
)

// String returns "yes", "no" or "unknown".
func (v Verdict) String() string {
	switch v {
	case Yes:
		return "yes"
	case No:
		return "no"
	}
	return "unknown"
}

// Bool returns the verdict as a JSON-friendly *bool: true, false, or nil for Unknown.
func (v Verdict) Bool() *bool {
	switch v {
	case Yes:
		t := true
		return &t
	case No:
		f := false
		return &f
	}
	return nil
}

// Budget limits one search. The zero Budget is unlimited; the context's
// deadline or cancellation stops a search too.
type Budget struct {
	// Nodes is the largest number of search nodes (card decisions) to
	// expand; 0 means no limit.
	Nodes int64
}

// Result is the answer for one deal.
type Result struct {
	Winnable Verdict
	// Trace wins the deal when Winnable is Yes (for SolveAfter: the moves
	// after the prefix); nil otherwise.
	Trace []solver.Move
	// Nodes is the number of search nodes expanded.
	Nodes int64
	// Stopped is set on an Unknown when the search was stopped by its
	// context (a timeout, an interrupt), not by its budget.
	Stopped bool
	// SAT is set when the answer came from the SAT solver (SolveSAT, or
	// Options.SAT after the search) rather than from the search.
	SAT bool
}

// Options switch the prunings off, one by one, for checking them. The zero
// Options is the full solver.
type Options struct {
	// NoCycleCheck keeps stacking moves that close a cycle in the
	// dependency graph (they can never win, see docs/clairvoyant.md).
	NoCycleCheck bool
	// NoMemo turns off the table of positions already refuted.
	NoMemo bool
	// NoSymmetry tries every stack even when two hold the same cards.
	NoSymmetry bool
	// NoBound turns off the refutation of positions by the lower bounds
	// (docs/clairvoyant.md, Lemma 6).
	NoBound bool
	// Restarts, when positive, changes the order of the search (never its
	// answers): after the discrepancy passes with at most 0, 1 and 2
	// departures from the move ordering, runs with a randomly perturbed
	// move ordering take up to this many nodes a deck before the search
	// without limit (docs/clairvoyant.md, "Restarts"). It finds the wins of
	// hard 3-stack deals in fewer nodes; 0, the default, is off.
	Restarts int64
	// MemoBits is log2 of the largest number of refuted positions kept
	// (0: the default, 2^21, about 100 MB). The table grows to it as needed.
	MemoBits int
	// Witness, if not nil, is asked by SolveAll for a winning line before a
	// deck is searched (the game a strategy played on it, say). A line that
	// replays to a won game settles the deck as winnable without a search;
	// any other answer is ignored, so a witness can add proven wins and
	// nothing else. SolveAll calls it from several goroutines at once.
	Witness func(ctx context.Context, deck *solver.Deck, rules solver.Rules) []solver.Move
	// SAT, if not nil, decides the deals the search leaves unknown: the
	// deal is encoded as a formula, satisfiable exactly when it can be won,
	// and given to this SAT solver for up to SATTime (0: no limit) —
	// SolveSAT, SolveSATAfter. It applies to deals and to the positions
	// of SolveAfter (autopsies; handoffs only of a StrategyWitness given
	// SetSAT, which calcsol solve does not do), not to SolveFrom's.
	SAT     SATSolver
	SATTime time.Duration
	// Start is the deck SolveAll begins with: it searches the decks from
	// Start on, then those before it (0: in corpus order). It changes which
	// decks a timeout leaves unsearched, never an answer; a run stopped
	// early can go on where it stopped (NotReached).
	Start int
}

// Plain returns Options with every pruning off: the search then differs from
// an exhaustive one only by the domination argument its moves are built on.
func Plain() Options {
	return Options{NoCycleCheck: true, NoMemo: true, NoSymmetry: true, NoBound: true}
}

// ErrBadPrefix is returned by SolveAfter when the prefix is not a legal
// sequence of moves on the deck.
var ErrBadPrefix = errors.New("illegal prefix")

// Solver solves deals one after the other, keeping its tables between them;
// it is not safe for concurrent use: give each goroutine its own.
type Solver struct {
	opts Options
	s    searcher
}

// NewSolver returns a Solver with the given options.
func NewSolver(opts Options) *Solver {
	if opts.MemoBits == 0 {
		opts.MemoBits = 21
	}
	opts.MemoBits = min(max(opts.MemoBits, 10), 30)
	return &Solver{opts: opts}
}

// Solve decides deck under rules with the stock order known: it is the
// method Solve of a new Solver with the default options.
func Solve(ctx context.Context, deck solver.Deck, rules solver.Rules, budget Budget) (Result, error) {
	return NewSolver(Options{}).Solve(ctx, deck, rules, budget)
}

// Solve decides deck under rules. The error is about the input (an invalid
// deck or rules) or, with Options.SAT, from the SAT solver (ErrSAT); a
// search stopped by the budget or the context returns Unknown and no error.
func (sv *Solver) Solve(ctx context.Context, deck solver.Deck, rules solver.Rules, budget Budget) (Result, error) {
	return sv.SolveAfter(ctx, deck, rules, nil, budget)
}

// SolveFrom decides position p as if the rest of its stock, after the drawn
// card, came in the order rest (len(rest) == p.StockLen()): the question a
// player who does not see the stock asks of each sampled order (package
// search's pimc player). Unlike SolveAfter it has no deck to replay a win
// on, so it returns the verdict only.
func (sv *Solver) SolveFrom(ctx context.Context, p solver.View, rest []solver.Rank, budget Budget) (Verdict, int64, error) {
	if len(rest) != p.StockLen() {
		return Unknown, 0, fmt.Errorf("clairvoyant: %d cards for a stock of %d", len(rest), p.StockLen())
	}
	var cards [solver.DeckSize]solver.Rank
	n := 0
	if p.Drawn() != 0 {
		cards[0], n = p.Drawn(), 1
	}
	var count [solver.NumRanks + 1]int
	for _, r := range rest {
		if r < 1 || r > solver.NumRanks {
			return Unknown, 0, fmt.Errorf("clairvoyant: rank %d in the stock order", r)
		}
		count[r]++
	}
	for r := solver.Rank(1); r <= solver.NumRanks; r++ {
		if count[r] != p.Remaining(r) {
			return Unknown, 0, fmt.Errorf("clairvoyant: the order has %d of rank %s; the stock holds %d", count[r], r, p.Remaining(r))
		}
	}
	n += copy(cards[n:], rest)
	s := &sv.s
	s.resetCards(ctx, cards[:n], p.Rules(), sv.opts, budget)
	if err := s.loadPosition(p); err != nil {
		return Unknown, 0, err
	}
	return s.solveRoot(), s.nodes, nil
}

// SolveAfter decides the position reached by playing prefix on deck under
// rules: can the game still be won from there? Result.Trace holds the moves
// after the prefix. Stacked cards of the prefix count as unassigned whatever
// the prefix says (the rules let a stack top go to any table that needs it).
func (sv *Solver) SolveAfter(ctx context.Context, deck solver.Deck, rules solver.Rules, prefix []solver.Move, budget Budget) (Result, error) {
	if err := deck.Validate(); err != nil {
		return Result{}, fmt.Errorf("deck: %w", err)
	}
	if err := rules.Validate(); err != nil {
		return Result{}, err
	}
	g, err := solver.Replay(&deck, rules, prefix)
	if err != nil {
		return Result{}, fmt.Errorf("%w: %v", ErrBadPrefix, err)
	}
	s := &sv.s
	s.reset(ctx, &deck, rules, sv.opts, budget)
	if err := s.loadPosition(g.View()); err != nil {
		return Result{}, err
	}
	v := s.solveRoot()
	res := Result{Winnable: v, Nodes: s.nodes, Stopped: v == Unknown && ctx.Err() != nil}
	if v == Unknown && !res.Stopped && sv.opts.SAT != nil {
		sctx, cancel := ctx, context.CancelFunc(func() {})
		if sv.opts.SATTime > 0 {
			sctx, cancel = context.WithTimeout(ctx, sv.opts.SATTime)
		}
		r, err := SolveSATAfter(sctx, deck, rules, prefix, sv.opts.SAT)
		cancel()
		if err != nil {
			return Result{}, err
		}
		r.Nodes, r.Stopped = s.nodes, r.Winnable == Unknown && ctx.Err() != nil
		if r.Winnable == Unknown {
			r.SAT = false
		}
		return r, nil
	}
	if v == Yes {
		res.Trace = append([]solver.Move(nil), s.win...)
		// Every win is checked by the engine before it is reported: a
		// "yes" stands on a replayed trace, not on the search alone.
		all := append(append([]solver.Move(nil), prefix...), res.Trace...)
		if end, err := solver.Replay(&deck, rules, all); err != nil || !end.Won() {
			return Result{}, fmt.Errorf("clairvoyant: internal error: the winning line does not replay (%v)", err)
		}
	}
	return res, nil
}
