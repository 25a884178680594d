package main

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/calcsol/calcsol/internal/exitcode"
)

// How calcsol ends: the line and the exit status for what a command
// returned, and whether a signal came.
func TestOutcome(t *testing.T) {
	resumable := exitcode.Error{Code: exitcode.Interrupted, Err: errors.New("interrupted: 3 of 9 games recorded in r; continue with: calcsol tournament --resume r")}
	failed := exitcode.Error{Code: exitcode.StrategyFailed, Err: errors.New("strategy a failed 9 of 9 games\nstrategy b failed 8 of 9 games")}
	tests := []struct {
		name                   string
		err                    error
		signalled, interrupted bool
		msg                    string
		code                   int
	}{
		{"success", nil, false, false, "", 0},
		{"bad input", exitcode.BadInput("--n 11: want 0..10"), false, false, "--n 11: want 0..10", exitcode.Input},
		{"failed strategies, a line each", failed, false, false, "strategy a failed 9 of 9 games\ncalcsol: strategy b failed 8 of 9 games", exitcode.StrategyFailed},
		{"cancelled", fmt.Errorf("eval: %w", context.Canceled), true, true, "interrupted; no output file was written", exitcode.Interrupted},
		{"cancelled, the work kept", resumable, true, false, resumable.Error(), exitcode.Interrupted},
		{"another error after the signal", errors.New("plugin exited (signal: interrupt)"), true, false, "interrupted: plugin exited (signal: interrupt)", exitcode.Interrupted},
		{"failed strategies after the signal", failed, true, false, "interrupted: " + failed.Error(), exitcode.Interrupted},
		{"finished after the signal", nil, true, false, "interrupted; the command had finished: its output is complete", exitcode.Interrupted},
	}
	for _, tc := range tests {
		msg, code := outcome(tc.err, tc.signalled, tc.interrupted)
		if msg != tc.msg || code != tc.code {
			t.Errorf("%s: %q, exit %d; want %q, exit %d", tc.name, msg, code, tc.msg, tc.code)
		}
	}
}
