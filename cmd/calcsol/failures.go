package main

import (
	"github.com/spf13/cobra"

	"github.com/calcsol/calcsol/internal/exitcode"
	"github.com/calcsol/calcsol/tournament"
)

// addMaxFailedFlag adds --max-failed-share to a command that plays games
// (tournament, eval, match).
func addMaxFailedFlag(cmd *cobra.Command) {
	cmd.Flags().Float64("max-failed-share", tournament.DefaultMaxFailedShare,
		"fail the run (exit status 6) when a strategy fails more than this share of its games, or all of them (0 to 1)")
}

// maxFailedShare is --max-failed-share, checked before any game.
func maxFailedShare(cmd *cobra.Command) (float64, error) {
	share, _ := cmd.Flags().GetFloat64("max-failed-share")
	if !(share >= 0 && share <= 1) {
		return 0, badInput("--max-failed-share %v: want a share from 0 to 1 (1: fail only when every game failed)", share)
	}
	return share, nil
}

// checkFailures ends a run whose strategies failed too many of their games
// (tournament.CheckFailures) with exit status 6, one line for each: what
// was played is written and printed by then.
func checkFailures(fs []tournament.FailedGames, maxShare float64) error {
	if err := tournament.CheckFailures(fs, maxShare); err != nil {
		return exitcode.Error{Code: exitcode.StrategyFailed, Err: err}
	}
	return nil
}
