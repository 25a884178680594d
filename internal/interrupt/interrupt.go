// Package interrupt gives a command-line program one context that is
// cancelled by Ctrl-C (SIGINT), SIGTERM or SIGHUP (the terminal closed, an
// ssh session dropped; not under nohup, which asks to ignore it), so that long runs — corpus
// generation, evaluations, shuffle analyses — stop cleanly: work that
// watches the context returns its error, temporary files are removed, and
// the program prints one line. A second signal kills the program at once.
//
//	ctx, stop := interrupt.Context(context.Background())
//	defer stop()
//	if err := run(ctx); interrupt.Interrupted(ctx, err) {
//		… print one line, exit interrupt.ExitCode …
//	}
package interrupt

import (
	"context"
	"errors"
	"os"
	"os/signal"
	"slices"
	"sync"
	"sync/atomic"
	"syscall"
)

// ExitCode is the conventional exit status of a program stopped by SIGINT.
const ExitCode = 130

// Signals are the signals that stop a run: SIGINT, SIGTERM and SIGHUP, less
// SIGHUP when the program started with it ignored. That is what nohup
// does, to ask that the run outlive its terminal; catching SIGHUP would
// undo it.
var Signals = stopSignals(signal.Ignored(syscall.SIGHUP))

// stopSignals returns the signals that stop a run, SIGHUP's disposition at
// the program's start being ignored or not.
func stopSignals(hangupIgnored bool) []os.Signal {
	if hangupIgnored {
		return []os.Signal{os.Interrupt, syscall.SIGTERM}
	}
	return []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP}
}

// Watches reports whether sig is one of Signals: a test that sends SIGHUP
// to the program, or to a child (which inherits the disposition), skips
// where it is ignored.
func Watches(sig os.Signal) bool { return slices.Contains(Signals, sig) }

// watching counts the Contexts made and not yet stopped by their callers.
var watching atomic.Int64

// One listener serves every Context, so that the signal is recorded
// (Received) before any Context is cancelled by it: code that sees its
// Context cancelled by a signal, however deeply nested, and returns, finds
// Received true in the caller. With a signal.NotifyContext each, a nested
// context could be cancelled, and its command return, before the outer
// one's goroutine had run.
var (
	mu       sync.Mutex
	live     = map[*context.CancelCauseFunc]struct{}{}
	signals  chan os.Signal // nil when no Context listens
	received atomic.Pointer[SignalError]
)

// SignalError is the cause of a Context cancelled by a signal. It is a
// context.Canceled (errors.Is), as the cancellation's error.
type SignalError struct{ Signal os.Signal }

func (e *SignalError) Error() string { return e.Signal.String() + " signal received" }

// Is makes a SignalError a context.Canceled.
func (e *SignalError) Is(target error) bool { return target == context.Canceled }

// Context returns a copy of parent cancelled on the first SIGINT, SIGTERM
// or SIGHUP, with a *SignalError as its cause; after that signal the
// default behaviour comes back, so a second one kills the program (unless
// something else, the plugin host, catches it). A Context made after the
// signal is cancelled at once. stop releases the Context.
func Context(parent context.Context) (ctx context.Context, stop context.CancelFunc) {
	ctx, cancel := context.WithCancelCause(parent)
	mu.Lock()
	if sig := received.Load(); sig != nil {
		cancel(sig)
	} else {
		live[&cancel] = struct{}{}
		if signals == nil {
			signals = make(chan os.Signal, 1)
			signal.Notify(signals, Signals...)
			go listen(signals)
		}
	}
	mu.Unlock()
	watching.Add(1)
	var once sync.Once
	return ctx, func() {
		once.Do(func() {
			mu.Lock()
			delete(live, &cancel)
			if len(live) == 0 {
				// The last one: the program's own, ending (or a test's).
				if signals != nil {
					signal.Stop(signals)
					close(signals)
					signals = nil
				}
				received.Store(nil)
			}
			mu.Unlock()
			watching.Add(-1)
		})
		cancel(context.Canceled)
	}
}

// listen waits for the first signal on ch, records it, cancels every live
// Context and gives the signals back their default behaviour. It ends when
// ch is closed (the last Context stopped).
func listen(ch chan os.Signal) {
	sig, ok := <-ch
	if !ok {
		return
	}
	mu.Lock()
	defer mu.Unlock()
	e := &SignalError{sig}
	received.CompareAndSwap(nil, e)
	for cancel := range live {
		(*cancel)(e)
	}
	if signals == ch {
		signal.Stop(ch)
		close(ch)
		signals = nil
	}
}

// Received reports whether a signal has stopped the Contexts in use (it
// is forgotten once the last of them is stopped).
func Received() bool { return received.Load() != nil }

// Watched reports whether the program stops by itself for these signals: a
// Context is in use (made, and not yet stopped by its caller, though its
// signal may have come). Code that must not outlive the program — the
// plugin host with its child processes — then leaves the first signal to
// the program's own clean stop and acts only on a second one.
func Watched() bool { return watching.Load() > 0 }

// Interrupted reports whether a run ended by err was stopped by ctx or by
// a signal: err is (or wraps) ctx's error, ctx being done, or a
// cancellation once a signal came (a command's own Context may have been
// cancelled, and the command returned, before ctx was).
func Interrupted(ctx context.Context, err error) bool {
	if Received() {
		return errors.Is(err, context.Canceled)
	}
	return ctx.Err() != nil && errors.Is(err, ctx.Err())
}
