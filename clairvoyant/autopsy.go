package clairvoyant

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/calcsol/calcsol/solver"
)

// Probe is one position of a strategy's lost game, searched with the order
// of the stock known: could the game still have been won from there?
type Probe struct {
	Stock   int     // cards in the stock at the position (a card drawn)
	Reached bool    // the game reached such a position (else Verdict is Unknown)
	Verdict Verdict // from the position, with the order known
	Nodes   int64
}

// Autopsy is what Autopsies found on one deck.
type Autopsy struct {
	Played bool // the deck was played (Autopsies stopped early leaves some unplayed)
	Won    bool
	Failed bool    // the strategy failed (an error or an illegal move)
	Probes []Probe // for a lost game, one per stock size asked, in that order
}

// Autopsy plays deck d with the witness's strategy and, when the game is
// lost, searches the positions it passed through where the stock first
// holds each of stocks cards (a card drawn), within budget each. A
// position that is winnable with the order known was not yet lost to a
// player who sees the stock: the last such position shows how late the
// strategy's game could still have been saved (a hidden-information player
// may not have been able to, so it is a bound, not a verdict on a move).
func (w *StrategyWitness) Autopsy(ctx context.Context, d *solver.Deck, r solver.Rules, stocks []int, budget Budget) (Autopsy, error) {
	if r != w.rules {
		return Autopsy{}, fmt.Errorf("autopsy: the witness plays %s, not %s", w.rules, r)
	}
	sess := w.get(ctx)
	if sess == nil {
		return Autopsy{}, fmt.Errorf("autopsy: the strategy did not start")
	}
	defer w.put(sess)
	game := *d // the strategy's own copy
	res, err := solver.Play(ctx, &game, r, sess, true)
	if err != nil {
		return Autopsy{}, err
	}
	if res.Won || res.Failed {
		return Autopsy{Played: true, Won: res.Won, Failed: res.Failed}, nil
	}
	cut, err := cuts(d, r, res.Trace)
	if err != nil {
		return Autopsy{}, err
	}
	sv := w.solver()
	defer w.putSolver(sv)
	a := Autopsy{Played: true, Probes: make([]Probe, len(stocks))}
	for i, s := range stocks {
		a.Probes[i].Stock = s
		n, ok := cut[s]
		if !ok {
			continue
		}
		pr, err := sv.SolveAfter(ctx, *d, r, res.Trace[:n], budget)
		if err != nil {
			return Autopsy{}, err
		}
		a.Probes[i].Reached, a.Probes[i].Verdict, a.Probes[i].Nodes = true, pr.Winnable, pr.Nodes
	}
	return a, nil
}

// Autopsies runs w.Autopsy on every deck with workers goroutines; progress,
// if not nil, is called after each deck with the number done (from one
// goroutine at a time). When ctx is cancelled it returns ctx's error and
// what it has.
func Autopsies(ctx context.Context, w *StrategyWitness, decks []solver.Deck, r solver.Rules, stocks []int, budget Budget, workers int, progress func(done int)) ([]Autopsy, error) {
	out := make([]Autopsy, len(decks))
	var next, done atomic.Int64
	var mu sync.Mutex
	var firstErr error
	var wg sync.WaitGroup
	for range max(workers, 1) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				i := int(next.Add(1) - 1)
				if i >= len(decks) {
					return
				}
				a, err := w.Autopsy(ctx, &decks[i], r, stocks, budget)
				mu.Lock()
				if err != nil {
					if firstErr == nil && ctx.Err() == nil {
						firstErr = fmt.Errorf("deck %d: %w", i, err)
					}
					mu.Unlock()
					return
				}
				out[i] = a
				if progress != nil {
					progress(int(done.Add(1)))
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if firstErr != nil {
		return out, firstErr
	}
	return out, ctx.Err()
}

// AutopsyRow counts, over the lost games, the probes at one stock size.
type AutopsyRow struct {
	Stock        int `json:"stock"`
	Reached      int `json:"reached"`  // lost games that reached the position
	Winnable     int `json:"winnable"` // of those, by verdict
	Unwinnable   int `json:"unwinnable"`
	Unknown      int `json:"unknown"`
	LastWinnable int `json:"latest_winnable"` // lost games whose latest winnable probe is this one
}

// AutopsySummary counts the autopsies of a corpus.
type AutopsySummary struct {
	Games, Won, Failed, Lost int          // games played (Played), by outcome
	Rows                     []AutopsyRow // one per stock size, as asked
	// NoneWinnable counts the lost games none of whose probes was found
	// winnable (unwinnable or unknown at every size asked).
	NoneWinnable int
}

// Summarize counts autopsies made with the stock sizes stocks. A win from a
// position of a game is a win from every earlier position of it (the game's
// own moves lead there), so the latest winnable probe of a game is the one
// with the fewest cards in the stock.
func Summarize(as []Autopsy, stocks []int) AutopsySummary {
	s := AutopsySummary{Rows: make([]AutopsyRow, len(stocks))}
	for i, st := range stocks {
		s.Rows[i].Stock = st
	}
	for _, a := range as {
		if !a.Played {
			continue
		}
		s.Games++
		switch {
		case a.Won:
			s.Won++
			continue
		case a.Failed:
			s.Failed++
			continue
		}
		s.Lost++
		last := -1
		for i, p := range a.Probes {
			if !p.Reached {
				continue
			}
			row := &s.Rows[i]
			row.Reached++
			switch p.Verdict {
			case Yes:
				row.Winnable++
				if last < 0 || p.Stock < stocks[last] {
					last = i
				}
			case No:
				row.Unwinnable++
			default:
				row.Unknown++
			}
		}
		if last < 0 {
			s.NoneWinnable++
		} else {
			s.Rows[last].LastWinnable++
		}
	}
	return s
}
