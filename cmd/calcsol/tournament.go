package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/calcsol/calcsol/configs"
	"github.com/calcsol/calcsol/internal/atomicfile"
	"github.com/calcsol/calcsol/internal/interrupt"
	"github.com/calcsol/calcsol/internal/progress"
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
is significant at 5 % after Holm's correction over all pairs.

With no CONFIG it runs the shipped config (configs/tournament.yaml, built
in): the built-in strategies on the shipped corpus and a riffle-shuffled one.

--out DIR writes a report directory: results.jsonl (one record per game,
appended as games finish), summary.md, summary.json, rates.png, config.yaml
(the resolved config) and manifest.json (program version, corpus checksums,
strategy hashes). --resume DIR continues an interrupted run in DIR and ends
with exactly the records an uninterrupted run would have. --shard k/N plays
the decks d with d mod N = k−1; 'calcsol merge' joins the shards' reports.

Bad configs fail before any game with the file, line, key and reason (exit
status 2). See docs/tournament.md.`,
		Example: `  calcsol tournament
  calcsol tournament my-tournament.yaml --out report
  calcsol tournament --resume report
  calcsol tournament my-tournament.yaml --shard 2/8 --out shard-2
  calcsol merge --out report shard-1 shard-2 shard-3`,
		Args: cobra.MaximumNArgs(1),
		RunE: runTournament,
	}
	f := cmd.Flags()
	f.Int("workers", runtime.NumCPU(), "games played in parallel")
	f.String("format", "table", "output format: "+strings.Join(report.Formats, ", "))
	f.String("out", "", "write a report directory (created if missing; must hold no results yet)")
	f.String("resume", "", "continue the interrupted run whose report directory this is")
	f.String("shard", "", "play shard k/N of the games (the decks d with d mod N = k−1)")
	f.Bool("trace", false, "record every game's moves in results.jsonl")
	f.Bool("timing", true, "show ms per game (differs between runs)")
	return cmd
}

func init() { rootCmd.AddCommand(newTournamentCmd(), newMergeCmd()) }

func newMergeCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "merge --out DIR SHARD_DIR...",
		Short: "Join the reports of a tournament's shards into one",
		Long: `Join the report directories written by 'calcsol tournament --shard k/N --out
