package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/calcsol/calcsol/internal/interrupt"
	"github.com/calcsol/calcsol/tournament"
)

// A tournament with a plugin entrant stops for Ctrl-C, SIGTERM and SIGHUP
// as one without: exit status 130, the line that says how to resume, no
// plugin process left and no temporary file; and --resume then finishes the
// run with the records of an uninterrupted one, so no game the signal
// interrupted was recorded as failed. The signal goes to calcsol's process
// group (as a terminal's Ctrl-C does), to calcsol alone, or to calcsol and
// its plugins at once (as systemd stops a service): a plugin killed by the
// signal a moment before calcsol sees it fails no game either.
func TestTournamentInterruptPlugin(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("plays a tournament with a plugin seven times")
	}
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("needs /proc to find the plugin processes")
	}
	processTest(t) // build the binary (skips under the race detector)
	// The example Go plugin (examples/goplugin), built with calcsol
	// (package testprog). It dies of SIGTERM, as most plugins do (`calcsol
	// plugin serve` catches it, as every calcsol command).
	plugin := testProgram(t, "goplugin")
	dir := t.TempDir()
	config := filepath.Join(dir, "plugin.yaml")
	// The signal comes once the first block of 256 records is written,
	// with calcsol and its plugins held still (SIGSTOP) from then until it
	// is sent: the other games, some 340, are still to play when it lands,
	// however loaded the machine; and calcsol plays none while its plugins
	// are dead before it hears (below). The timeout is long enough that a
	// plugin held still is not timed out. One rule variant: each costs
	// every one of the seven runs two plugin starts (one to probe it).
	const games = 600
	yaml := fmt.Sprintf(`seed: 1
strategies:
  - name: soonest-fit
    base: {plugin: {command: "%s", timeout: 10s, batch: 64}}
corpora:
  - {name: gen, generator: shuffle U, seed: 5, count: %d}
rules:
  - {stacks: 4}
`, plugin, games)
	if err := os.WriteFile(config, []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	whole := filepath.Join(dir, "whole")
	if _, errOut, code := calcsol(t, "", "tournament", config, "--workers", "1", "--out", whole); code != 0 {
		t.Fatalf("uninterrupted: exit %d: %s", code, errOut)
	}
	want := usField.ReplaceAllString(recordsOf(t, whole), "")

	tests := []struct {
		name string
		sig  syscall.Signal
		to   string // "group", "calcsol", or "all": calcsol and its plugins
	}{
		{"SIGINT to the group", syscall.SIGINT, "group"},
		{"SIGTERM to all", syscall.SIGTERM, "all"},
		{"SIGHUP to calcsol", syscall.SIGHUP, "calcsol"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if !interrupt.Watches(tc.sig) {
				t.Skipf("%v is ignored here (nohup), and so by calcsol", tc.sig)
			}
			out := filepath.Join(t.TempDir(), "run")
			tmp := t.TempDir() // the plugins' directories and sockets
			cmd := exec.Command(binPath, "tournament", config, "--workers", "1", "--out", out)
			cmd.Env = append(os.Environ(), "HOME="+t.TempDir(), "TMPDIR="+tmp)
			cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			pid := cmd.Process.Pid
			defer syscall.Kill(-pid, syscall.SIGKILL)
			waitChecksummed(t, cmd, out, tournament.SumBlock)
			// Held still until the signal is sent; SIGCONT lets them meet it.
			syscall.Kill(-pid, syscall.SIGSTOP)
			plugins := children(pid, plugin)
			if len(plugins) == 0 || len(marked(pid)) == 0 {
				t.Fatalf("plugin processes %v, marked %v: want the plugin found both ways", plugins, marked(pid))
			}
			switch tc.to {
			case "group":
				syscall.Kill(-pid, tc.sig)
				syscall.Kill(-pid, syscall.SIGCONT)
			case "calcsol":
				syscall.Kill(pid, tc.sig)
				syscall.Kill(-pid, syscall.SIGCONT)
			case "all":
				// The plugins first, and calcsol 0.3 s after they died
				// (signals sent to every process need not arrive at
				// once), let go on once they are dead: the games they
				// were playing fail in that moment, and must not be
				// recorded so.
				for _, p := range plugins {
					syscall.Kill(p, tc.sig)
					syscall.Kill(p, syscall.SIGCONT)
				}
				for deadline := time.Now().Add(time.Second); len(running(plugins)) > 0 && time.Now().Before(deadline); {
					time.Sleep(time.Millisecond)
				}
				syscall.Kill(-pid, syscall.SIGCONT)
				time.Sleep(300 * time.Millisecond)
				syscall.Kill(pid, tc.sig)
			}
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			var err error
			select {
			case err = <-done:
			case <-time.After(30 * time.Second):
				t.Fatalf("still running 30 s after %v", tc.sig)
			}
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != 130 {
				t.Errorf("exit %v, want status 130; stderr %q", err, stderr.String())
			}
			b := []byte(recordsOf(t, out))
			n := bytes.Count(b, []byte("\n"))
			if i := bytes.Index(b, []byte(`"end":"strategy failed`)); i >= 0 {
				t.Errorf("a game recorded as failed: %s", b[i:min(len(b), i+120)])
			}
			line := "calcsol: interrupted: " + strconv.Itoa(n) + " of " + strconv.Itoa(games) + " games recorded in " + out +
				"; continue with: calcsol tournament --resume " + out + "\n"
			if !strings.HasSuffix(stderr.String(), line) {
				t.Errorf("stderr %q, want it to end with %q", stderr.String(), line)
			}
			for deadline := time.Now().Add(2 * time.Second); ; time.Sleep(10 * time.Millisecond) {
				left := append(marked(pid), running(plugins)...)
				if len(left) == 0 {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("plugin processes %v still there 2 s after calcsol ended", left)
				}
			}
			for _, d := range []string{tmp, out} {
				es, _ := os.ReadDir(d)
				for _, e := range es {
					if d == tmp || strings.Contains(e.Name(), ".tmp") {
						t.Errorf("left in %s: %s", d, e.Name())
					}
				}
			}
			if _, errOut, code := calcsol(t, "", "tournament", "--resume", out, "--workers", "1"); code != 0 {
				t.Fatalf("--resume: exit %d: %s", code, errOut)
			}
			if usField.ReplaceAllString(recordsOf(t, out), "") != want {
				t.Error("after --resume, the records differ from the uninterrupted run's")
			}
		})
	}
}

