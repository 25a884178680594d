package tournament

import (
	"context"
	"fmt"
	"math/rand/v2"

	"github.com/calcsol/calcsol/decks/corpus"
	"github.com/calcsol/calcsol/solver"
	"github.com/calcsol/calcsol/tournament/stats"
)

// MatchOptions say how a match is played: on which decks, under which
// rules, decided by which test.
type MatchOptions struct {
	Rules  solver.Rules
	Corpus *corpus.Calculation
	Test   stats.SPRT
	// Max is the most decks played (0: the whole corpus); OrderSeed seeds
	// the spread-out order of play (MatchOrder).
	Max       int
	OrderSeed uint64
	// Seed is the run seed stochastic strategies' game seeds derive from
	// (GameSeed), as in a tournament.
	Seed           uint64
	Workers, Batch int
	Budget         solver.Budget
	// Progress, when set, is told the decks played so far.
	Progress func(decks int)
	// GameIDs, when set, is the id a strategy sees for each deck (a blind
	// match's opaque ids, Blind.GameIDs); nil: its place in the batch.
	GameIDs func(deck int) solver.GameID
}

// MatchSide is one player's name and results in a match.
type MatchSide struct {
	Name     string
	Wins     int
	Failures int
	// FirstFailure is the first game counted that failed, in the order of
	// play (when Failures > 0).
	FirstFailure DeckResult
}

// MatchResult is how a match ended: the decks counted (those up to the
// decision, in the order of play), each side's wins on them, the decks only
// one side won, and the verdict.
type MatchResult struct {
	Corpus   string
	Checksum string
	Rules    solver.Rules
	Test     stats.SPRT
	// Decks is the number of decks counted; Played, the decks played
	// (the last batch may run past the decision: those are not counted);
	// Limit, the most that could be (the corpus, or Max).
	Decks, Played, Limit int
	A, B                 MatchSide
	OnlyA, OnlyB         int
	Verdict              stats.Verdict
	// Order is the deck indexes counted, in the order of play.
	Order []int
}

// Both is the number of decks both sides won.
func (m *MatchResult) Both() int { return m.A.Wins - m.OnlyA }

// Neither is the number of decks both sides lost.
func (m *MatchResult) Neither() int { return m.Decks - m.A.Wins - m.OnlyB }

// MatchOrder is the order a match plays n decks in: a permutation drawn
// from seed, so that the decks played by any point are a uniformly random
// sample of the corpus (every prefix is a fair sample), the same on every
// machine.
func MatchOrder(n int, seed uint64) []int {
	rng := rand.New(rand.NewPCG(seed, 0x6d61746368)) // "match"
	return rng.Perm(n)
}

// matchBatch is the number of decks played between two looks at the test,
// given the decks played so far: small first, so that a large difference is
// decided early, then larger, so that a strategy in another process is
// started rarely.
func matchBatch(played int) int { return min(max(64, played), 4096) }

// Match plays a and b on the same decks, in the spread-out order of
// MatchOrder, looking at the sequential test after every deck, and stops
// at its verdict or after opt.Max decks. names label the sides. Games are
// played in batches: the decks of a batch after the deck that decided are
// played but not counted.
func Match(ctx context.Context, a, b solver.Strategy, names [2]string, opt MatchOptions) (*MatchResult, error) {
	if err := opt.Test.Check(); err != nil {
		return nil, fmt.Errorf("match: %w", err)
	}
	if err := opt.Rules.Validate(); err != nil {
		return nil, fmt.Errorf("match: %w", err)
	}
	all := opt.Corpus.Decks()
	if err := opt.Corpus.Err(); err != nil {
		return nil, fmt.Errorf("match: %w", err)
	}
	n := len(all)
	if opt.Max > 0 {
		n = min(n, opt.Max)
	}
	if n == 0 {
		return nil, fmt.Errorf("match: corpus %s has no decks", opt.Corpus.Name)
	}
	order := MatchOrder(len(all), opt.OrderSeed)[:n]
	res := &MatchResult{Corpus: opt.Corpus.Name, Checksum: opt.Corpus.Checksum, Rules: opt.Rules, Test: opt.Test, Limit: n,
		A: MatchSide{Name: names[0]}, B: MatchSide{Name: names[1]}}
	for res.Played < n && res.Verdict == stats.Undecided {
		batch := order[res.Played:min(n, res.Played+matchBatch(res.Played))]
		decks := make([]solver.Deck, len(batch))
		for i, d := range batch {
			decks[i] = all[d]
		}
		var results [2][]DeckResult
		for side, s := range []solver.Strategy{a, b} {
			name := names[side]
			o := Options{Workers: opt.Workers, Batch: opt.Batch, Budget: opt.Budget,
				Seed: func(i int) uint64 { return GameSeed(opt.Seed, name, opt.Corpus.Checksum, batch[i]) }}
			if opt.GameIDs != nil {
				o.Game = func(i int) solver.GameID { return opt.GameIDs(batch[i]) }
			}
			_, r, err := Evaluate(ctx, decks, opt.Rules, s, o)
			if err != nil {
				return nil, fmt.Errorf("match: %s: %w", name, err)
			}
			results[side] = r
		}
		for i := range batch {
			ra, rb := results[0][i], results[1][i]
			res.Decks++
			res.Order = append(res.Order, batch[i])
			for _, x := range []struct {
				side *MatchSide
				r    DeckResult
			}{{&res.A, ra}, {&res.B, rb}} {
				if x.r.Won {
					x.side.Wins++
				}
				if x.r.Failed {
					if x.side.Failures == 0 {
						x.side.FirstFailure = x.r
						x.side.FirstFailure.Deck = batch[i] // r.Deck is its index in the batch
					}
					x.side.Failures++
				}
			}
			switch {
			case ra.Won && !rb.Won:
				res.OnlyA++
			case rb.Won && !ra.Won:
				res.OnlyB++
			}
			if res.Verdict = opt.Test.Decide(res.OnlyA, res.OnlyB); res.Verdict != stats.Undecided {
				break
			}
		}
		res.Played += len(batch)
		if opt.Progress != nil {
			opt.Progress(res.Played)
		}
	}
	return res, nil
}
