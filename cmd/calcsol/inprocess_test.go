package main

import (
	"bytes"
	"context"
	"regexp"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/calcsol/calcsol/internal/flagconfig"
)

// inProcess runs the calcsol command line args in this process, on a
// command tree of its own (made by the constructors main's commands come
// from, under a root set as rootCmd is), and returns what calcsol prints
// and its exit status: main's last line and status for the error
// (outcome). No default config file is read (./calcsol.yaml,
// $HOME/.config/calcsol), only one named by --config; the CALCSOL_
// environment applies as in calcsol.
func inProcess(args ...string) (stdout, stderr string, code int) {
	root := &cobra.Command{
		Use:                rootCmd.Use,
		SilenceUsage:       rootCmd.SilenceUsage,
		SilenceErrors:      rootCmd.SilenceErrors,
		DisableSuggestions: rootCmd.DisableSuggestions,
		PersistentPreRunE: func(cmd *cobra.Command, _ []string) error {
			file, _ := cmd.Flags().GetString("config")
			if err := flagconfig.Apply(cmd, file, "CALCSOL"); err != nil {
				return badInput("%w", err)
			}
			return nil
		},
	}
	root.PersistentFlags().String("config", "", "config file")
	root.SetFlagErrorFunc(rootCmd.FlagErrorFunc())
	root.AddCommand(newAnalyzeCmd(), newAutopsyCmd(), newBaselineCmd(), newRegressCmd(),
		newVerifyBlindCmd(), newCorpusCmd(), newDealCmd(), newEvalCmd(), newMatchCmd(),
		newPlayCmd(), newPluginCmd(), newReplayCmd(), newSATWorkerCmd(), newShuffleCmd(),
		newSolveCmd(), newStrategiesCmd(), newSubgameCmd(), newSubmitCmd(), newShardCmd(),
		newTableCmd(), newTournamentCmd(), newMergeCmd(), newTuneCmd())
	var o, e bytes.Buffer
	root.SetArgs(args)
	root.SetIn(strings.NewReader(""))
	root.SetOut(&o)
	root.SetErr(&e)
	// As main runs it.
	err := unknownCommand(root, args)
	if err == nil {
		err = root.ExecuteContext(context.Background())
	}
	msg, code := outcome(err, false, false)
	if msg != "" {
		e.WriteString("calcsol: " + msg + "\n")
	}
	return o.String(), e.String(), code
}

// deck is a rank-only deck the play checks use.
const deck = "A3474AK0JJ77Q580Q626639695324880KJAK2047A85Q25KJ99Q3"

