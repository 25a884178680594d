package tournament

// The harness Run and Evaluate both play through: how many decks a worker
// takes at a time, how a session is opened, and the loop that plays a
// chunk's deals with a session, opening a fresh one after a panic.

import (
	"context"
	"fmt"

	"github.com/calcsol/calcsol/solver"
)

// maxChunk is the most decks a worker takes at a time. Workers take decks in
// chunks through one atomic counter, so contention stays negligible; smaller
// corpora get smaller chunks (see chunkSize) so that every worker gets work.
const maxChunk = 256

// chunkSize gives each worker about 16 chunks, at least 1 deck and at most
// maxChunk decks each: slow strategies on small corpora still spread evenly.
func chunkSize(n, workers int) int {
	return min(max(n/(workers*16), 1), maxChunk)
}

// startSession opens a session, turning a panic or a nil session into an error.
func startSession(ctx context.Context, s solver.Strategy, r solver.Rules) (sess solver.Session, err error) {
	defer func() {
		if v := recover(); v != nil {
			err = fmt.Errorf("evaluate: starting %s panicked: %v", s.Info().Name, v)
		}
	}()
	sess, err = s.Start(ctx, r)
	if err != nil {
		return nil, fmt.Errorf("evaluate: starting %s: %w", s.Info().Name, err)
	}
	if sess == nil {
		return nil, fmt.Errorf("evaluate: starting %s: no session", s.Info().Name)
	}
	return sess, nil
}

// playChunk plays deals under r with the session *sess, res receiving the
// outcome of each (res as long as deals), popt.Window games in play at once.
// A session that panics fails the games of that round only (solver.Player);
// it may be left in any state, so playChunk closes it, opens a fresh session
// of s in *sess and plays the rest of the deals with that. It returns ctx's
// error when ctx is cancelled (res incomplete), or the error of opening a
// fresh session, *sess then nil.
func playChunk(ctx context.Context, p *solver.Player, sess *solver.Session, s solver.Strategy, r solver.Rules, deals []solver.Deal, res []solver.Result, popt solver.PlayOptions) error {
	for lo := 0; lo < len(deals); lo += p.Started {
		if err := p.Play(ctx, *sess, r, deals[lo:], res[lo:len(deals)], popt); err != nil {
			return err
		}
		if p.Panicked {
			_ = (*sess).Close()
			*sess = nil
			fresh, err := startSession(ctx, s, r)
			if err != nil {
				return err
			}
			*sess = fresh
		}
	}
	return nil
}
