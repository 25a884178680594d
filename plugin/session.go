package plugin

import (
	"context"
	"errors"
	"fmt"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/calcsol/calcsol/plugin/internal/games"
	"github.com/calcsol/calcsol/plugin/proto"
	"github.com/calcsol/calcsol/solver"
)

// session is a Session played by one plugin process; it starts the process
// again after the process died or was killed, at most MaxRestarts times in
// RestartWindow games.
type session struct {
	s          *Strategy
	rules      solver.Rules
	p          *process // nil when no process runs
	begun      int      // games begun in the session
	restartsAt []int    // begun at each restart within the window
	gaveUp     error    // set: every batch fails with this
	lastErr    error    // why the last process was stopped
	closed     bool

	first int      // the stock's length at a game's first decision
	ended []uint64 // games over, not yet told to the plugin
	blob  []byte
	// req and resp are reused: resp's blob is read into the same buffer
	// every round (proto.DecideInto).
	req  proto.DecideRequest
	resp proto.DecideResponse

	// games holds what the plugin process knows of each game in play: the
	// step it last decided and its answer. A game whose next request
	// follows from that answer is sent as a delta record.
	games   games.Table[known]
	tracked []*known // the batch's entries, by request
}

type known struct {
	step int
	move solver.Move
	ok   bool // the plugin holds the position of step, and answered move
}

// launch starts the process, trying a failed start once more; a refusal or
// a plugin that cannot play the rules is not tried again.
func (ss *session) launch(ctx context.Context) error {
	var err error
	for try := 0; try < 2; try++ {
		var p *process
		var info *solver.Info
		p, info, err = ss.s.startProcess(ctx, ss.rules)
		if err == nil {
			ss.p = p
			ss.s.mu.Lock()
			ss.s.info = info
			ss.s.mu.Unlock()
			return nil
		}
		if errors.Is(err, errRefused) || errors.Is(err, solver.ErrNotApplicable) || ctx.Err() != nil {
			return err
		}
	}
	return fmt.Errorf("%w (tried twice)", err)
}

