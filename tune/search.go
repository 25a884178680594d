// Package tune searches for stronger strategies: it changes a priority
// table's operation lists and options, or any parameters a strategy kind
// declares (solver.Param), one local move at a time, and keeps a change
// only when it wins significantly more of the same training decks.
//
// The search is iterated local search [LourencoMartinStutzle2003]: a
// stochastic hill climb that takes the first neighbour that is better, until
// Patience neighbours in a row are not; then the local optimum reached is
// compared with the previous one (the better becomes the home base) and a
// kick of a few random moves from the home base starts the next climb.
//
// Every candidate is scored on the same training decks as the point it
// would replace, so the two are compared deck by deck: it is accepted when
// McNemar's exact test on the decks only one of them wins says it is better
// (or, with a margin rule, when it wins at least Margin more of those
// decks), never on a rate alone. Each accepted point is also scored on the
// validation decks, and the point with the most validation wins is the
// result; a third corpus that the search never sees (Report) tells how much
// of the gain is real.
//
// With an evaluation budget the search is deterministic: the same seed,
// corpora, start and budget give the same log and result, whatever the
// number of workers. A time budget is not.
package tune

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"time"

	"github.com/calcsol/calcsol/solver"
	"github.com/calcsol/calcsol/strategies"
	"github.com/calcsol/calcsol/tournament"
	"github.com/calcsol/calcsol/tournament/stats"
)

// AcceptRule says when a candidate beats the point it would replace, from
// the decks only one of them wins.
type AcceptRule struct {
	// Alpha is the level of McNemar's exact two-sided test: the candidate is
	// better when it wins more of the discordant decks and p < Alpha.
	Alpha float64
	// Margin, when positive, replaces the test: the candidate is better when
	// it wins at least Margin more decks than the incumbent.
	Margin int
}

// DefaultAccept is McNemar's exact test at the 5 % level.
var DefaultAccept = AcceptRule{Alpha: 0.05}

// Better reports whether a candidate that alone wins onlyCand decks beats an
// incumbent that alone wins onlyInc, and McNemar's exact p-value.
func (a AcceptRule) Better(onlyInc, onlyCand int) (bool, float64) {
	p := stats.McNemarExact(onlyInc, onlyCand)
	if a.Margin > 0 {
		return onlyCand-onlyInc >= a.Margin, p
	}
	return onlyCand > onlyInc && p < a.Alpha, p
}

func (a AcceptRule) String() string {
	if a.Margin > 0 {
		return fmt.Sprintf("margin %d decks", a.Margin)
	}
	return fmt.Sprintf("McNemar exact p < %g", a.Alpha)
}

// Options configure a search.
type Options struct {
	Rules    solver.Rules
	Train    *Corpus // drives the search
	Validate *Corpus // picks the result among the accepted points
	Space    *Space
	Start    Candidate
	// StartName names the start in the log ("nanzaki-shintani").
	StartName string
	// Build makes the strategy a candidate stands for.
	Build func(Candidate) (solver.Strategy, error)
	Seed  uint64
	// Evals is the budget in candidates scored on the training decks (the
	// start is evaluation 0); Time a wall-clock budget, which makes the
	// search depend on the machine's speed. At least one must be set;
	// whichever runs out first ends the search.
	Evals int
	Time  time.Duration
	// Accept is the acceptance rule (zero: DefaultAccept).
	Accept AcceptRule
	// Race, in (0, 1), plays a candidate first on that share of the training
	// decks and drops it there if it is already worse by McNemar's exact test
	// at level RaceAlpha; 0 plays every candidate on every deck. (Racing as
	// in [MaronMoore1994], with the exact test in place of Hoeffding's bound.)
	Race      float64
	RaceAlpha float64
	// Patience is the number of rejected neighbours in a row after which
	// the climb counts as stuck and a kick of Kick random moves follows.
	Patience int
	Kick     int
	// Incremental says Build(c) is the plain priority strategy playing
	// c.Table: the search then plays tables itself and, for a neighbour, only
	// the training decks its change can affect (exact; see incremental.go).
	Incremental bool
	// Workers play each candidate's games in parallel (tournament.Evaluate).
	Workers int
	// Log receives the search as JSON lines: a Header, then a Record per
	// evaluation. Resume holds the log of an earlier run of the same search
	// (ReadLog), which is replayed rather than played again.
	Log    io.Writer
	Resume *Log
	// Progress, if set, is called after every evaluation.
	Progress func(Progress)
}

// Progress is reported after every evaluation.
type Progress struct {
	Evals, Budget int // evaluations done; the budget (0: time only)
	Elapsed       time.Duration
	Budgeted      time.Duration // the time budget, if any
	Accepted      int           // points accepted so far
	TrainRate     float64       // the current point's training rate
	BestValRate   float64       // the best validation rate so far
	Replayed      bool          // the evaluation came from the resumed log
}

