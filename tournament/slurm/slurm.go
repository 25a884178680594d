// Package slurm writes and submits the Slurm batch jobs that play a
// tournament on a cluster: an array job with one task per shard, each
// `calcsol tournament --shard k/N` into its own report directory (resumed
// when a requeued or preempted task starts again), and a merge job that
// waits for every task to succeed (afterok) and joins the shards with
// `calcsol merge`. Every task runs the program that submitted it, and checks
// its SHA-256 first. See docs/tournament.md, "Running on a cluster".
package slurm

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/calcsol/calcsol/internal/atomicfile"
)

// Files of a run directory.
const (
	ConfigFile  = "tournament.yaml" // the config, as submitted
	ShardsFile  = "shards.sbatch"   // the array job
	MergeFile   = "merge.sbatch"    // the merge job
	JobFile     = "job.json"        // what was submitted (Record)
	LogDir      = "logs"            // the tasks' output
	ReportDir   = "report"          // the merged report
	ShardPrefix = "shard-"          // shard k's report directory: shard-k
)

// Job is a tournament to run on Slurm: the program, the config, the shards
// and the resources each task asks for. Paths are absolute, since the
// tasks run on other machines and in another working directory.
type Job struct {
	Dir     string // the run directory: config, scripts, logs, shards, report
	Workdir string // the tasks' working directory: the config's relative paths start there
	Program string // the calcsol executable every task runs
	SHA256  string // its checksum (hex), checked by every task before it plays
	Shards  int
	Name    string // the job name ("calcsol"); the merge job's is NAME-merge
	// Slurm's options; empty: the cluster's default.
	Partition string
	Account   string
	Time      string // each task's time limit, in sbatch's forms (90, 1:30:00, 2-12)
	CPUs      int    // CPUs per task, and the games a task plays in parallel
	// Extra are further lines for both scripts, each "#SBATCH --option".
	Extra []string
	Trace bool // record every game's moves
}

// Check refuses a job the scripts cannot say: relative paths, no shards,
// and options that would break a script's line.
func (j Job) Check() error {
	for _, p := range []struct{ name, path string }{{"run directory", j.Dir}, {"working directory", j.Workdir}, {"program", j.Program}} {
		if !filepath.IsAbs(p.path) {
			return fmt.Errorf("%s %q: want an absolute path", p.name, p.path)
		}
	}
	for _, p := range []struct{ name, path string }{{"run directory", j.Dir}, {"working directory", j.Workdir}} {
		if strings.ContainsAny(p.path, " \t\r\n'\"\\%") { // #SBATCH lines are not shell: no quoting there
			return fmt.Errorf("%s %q: #SBATCH lines take no spaces, quotes or %% in a path", p.name, p.path)
		}
	}
	if j.Shards < 1 {
		return fmt.Errorf("%d shards: want at least 1", j.Shards)
	}
	if j.CPUs < 1 {
		return fmt.Errorf("%d CPUs per task: want at least 1", j.CPUs)
	}
	if len(j.SHA256) != 64 {
		return fmt.Errorf("program checksum %q: want 64 hex digits", j.SHA256)
	}
	for _, o := range []struct{ name, value string }{{"job name", j.Name}, {"partition", j.Partition}, {"account", j.Account}, {"time", j.Time}} {
		if strings.ContainsAny(o.value, " \t\r\n'\"\\") {
			return fmt.Errorf("%s %q: no spaces or quotes", o.name, o.value)
		}
	}
	if j.Name == "" {
		return errors.New("job name: empty")
	}
	for _, l := range j.Extra {
		if !strings.HasPrefix(l, "#SBATCH --") || strings.ContainsAny(l, "\r\n") {
			return fmt.Errorf("sbatch line %q: want one line \"#SBATCH --option=value\"", l)
		}
	}
	return nil
}

// ShardDir is shard k's report directory.
func (j Job) ShardDir(k int) string {
	return filepath.Join(j.Dir, ShardPrefix+strconv.Itoa(k))
}

// options are the #SBATCH lines both scripts share.
func (j Job) options(b *bytes.Buffer) {
	fmt.Fprintf(b, "#SBATCH --chdir=%s\n", j.Workdir)
	for _, o := range []struct{ key, value string }{{"partition", j.Partition}, {"account", j.Account}, {"time", j.Time}} {
		if o.value != "" {
			fmt.Fprintf(b, "#SBATCH --%s=%s\n", o.key, o.value)
		}
	}
	for _, l := range j.Extra {
		b.WriteString(l + "\n")
	}
}

