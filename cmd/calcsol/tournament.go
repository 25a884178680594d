package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/calcsol/calcsol/configs"
	"github.com/calcsol/calcsol/internal/atomicfile"
	"github.com/calcsol/calcsol/internal/exitcode"
	"github.com/calcsol/calcsol/internal/interrupt"
	"github.com/calcsol/calcsol/tournament"
	"github.com/calcsol/calcsol/tournament/report"
)

func newTournamentCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "tournament [CONFIG.yaml]",
		Short: "Play strategies × corpora × rules and compare them deck by deck",
		Long: `Play every strategy of a tournament config on every corpus under every rule
variant, and print one row per strategy × corpus × rules (wins, success rate
with its Wilson 95 % interval, mean cards placed, ms per game), then, for each
corpus and rules, every pair of strategies compared on the same decks: decks
both won, only A, only B, neither, the difference in success rate with its
95 % interval, the exact McNemar p-value, and the winner where the difference
is significant at 5 % after Holm's correction over all pairs. Where a corpus
has a clairvoyant bound under the rules (shipped, or named in the config),
a third table gives each strategy's wins among the decks that can be won at
all; a win on a deck the bound calls unwinnable fails the run (exit status 1).

The table format fits 100 columns ($COLUMNS when set): one table per rule
variant (strategy, corpus, wins, rate % with its interval, ms/game; failures
when a game failed), the cells a strategy cannot play left out and counted in
one line, the pairs that differ significantly as sentences, winner first
(--pairs all: every pair), and the bound only for the cells where a deck is
unknown or unwinnable (otherwise one line). --wide prints every column (games,
mean placed, failures), full names and the whole bound table, at any width.
--format markdown, csv and json are always complete.

With no CONFIG it runs the shipped config (configs/tournament.yaml, built
in): the built-in strategies on the shipped corpora and a riffle-shuffled one,
the fast presets on the shipped corpora, the deadlock-graph player on the
small one; about 40 CPU seconds.

--out DIR writes a report directory, made once the config is found good:
results.jsonl.gz (one JSON record per game, gzipped a block of 256 at a
time as games finish: zcat reads it; an older calcsol's report has a plain
results.jsonl, read alike), results.sha256 (the checksum of each block of
256 records), summary.md, summary.json, rates.png, config.yaml (the
resolved config) and manifest.json (program version, corpus checksums,
strategy hashes). --resume DIR continues an interrupted run in DIR and
ends with exactly the records an uninterrupted run would have; it refuses
records changed after calcsol wrote them (their checksum differs) or torn,
naming the file and line, and --repair truncates them to the last good
record, saying what it drops, and plays the rest again.
--retry-failed (with --resume) plays the games recorded as failed again and
replaces their records. --shard k/N plays the decks d with d mod N = k−1;
'calcsol merge' joins the shards' reports.

--stop-after D (with --out or --resume) plays a long run in sittings: after
D no new chunk of games is begun, the games in play are finished and
recorded, and the run stops with exit status 5, to be continued with
--resume; a sitting that has begun every chunk by then ends as usual (exit
0). Every sitting plays at least one chunk. Ctrl-C stops at once instead,
dropping the games in play: exit status 130, with --out or --resume after
a line saying how many games are recorded and how to resume.

A strategy that failed more than --max-failed-share of its games (default
0.5), or every one of them — a plugin missing or never starting, a strategy
erroring on every move — fails the run with exit status 6 after its report
and records are written, one line for each such strategy: its failed
games and the first failure's deck and reason.

--blind (or blind: true in the config) is for strategies that are not
trusted: every corpus is drawn afresh from its generator (a shipped corpus's,
a generator entry's, or a corpus file's '# generator' line; a file without
one is refused) with a seed from crypto/rand, whose SHA-256 the manifest
holds from before the first game; the decks are played in a secret order
and the strategies see opaque game ids. The seed is kept in DIR/blind-seed
(owner only) until the run ends, then revealed in the manifest; 'calcsol
verify-blind DIR' checks the decks against it. A blind run cannot be sharded.

Bad configs fail before any game with the file, line, key and reason (exit
status 2). See docs/tournament.md.`,
		Example: `  calcsol tournament --shard 1/200    # the shipped tournament on every 200th deck: half a second
  calcsol tournament
  calcsol tournament my-tournament.yaml --out report
  calcsol tournament --resume report
  calcsol tournament --resume report --stop-after 2h30m
  calcsol tournament my-tournament.yaml --shard 2/8 --out shard-2
  calcsol merge --out report shard-1 shard-2 shard-3
  calcsol tournament my-tournament.yaml --blind --out blind-report   # for strategies not trusted
  calcsol verify-blind blind-report`,
		Args: cobra.MaximumNArgs(1),
		RunE: runTournament,
	}
	f := cmd.Flags()
	f.Int("workers", runtime.NumCPU(), "games played in parallel")
	f.String("format", "table", "output format: "+strings.Join(report.Formats, ", "))
	f.String("out", "", "write a report directory (created, once the config is found good, if missing; must hold no results yet)")
	f.String("resume", "", "continue the interrupted run whose report directory this is")
	f.String("shard", "", "play shard k/N of the games (the decks d with d mod N = k−1)")
	f.Duration("stop-after", 0, "after this long (e.g. 2h30m) begin no new games, finish those in play and stop (exit status 5; continue with --resume); 0: no limit")
	f.Bool("trace", false, "record every game's moves in the records (results.jsonl.gz)")
	f.Bool("repair", false, "with --resume: truncate records that cannot be trusted to the last good one (saying what it drops) and play the rest again")
	f.Bool("retry-failed", false, "with --resume: play the games recorded as failed again, replacing their records")
	f.Bool("timing", true, "show ms per game (differs between runs)")
	f.Bool("blind", false, "blind play for untrusted strategies: every corpus drawn afresh with a secret seed, revealed at the end")
	addMaxFailedFlag(cmd)
	addFitFlags(cmd)
	return cmd
}