// Decide implements solver.Session: one request to the plugin for the whole
// batch.
func (ss *session) Decide(ctx context.Context, reqs []solver.Request, out []solver.Decision) error {
	for i := range reqs {
		if rq := &reqs[i]; rq.Step == 1 || rq.Step == 0 && rq.Position.StockLen() == ss.first {
			ss.begun++
		}
	}
	if ss.gaveUp != nil {
		return ss.gaveUp
	}
	if ss.p == nil {
		if !ss.mayRestart() {
			return fmt.Errorf("plugin %s: gave up after %d restarts within %d games, for now (last: %v)", ss.s.argv[0], MaxRestarts, RestartWindow, ss.lastErr)
		}
		ss.restartsAt = append(ss.restartsAt, ss.begun)
		// The games the old process knew are over (a failed batch fails all
		// its games), so the new one starts afresh.
		ss.ended = ss.ended[:0]
		ss.games.Reset()
		if err := ss.launch(ctx); err != nil {
			if ctx.Err() == nil {
				ss.gaveUp = err
			}
			return err
		}
	}
	ss.blob = ss.blob[:0]
	ss.tracked = ss.tracked[:0]
	ss.games.Begin()
	deltas := ss.p.deltas
	for i := range reqs {
		rq := &reqs[i]
		k, _ := ss.games.Get(uint64(rq.Game))
		ss.tracked = append(ss.tracked, k)
		if deltas && k.ok && rq.Step > 1 && rq.Step == k.step+1 && rq.Last == k.move {
			// The game went on from the plugin's own answer: the engine
			// played it, and drew the card the plugin is now told.
			ss.blob = proto.AppendDelta(ss.blob, uint64(rq.Game), rq.Seed, rq.Position.Drawn())
		} else {
			// A game's first decision is the only one with a full stock
			// less the drawn card (every move places the drawn card or a
			// stack top, and a stack is empty until a drawn card went
			// there): requests a strategy made up have no Step.
			var flags byte
			if rq.Step == 1 || rq.Step == 0 && rq.Position.StockLen() == ss.first {
				flags = proto.FirstDecision
			}
			ss.blob = proto.AppendObservation(ss.blob, uint64(rq.Game), rq.Seed, flags, rq.Position)
		}
		// Until the answer comes, the plugin's state of the game is not
		// known: a failed batch leaves it so.
		k.step, k.ok = rq.Step, false
	}
	limit := max(ss.s.cfg.Timeout*time.Duration(len(reqs)), ss.s.minBatch)
	dctx, cancel := context.WithTimeout(ctx, limit)
	ss.req = proto.DecideRequest{Count: uint32(len(reqs)), Observations: ss.blob, Ended: ss.ended}
	err := proto.DecideInto(dctx, ss.p.strategy, &ss.req, &ss.resp)
	resp := &ss.resp
	timedOut := dctx.Err() != nil
	cancel()
	ss.ended = ss.ended[:0]
	if err != nil {
		if stopping.Load() {
			// The program is being interrupted and is killing its plugins:
			// this failure is not the plugin's, and no game may be recorded
			// as failed for it. The program exits in a moment.
			select {}
		}
		if ctx.Err() != nil {
			ss.stop()
			return ctx.Err()
		}
		st, _ := status.FromError(err)
		code := st.Code()
		switch {
		case ss.p.exited() || code == codes.Unavailable:
			// How it ended, once it has (its stderr is then complete).
			how := ss.p.status(closeWait)
			if ss.p.interruptedWith(ctx) {
				ss.stop()
				return ctx.Err()
			}
			reason := ss.p.stderr.suffix()
			ss.stop()
			if how == stillRunning {
				ss.lastErr = fmt.Errorf("plugin broke the connection but still ran; killed it: %v%s", st.Message(), reason)
			} else {
				ss.lastErr = fmt.Errorf("plugin exited (%s): %v%s", how, st.Message(), reason)
			}
			return ss.lastErr
		case timedOut || code == codes.DeadlineExceeded || code == codes.Canceled:
			// The plugin's side of gRPC may give up on the deadline (it
			// knows it) a moment before ours does.
			ss.stop()
			ss.lastErr = fmt.Errorf("plugin gave no answer within %v (%d decisions × %v, at least %v); killed it", limit, len(reqs), ss.s.cfg.Timeout, ss.s.minBatch)
			return ss.lastErr
		default:
			// The plugin answered with an error: it is alive and may
			// answer the next batch.
			return fmt.Errorf("plugin: %s", st.Message())
		}
	}
	if int(resp.GetCount()) != len(reqs) {
		return fmt.Errorf("plugin sent a malformed answer: %d decisions for %d requests", resp.GetCount(), len(reqs))
	}
	b := resp.GetDecisions()
	for i := range reqs {
		game, d, rest, err := proto.ReadDecision(b)
		if err != nil {
			clear(out)
			return fmt.Errorf("plugin sent a malformed answer: %v", err)
		}
		if solver.GameID(game) != reqs[i].Game {
			d = solver.Decision{Failed: true, Reason: fmt.Sprintf("plugin answered for game %d, not %d", game, reqs[i].Game)}
		}
		out[i] = d
		b = rest
	}
	for i, k := range ss.tracked {
		k.move = out[i].Move
		k.ok = k.step > 0 && !out[i].Failed && out[i].Move.Kind != solver.Resign
	}
	if len(b) != 0 {
		clear(out)
		return fmt.Errorf("plugin sent a malformed answer: %d bytes after %d decisions", len(b), len(reqs))
	}
	return nil
}

// mayRestart reports whether fewer than MaxRestarts restarts fall within
// the last RestartWindow games begun.
func (ss *session) mayRestart() bool {
	i := 0
	for i < len(ss.restartsAt) && ss.begun-ss.restartsAt[i] >= RestartWindow {
		i++
	}
	ss.restartsAt = ss.restartsAt[i:]
	return len(ss.restartsAt) < MaxRestarts
}

// End implements solver.Session: the games are told to the plugin with the
// next batch, not in a round trip of their own.
func (ss *session) End(_ context.Context, games []solver.GameID) error {
	for _, g := range games {
		ss.ended = append(ss.ended, uint64(g))
		ss.games.Delete(uint64(g))
	}
	return nil
}

// closeWait bounds the polite goodbye to a plugin at Close.
const closeWait = time.Second

// Close implements solver.Session: it tells the plugin the last games are
// over and the session closed, then kills the process.
func (ss *session) Close() error {
	if ss.closed {
		return nil
	}
	ss.closed = true
	if ss.p == nil {
		return nil
	}
	// The games are played: a plugin that fails to say goodbye fails none
	// of them, so errors here are not reported.
	if !ss.p.exited() {
		ctx, cancel := context.WithTimeout(context.Background(), min(closeWait, 10*ss.s.cfg.Timeout))
		if len(ss.ended) > 0 {
			_, _ = ss.p.strategy.End(ctx, &proto.EndRequest{Games: ss.ended})
		}
		_, _ = ss.p.strategy.Close(ctx, &proto.CloseRequest{})
		cancel()
	}
	ss.stop()
	return nil
}

// stop kills the process; the next batch starts a new one.
func (ss *session) stop() {
	if ss.p != nil {
		ss.p.kill()
		ss.p = nil
	}
}