// preamble is the scripts' start after the #SBATCH lines: strict mode and
// the check that the program is still the one that submitted the job.
func (j Job) preamble(b *bytes.Buffer) {
	fmt.Fprintf(b, `set -euo pipefail
calcsol=%s
sha256=%s
# Every task runs the program that submitted the job, unchanged.
if ! echo "$sha256  $calcsol" | sha256sum --check --status; then
  echo "calcsol submit: $calcsol is not the program that submitted this job" \
    "(sha256 ${sha256:0:12}…): rebuilt or replaced since" >&2
  exit 2
fi
`, quote(j.Program), j.SHA256)
}

// ShardsScript is the array job: task k plays shard k of N into its report
// directory, or continues it when an earlier attempt of the task began it
// (calcsol shard).
func (j Job) ShardsScript() []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, `#!/bin/bash
# The tournament of
#   %s
# as %d shards, written by calcsol submit: array task k plays shard k/%d
# into %s, or resumes it there when an earlier
# attempt of the task (requeued, preempted, its node lost) began it.
`, quote(filepath.Join(j.Dir, ConfigFile)), j.Shards, j.Shards, quote(filepath.Join(j.Dir, ShardPrefix+"k")))
	fmt.Fprintf(&b, "#SBATCH --job-name=%s\n", j.Name)
	fmt.Fprintf(&b, "#SBATCH --array=1-%d\n", j.Shards)
	fmt.Fprintf(&b, "#SBATCH --cpus-per-task=%d\n", j.CPUs)
	fmt.Fprintf(&b, "#SBATCH --output=%s\n", filepath.Join(j.Dir, LogDir, ShardPrefix+"%a.out"))
	b.WriteString("#SBATCH --open-mode=append\n#SBATCH --requeue\n")
	j.options(&b)
	j.preamble(&b)
	trace := ""
	if j.Trace {
		trace = " --trace"
	}
	fmt.Fprintf(&b, `config=%s
k=$SLURM_ARRAY_TASK_ID
echo "shard $k/%d: job ${SLURM_JOB_ID:-?}, attempt $((${SLURM_RESTART_COUNT:-0} + 1))," \
  "on $(hostname) at $(date -u +%%FT%%TZ)"
# calcsol tournament "$config" --shard $k/%d --out %s/%s$k, or
# calcsol tournament --resume %s/%s$k when an earlier attempt began it.
exec "$calcsol" shard "$config" --shards %d --index "$k" --out %s --workers %d%s
`, quote(filepath.Join(j.Dir, ConfigFile)), j.Shards, j.Shards, quote(j.Dir), ShardPrefix, quote(j.Dir), ShardPrefix, j.Shards, quote(j.Dir), j.CPUs, trace)
	return b.Bytes()
}

// MergeScript is the merge job: it joins the shards into the report a
// single run would have written.
func (j Job) MergeScript() []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, `#!/bin/bash
# Merges the %d shards of
#   %s
# into %s once every array task has succeeded
# (sbatch --dependency=afterok:ARRAY_JOB). Written by calcsol submit.
`, j.Shards, quote(filepath.Join(j.Dir, ConfigFile)), quote(filepath.Join(j.Dir, ReportDir)))
	fmt.Fprintf(&b, "#SBATCH --job-name=%s-merge\n", j.Name)
	b.WriteString("#SBATCH --cpus-per-task=1\n")
	fmt.Fprintf(&b, "#SBATCH --output=%s\n", filepath.Join(j.Dir, LogDir, "merge.out"))
	j.options(&b)
	j.preamble(&b)
	fmt.Fprintf(&b, `shards=()
for k in $(seq 1 %d); do shards+=(%s/%s$k); done
exec "$calcsol" merge --out %s "${shards[@]}"
`, j.Shards, quote(j.Dir), ShardPrefix, quote(filepath.Join(j.Dir, ReportDir)))
	return b.Bytes()
}

