package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Ctrl-C (SIGINT) stops every long-running command with exit status 130
// and a last line on standard error saying so: the commands that keep what
// they did say how to go on, the others that they wrote nothing. Each is
// interrupted once busy (it has used 0.1 s of CPU, twice its start,
// well before its end). The tournament with --out and the corpus solve with
// --out are tested in their own files, with what they keep.
func TestInterruptExitStatus(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs a dozen commands until busy")
	}
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("needs /proc to see when a command is busy")
	}
	const nothing = `calcsol: interrupted; no output file was written\n`
	dir := t.TempDir()
	tests := []struct {
		name string
		args []string
		want string // the last line of stderr, a regular expression
	}{
		{"tournament", []string{"tournament", "--workers", "1"}, nothing},
		{"eval", []string{"eval", "--corpus", "uniform-1000", "--workers", "1", "--strategy", "priority+pimc"}, nothing},
		{"match", []string{"match", "priority+pimc", "priority+pimc", "--corpus", "uniform-1000", "--workers", "1"}, nothing},
		{"solve deck", []string{"solve", "--deck", "98A75J552A342J28J02JQQ8A60Q44A037083K6Q65K9K349779K6", "--stacks", "3", "--preplaced", "--nodes", "0"},
			`calcsol: interrupted after \d+ nodes: the deal is not settled\n`},
		{"solve corpus", []string{"solve", "--corpus", "uniform-1000", "--stacks", "4", "--preplaced", "--workers", "1"}, nothing},
		{"tune", []string{"tune", "--table", "nanzaki-shintani", "--stacks", "3", "--evals", "1000", "--seed", "1", "--workers", "1", "--out", filepath.Join(dir, "tuned.yaml")},
			`calcsol: interrupted after \d+ evaluations; continue with --resume ` + regexp.QuoteMeta(filepath.Join(dir, "tuned.jsonl")) + `\n`},
		{"corpus generate", []string{"corpus", "generate", "--shuffle", "U", "--count", "100000000", "--seed", "1", "--out", filepath.Join(dir, "big.txt")}, nothing},
		{"shuffle search", []string{"shuffle", "search", "--methods", "HRD", "--m", "1..6", "--sets", "100000", "--workers", "1"}, nothing},
		{"shuffle analyze", []string{"shuffle", "analyze", "--seq", "HDHRDHH", "--sets", "100000000", "--workers", "1"}, nothing},
		{"autopsy", []string{"autopsy", "--corpus", "uniform-1000", "--stacks", "3", "--at", "40,24,12", "--nodes", "2000000", "--workers", "1"}, nothing},
		{"regress", []string{"regress", "--baseline", "../../baselines/shipped.yaml", "--workers", "1"}, nothing},
	}
	processTest(t) // build the binary (skips under the race detector)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cmd := exec.Command(binPath, tc.args...)
			cmd.Env = append(os.Environ(), "HOME="+t.TempDir())
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			if err := busy(cmd.Process.Pid, 100*time.Millisecond, done); err != nil {
				cmd.Process.Kill()
				t.Fatal(err)
			}
			cmd.Process.Signal(os.Interrupt)
			var err error
			select {
			case err = <-done:
			case <-time.After(30 * time.Second):
				cmd.Process.Kill()
				t.Fatal("still running 30 s after Ctrl-C")
			}
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != 130 {
				t.Errorf("exit %v, want status 130; stderr %q", err, stderr.String())
			}
			if !regexp.MustCompile(`(^|\n)` + tc.want + `$`).MatchString(stderr.String()) {
				t.Errorf("stderr %q, want its last line to match %q", stderr.String(), tc.want)
			}
		})
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".big.txt.tmp-*")); len(left) > 0 {
		t.Errorf("corpus generate left %v", left)
	}
}

// busy waits until process pid has used cpu of CPU time (user and
// system), or fails if it ends first (done) or takes a minute.
func busy(pid int, cpu time.Duration, done <-chan error) error {
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		select {
		case err := <-done:
			return fmt.Errorf("ended (%v) before it had used %v of CPU", err, cpu)
		default:
		}
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			continue
		}
		// utime and stime, fields 14 and 15, in clock ticks (100 a second
		// on Linux); the command name before them may hold spaces.
		fields := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:]))
		if len(fields) < 13 {
			continue
		}
		user, _ := strconv.Atoi(fields[11])
		sys, _ := strconv.Atoi(fields[12])
		if time.Duration(user+sys)*10*time.Millisecond >= cpu {
			return nil
		}
	}
	return fmt.Errorf("not %v of CPU in a minute", cpu)
}
