package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/calcsol/calcsol/tournament"
)

const smallTournament = "testdata/tournament/small.yaml"

// bigTournament is long enough to be interrupted: bigGames games, about a
// third of a second with one worker.
const (
	bigTournament = "testdata/tournament/big.yaml"
	bigGames      = 3000
)

var tournamentGolden, _ = filepath.Abs(filepath.Join("testdata", "tournament"))

func TestTournamentGolden(t *testing.T) {
	t.Parallel()
	heavyUnderRace(t)
	for _, name := range []string{"table", "table-wide", "markdown", "csv", "json"} {
		t.Run(name, func(t *testing.T) {
			format, wide, _ := strings.Cut(name, "-")
			args := []string{"tournament", smallTournament, "--timing=false", "--workers", "2", "--format", format}
			if wide != "" {
				args = append(args, "--wide", "--pairs", "all")
			}
			out, errOut, code := inProcess(args...)
			if code != 0 || errOut != "" {
				t.Fatalf("exit %d, stderr %q", code, errOut)
			}
			goldenFile(t, filepath.Join(tournamentGolden, "small."+name+".golden"), out)
			if format != "json" {
				return
			}
			// JSON rows carry at least these fields.
			var rep struct{ Rows []map[string]any }
			if err := json.Unmarshal([]byte(out), &rep); err != nil {
				t.Fatal(err)
			}
			for _, k := range []string{"strategy", "corpus", "rules", "wins", "games", "rate", "ci_low", "ci_high"} {
				if _, ok := rep.Rows[0][k]; !ok {
					t.Errorf("JSON row without %q", k)
				}
			}
		})
	}
	// The report directory's chart and summary (the program line masked:
	// it names the Go version).
	dir := t.TempDir()
	if _, errOut, code := inProcess("tournament", smallTournament, "--out", dir); code != 0 {
		t.Fatalf("--out: exit %d, %s", code, errOut)
	}
	// The chart: a PNG of the size for its three panels of one group each
	// (what it plots is tested in tournament/report, as text).
	f, err := os.Open(filepath.Join(dir, "rates.png"))
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(f)
	f.Close()
	if err != nil {
		t.Fatalf("rates.png: %v", err)
	}
	if size := img.Bounds().Size(); size.X != 469 || size.Y != 896 {
		t.Errorf("rates.png: %d×%d pixels, want 469×896", size.X, size.Y)
	}
	md := regexp.MustCompile(`(?m)^Program: .*\.`).ReplaceAllString(readStripped(t, filepath.Join(dir, "summary.md")), "Program: (masked).")
	goldenFile(t, filepath.Join(tournamentGolden, "summary.golden.md"), md)
}