// Record is what a run directory's job.json says: the program and its
// checksum, the shards, and the jobs once submitted.
type Record struct {
	Program  string `json:"program"`
	SHA256   string `json:"sha256"`
	Config   string `json:"config"` // the file submitted, as given
	Workdir  string `json:"workdir"`
	Shards   int    `json:"shards"`
	ArrayJob string `json:"array_job,omitempty"`
	MergeJob string `json:"merge_job,omitempty"`
}

// ReadRecord reads dir's job.json.
func ReadRecord(dir string) (Record, error) {
	var r Record
	b, err := os.ReadFile(filepath.Join(dir, JobFile))
	if err != nil {
		return r, err
	}
	if err := json.Unmarshal(b, &r); err != nil {
		return r, fmt.Errorf("%s: %w", filepath.Join(dir, JobFile), err)
	}
	return r, nil
}

func writeRecord(dir string, r Record) error {
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.Write(filepath.Join(dir, JobFile), append(b, '\n'))
}

// Write writes the run directory: the config the tasks read (config, the
// text of the file named source), both scripts, the log directory and
// job.json. It refuses a directory whose jobs were submitted already, or
// whose shards have begun.
func Write(j Job, source string, config []byte) error {
	if err := j.Check(); err != nil {
		return err
	}
	if r, err := ReadRecord(j.Dir); err == nil && r.ArrayJob != "" {
		return fmt.Errorf("%s holds a submitted run already (array job %s, merge job %s): choose another directory", j.Dir, r.ArrayJob, r.MergeJob)
	}
	if m, _ := filepath.Glob(filepath.Join(j.Dir, ShardPrefix+"*")); len(m) > 0 {
		return fmt.Errorf("%s holds shard reports already (%s): choose another directory", j.Dir, m[0])
	}
	if err := os.MkdirAll(filepath.Join(j.Dir, LogDir), 0o755); err != nil {
		return err
	}
	if err := atomicfile.Write(filepath.Join(j.Dir, ConfigFile), config); err != nil {
		return err
	}
	for name, text := range map[string][]byte{ShardsFile: j.ShardsScript(), MergeFile: j.MergeScript()} {
		if err := atomicfile.Write(filepath.Join(j.Dir, name), text); err != nil {
			return err
		}
	}
	return writeRecord(j.Dir, Record{Program: j.Program, SHA256: j.SHA256, Config: source, Workdir: j.Workdir, Shards: j.Shards})
}

// Submitted names the jobs of a submitted run.
type Submitted struct {
	Array string // the array job: its task k is Array_k
	Merge string
}

// Submit submits the scripts Write wrote with sbatch (the command, found on
// $PATH, or a path): the array job, then the merge job depending on it;
// job.json gets their ids. When the merge job cannot be submitted, the
// error names the array job, to be cancelled.
func Submit(ctx context.Context, j Job, source, sbatch string) (Submitted, error) {
	var s Submitted
	var err error
	if s.Array, err = run(ctx, sbatch, "--parsable", filepath.Join(j.Dir, ShardsFile)); err != nil {
		return s, err
	}
	if s.Merge, err = run(ctx, sbatch, "--parsable", "--dependency=afterok:"+s.Array, filepath.Join(j.Dir, MergeFile)); err != nil {
		return s, fmt.Errorf("%w (the array job %s was submitted: scancel %s)", err, s.Array, s.Array)
	}
	err = writeRecord(j.Dir, Record{Program: j.Program, SHA256: j.SHA256, Config: source, Workdir: j.Workdir, Shards: j.Shards, ArrayJob: s.Array, MergeJob: s.Merge})
	return s, err
}

// run runs sbatch --parsable and returns the job id it prints ("123", or
// "123;cluster" on a multi-cluster site: the id alone).
func run(ctx context.Context, sbatch string, args ...string) (string, error) {
	var out, errb bytes.Buffer
	cmd := exec.CommandContext(ctx, sbatch, args...)
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(errb.String())
		if msg == "" {
			msg = err.Error()
		}
		return "", fmt.Errorf("%s %s: %s", sbatch, strings.Join(args, " "), msg)
	}
	id, _, _ := strings.Cut(strings.TrimSpace(out.String()), ";")
	if _, err := strconv.ParseUint(id, 10, 64); err != nil {
		return "", fmt.Errorf("%s %s: printed %q, not a job id", sbatch, strings.Join(args, " "), out.String())
	}
	return id, nil
}

// quote quotes s for the shell, when it needs it.
func quote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=+:,@%") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
