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
	"syscall"
)

// ExitCode is the conventional exit status of a program stopped by SIGINT.
const ExitCode = 130

// Signals are the signals that stop a run.
var Signals = []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP}

// Context returns a copy of parent cancelled on the first SIGINT, SIGTERM
// or SIGHUP; after that signal the default behaviour comes back, so a second
// one kills the program. stop releases the signal handling.
func Context(parent context.Context) (ctx context.Context, stop context.CancelFunc) {
	ctx, stop = signal.NotifyContext(parent, Signals...)
	go func() {
		<-ctx.Done()
		stop()
	}()
	return ctx, stop
}

// Interrupted reports whether a run ended by err was stopped by ctx: ctx is
// done and err is (or wraps) its error.
func Interrupted(ctx context.Context, err error) bool {
	return ctx.Err() != nil && errors.Is(err, ctx.Err())
}