func TestTournamentBadInput(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	os.WriteFile(file, nil, 0o644)
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"bad kind", []string{"testdata/tournament/bad-kind.yaml"}, `calcsol: testdata/tournament/bad-kind.yaml:3: strategies[1].strategy: unknown strategy kind "prioirty"`},
		{"no config", []string{"nonexistent.yaml"}, "nonexistent.yaml: no such file"},
		{"format", []string{"--format", "xml"}, `--format "xml": want one of table, markdown, csv, json`},
		{"shard", []string{"--shard", "4/3"}, `--shard: shard "4/3": want k/N`},
		// Output paths are checked before any work: the config named here
		// does not exist, so its error would come first otherwise.
		{"out under a file", []string{"nonexistent.yaml", "--out", filepath.Join(file, "b")}, "--out: stat " + file + "/b: not a directory"},
		{"out is a file", []string{"nonexistent.yaml", "--out", file}, "--out: " + file + " is a file, not a directory"},
		{"resume nothing", []string{"--resume", dir}, "--resume: report " + dir},
		{"stop-after without a directory", []string{"--stop-after", "1h"}, "--stop-after needs --out DIR or --resume DIR"},
		{"stop-after negative", []string{"--stop-after", "-1s", "--out", dir}, "--stop-after -1s: want a positive duration"},
		{"stop-after not a duration", []string{"--stop-after", "2 hours"}, `invalid argument "2 hours" for "--stop-after"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, errOut, code := inProcess(append([]string{"tournament"}, tc.args...)...)
			if code != 2 || !strings.Contains(errOut, tc.want) || strings.Count(errOut, "\n") != 1 {
				t.Errorf("exit %d, stderr %q; want 2 and one line containing %q", code, errOut, tc.want)
			}
		})
	}
}

// stripTiming removes the timing field "us" from records.
var usField = regexp.MustCompile(`,"us":[0-9.]+`)

func readStripped(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return usField.ReplaceAllString(string(b), "")
}

// recordsOf is the lines of report directory dir's records, in either form.
func recordsOf(t *testing.T, dir string) string {
	t.Helper()
	b, err := tournament.ReadResultsData(dir)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// countRecords counts the records of report directory dir.
func countRecords(t *testing.T, dir string) int {
	t.Helper()
	return strings.Count(recordsOf(t, dir), "}\n")
}

// A run killed (kill -9) after a fifth of its games resumes, plays only
// the rest, and ends with exactly the records of an uninterrupted run.
func TestTournamentKillAndResume(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("plays 3,000 games twice")
	}
	processTest(t) // build the binary (skips under the race detector)
	dir := t.TempDir()
	killed := filepath.Join(dir, "killed")
	cmd := exec.Command(binPath, "tournament", bigTournament, "--workers", "1", "--out", killed)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	const total = bigGames
	results := filepath.Join(killed, tournament.CompressedResultsFile)
	sums := filepath.Join(killed, tournament.SumsFile)
	// The run is killed once it has checksummed about a fifth of the
	// records.
	waitChecksummed(t, cmd, killed, total/5+1)
	cmd.Process.Signal(syscall.SIGKILL)
	if err := cmd.Wait(); err == nil {
		t.Fatal("the run finished before it was killed; make big.yaml bigger")
	}
	// The records the run had checksummed when it was killed are kept;
	// those after the last checksum are played again.
	lines := countRecords(t, killed)
	before := checksummed(t, sums)
	// A torn last block, as a kill in the middle of a write leaves it.
	var torn bytes.Buffer
	zw := gzip.NewWriter(&torn)
	zw.Write([]byte(strings.Repeat(`{"v":1,"strategy":"greedy"}`+"\n", 100)))
	zw.Close()
	f, _ := os.OpenFile(results, os.O_APPEND|os.O_WRONLY, 0)
	f.Write(torn.Bytes()[:torn.Len()/2])
	f.Close()

	_, errOut, code := calcsol(t, "", "tournament", "--resume", killed, "--workers", "2", "--format", "csv")
	if code != 0 {
		t.Fatalf("resume: exit %d: %s", code, errOut)
	}
	want := "resuming: " + strconv.Itoa(before) + " of " + strconv.Itoa(total) + " games recorded; playing the other " + strconv.Itoa(total-before)
	if !strings.Contains(errOut, want) {
		t.Errorf("resume said %q, want %q", errOut, want)
	}
	if dropped := "the last " + strconv.Itoa(lines-before) + " records carry no checksum"; lines > before && !strings.Contains(errOut, dropped) {
		t.Errorf("resume said %q, want %q", errOut, dropped)
	}
	sameAsUninterrupted(t, killed, "the resumed run")
	if n := countRecords(t, killed); n != total {
		t.Errorf("%d records, want %d", n, total)
	}
}

// checksummed is the last line of the records that the checksums in path
// (results.sha256) cover.
func checksummed(t *testing.T, path string) int {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return lastChecksummed(b)
}

// waitChecksummed waits up to a minute until the run cmd writes to dir has
// checksummed its first n records, and kills cmd and fails the test if it
// does not. A block of records is checksummed once written; the small file
// of checksums is cheap to read often, where reading the growing records
// each time fell behind a fast run on a loaded machine.
func waitChecksummed(t *testing.T, cmd *exec.Cmd, dir string, n int) {
	t.Helper()
	sums := filepath.Join(dir, tournament.SumsFile)
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(time.Millisecond) {
		if b, err := os.ReadFile(sums); err == nil && lastChecksummed(b) >= n {
			return
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatalf("the run did not checksum %d records in a minute", n)
		}
	}
}

// lastChecksummed is the last line of the records that the checksums b
// cover.
func lastChecksummed(b []byte) int {
	last := 0
	lines := strings.Split(string(b), "\n")
	for _, l := range lines[:len(lines)-1] { // a torn last line left out
		if rng, _, ok := strings.Cut(l, " "); ok && !strings.HasPrefix(l, "#") {
			_, end, _ := strings.Cut(rng, "-")
			if n, err := strconv.Atoi(end); err == nil {
				last = n
			}
		}
	}
	return last
}

// Three shards, each run holding only its share, merge into the report a
// single run makes, byte for byte apart from timing. The shard commands are
// the ones docs/cluster.md gives for Slurm and Kubernetes, run in this
// process (inProcess) with their $VARS set as a task's environment sets
// them: the lines hold only words and $VARS (shardArgs), which sh splits
// and expands alike.
func TestTournamentShardsMerge(t *testing.T) {
	t.Parallel()
	heavyUnderRace(t)
	dir, cfg := smallTournamentDir(t)
	at := func(name string) string { return filepath.Join(dir, name) }
	if _, errOut, code := inProcess("tournament", at("tournament.yaml"), "--out", at("single")); code != 0 {
		t.Fatalf("single run: %s", errOut)
	}
	lines := docShardLines(t)
	if len(lines) != 2 {
		t.Fatalf("docs/cluster.md: %d shard command lines, want 2 (Slurm, Kubernetes): %q", len(lines), lines)
	}
	for i, line := range lines {
		out := "reports" + strconv.Itoa(i)
		for k := 1; k <= 3; k++ {
			env := map[string]string{"JOB_COMPLETION_INDEX": strconv.Itoa(k - 1), "SLURM_ARRAY_TASK_ID": strconv.Itoa(k), "SHARDS": "3", "REPORTS": at(out)}
			args := shardArgs(t, line, dir, env)
			if _, errOut, code := inProcess(args...); code != 0 {
				t.Fatalf("%s (shard %d): exit %d: %s", line, k, code, errOut)
			}
		}
		shards := []string{at(out + "/shard-3"), at(out + "/shard-1"), at(out + "/shard-2")}
		for k, s := range shards {
			if n := countRecords(t, s); n >= 8*200/2 {
				t.Errorf("shard %d holds %d records, more than its share", k, n)
			}
		}
		merged := at(out + "/merged")
		if _, errOut, code := inProcess(append([]string{"merge", "--out", merged}, shards...)...); code != 0 {
			t.Fatalf("merge: %s", errOut)
		}
		if a, b := recordsOf(t, at("single")), recordsOf(t, merged); usField.ReplaceAllString(a, "") != usField.ReplaceAllString(b, "") {
			t.Errorf("merged records differ from the single run's")
		}
		for _, name := range []string{"summary.md", "rates.png", "manifest.json", "config.yaml"} {
			a, b := readStripped(t, filepath.Join(at("single"), name)), readStripped(t, filepath.Join(merged, name))
			if a != b {
				t.Errorf("merged %s differs from the single run's", name)
			}
		}
		// summary.json: the same apart from ms per game.
		ms := regexp.MustCompile(`"ms_per_game": [0-9.e+-]+`)
		a := ms.ReplaceAllString(readStripped(t, filepath.Join(at("single"), "summary.json")), "")
		b := ms.ReplaceAllString(readStripped(t, filepath.Join(merged, "summary.json")), "")
		if diff := cmp.Diff(a, b); diff != "" {
			t.Errorf("summary.json (-single +merged):\n%s", diff)
		}
		// Missing and duplicate shards are named.
		for _, tc := range []struct {
			shards []string
			want   string
		}{
			{shards[:2], "merge: missing shard(s) 2/3"},
			{[]string{shards[0], shards[1], shards[1]}, "merge: shard 1/3 given twice"},
		} {
			_, errOut, code := inProcess(append([]string{"merge", "--out", at(out + "/bad")}, tc.shards...)...)
			if code != 2 || !strings.Contains(errOut, tc.want) {
				t.Errorf("merge %v: exit %d, %q; want 2 and %q", tc.shards, code, errOut, tc.want)
			}
		}
	}
	// A shard of another config is refused.
	other := bytes.Replace(cfg, []byte("seed: 7"), []byte("seed: 8"), 1)
	os.WriteFile(at("other.yaml"), other, 0o644)
	if _, errOut, code := inProcess("tournament", at("other.yaml"), "--shard", "2/3", "--out", at("other")); code != 0 {
		t.Fatal(errOut)
	}
	_, errOut, code := inProcess("merge", "--out", at("mixed"), at("reports0/shard-1"), at("other"), at("reports0/shard-3"))
	if code != 2 || !strings.Contains(errOut, "different configs") {
		t.Errorf("merging another config's shard: exit %d, %q", code, errOut)
	}
}

// shardArgs is calcsol's arguments for a shard command line of the docs,
// "calcsol shard …", as sh runs it in directory dir with environment env:
// split at blanks, each $VAR replaced by its value, and a word that names
// a file in dir made that file's path. A line with any other shell syntax
// (quotes, ${…}, globs, operators) is refused, as one the test cannot run
// as sh would.
func shardArgs(t *testing.T, line, dir string, env map[string]string) []string {
	t.Helper()
	if strings.ContainsAny(line, "'\"\\`{}()[]*?~<>|&;#=") {
		t.Fatalf("docs/cluster.md: %q: want only words and $VARS in a shard command line", line)
	}
	words := strings.Fields(line)
	if words[0] != "calcsol" {
		t.Fatalf("docs/cluster.md: %q: want a calcsol command", line)
	}
	var args []string
	for _, w := range words[1:] {
		w = os.Expand(w, func(name string) string {
			v, ok := env[name]
			if !ok {
				t.Fatalf("docs/cluster.md: %q: $%s is not set by a Slurm or Kubernetes task here", line, name)
			}
			return v
		})
		if _, err := os.Stat(filepath.Join(dir, w)); err == nil && !filepath.IsAbs(w) {
			w = filepath.Join(dir, w)
		}
		args = append(args, w)
	}
	return args
}

