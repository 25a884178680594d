// Package interrupt gives a command-line program one context that is
// cancelled by Ctrl-C (SIGINT), SIGTERM or SIGHUP (the terminal closed, an
// ssh session dropped), so that long runs — corpus
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
	"sync"
	"sync/atomic"
	"syscall"
)

// ExitCode is the conventional exit status of a program stopped by SIGINT.
const ExitCode = 130

// Signals are the signals that stop a run.
var Signals = []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP}

// watching counts the Contexts made and not yet stopped by their callers.
var watching atomic.Int64

// Context returns a copy of parent cancelled on the first SIGINT, SIGTERM
// or SIGHUP; after that signal the default behaviour comes back, so a second
// one kills the program. stop releases the signal handling.
func Context(parent context.Context) (ctx context.Context, stop context.CancelFunc) {
	ctx, cancel := signal.NotifyContext(parent, Signals...)
	watching.Add(1)
	var once sync.Once
	go func() {
		<-ctx.Done()
		cancel()
	}()
	return ctx, func() {
		once.Do(func() { watching.Add(-1) })
		cancel()
	}
}

// Watched reports whether the program stops by itself for these signals: a
// Context is in use (made, and not yet stopped by its caller, though its
// signal may have come). Code that must not outlive the program — the
// plugin host with its child processes — then leaves the first signal to
// the program's own clean stop and acts only on a second one.
func Watched() bool { return watching.Load() > 0 }

// Interrupted reports whether a run ended by err was stopped by ctx: ctx is
// done and err is (or wraps) its error.
func Interrupted(ctx context.Context, err error) bool {
	return ctx.Err() != nil && errors.Is(err, ctx.Err())
}