// children returns the pids of parent's children that run program.
func children(parent int, program string) []int {
	return processes(func(pid int, dir string) bool {
		_, ppid := stat(pid)
		c, _ := os.ReadFile(dir + "/cmdline")
		return ppid == parent && bytes.HasPrefix(c, []byte(program+"\x00"))
	})
}

// running returns those of pids that still run (neither gone nor a zombie).
func running(pids []int) []int {
	var out []int
	for _, p := range pids {
		if state, _ := stat(p); state != 0 && state != 'Z' && state != 'X' {
			out = append(out, p)
		}
	}
	return out
}

// marked returns the pids of the processes that carry the mark calcsol pid
// puts in its plugins' environment (and they pass to theirs): any
// process a plugin of that calcsol started, wherever it went.
func marked(pid int) []int {
	prefix := []byte("CALCSOL_PLUGIN_BOX=" + strconv.Itoa(pid) + "-")
	return processes(func(_ int, dir string) bool {
		b, _ := os.ReadFile(dir + "/environ")
		return slices.ContainsFunc(bytes.Split(b, []byte{0}), func(kv []byte) bool { return bytes.HasPrefix(kv, prefix) })
	})
}

// processes returns the pids of the processes for which keep, given the
// pid and its /proc directory, is true.
func processes(keep func(pid int, dir string) bool) []int {
	var out []int
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	for _, d := range dirs {
		if pid, err := strconv.Atoi(d[len("/proc/"):]); err == nil && keep(pid, d) {
			out = append(out, pid)
		}
	}
	return out
}

// stat returns a process's state and parent (0, 0 when it is gone).
func stat(pid int) (state byte, ppid int) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, 0
	}
	// After the command name in parentheses, which may hold spaces.
	f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:]))
	if len(f) < 2 {
		return 0, 0
	}
	ppid, _ = strconv.Atoi(f[1])
	return f[0][0], ppid
}