// docShardLines returns the command lines of docs/cluster.md that run a
// shard: "calcsol shard … --index $…" (a shard index from the environment).
func docShardLines(t *testing.T) []string {
	t.Helper()
	b, err := os.ReadFile("../../docs/cluster.md")
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, l := range strings.Split(string(b), "\n") {
		l = strings.TrimSpace(l)
		if i := strings.Index(l, "calcsol shard "); i >= 0 && strings.Contains(l, "--index $") {
			l = strings.TrimSuffix(strings.TrimSpace(l[i:]), `"`)
			out = append(out, l)
		}
	}
	return out
}

// --stop-after stops a run gently: the games in play are recorded, every
// sitting records some, the command says how many and how to resume and
// exits with status 5, and the run resumed to its end has exactly the
// records of an uninterrupted run. In this process (inProcess): no signal
// is involved.
func TestTournamentStopAfter(t *testing.T) {
	t.Parallel()
	heavyUnderRace(t)
	if testing.Short() {
		t.Skip("plays 3,000 games twice")
	}
	dir := t.TempDir()
	run := filepath.Join(dir, "run")
	const total = bigGames
	for sitting, args := range [][]string{
		{bigTournament, "--workers", "1", "--out", run, "--stop-after", "50ms"},
		{"--resume", run, "--workers", "2", "--stop-after", "50ms"},
	} {
		before := 0
		if sitting > 0 {
			before = countRecords(t, run)
		}
		_, errOut, code := inProcess(append([]string{"tournament"}, args...)...)
		n := countRecords(t, run)
		if sitting > 0 && code == 0 && n == total {
			// The first sitting, one worker, plays a small part of the
			// games in 50 ms (all 3,000 take it about 0.3 s of CPU): it
			// must stop.
			t.Logf("sitting %d finished the run within 50ms", sitting+1)
			break
		}
		b := []byte(recordsOf(t, run))
		want := "stopping: finishing the games in play (Ctrl-C would drop them)\ncalcsol: --stop-after 50ms: stopped: " + strconv.Itoa(n) + " of " + strconv.Itoa(total) + " games recorded in " + run +
			"; continue with: calcsol tournament --resume " + run + "\n"
		if sitting > 0 {
			want = "resuming: " + strconv.Itoa(before) + " of " + strconv.Itoa(total) + " games recorded; playing the other " + strconv.Itoa(total-before) + "\n" + want
		}
		if code != 5 || errOut != want || n <= before || n >= total || !bytes.HasSuffix(b, []byte("}\n")) {
			t.Fatalf("sitting %d: exit %d, stderr %q; want 5 and %q, %d records after %d, the last line whole", sitting+1, code, errOut, want, n, before)
		}
	}
	if _, errOut, code := inProcess("tournament", "--resume", run, "--format", "csv"); code != 0 {
		t.Fatalf("last sitting: exit %d: %s", code, errOut)
	}
	sameAsUninterrupted(t, run, "the run in sittings")
}

