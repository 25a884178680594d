package main

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"

	"github.com/spf13/cobra"

	"github.com/calcsol/calcsol/configs"
	"github.com/calcsol/calcsol/plugin"
	"github.com/calcsol/calcsol/tournament"
	"github.com/calcsol/calcsol/tournament/slurm"
)

func newSubmitCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "submit CONFIG.yaml --shards N --out DIR",
		Short: "Run a tournament on a Slurm cluster: an array job of shards, then their merge",
		Long: `Write into DIR a Slurm array job whose task k plays shard k of N of the
tournament (calcsol tournament --shard k/N --out DIR/shard-k; a task that
starts again, requeued or preempted, resumes its shard where it stopped),
and a merge job that runs once every task has succeeded (afterok) and
writes the merged report to DIR/report; then submit both with sbatch and
print their job ids and how to watch, cancel and collect them.

The config is checked first as calcsol tournament checks it (every
strategy, plugin program, table, corpus and bound file it names must be
there), and copied to DIR/tournament.yaml, which the tasks read. The tasks
run in the current directory (the config's relative paths start there) and
run this very program: its path and SHA-256 go into the scripts and
DIR/job.json, and a task whose program has changed since refuses to play.

--dry-run writes the scripts and prints the sbatch commands without
submitting. Each task asks for --cpus-per-task CPUs and plays that many
games in parallel; --partition, --account, --time and any --sbatch-line
('#SBATCH --mem-per-cpu=1G') go into both scripts. The shards' report
directories are locked by the task writing them, so a duplicate of a task
that still runs is refused rather than let write beside it.

While it runs: squeue -j ARRAY,MERGE; calcsol merge --partial DIR/shard-*/
for the running estimate. A task that fails leaves the merge job pending
(reason DependencyNeverSatisfied); see docs/tournament.md, "Running on a
cluster".`,
		Example: `  calcsol submit my-tournament.yaml --shards 3 --out run --dry-run`,
		Args:    cobra.ExactArgs(1),
		RunE:    runSubmit,
	}
	f := cmd.Flags()
	f.Int("shards", 0, "number of shards: array tasks (required)")
	f.String("out", "", "the run directory: scripts, logs, shard-k reports, the merged report (required)")
	f.Bool("dry-run", false, "write the scripts and print the sbatch commands; submit nothing")
	f.Int("cpus-per-task", 1, "CPUs of each task, and the games it plays in parallel")
	f.String("partition", "", "Slurm partition (default: the cluster's)")
	f.String("account", "", "Slurm account to charge (default: yours)")
	f.String("time", "", "time limit of each task, as sbatch takes it (90, 4:00:00, 2-00:00:00)")
	f.StringArray("sbatch-line", nil, "a further line for both scripts, '#SBATCH --option=value' (repeatable)")
	f.String("job-name", "", "the jobs' name (default: calcsol-DIR's name); the merge job's is NAME-merge")
	f.Bool("trace", false, "record every game's moves")
	f.String("sbatch", "sbatch", "the sbatch command")
	return cmd
}

func init() { rootCmd.AddCommand(newSubmitCmd()) }

func runSubmit(cmd *cobra.Command, args []string) error {
	f := cmd.Flags()
	shards, _ := f.GetInt("shards")
	out, _ := f.GetString("out")
	dry, _ := f.GetBool("dry-run")
	sbatch, _ := f.GetString("sbatch")
	j := slurm.Job{Shards: shards}
	j.CPUs, _ = f.GetInt("cpus-per-task")
	j.Partition, _ = f.GetString("partition")
	j.Account, _ = f.GetString("account")
	j.Time, _ = f.GetString("time")
	j.Extra, _ = f.GetStringArray("sbatch-line")
	j.Name, _ = f.GetString("job-name")
	j.Trace, _ = f.GetBool("trace")
	switch {
	case out == "":
		return badInput("--out DIR: where the scripts, logs, shards and report go")
	case shards < 1:
		return badInput("--shards %d: want at least 1 shard", shards)
	}
	var err error
	if j.Dir, err = filepath.Abs(out); err != nil {
		return badInput("--out: %v", err)
	}
	if j.Workdir, err = os.Getwd(); err != nil {
		return err
	}
	if j.Name == "" {
		j.Name = "calcsol-" + filepath.Base(j.Dir)
	}
	if j.Program, err = os.Executable(); err == nil {
		j.Program, err = filepath.EvalSymlinks(j.Program)
	}
	if err != nil {
		return fmt.Errorf("the program's own path: %w", err)
	}
	if j.SHA256, err = plugin.FileSHA256(j.Program); err != nil {
		return fmt.Errorf("the program's checksum: %w", err)
	}
	if err := j.Check(); err != nil {
		return badInput("%v", err)
	}

	// The config as a task will load it: every file it names must be there.
	data, err := os.ReadFile(args[0])
	if err != nil {
		return badInput("%v", err)
	}
	cfg, err := configs.ParseTournament(data, args[0])
	if err != nil {
		return badInput("%w", err)
	}
	if _, err := cfg.Plan(strategyRegistry()); err != nil {
		return badInput("%w", err)
	}
	if err := slurm.Write(j, args[0], data); err != nil {
		return badInput("--out: %v", err)
	}

	w := cmd.OutOrStdout()
	shardsScript, mergeScript := filepath.Join(out, slurm.ShardsFile), filepath.Join(out, slurm.MergeFile)
	if dry {
		fmt.Fprintf(w, "wrote %s and %s (dry run: nothing submitted); to submit:\n", shardsScript, mergeScript)
		fmt.Fprintf(w, "  array=$(%s --parsable %s)\n", sbatch, shardsScript)
		fmt.Fprintf(w, "  %s --parsable --dependency=afterok:${array%%;*} %s\n", sbatch, mergeScript)
		return nil
	}
	s, err := slurm.Submit(contextOf(cmd), j, args[0], sbatch)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "submitted array job %s (%d shard tasks) and merge job %s (after all succeed)\n", s.Array, shards, s.Merge)
	fmt.Fprintf(w, "  watch:   squeue -j %s,%s   calcsol merge --partial %s\n", s.Array, s.Merge, filepath.Join(out, slurm.ShardPrefix+"*")+"/")
	fmt.Fprintf(w, "  logs:    %s\n", filepath.Join(out, slurm.LogDir)+"/")
	fmt.Fprintf(w, "  cancel:  scancel %s %s\n", s.Array, s.Merge)
	fmt.Fprintf(w, "  collect: %s (written by the merge job)\n", filepath.Join(out, slurm.ReportDir))
	return nil
}

func newShardCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "shard CONFIG.yaml --shards N --index I --out DIR",
		Short: "Play one shard of a tournament into DIR/shard-k, resuming it when begun: a cluster task",
		Long: `Play shard k of N of the tournament into the report directory DIR/shard-k,
as 'calcsol tournament CONFIG --shard k/N --out DIR/shard-k' does, or, when
DIR/shard-k holds that shard's run already (its task or pod started again:
requeued, preempted, its node lost), continue it as 'calcsol tournament
--resume DIR/shard-k' does. k is --index, or --index + 1 with
--index-base 0 (a Kubernetes Indexed Job's JOB_COMPLETION_INDEX). It is what
the tasks of 'calcsol submit' run, and what a container without a shell can
run. When every shard is done: calcsol merge --out DIR/report DIR/shard-*/.
Exit statuses are calcsol tournament's. See docs/tournament.md.`,
		Example: `  calcsol shard my-tournament.yaml --shards 3 --index 2 --out run`,
		Args:    cobra.ExactArgs(1),
		RunE:    runShard,
	}
	f := cmd.Flags()
	f.Int("shards", 0, "number of shards N (required)")
	f.Int("index", -1, "the shard's index (required): k, or k − 1 with --index-base 0")
	f.Int("index-base", 1, "the first shard's index: 1 (Slurm's array tasks as calcsol submit numbers them) or 0 (Kubernetes)")
	f.String("out", "", "the run directory; the shard's report goes to DIR/shard-k (required)")
	f.Int("workers", runtime.NumCPU(), "games played in parallel")
	f.Bool("trace", false, "record every game's moves (when the shard begins)")
	return cmd
}

func init() { rootCmd.AddCommand(newShardCmd()) }

func runShard(cmd *cobra.Command, args []string) error {
	f := cmd.Flags()
	n, _ := f.GetInt("shards")
	index, _ := f.GetInt("index")
	base, _ := f.GetInt("index-base")
	out, _ := f.GetString("out")
	workers, _ := f.GetInt("workers")
	trace, _ := f.GetBool("trace")
	k := index + 1 - base
	switch {
	case out == "":
		return badInput("--out DIR: the run directory (the shard goes to DIR/shard-k)")
	case n < 1:
		return badInput("--shards %d: want at least 1", n)
	case base != 0 && base != 1:
		return badInput("--index-base %d: want 0 or 1", base)
	case k < 1 || k > n:
		return badInput("--index %d: want %d to %d (--index-base %d)", index, base, n-1+base, base)
	}
	dir := filepath.Join(out, slurm.ShardPrefix+strconv.Itoa(k))
	// The tournament command, set as its flags would set it.
	t := newTournamentCmd()
	t.SetContext(contextOf(cmd))
	t.SetOut(cmd.OutOrStdout())
	t.SetErr(cmd.ErrOrStderr())
	set := map[string]string{"workers": strconv.Itoa(workers)}
	if _, err := os.Stat(filepath.Join(dir, tournament.ManifestFile)); err == nil {
		// Its own config goes on (merge refuses shards of two configs).
		m, err := tournament.ReadManifest(dir)
		if err != nil {
			return badInput("%v", err)
		}
		if want := fmt.Sprintf("%d/%d", k, n); m.Shard != want {
			return badInput("%s holds shard %q of a run, not %s", dir, m.Shard, want)
		}
		set["resume"] = dir
		args = nil
	} else {
		set["shard"] = fmt.Sprintf("%d/%d", k, n)
		set["out"] = dir
		if trace {
			set["trace"] = "true"
		}
	}
	for name, v := range set {
		if err := t.Flags().Set(name, v); err != nil {
			return err
		}
	}
	return runTournament(t, args)
}