// Bad flags and arguments: calcsol's last line on standard error (a
// regular expression, as a script's stderr), exit status 2 and nothing on
// standard output. These are the checks of the command-line scripts that
// need no process of their own; the scripts keep those that go through
// main (exit statuses, signals, files left behind).
func TestBadInput(t *testing.T) {
	t.Parallel()
	tests := []struct {
		args   []string
		stderr string // must match
		not    string // must not match, if set
	}{
		// corpus
		{args: []string{"corpus", "generate", "--shuffle", "U", "--count", "1"}, stderr: `--out FILE is required`},
		{args: []string{"corpus", "generate", "--shuffle", "U", "--deal", "players=4", "--count", "1", "--out", "-"}, stderr: `exactly one of`},
		{args: []string{"corpus", "generate", "--shuffle", "U", "--count", "0", "--out", "-"}, stderr: `^calcsol: count 0: want 1..1000000000 decks$`},
		{args: []string{"corpus", "generate", "--shuffle", "U", "--count", "1000000001", "--out", "-"}, stderr: `count 1000000001: want 1..1000000000 decks`},
		{args: []string{"corpus", "generate", "--deck", "poker", "--shuffle", "U", "--count", "1", "--out", "-"}, stderr: `unknown deck kind`},
		{args: []string{"corpus", "generate", "--deal", "players=9", "--count", "1", "--out", "-"}, stderr: `players=9: want 3..5`},
		{args: []string{"corpus", "generate", "--deck", "set64", "--deal", "players=4", "--count", "1", "--out", "-"}, stderr: `cannot make set64 decks`},
		{args: []string{"corpus", "generate", "--rank-only", "--deck", "tcg60", "--shuffle", "U", "--count", "1", "--out", "-"}, stderr: `rank-only lines need standard52`},
		{args: []string{"corpus", "verify", "no-such-corpus"}, stderr: `^calcsol: corpus no-such-corpus: no such file, and no shipped corpus of that name \(have uniform-1000, uniform-30000\)$`},
		{args: []string{"corpus", "generate", "--shuffle", "U", "--count", "1", "--out", "/nonexistdir/x.txt"}, stderr: `directory /nonexistdir does not exist`},
		// shuffle
		{args: []string{"shuffle", "costs", "--limit", "12", "--one-deal"}, stderr: `^calcsol: --limit 12: nothing fits: the deal D alone takes 30 s, more than the limit of 12 s$`},
		{args: []string{"shuffle", "apply"}, stderr: `--seq is required`},
		{args: []string{"shuffle", "apply", "--seq", "HX"}, stderr: `position 2: unknown shuffle letter "X"`},
		{args: []string{"shuffle", "apply", "--seq", "R^0"}, stderr: `at least 1`},
		{args: []string{"shuffle", "apply", "--seq", "R", "--show", "both"}, stderr: `--show`},
		{args: []string{"shuffle", "costs", "--methods", "HRO"}, stderr: `O has no time cost`},
		{args: []string{"shuffle", "costs", "--limit", "-1"}, stderr: `--limit`},
		{args: []string{"shuffle", "costs", "--repeat", "--methods", "U"}, stderr: `no time cost`},
		{args: []string{"shuffle", "costs", "--repeat", "--one-deal"}, stderr: `does not combine`},
		{args: []string{"shuffle", "costs", "--limit", "100000", "--methods", "CHRFD"}, stderr: `--limit 100000: want seconds in 0..3600`},
		{args: []string{"shuffle", "costs", "--limit", "3600", "--methods", "CHRFD"}, stderr: `more than 100000 maximal combinations`},
		{args: []string{"shuffle", "costs", "--limit", "300", "--methods", "HRD", "--list"}, stderr: `orderings, more than 1000000`},
		{args: []string{"shuffle", "costs", "--methods", "HR", "--one-deal"}, stderr: `has no D`},
		// play
		{args: []string{"play"}, stderr: `--deck is required`},
		{args: []string{"play", "--deck", deck[:51]}, stderr: `deck: rank-only deck: 51 cards; want 52`},
		{args: []string{"play", "--deck", deck[:51] + "A"}, stderr: `a fifth A`},
		{args: []string{"play", "--deck", "X" + deck[1:]}, stderr: `unknown rank .X.`},
		{args: []string{"play", "--deck", deck, "--stacks", "9"}, stderr: `9 stacks; want 1..8`},
		{args: []string{"play", "--deck", deck, "--stacks", "5"}, stderr: `no shipped priority table for 5 stacks; widen Table 1 with .calcsol table derive --stacks 5`},
		{args: []string{"play", "--deck", deck, "--stacks", "1"}, stderr: `can be widened to more stacks \(calcsol table derive\) but not narrowed`, not: `derive --stacks 1`},
		{args: []string{"play", "--deck", deck, "--stacks", "4", "--table", "nanzaki-shintani"}, stderr: `is for 3 stacks \(ZXC\), the game has 4`},
		{args: []string{"play", "--deck", deck, "--option", "deadlock_check=maybe"}, stderr: `"maybe" is not one of partial, exact, none`},
		{args: []string{"play", "--deck", deck, "--strategy", "oracle"}, stderr: `unknown strategy kind "oracle"`},
		{args: []string{"play", "--dek", deck}, stderr: `unknown flag --dek \(did you mean --deck\?\)`},
		// deal
		{args: []string{"deal", "stats", "--target", "flush"}, stderr: `unknown objective "flush"`},
		{args: []string{"deal", "stats", "--from", "50", "--to", "0"}, stderr: `from 50 is above to 0`},
		{args: []string{"deal", "stats", "--count", "tries"}, stderr: `--count tries`},
		{args: []string{"deal", "stats", "--deals", "0"}, stderr: `^calcsol: 0 deals, want 1..10000000$`},
		{args: []string{"deal", "stats", "--deals", "10000001"}, stderr: `10000001 deals, want 1..10000000`},
		{args: []string{"deal", "show", "--deal", "adjust=500"}, stderr: `adjust=500`},
		// replay
		{args: []string{"replay", "--deck", deck, "--trace", "A1 33 44 7X3 4X3 Z71"}, stderr: `^calcsol: trace: move 6 \(Z71\): stack Z is empty$`},
		{args: []string{"replay", "--deck", deck, "--trace", "A1 34"}, stderr: `^calcsol: trace: move 2 \(34\): table 4 needs 4, not 3$`},
		{args: []string{"replay", "--deck", deck, "--trace", "A1 3Q4"}, stderr: `^calcsol: trace token 2: move "3Q4": no stack .Q. with 3 stacks$`},
		{args: []string{"replay", "--deck", deck}, stderr: `--trace is required`},
		{args: []string{"replay", "--deck", "-", "--trace", "-"}, stderr: `cannot both read standard input`},
		// autopsy
		{args: []string{"autopsy", "--sat-solver", "cadical"}, stderr: `--sat-solver needs --sat`},
		{args: []string{"autopsy", "--at", "60"}, stderr: `--at 60: want a number of stock cards from 0 to 51`},
		{args: []string{"autopsy", "--nodes", "-1"}, stderr: `--nodes -1`},
		{args: []string{"autopsy", "--corpus", "nosuch.txt"}, stderr: `nosuch`},
		{args: []string{"autopsy", "--stacks", "3", "--table", "tuned-4"}, stderr: `tuned-4`},
		// strategies
		{args: []string{"play", "--deck", deck, "--strategy", "fast-3:n=2"}, stderr: `preset fast-3 takes no parameters: set those of its layers with --set KIND.KEY=VALUE`},
		{args: []string{"strategies", "smaple"}, stderr: `^calcsol: no strategy kind or preset "smaple" \(kinds: deadlock-graph, endgame, greedy, pimc, plugin, priority, random, rescue, sample, subgame\)$`},
		{args: []string{"strategies", "--format", "yaml"}, stderr: `want text or json`},
		{args: []string{"play", "--deck", deck, "--set", "endgame.k=6"}, stderr: `^calcsol: --set "endgame.k=6": the strategy has no endgame layer \(priority\)$`},
		// subgame
		{args: []string{"subgame", "build", "--stacks", "9"}, stderr: `^calcsol: --stacks, --cards: subgame: 9 stacks; want 1..8$`},
		{args: []string{"subgame", "build", "--stacks", "3", "--cards", "14"}, stderr: `14 cards; want 1..13`},
		// match
		{args: []string{"match", "priority"}, stderr: `accepts 2 arg`},
		{args: []string{"match", "priority", "tuned-3", "--odds", "1"}, stderr: `^calcsol: --odds, --alpha, --beta: odds 1: want a number above 1`},
		{args: []string{"match", "priority", "prioirty"}, stderr: `^calcsol: B "prioirty": .*did you mean priority\?`},
	}
	for _, tc := range tests {
		name := strings.Join(tc.args, " ")
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			stdout, stderr, code := inProcess(tc.args...)
			if code != 2 {
				t.Errorf("exit status %d, want 2; stderr %q", code, stderr)
			}
			if stdout != "" {
				t.Errorf("stdout %q, want none", stdout)
			}
			// (?m): as a script's stderr pattern, ^ and $ match at lines.
			if !regexp.MustCompile(`(?m)` + tc.stderr).MatchString(stderr) {
				t.Errorf("stderr %q, want a match for %q", stderr, tc.stderr)
			}
			if tc.not != "" && regexp.MustCompile(`(?m)`+tc.not).MatchString(stderr) {
				t.Errorf("stderr %q, want no match for %q", stderr, tc.not)
			}
		})
	}
}