// uninterrupted holds the records of an uninterrupted run of big.yaml,
// timing fields aside, made once for the tests that compare with it.
var uninterrupted struct {
	once    sync.Once
	records string
}

// sameAsUninterrupted checks that report directory dir holds exactly the
// records of an uninterrupted run of big.yaml, timing fields aside; how
// names the run that wrote it.
func sameAsUninterrupted(t *testing.T, dir, how string) {
	t.Helper()
	uninterrupted.once.Do(func() {
		dir, err := os.MkdirTemp("", "calcsol-uninterrupted-")
		if err != nil {
			t.Fatal(err)
		}
		defer os.RemoveAll(dir)
		whole := filepath.Join(dir, "whole")
		if _, errOut, code := inProcess("tournament", bigTournament, "--out", whole, "--format", "csv"); code != 0 {
			t.Fatalf("uninterrupted: exit %d: %s", code, errOut)
		}
		uninterrupted.records = usField.ReplaceAllString(recordsOf(t, whole), "")
	})
	if uninterrupted.records == "" {
		t.Fatal("no uninterrupted run to compare with (it failed in an earlier test)")
	}
	if usField.ReplaceAllString(recordsOf(t, dir), "") != uninterrupted.records {
		t.Errorf("%s: its records differ from the uninterrupted run's", how)
	}
}