// Point is a candidate the search accepted, with its scores.
type Point struct {
	Candidate Candidate
	Eval      int // the evaluation that scored it
	TrainWins int
	ValWins   int
}

// Result is what a search found.
type Result struct {
	Start, Best          Point
	TrainDecks, ValDecks int
	Evals                int // evaluations made, the start not counted
	Records              []Record
	Elapsed              time.Duration
	Games                int // games played (replayed evaluations not counted)
	// Skipped are the training games an incremental evaluation did not play,
	// because the candidate's change could not alter them.
	Skipped int
	// Replayed are the evaluations taken from the resumed log.
	Replayed int
}

// point is a candidate in the search, with its per-deck training results
// once known (a point replayed from a log has none until one is needed).
type point struct {
	c    Candidate
	eval int
	wins int
	run  *run // training results, nil until known
	val  int
}

type searcher struct {
	opt     Options
	rng     *rand.Rand
	records []Record
	replay  []Record
	games   int
	skipped int
	start   time.Time
}

// Search runs the search opt describes. On cancellation it returns what it
// found so far with ctx's error; the log then holds every finished
// evaluation, and Resume continues from it.
func Search(ctx context.Context, opt Options) (*Result, error) {
	if opt.Accept == (AcceptRule{}) {
		opt.Accept = DefaultAccept
	}
	if opt.Evals <= 0 && opt.Time <= 0 {
		return nil, errors.New("tune: give an evaluation budget or a time budget")
	}
	if opt.Patience <= 0 {
		opt.Patience = 200
	}
	if opt.Kick <= 0 {
		opt.Kick = 3
	}
	if opt.RaceAlpha <= 0 {
		opt.RaceAlpha = 0.001
	}
	if opt.Race < 0 || opt.Race >= 1 {
		return nil, fmt.Errorf("tune: race share %g is not in [0, 1)", opt.Race)
	}
	if opt.Train == nil || opt.Validate == nil || len(opt.Train.Decks) == 0 || len(opt.Validate.Decks) == 0 {
		return nil, errors.New("tune: need training and validation decks")
	}
	if err := opt.Space.Check(opt.Start); err != nil {
		return nil, fmt.Errorf("tune: %w", err)
	}
	if opt.Incremental && (opt.Start.Table == nil || len(opt.Space.Params) > 0) {
		return nil, errors.New("tune: incremental evaluation plays priority tables alone, without parameters")
	}
	s := &searcher{opt: opt, rng: rand.New(rand.NewPCG(opt.Seed, 0x74756e65)), start: time.Now()}
	h := opt.header()
	if opt.Resume != nil {
		if err := h.sameSearch(opt.Resume.Header); err != nil {
			return nil, err
		}
		s.replay = opt.Resume.Records
	}
	if err := s.write(h); err != nil {
		return nil, err
	}
	return s.run(ctx)
}