DIR' into the report a single run would have written: the records in the
single run's order, the summaries and the chart, the same byte for byte
apart from timing fields. Shards made by another program version, config or
corpus are refused, and missing or duplicate shards are named (exit status
2). See docs/tournament.md.`,
		Example: `  calcsol merge --out report shard-1 shard-2 shard-3`,
		Args:    cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			out, _ := cmd.Flags().GetString("out")
			format, _ := cmd.Flags().GetString("format")
			timing, _ := cmd.Flags().GetBool("timing")
			if out == "" {
				return badInput("--out DIR: where the merged report goes")
			}
			if !slices.Contains(report.Formats, format) {
				return badInput("--format %q: want one of %s", format, strings.Join(report.Formats, ", "))
			}
			if err := atomicfile.CheckDir(out); err != nil {
				return badInput("--out: %v", err)
			}
			if _, err := os.Stat(filepath.Join(out, tournament.ResultsFile)); err == nil {
				return badInput("--out %s: it holds results already", out)
			}
			ta, m, err := tournament.Merge(out, args)
			if err != nil {
				return badInput("%v", err)
			}
			rep := ta.Report()
			if err := report.WriteFiles(out, rep, m); err != nil {
				return err
			}
			return report.Write(cmd.OutOrStdout(), rep, format, report.Options{Timing: timing})
		},
	}
	cmd.Flags().String("out", "", "the merged report directory")
	cmd.Flags().String("format", "table", "output format: "+strings.Join(report.Formats, ", "))
	cmd.Flags().Bool("timing", true, "show ms per game (differs between runs)")
	return cmd
}

// tournamentRun is what runTournament has resolved before playing.
type tournamentRun struct {
	cfg       *configs.TournamentConfig
	cfgText   []byte
	cfgSHA    string
	t         *tournament.Tournament
	shard     tournament.Shard
	dir       string // report directory, or ""
	resume    bool
	trace     bool
	workers   int
	format    string
	timing    bool
	stdout    io.Writer
	stderr    io.Writer
	stderrTTY bool
}

func runTournament(cmd *cobra.Command, args []string) error {
	f := cmd.Flags()
	r := tournamentRun{stdout: cmd.OutOrStdout(), stderr: cmd.ErrOrStderr()}
	r.workers, _ = f.GetInt("workers")
	r.format, _ = f.GetString("format")
	r.trace, _ = f.GetBool("trace")
	r.timing, _ = f.GetBool("timing")
	out, _ := f.GetString("out")
	resume, _ := f.GetString("resume")
	shard, _ := f.GetString("shard")
	if r.workers < 1 {
		return badInput("--workers %d: want at least 1", r.workers)
	}
	if !slices.Contains(report.Formats, r.format) {
		return badInput("--format %q: want one of %s", r.format, strings.Join(report.Formats, ", "))
	}
	if shard != "" {
		s, err := tournament.ParseShard(shard)
		if err != nil {
			return badInput("--shard: %v", err)
		}
		r.shard = s
	}
	// Output paths are checked before any work.
	switch {
	case out != "" && resume != "":
		return badInput("--out and --resume: give one (--resume writes into the directory it continues)")
	case resume != "":
		if len(args) > 0 || shard != "" || f.Changed("trace") {
			return badInput("--resume takes the config, shard and trace of the run it continues; give none")
		}
		if err := atomicfile.CheckDir(resume); err != nil {
			return badInput("--resume: %v", err)
		}
		r.dir, r.resume = resume, true
	case out != "":
		if err := atomicfile.CheckDir(out); err != nil {
			return badInput("--out: %v", err)
		}
		if _, err := os.Stat(filepath.Join(out, tournament.ResultsFile)); err == nil {
			return badInput("--out %s: it holds a run's results already (continue it with --resume %s, or choose another directory)", out, out)
		}
		r.dir = out
	}

	ctx, stop := signalContext(cmd)
	defer stop()
	var m tournament.Manifest
	if r.resume {
		var err error
		if m, err = tournament.ReadManifest(r.dir); err != nil {
			return badInput("--resume: %v", err)
		}
		data, err := os.ReadFile(filepath.Join(r.dir, tournament.ConfigFile))
		if err != nil {
			return badInput("--resume: %v", err)
		}
		if err := r.load(ctx, data, filepath.Join(r.dir, tournament.ConfigFile)); err != nil {
			return err
		}
		if m.Shard != "" {
			if r.shard, err = tournament.ParseShard(m.Shard); err != nil {
				return badInput("--resume: manifest: %v", err)
			}
		}
		r.trace = m.Trace
		if err := sameManifest(m, r.t.Manifest(r.cfgSHA, r.shard, r.trace)); err != nil {
			return badInput("--resume %s: %v", r.dir, err)
		}
	} else {
		data, file := configs.TournamentYAML(), "configs/tournament.yaml (built in)"
		if len(args) == 1 {
			var err error
			if data, err = os.ReadFile(args[0]); err != nil {
				return badInput("%v", err)
			}
			file = args[0]
		}
		if err := r.load(ctx, data, file); err != nil {
			return err
		}
		m = r.t.Manifest(r.cfgSHA, r.shard, r.trace)
	}
	return r.play(ctx, m)
}

// signalContext is cmd's context, cancelled by Ctrl-C or SIGTERM, so that a
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

// load parses a config and builds its tournament (strategies started once).
func (r *tournamentRun) load(ctx context.Context, data []byte, file string) error {
	cfg, err := configs.ParseTournament(data, file)
	if err != nil {
		return badInput("%v", err)
	}
	plan, err := cfg.Plan(strategyRegistry())
	if err != nil {
		return badInput("%v", err)
	}
	t, err := tournament.New(ctx, plan, cfg.Seed)
	if err != nil {
		return badInput("%s: %v", file, err)
	}
	r.cfg, r.t = cfg, t
	r.cfgText = cfg.Format()
	sum := sha256.Sum256(r.cfgText)
	r.cfgSHA = hex.EncodeToString(sum[:])
	return nil
}

// sameManifest checks that a resumed run is the run its directory holds.
func sameManifest(old, now tournament.Manifest) error {
	switch {
	case old.Program != now.Program:
		return fmt.Errorf("made by %s; this is %s", old.Program, now.Program)
	case old.ConfigSHA != now.ConfigSHA || !slices.Equal(old.Corpora, now.Corpora) || !slices.Equal(old.Strategies, now.Strategies) || !slices.Equal(old.Cells, now.Cells):
		return errors.New("its config, corpora or strategies have changed since the run began")
	}
	return nil
}

func (r *tournamentRun) play(ctx context.Context, m tournament.Manifest) error {
	ta := r.t.NewTally()
	var sink tournament.Sink
	skip := 0
	if r.dir != "" {
		if !r.resume {
			if err := atomicfile.Write(filepath.Join(r.dir, tournament.ConfigFile), r.cfgText); err != nil {
				return err
			}
			if err := tournament.WriteManifest(r.dir, m); err != nil {
				return err
			}
		}
		res, n, err := r.t.OpenResults(r.dir, r.shard, ta)
		if err != nil {
			return badInput("%v", err)
		}
		defer res.Close()
		sink, skip = res, n
	}
	total := r.t.Games(r.shard)
	if r.resume {
		fmt.Fprintf(r.stderr, "resuming: %d of %d games recorded; playing the other %d\n", skip, total, total-skip)
	}
	opt := tournament.RunOptions{Workers: r.workers, Shard: r.shard, Skip: skip, Trace: r.trace}
	// The shared progress line (games done, games/s, time left), drawn only
	// when standard error is a terminal; Run reports from one goroutine.
	bar := progress.Start(r.stderr, "games", int64(total-skip))
	last := skip
	opt.Progress = func(done, _ int) {
		bar.Add(int64(done - last))
		last = done
	}
	err := r.t.Run(ctx, ta.Sink(sink), opt)
	bar.Stop() // clears the line
	if err != nil {
		if ctx.Err() != nil && r.dir != "" {
			done := 0
			for _, c := range ta.Tallies() {
				done += c.Games
			}
			return fmt.Errorf("interrupted: %d of %d games recorded in %s; continue with: calcsol tournament --resume %s", done, total, r.dir, r.dir)
		}
		return err
	}
	rep := ta.Report()
	if err := report.Write(r.stdout, rep, r.format, report.Options{Timing: r.timing}); err != nil {
		return err
	}
	if r.dir != "" {
		if err := report.WriteFiles(r.dir, rep, m); err != nil {
			return err
		}
		if r.format == "table" {
			fmt.Fprintf(r.stdout, "report: %s\n", r.dir)
		}
	}
	return nil
}