// Ctrl-C (SIGINT) stops a run cleanly: every record written is complete,
// and the command says how many and how to resume (exit 130).
func TestTournamentInterrupt(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("plays up to 3,000 games")
	}
	processTest(t) // build the binary (skips under the race detector)
	dir := filepath.Join(t.TempDir(), "run")
	cmd := exec.Command(binPath, "tournament", bigTournament, "--workers", "1", "--out", dir)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	waitChecksummed(t, cmd, dir, tournament.SumBlock)
	cmd.Process.Signal(os.Interrupt)
	err := cmd.Wait()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 130 {
		t.Fatalf("exit %v, want 130", err)
	}
	b := []byte(recordsOf(t, dir))
	n := bytes.Count(b, []byte("\n"))
	want := "calcsol: interrupted: " + strconv.Itoa(n) + " of " + strconv.Itoa(bigGames) + " games recorded in " + dir + "; continue with: calcsol tournament --resume " + dir + "\n"
	if stderr.String() != want || !bytes.HasSuffix(b, []byte("}\n")) {
		t.Errorf("stderr %q, want %q; last line complete: %t", stderr.String(), want, bytes.HasSuffix(b, []byte("}\n")))
	}
}

// A bound file in a config gives the efficiency view; one that calls a deck
// the strategy won unwinnable fails the run (exit 1) after its report; one
// for other decks is refused before any game (exit 2).
func TestTournamentBoundFiles(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	corpusFile := filepath.Join(dir, "c.txt")
	if _, errOut, code := inProcess("corpus", "generate", "--deck", "standard52", "--shuffle", "U", "--count", "12", "--seed", "4", "--out", corpusFile); code != 0 {
		t.Fatalf("corpus generate: exit %d, %s", code, errOut)
	}
	good := filepath.Join(dir, "good.json")
	if _, errOut, code := inProcess("solve", "--corpus", corpusFile, "--stacks", "4", "--preplaced", "--nodes", "20000", "--out", good); code != 0 {
		t.Fatalf("solve: exit %d, %s", code, errOut)
	}
	// The same header, every deck called unwinnable.
	b, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	var bf map[string]any
	if err := json.Unmarshal(b, &bf); err != nil {
		t.Fatal(err)
	}
	per := bf["per_deck"].([]any)
	for i := range per {
		per[i] = false
	}
	bf["winnable"], bf["unknown"], bf["unwinnable"] = 0, 0, len(per)
	lost, _ := json.Marshal(bf)
	bad := filepath.Join(dir, "lost.json")
	other := filepath.Join(dir, "other.json")
	bf["checksum"] = strings.Repeat("0", 64)
	otherData, _ := json.Marshal(bf)
	if err := os.WriteFile(bad, lost, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(other, otherData, 0o644); err != nil {
		t.Fatal(err)
	}
	config := func(bound string) string {
		f := filepath.Join(dir, filepath.Base(bound)+".yaml")
		text := "strategies: [{name: p, kind: priority}]\ncorpora: [{name: c, file: " + corpusFile + ", bounds: [" + bound + "]}]\nrules: [{stacks: 4, preplaced: true}]\n"
		if err := os.WriteFile(f, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return f
	}
	out, errOut, code := inProcess("tournament", config(good), "--timing=false")
	if code != 0 || !strings.Contains(out, "Clairvoyant bounds ("+good) || !strings.Contains(out, "is winnable") {
		t.Errorf("good bound: exit %d, stderr %q, output:\n%s", code, errOut, out)
	}
	out, errOut, code = inProcess("tournament", config(good), "--timing=false", "--wide")
	if code != 0 || !strings.Contains(out, "Wins among the decks a player who sees the stock can win (the clairvoyant bound: "+good) {
		t.Errorf("good bound, --wide: exit %d, stderr %q, output:\n%s", code, errOut, out)
	}
	out, errOut, code = inProcess("tournament", config(bad), "--timing=false")
	if code != 1 || !strings.Contains(errOut, "impossible wins: p won") || !strings.Contains(out, "won unwinnable") {
		t.Errorf("a bound calling won decks unwinnable: exit %d, stderr %q, output:\n%s", code, errOut, out)
	}
	_, errOut, code = inProcess("tournament", config(other), "--timing=false")
	if code != 2 || !strings.Contains(errOut, "is for other decks") {
		t.Errorf("a bound for other decks: exit %d, stderr %q", code, errOut)
	}
}

// merge --partial reports the games some shards have recorded so far,
// finished or not: the counts of their records, a torn last line left out;
// it refuses a shard given twice, a record outside its shard's share, and
// --out.
func TestTournamentMergePartial(t *testing.T) {
	t.Parallel()
	dir, _ := smallTournamentDir(t)
	for _, k := range []string{"1", "3"} {
		if _, errOut, code := inProcess("tournament", filepath.Join(dir, "tournament.yaml"), "--shard", k+"/3", "--out", filepath.Join(dir, "shard-"+k)); code != 0 {
			t.Fatalf("shard %s: %s", k, errOut)
		}
	}
	lines := func(name string) []string {
		return strings.Split(strings.TrimSuffix(recordsOf(t, filepath.Join(dir, name)), "\n"), "\n")
	}
	// plain writes lines as the plain records of report dir (those of an
	// older calcsol's report).
	plain := func(dir, lines string) {
		if err := os.Remove(filepath.Join(dir, tournament.CompressedResultsFile)); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, tournament.ResultsFile), []byte(lines), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// shard-3 cut short: its first ten records and half of the eleventh (a
	// torn write, as a shard being written can show), in the plain records
	// of an older calcsol.
	three := lines("shard-3")
	cut := filepath.Join(dir, "cut-3")
	copyDir(t, filepath.Join(dir, "shard-3"), cut)
	torn := strings.Join(three[:10], "\n") + "\n" + three[10][:len(three[10])/2]
	plain(cut, torn)
	// No checksum yet: a shard checksums its first 256 records once they
	// are written.
	sums, _ := os.ReadFile(filepath.Join(cut, "results.sha256"))
	if err := os.WriteFile(filepath.Join(cut, "results.sha256"), sums[:bytes.IndexByte(sums, '\n')+1], 0o644); err != nil {
		t.Fatal(err)
	}
	type key struct{ strategy, corpus, rules string }
	count := func(recs []string) map[key][2]int {
		m := map[key][2]int{}
		for _, l := range recs {
			var r struct {
				Strategy, Corpus, Rules string
				Won                     bool
			}
			if err := json.Unmarshal([]byte(l), &r); err != nil {
				t.Fatal(err)
			}
			c := m[key{r.Strategy, r.Corpus, r.Rules}]
			c[1]++
			if r.Won {
				c[0]++
			}
			m[key{r.Strategy, r.Corpus, r.Rules}] = c
		}
		return m
	}
	one := lines("shard-1")
	for _, tc := range []struct {
		shards []string
		recs   []string
		state  string
	}{
		{[]string{"shard-1", "shard-3"}, append(append([]string{}, one...), three...), "partial: 2 of 3 shards given, 2 finished"},
		{[]string{"shard-1", "cut-3"}, append(append([]string{}, one...), three[:10]...), "shard 3/3 (" + filepath.Join(dir, "cut-3") + "): 10 of " + strconv.Itoa(len(three)) + " games"},
	} {
		out, errOut, code := inProcess(append([]string{"merge", "--partial", "--format", "json"}, paths(dir, tc.shards...)...)...)
		if code != 0 || !strings.Contains(errOut, tc.state) {
			t.Fatalf("merge --partial %v: exit %d, stderr %q; want 0 and %q", tc.shards, code, errOut, tc.state)
		}
		var rep struct {
			Rows []struct {
				Strategy, Corpus, Rules string
				Wins, Games             int
			}
		}
		if err := json.Unmarshal([]byte(out), &rep); err != nil {
			t.Fatal(err)
		}
		want := count(tc.recs)
		got := map[key][2]int{}
		for _, r := range rep.Rows {
			if r.Games > 0 {
				got[key{r.Strategy, r.Corpus, r.Rules}] = [2]int{r.Wins, r.Games}
			}
		}
		if diff := cmp.Diff(want, got, cmp.AllowUnexported(key{})); diff != "" {
			t.Errorf("merge --partial %v: wins and games per row (-records +report):\n%s", tc.shards, diff)
		}
		if tournament.HasResults(dir) || tournament.HasResults(".") {
			t.Errorf("merge --partial wrote a results file")
		}
	}
	// A record of shard 3's share in shard 1's results is refused, as are a
	// shard given twice and --out.
	bad := filepath.Join(dir, "bad-1")
	copyDir(t, filepath.Join(dir, "shard-1"), bad)
	plain(bad, strings.Join(append(one[:3:3], three[0]), "\n")+"\n")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"bad-1"}, "is not in shard 1/3's share"},
		{[]string{"shard-1", "shard-1"}, "shard 1/3 given twice"},
		{[]string{"--out", "merged", "shard-1"}, "--partial writes no report"},
	} {
		_, errOut, code := inProcess(append([]string{"merge", "--partial"}, paths(dir, tc.args...)...)...)
		if code != 2 || !strings.Contains(errOut, tc.want) {
			t.Errorf("merge --partial %v: exit %d, %q; want 2 and %q", tc.args, code, errOut, tc.want)
		}
	}
}