func (s *searcher) write(v any) error {
	if s.opt.Log == nil {
		return nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	_, err = s.opt.Log.Write(append(b, '\n'))
	return err
}

// play scores c on decks and returns which it won.
func (s *searcher) play(ctx context.Context, c Candidate, ds []solver.Deck) ([]bool, int, error) {
	st, err := s.opt.Build(c)
	if err != nil {
		return nil, 0, fmt.Errorf("tune: building a candidate: %w", err)
	}
	_, res, err := tournament.Evaluate(ctx, ds, s.opt.Rules, st, tournament.Options{Workers: s.opt.Workers})
	if err != nil {
		return nil, 0, err
	}
	s.games += len(ds)
	won := make([]bool, len(res))
	wins := 0
	for i, r := range res {
		won[i] = r.Won
		if r.Won {
			wins++
		}
	}
	return won, wins, nil
}

// ensure plays p on the training decks if its results are not known (a
// point replayed from a log); the results are the ones the log recorded.
func (s *searcher) ensure(ctx context.Context, p *point) error {
	if p.run != nil {
		return nil
	}
	r, err := s.train(ctx, p.c, 0, len(s.opt.Train.Decks), nil)
	if err != nil {
		return err
	}
	if r.wins != p.wins {
		return fmt.Errorf("tune: evaluation %d scored %d training wins again, the log says %d: not the same search", p.eval, r.wins, p.wins)
	}
	p.run = r
	return nil
}

// train scores c on the training decks lo..hi-1. With Incremental, c's
// table is played only on the decks where it can differ from base's (a
// point whose results are known), the others taking base's results.
func (s *searcher) train(ctx context.Context, c Candidate, lo, hi int, base *point) (*run, error) {
	decks := s.opt.Train.Decks[lo:hi]
	if !s.opt.Incremental {
		won, wins, err := s.play(ctx, c, decks)
		return &run{won: won, wins: wins}, err
	}
	var baseRun *run
	var baseTable *strategies.Table
	if base != nil && base.run != nil {
		baseRun, baseTable = base.run.slice(lo, hi), base.c.Table
	}
	r, played, err := playIncremental(ctx, c.Table, baseTable, baseRun, s.opt.Rules, decks, s.opt.Workers)
	s.games += played
	s.skipped += len(decks) - played
	return r, err
}

// discordant counts the decks among the first n that only a, or only b, wins.
func discordant(a, b []bool, n int) (onlyA, onlyB int) {
	for i := range n {
		switch {
		case a[i] && !b[i]:
			onlyA++
		case b[i] && !a[i]:
			onlyB++
		}
	}
	return
}

// nextReplay returns the next record of the resumed log for evaluation e,
// checking that it is the candidate this search draws.
func (s *searcher) nextReplay(e int, kind string, c Candidate) (*Record, error) {
	if len(s.replay) == 0 {
		return nil, nil
	}
	r := s.replay[0]
	s.replay = s.replay[1:]
	if r.Eval != e || r.Kind != kind || r.Key != c.Key() {
		return nil, fmt.Errorf("tune: the log's evaluation %d (%s %s) is not this search's (%s %s): not the same search", r.Eval, r.Kind, r.Key, kind, c.Key())
	}
	return &r, nil
}

func (s *searcher) run(ctx context.Context) (*Result, error) {
	opt := s.opt
	nTrain := len(opt.Train.Decks)
	res := &Result{TrainDecks: nTrain, ValDecks: len(opt.Validate.Decks)}
	finish := func(err error) (*Result, error) {
		res.Records = s.records
		res.Elapsed = time.Since(s.start)
		res.Games, res.Skipped = s.games, s.skipped
		res.Replayed = len(opt.resumed()) - len(s.replay)
		return res, err
	}

	// Evaluation 0: the start.
	cur := &point{c: opt.Start.Clone()}
	rec, err := s.nextReplay(0, "start", cur.c)
	if err != nil {
		return nil, err
	}
	if rec != nil {
		cur.wins, cur.val = rec.Wins, *rec.ValWins
	} else {
		if cur.run, err = s.train(ctx, cur.c, 0, nTrain, nil); err != nil {
			return finish(err)
		}
		cur.wins = cur.run.wins
		if _, cur.val, err = s.play(ctx, cur.c, opt.Validate.Decks); err != nil {
			return finish(err)
		}
	}
	val := cur.val
	start := Record{Eval: 0, Kind: "start", Key: cur.c.Key(), Decks: nTrain, Wins: cur.wins,
		Accepted: true, CurWins: cur.wins, ValWins: &val, CurVal: cur.val, BestVal: cur.val,
		Candidate: cur.c.Text()}
	if err := s.emit(start, rec != nil, 1); err != nil {
		return finish(err)
	}
	best := cur
	res.Start = Point{Candidate: cur.c, TrainWins: cur.wins, ValWins: cur.val}
	res.Best = res.Start

	var home *point
	stall, accepted := 0, 1
	for e := 1; ; e++ {
		if opt.Evals > 0 && e > opt.Evals {
			break
		}
		if opt.Time > 0 && time.Since(s.start) >= opt.Time && len(s.replay) == 0 {
			break
		}
		if ctx.Err() != nil {
			return finish(ctx.Err())
		}
		r := Record{Eval: e}
		var cand Candidate
		if stall >= opt.Patience {
			// The climb is stuck at a local optimum: keep the better of it and
			// the home base, and kick from there.
			r.Kind = "kick"
			if r.Home, err = s.decideHome(ctx, home, cur); err != nil {
				return finish(err)
			}
			if r.Home != "kept" {
				home = cur
			}
			cand, r.Move, err = opt.Space.Kick(s.rng, home.c, opt.Kick)
		} else {
			r.Kind = "move"
			cand, r.Move, err = opt.Space.Neighbour(s.rng, cur.c)
		}
		if err != nil {
			return finish(fmt.Errorf("tune: %w", err))
		}
		r.Key = cand.Key()
		rec, err := s.nextReplay(e, r.Kind, cand)
		if err != nil {
			return finish(err)
		}
		next := &point{c: cand, eval: e}
		if rec != nil {
			r = *rec
			next.wins = rec.Wins
			if rec.ValWins != nil {
				next.val = *rec.ValWins
			}
		} else {
			if err := s.score(ctx, &r, next, cur); err != nil {
				return finish(err)
			}
		}
		if r.Accepted {
			cur = next
			accepted++
			stall = 0
			if cur.val > best.val {
				best = cur
				res.Best = Point{Candidate: cur.c, Eval: e, TrainWins: cur.wins, ValWins: cur.val}
			}
		} else {
			stall++
		}
		r.CurWins, r.CurVal, r.BestEval, r.BestVal = cur.wins, cur.val, best.eval, best.val
		if r.Accepted {
			r.Candidate = cur.c.Text()
		}
		if rec != nil && (r.CurWins != rec.CurWins || r.BestEval != rec.BestEval) {
			return finish(fmt.Errorf("tune: the log's evaluation %d disagrees with its replay: not the same search", e))
		}
		if err := s.emit(r, rec != nil, accepted); err != nil {
			return finish(err)
		}
		res.Evals = e
	}
	return finish(nil)
}

// decideHome is iterated local search's acceptance test for the local
// optimum cur that the climb reached: "set" when there is no home base yet,
// "replaced" when cur beats the home base by the acceptance rule, "kept"
// otherwise. A resumed search takes the decision from its log.
func (s *searcher) decideHome(ctx context.Context, home, cur *point) (string, error) {
	if len(s.replay) > 0 {
		return s.replay[0].Home, nil
	}
	if home == nil {
		return "set", nil
	}
	if home == cur {
		return "kept", nil
	}
	if err := s.ensure(ctx, home); err != nil {
		return "", err
	}
	if err := s.ensure(ctx, cur); err != nil {
		return "", err
	}
	oh, oc := discordant(home.run.won, cur.run.won, len(s.opt.Train.Decks))
	if ok, _ := s.opt.Accept.Better(oh, oc); ok {
		return "replaced", nil
	}
	return "kept", nil
}

// score plays next on the training decks against cur (a kick is accepted
// whatever it scores), fills r, and scores an accepted point on the
// validation decks.
func (s *searcher) score(ctx context.Context, r *Record, next, cur *point) error {
	opt := s.opt
	train := opt.Train.Decks
	n := len(train)
	if err := s.ensure(ctx, cur); err != nil {
		return err
	}
	if r.Kind == "move" && opt.Race > 0 {
		k := int(opt.Race * float64(n))
		if k > 0 && k < n {
			first, err := s.train(ctx, next.c, 0, k, cur)
			if err != nil {
				return err
			}
			oc, on := discordant(cur.run.won, first.won, k)
			if p := stats.McNemarExact(oc, on); oc > on && p < opt.RaceAlpha {
				r.Decks, r.Wins, r.OnlyCurrent, r.OnlyCandidate, r.P = k, first.wins, oc, on, p
				return nil
			}
			rest, err := s.train(ctx, next.c, k, n, cur)
			if err != nil {
				return err
			}
			next.run = &run{won: append(first.won, rest.won...), wins: first.wins + rest.wins}
			if first.bounds != nil {
				next.run.bounds = append(first.bounds, rest.bounds...)
			}
		}
	}
	if next.run == nil {
		var err error
		if next.run, err = s.train(ctx, next.c, 0, n, cur); err != nil {
			return err
		}
	}
	next.wins = next.run.wins
	r.Decks, r.Wins = n, next.wins
	r.OnlyCurrent, r.OnlyCandidate = discordant(cur.run.won, next.run.won, n)
	better, p := opt.Accept.Better(r.OnlyCurrent, r.OnlyCandidate)
	r.P = p
	r.Accepted = better || r.Kind == "kick"
	if r.Accepted {
		_, val, err := s.play(ctx, next.c, opt.Validate.Decks)
		if err != nil {
			return err
		}
		next.val = val
		r.ValWins = &val
	}
	return nil
}

// emit logs r and reports progress.
func (s *searcher) emit(r Record, replayed bool, accepted int) error {
	s.records = append(s.records, r)
	if err := s.write(r); err != nil {
		return err
	}
	if s.opt.Progress != nil {
		s.opt.Progress(Progress{
			Evals: r.Eval, Budget: s.opt.Evals, Elapsed: time.Since(s.start), Budgeted: s.opt.Time,
			Accepted: accepted, Replayed: replayed,
			TrainRate:   float64(r.CurWins) / float64(len(s.opt.Train.Decks)),
			BestValRate: float64(r.BestVal) / float64(len(s.opt.Validate.Decks)),
		})
	}
	return nil
}

// resumed returns the records of the log being resumed, if any.
func (opt Options) resumed() []Record {
	if opt.Resume == nil {
		return nil
	}
	return opt.Resume.Records
}