// addFitFlags adds the flags that say how wide the table format may be.
func addFitFlags(cmd *cobra.Command) {
	cmd.Flags().Bool("wide", false, "table format: every column, full names and the whole bound table, at any width")
	cmd.Flags().String("pairs", "significant", "table format: the pairs listed, significant (Holm-corrected p < 0.05) or all")
}

// reportOptions are the report options the flags ask for. The table fits
// $COLUMNS when it is set, else report.DefaultWidth.
func reportOptions(cmd *cobra.Command) (report.Options, error) {
	f := cmd.Flags()
	var opt report.Options
	opt.Timing, _ = f.GetBool("timing")
	opt.Wide, _ = f.GetBool("wide")
	pairs, _ := f.GetString("pairs")
	switch pairs {
	case "all":
		opt.AllPairs = true
	case "significant":
	default:
		return opt, badInput("--pairs %q: want significant or all", pairs)
	}
	opt.Width = terminalWidth()
	return opt, nil
}

// terminalWidth is $COLUMNS when it is a sensible width, else
// report.DefaultWidth.
func terminalWidth() int {
	if n, err := strconv.Atoi(os.Getenv("COLUMNS")); err == nil && n >= 40 {
		return n
	}
	return report.DefaultWidth
}

func init() { rootCmd.AddCommand(newTournamentCmd(), newMergeCmd()) }

func newMergeCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "merge --out DIR SHARD_DIR... | merge --partial SHARD_DIR...",
		Short: "Join the reports of a tournament's shards into one",
		Long: `Join the report directories written by 'calcsol tournament --shard k/N --out
DIR' into the report a single run would have written: the records in the
single run's order, the summaries and the chart, the same byte for byte
apart from timing fields. Shards made by another program version, config or
corpus are refused, missing or duplicate shards are named, and a record whose
checksum differs is named by its file and lines (exit status 2). The report
is written into a temporary directory beside DIR and renamed to DIR when
whole, so a failed merge leaves nothing; DIR must not exist or be empty. It
prints the report as 'calcsol tournament' does (--wide, --pairs, --format),
and exits 6 as the single run would have: when a strategy failed more than
--max-failed-share of its games, or all of them. See docs/tournament.md.

With --partial, the shards given may be some of them, finished or still
running: it prints the report of the games they have recorded so far (each
shard's share is spread over the corpora, so this is the running estimate
of a long sharded run) and how far each shard has got, and writes nothing.`,
		Example: `  calcsol merge --out report shard-1 shard-2 shard-3
  calcsol merge --partial shard-1 shard-2`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			out, _ := cmd.Flags().GetString("out")
			format, _ := cmd.Flags().GetString("format")
			opt, err := reportOptions(cmd)
			if err != nil {
				return err
			}
			partial, _ := cmd.Flags().GetBool("partial")
			if !slices.Contains(report.Formats, format) {
				return badInput("--format %q: want one of %s", format, strings.Join(report.Formats, ", "))
			}
			if partial {
				if out != "" {
					return badInput("--partial writes no report: leave out --out %s", out)
				}
				return mergePartial(cmd, args, format, opt)
			}
			if out == "" {
				return badInput("--out DIR: where the merged report goes")
			}
			if err := atomicfile.CheckDir(out); err != nil {
				return badInput("--out: %v", err)
			}
			if entries, err := os.ReadDir(out); err == nil && len(entries) > 0 {
				return badInput("--out %s: not empty (merge writes a whole new report directory)", out)
			}
			maxFailed, err := maxFailedShare(cmd)
			if err != nil {
				return err
			}
			warnUnchecked(cmd, args...)
			// Written into a directory beside out and renamed into place
			// when whole: a failed merge leaves nothing behind.
			var rep tournament.Report
			var ta *tournament.Tally
			err = atomicfile.WriteDir(out, func(tmp string) error {
				var m tournament.Manifest
				var err error
				ta, m, err = tournament.Merge(tmp, args)
				if err != nil {
					return badInput("%v", err)
				}
				rep = ta.Report()
				return report.WriteFiles(tmp, rep, m)
			})
			if err != nil {
				return err
			}
			if err := report.Write(cmd.OutOrStdout(), rep, format, opt); err != nil {
				return err
			}
			if err := tournament.CheckPossible(rep.Efficiency); err != nil {
				return err
			}
			return checkFailures(ta.FailedGames(), maxFailed)
		},
	}
	addMaxFailedFlag(cmd)
	addFitFlags(cmd)
	cmd.Flags().String("out", "", "the merged report directory")
	cmd.Flags().String("format", "table", "output format: "+strings.Join(report.Formats, ", "))
	cmd.Flags().Bool("timing", true, "show ms per game (differs between runs)")
	cmd.Flags().Bool("partial", false, "report the games some shards, finished or not, have recorded so far; write nothing")
	return cmd
}