// paths is args with each that is not a flag made a path in dir.
func paths(dir string, args ...string) []string {
	out := make([]string, len(args))
	for i, a := range args {
		if out[i] = a; !strings.HasPrefix(a, "-") {
			out[i] = filepath.Join(dir, a)
		}
	}
	return out
}

// copyDir copies the files of directory src into a new directory dst.
func copyDir(t *testing.T, src, dst string) {
	t.Helper()
	if err := os.MkdirAll(dst, 0o755); err != nil {
		t.Fatal(err)
	}
	es, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range es {
		b, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dst, e.Name()), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// smallTournamentDir returns a new directory holding the small tournament's
// config as tournament.yaml, its corpus named by absolute path, and the
// config's text.
func smallTournamentDir(t *testing.T) (string, []byte) {
	t.Helper()
	dir := t.TempDir()
	cfg, err := os.ReadFile(smallTournament)
	if err != nil {
		t.Fatal(err)
	}
	corpus, _ := filepath.Abs("testdata/eval/small.txt")
	cfg = bytes.ReplaceAll(cfg, []byte("testdata/eval/small.txt"), []byte(corpus))
	if err := os.WriteFile(filepath.Join(dir, "tournament.yaml"), cfg, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir, cfg
}

// Shards of an older calcsol (manifests without record_checksums, no
// results.sha256) are merged unchecked, with one warning that says so;
// such a report cannot be resumed.
func TestMergeUncheckedShards(t *testing.T) {
	t.Parallel()
	heavyUnderRace(t)
	dir, _ := smallTournamentDir(t)
	for _, k := range []string{"1", "2"} {
		s := "shard-" + k
		if _, errOut, code := inProcess("tournament", filepath.Join(dir, "tournament.yaml"), "--shard", k+"/2", "--out", filepath.Join(dir, s)); code != 0 {
			t.Fatalf("shard %s: %s", k, errOut)
		}
		path := filepath.Join(dir, s, "manifest.json")
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		delete(m, "record_checksums")
		b, _ = json.Marshal(m)
		os.WriteFile(path, b, 0o644)
		os.Remove(filepath.Join(dir, s, "results.sha256"))
	}
	_, errOut, code := inProcess(append([]string{"merge"}, paths(dir, "--out", "merged", "shard-1", "shard-2")...)...)
	if want := "calcsol: warning: 2 reports keep no record checksums (an older calcsol wrote them):\n" +
		"  their records are read unchecked (" + filepath.Join(dir, "shard-1") + " … " + filepath.Join(dir, "shard-2") + ")\n"; code != 0 || errOut != want {
		t.Errorf("merge: exit %d, stderr %q; want 0 and %q", code, errOut, want)
	}
	if _, err := os.Stat(filepath.Join(dir, "merged", "results.sha256")); err != nil {
		t.Errorf("the merged report is not checksummed anew: %v", err)
	}
	_, errOut, code = inProcess("tournament", "--resume", filepath.Join(dir, "shard-1"))
	if code != 2 || !strings.Contains(errOut, "names no record checksums") {
		t.Errorf("resume: exit %d, stderr %q", code, errOut)
	}
}
