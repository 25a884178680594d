// Package exitcode holds the errors that choose calcsol's exit status and
// the rule that gives any error its status.
package exitcode

import (
	"errors"
	"fmt"
	"strings"

	"github.com/calcsol/calcsol/internal/interrupt"
)

// Exit statuses: those of every command, then those of calcsol regress,
// tournament, eval and match (docs/tournament.md), which end with them
// through Error.
const (
	Failure    = 1 // any error not listed below
	Input      = 2 // bad input: a malformed deck, file or flag
	Regression = 3 // a strategy won other decks than its baseline
	Stale      = 4 // a baseline's strategy, corpus or record format changed
	// Unfinished is a tournament stopped by --stop-after before its end,
	// its games so far recorded: continue it with --resume.
	Unfinished = 5
	// StrategyFailed is a run (tournament, eval, match) played to its end
	// in which a strategy failed more than the share of its games allowed
	// (--max-failed-share), or every one of them: a plugin that is missing
	// or never starts, a strategy that errors on every move. Its records
	// and report are written as usual.
	StrategyFailed = 6
	// Interrupted is a command stopped by Ctrl-C, SIGTERM or SIGHUP, as a
	// shell reports a program killed by SIGINT (128 + 2), whether or not
	// the command kept what it had done (a tournament's report directory,
	// a solve's bound file, a tune log).
	Interrupted = interrupt.ExitCode
)

// InputError is bad input from the user (a malformed deck, file or flag):
// calcsol prints it on one line and exits with status Input. It keeps the
// errors it was made from, so errors.As still finds a *corpus.ParseError
// or a *shuffle.SequenceError in it.
type InputError struct {
	msg  string
	errs []error
}

func (e InputError) Error() string   { return e.msg }
func (e InputError) Unwrap() []error { return e.errs }

// BadInput makes an InputError from a format and its arguments, as
// fmt.Errorf does; every error argument stays in the chain, whether the
// format writes it with %w or %v.
func BadInput(format string, args ...any) error {
	var errs []error
	for _, a := range args {
		if e, ok := a.(error); ok {
			errs = append(errs, e)
		}
	}
	return InputError{fmt.Errorf(format, args...).Error(), errs}
}

// Error ends calcsol with a status of its own (regress: 3 for a
// regression, 4 for a stale baseline; 130 for a run interrupted that says
// how to go on), after printing its message.
type Error struct {
	Code int
	Err  error
}

func (e Error) Error() string { return e.Err.Error() }
func (e Error) Unwrap() error { return e.Err }

// Status is the exit status for err: 0 for none, an Error's own code, Input
// for an InputError or a complaint of cobra's or pflag's about the command
// line, Failure for anything else.
func Status(err error) int {
	var ee Error
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ee):
		return ee.Code
	case errors.As(err, new(InputError)) || isUsage(err):
		return Input
	}
	return Failure
}

// isUsage recognises cobra's and pflag's own complaints about the command
// line, which are plain errors.
func isUsage(err error) bool {
	msg := err.Error()
	for _, p := range []string{"unknown command", "unknown flag", "unknown shorthand", "invalid argument", "flag needs an argument", "accepts ", "requires at least", "required flag"} {
		if strings.Contains(msg, p) {
			return true
		}
	}
	return false
}