// warnUnchecked says on stderr which of the report directories dirs keep
// no record checksums (reports of an older calcsol).
func warnUnchecked(cmd *cobra.Command, dirs ...string) {
	switch old := tournament.Unchecked(dirs...); len(old) {
	case 0:
	case 1:
		fmt.Fprintf(cmd.ErrOrStderr(), "calcsol: warning: %s keeps no record checksums (an older calcsol wrote it):\n  its records are read unchecked\n", old[0])
	default:
		fmt.Fprintf(cmd.ErrOrStderr(), "calcsol: warning: %d reports keep no record checksums (an older calcsol wrote them):\n  their records are read unchecked (%s … %s)\n", len(old), old[0], old[len(old)-1])
	}
}

// mergePartial prints the report of the games the shards in dirs have
// recorded so far, and on stderr how far each has got.
func mergePartial(cmd *cobra.Command, dirs []string, format string, opt report.Options) error {
	warnUnchecked(cmd, dirs...)
	ta, _, progress, err := tournament.Progress(dirs)
	if err != nil {
		return badInput("%v", err)
	}
	games, share, done := 0, 0, 0
	for _, p := range progress {
		games += p.Games
		share += p.Share
		state := "finished"
		if p.Done() {
			done++
		} else {
			state = fmt.Sprintf("%d of %d games", p.Games, p.Share)
		}
		fmt.Fprintf(cmd.ErrOrStderr(), "shard %d/%d (%s): %s\n", p.Shard.K, p.Shard.N, p.Dir, state)
	}
	n := progress[0].Shard.N
	fmt.Fprintf(cmd.ErrOrStderr(), "partial: %d of %d shards given, %d finished; %d games of their %d\n", len(progress), n, done, games, share)
	rep := ta.Report()
	if err := report.Write(cmd.OutOrStdout(), rep, format, opt); err != nil {
		return err
	}
	return tournament.CheckPossible(rep.Efficiency)
}

