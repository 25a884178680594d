package slurm

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/calcsol/calcsol/internal/golden"
)

const sum = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"

func testJob() Job {
	return Job{Dir: "/scratch/u/contender", Workdir: "/home/u/study", Program: "/home/u/go/bin/calcsol", SHA256: sum,
		Shards: 30, Name: "contender", CPUs: 4}
}

// The scripts as a person who knows Slurm reads them, with every option
// and without.
func TestScripts(t *testing.T) {
	full := testJob()
	full.Partition, full.Account, full.Time = "long", "games", "2-00:00:00"
	full.Extra = []string{"#SBATCH --mem-per-cpu=500M", "#SBATCH --mail-type=END"}
	full.Trace = true
	full.Program = "/home/u/my tools/calcsol" // quoted in the script
	tests := []struct {
		name string
		job  Job
	}{{"plain", testJob()}, {"options", full}}
	for _, tc := range tests {
		golden.Check(t, filepath.Join("testdata", tc.name+"-"+ShardsFile), tc.job.ShardsScript())
		golden.Check(t, filepath.Join("testdata", tc.name+"-"+MergeFile), tc.job.MergeScript())
	}
}

func TestCheck(t *testing.T) {
	tests := []struct {
		name string
		edit func(j *Job)
		want string // "" for none
	}{
		{"valid", func(j *Job) {}, ""},
		{"relative dir", func(j *Job) { j.Dir = "run" }, `run directory "run": want an absolute path`},
		{"relative program", func(j *Job) { j.Program = "calcsol" }, `program "calcsol": want an absolute path`},
		{"space in dir", func(j *Job) { j.Dir = "/my runs/x" }, "#SBATCH lines take no spaces"},
		{"no shards", func(j *Job) { j.Shards = 0 }, "0 shards: want at least 1"},
		{"no cpus", func(j *Job) { j.CPUs = 0 }, "0 CPUs per task"},
		{"short checksum", func(j *Job) { j.SHA256 = "abc" }, "want 64 hex digits"},
		{"partition with a space", func(j *Job) { j.Partition = "a b" }, `partition "a b": no spaces or quotes`},
		{"sbatch line", func(j *Job) { j.Extra = []string{"--mem=1G"} }, `sbatch line "--mem=1G": want one line`},
		{"two lines in one", func(j *Job) { j.Extra = []string{"#SBATCH --mem=1G\necho hi"} }, "want one line"},
	}
	for _, tc := range tests {
		j := testJob()
		tc.edit(&j)
		err := j.Check()
		if (tc.want == "") != (err == nil) || err != nil && !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.want)
		}
	}
}

func TestQuote(t *testing.T) {
	for in, want := range map[string]string{
		"/home/u/calcsol": "/home/u/calcsol",
		"/my tools/x":     "'/my tools/x'",
		"it's":            `'it'\''s'`,
		"":                "''",
		"$HOME/x":         "'$HOME/x'",
	} {
		if got := quote(in); got != want {
			t.Errorf("quote(%q) = %s, want %s", in, got, want)
		}
	}
}

// Write, then Submit with a stand-in sbatch that logs its arguments and
// prints ids as sbatch --parsable does (with a cluster name once); a run
// directory that was submitted is refused a second time; a failing
// sbatch's own message is the error.
func TestWriteSubmit(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "sbatch")
	log := filepath.Join(dir, "sbatch.log")
	fake := `#!/bin/sh
echo "$@" >>` + log + `
n=$(wc -l <` + log + `)
if [ "$n" = 1 ]; then echo 4711; else echo "4712;cluster-a"; fi
`
	if err := os.WriteFile(bin, []byte(fake), 0o755); err != nil {
		t.Fatal(err)
	}
	j := testJob()
	j.Dir, j.Shards = filepath.Join(dir, "run"), 3
	if err := Write(j, "my.yaml", []byte("seed: 1\n")); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{ConfigFile, ShardsFile, MergeFile, JobFile, LogDir} {
		if _, err := os.Stat(filepath.Join(j.Dir, f)); err != nil {
			t.Error(err)
		}
	}
	// A dry run may be written again, and then submitted.
	if err := Write(j, "my.yaml", []byte("seed: 1\n")); err != nil {
		t.Fatalf("Write over a dry run: %v", err)
	}
	s, err := Submit(context.Background(), j, "my.yaml", bin)
	if err != nil {
		t.Fatal(err)
	}
	if s != (Submitted{"4711", "4712"}) {
		t.Errorf("submitted %+v, want array 4711, merge 4712", s)
	}
	b, _ := os.ReadFile(log)
	want := "--parsable " + j.Dir + "/shards.sbatch\n--parsable --dependency=afterok:4711 " + j.Dir + "/merge.sbatch\n"
	if string(b) != want {
		t.Errorf("sbatch was run with\n%s\nwant\n%s", b, want)
	}
	r, err := ReadRecord(j.Dir)
	if err != nil || r.ArrayJob != "4711" || r.MergeJob != "4712" || r.SHA256 != sum || r.Config != "my.yaml" || r.Shards != 3 {
		t.Errorf("job.json %+v (%v)", r, err)
	}
	if err := Write(j, "my.yaml", nil); err == nil || !strings.Contains(err.Error(), "holds a submitted run already (array job 4711, merge job 4712)") {
		t.Errorf("Write over a submitted run: %v", err)
	}

	failing := filepath.Join(dir, "sbatch-fails")
	os.WriteFile(failing, []byte("#!/bin/sh\necho 'sbatch: error: invalid partition specified: nope' >&2\nexit 1\n"), 0o755)
	if _, err := Submit(context.Background(), j, "my.yaml", failing); err == nil || !strings.HasSuffix(err.Error(), ": sbatch: error: invalid partition specified: nope") {
		t.Errorf("failing sbatch: %v", err)
	}
	os.Mkdir(filepath.Join(dir, "begun"), 0o755)
	os.Mkdir(filepath.Join(dir, "begun", "shard-2"), 0o755)
	j.Dir = filepath.Join(dir, "begun")
	if err := Write(j, "my.yaml", nil); err == nil || !strings.Contains(err.Error(), "holds shard reports already") {
		t.Errorf("Write over begun shards: %v", err)
	}
}