func runTournament(cmd *cobra.Command, args []string) error {
	f := cmd.Flags()
	workers, _ := f.GetInt("workers")
	format, _ := f.GetString("format")
	ropt, err := reportOptions(cmd)
	if err != nil {
		return err
	}
	maxFailed, err := maxFailedShare(cmd)
	if err != nil {
		return err
	}
	out, _ := f.GetString("out")
	resume, _ := f.GetString("resume")
	shard, _ := f.GetString("shard")
	stopAfter, _ := f.GetDuration("stop-after")
	opt := tournament.SessionOptions{Workers: workers, Log: cmd.ErrOrStderr(),
		// A preset's measured cost a game weighs the time left of its
		// cells before they start.
		Cost: func(e *tournament.Entrant) time.Duration { return strategyRegistry().Cost(e.Spec) }}
	opt.Trace, _ = f.GetBool("trace")
	if workers < 1 {
		return badInput("--workers %d: want at least 1", workers)
	}
	if !slices.Contains(report.Formats, format) {
		return badInput("--format %q: want one of %s", format, strings.Join(report.Formats, ", "))
	}
	switch {
	case stopAfter < 0:
		return badInput("--stop-after %v: want a positive duration, or 0 for no limit", stopAfter)
	case stopAfter > 0 && out == "" && resume == "":
		return badInput("--stop-after needs --out DIR or --resume DIR: a run stopped without a report directory keeps nothing")
	}
	if shard != "" {
		s, err := tournament.ParseShard(shard)
		if err != nil {
			return badInput("--shard: %v", err)
		}
		opt.Shard = s
	}
	// Output paths are checked before any work.
	data, file := configs.TournamentYAML(), "configs/tournament.yaml (built in)"
	blind, _ := f.GetBool("blind")
	var secret *tournament.Blind // a resumed blind run's
	switch {
	case resume == "" && (f.Changed("repair") || f.Changed("retry-failed")):
		return badInput("--repair and --retry-failed act on the run --resume DIR continues")
	case out != "" && resume != "":
		return badInput("--out and --resume: give one (--resume writes into the directory it continues)")
	case resume != "":
		if len(args) > 0 || shard != "" || f.Changed("trace") || f.Changed("blind") {
			return badInput("--resume takes the config, shard, trace and blind setting of the run it continues; give none")
		}
		if err := atomicfile.CheckExistingDir(resume); err != nil {
			return badInput("--resume: %v", err)
		}
		m, text, err := tournament.ReadRun(resume)
		if err != nil {
			return badInput("--resume: %v", err)
		}
		opt.Dir, opt.Resume = resume, &m
		opt.Repair, _ = f.GetBool("repair")
		opt.RetryFailed, _ = f.GetBool("retry-failed")
		data, file = text, filepath.Join(resume, tournament.ConfigFile)
		if m.Blind != nil {
			if secret, err = tournament.ReadBlindSeed(resume, m); err != nil {
				return badInput("--resume: %v", err)
			}
		}
	case out != "":
		if err := atomicfile.CheckDir(out); err != nil {
			return badInput("--out: %v", err)
		}
		if err := tournament.CheckDirLock(out); err != nil {
			return badInput("--out: %w", err)
		}
		if tournament.HasResults(out) {
			return badInput("--out %s: it holds a run's results already (continue it with --resume %s, or choose another directory)", out, out)
		}
		opt.Dir = out
	}
	if len(args) == 1 {
		var err error
		if data, err = os.ReadFile(args[0]); err != nil {
			return badInput("%v", err)
		}
		file = args[0]
	}

	ctx, stop := signalContext(cmd)
	defer stop()
	t, text, err := configs.LoadTournamentBlind(ctx, data, file, strategyRegistry(), blind, secret)
	if err != nil {
		return badInput("%w", err)
	}
	if t.Blind() != nil && opt.Shard.N > 1 {
		return badInput("--shard %s: a blind run cannot be sharded: each shard would draw its own secret decks", shard)
	}
	opt.Config = text
	stopCh := make(chan struct{})
	if stopAfter > 0 {
		opt.Stop = stopCh
	}
	s, err := t.Open(opt)
	if de := (*tournament.DirError)(nil); errors.As(err, &de) {
		return badInput("%w", err)
	} else if err != nil {
		return err
	}
	defer s.Close() // the report directory's lock, after its last file
	if err := commitBlind(cmd, t, opt.Dir, opt.Resume != nil); err != nil {
		return err
	}
	if stopAfter > 0 {
		// From the first game on: reading the records done is not counted.
		timer := time.AfterFunc(stopAfter, func() { close(stopCh) })
		defer timer.Stop()
	}
	rep, err := s.Play(ctx)
	if se := (*tournament.StoppedError)(nil); errors.As(err, &se) {
		return exitcode.Error{Code: exitcode.Unfinished, Err: fmt.Errorf("--stop-after %v: %w", stopAfter, err)}
	}
	if err != nil && ctx.Err() != nil && opt.Dir != "" {
		// Play says how many games are recorded and how to resume.
		return exitcode.Error{Code: exitcode.Interrupted, Err: err}
	}
	if err != nil {
		return err
	}
	w := cmd.OutOrStdout()
	if err := report.Write(w, rep, format, ropt); err != nil {
		return err
	}
	m, err := revealBlind(cmd, t, opt.Dir, s.Manifest())
	if err != nil {
		return err
	}
	if opt.Dir != "" {
		if err := report.WriteFiles(opt.Dir, rep, m); err != nil {
			return err
		}
		if format == "table" {
			fmt.Fprintf(w, "report: %s\n", opt.Dir)
		}
	}
	if err := tournament.CheckPossible(rep.Efficiency); err != nil {
		return err
	}
	return checkFailures(s.FailedGames(), maxFailed)
}

// signalContext is cmd's context, cancelled by Ctrl-C, SIGTERM or SIGHUP, so that a
// run stops cleanly with what is done.
func signalContext(cmd *cobra.Command) (context.Context, context.CancelFunc) {
	return interrupt.Context(contextOf(cmd))
}

// contextOf is cmd's context, or the background.
func contextOf(cmd *cobra.Command) context.Context {
	if ctx := cmd.Context(); ctx != nil {
		return ctx
	}
	return context.Background()
}
