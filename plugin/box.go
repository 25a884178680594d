package plugin

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/hashicorp/go-plugin/runner"
)

// A plugin process is contained: it gets a minimal environment, stdin from
// /dev/null, a working directory of its own, and a bounded share of
// calcsol's stderr. What it inherits from the host is only what its config
// names.

// passed are the host's variables every plugin gets: what finding programs,
// reading text and telling the time need, and calcsol's own profiling
// switch.
var passed = regexp.MustCompile(`^(PATH|LANG|LANGUAGE|LC_[A-Z_]+|TZ|CALCSOL_PLUGIN_CPUPROFILE)$`)

var envName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// checkEnv checks a config's env entries: NAME (the host's value, if it has
// one) or NAME=VALUE.
func checkEnv(env []string) error {
	for _, e := range env {
		name, _, _ := strings.Cut(e, "=")
		if !envName.MatchString(name) {
			return fmt.Errorf("plugin env %q: want NAME or NAME=VALUE", e)
		}
	}
	return nil
}

// environ is the environment of a plugin whose home and temporary directory
// are given: the allowlisted host variables, HOME and TMPDIR, then the
// config's entries (which may override them). go-plugin's variables follow.
func (s *Strategy) environ(home, tmp string) []string {
	var env []string
	for _, kv := range os.Environ() {
		name, v, _ := strings.Cut(kv, "=")
		if !passed.MatchString(name) {
			continue
		}
		if name == "CALCSOL_PLUGIN_CPUPROFILE" && v != "" {
			// The plugin's working directory is not calcsol's.
			if abs, err := filepath.Abs(v); err == nil {
				kv = name + "=" + abs
			}
		}
		env = append(env, kv)
	}
	env = append(env, "HOME="+home, "TMPDIR="+tmp)
	for _, e := range s.cfg.Env {
		if strings.Contains(e, "=") {
			env = append(env, e)
		} else if v, ok := os.LookupEnv(e); ok {
			env = append(env, e+"="+v)
		}
	}
	return env
}

// resolved returns the command line with the program and the checked file
// (an interpreter's script) made absolute, so that a command written
// relative to calcsol's working directory runs the same from the plugin's.
func (s *Strategy) resolved() []string {
	argv := append([]string(nil), s.argv...)
	abs := func(i int) {
		if strings.ContainsRune(argv[i], os.PathSeparator) && !filepath.IsAbs(argv[i]) {
			if a, err := filepath.Abs(argv[i]); err == nil {
				argv[i] = a
			}
		}
	}
	abs(0)
	if i := checkedIndex(argv); i > 0 {
		if _, err := os.Stat(argv[i]); err == nil {
			if a, err := filepath.Abs(argv[i]); err == nil {
				argv[i] = a
			}
		}
	}
	return argv
}

// waitDelay bounds how long a process's end waits for its stderr to close:
// a child it left could hold it open.
const waitDelay = time.Second

var _ runner.Runner = (*boxRunner)(nil)

// boxRunner is go-plugin's runner.Runner for a contained process: go-plugin
// gives it a command holding only go-plugin's variables, and it starts the
// plugin's own command with them added to the contained environment.
type boxRunner struct {
	p      *process
	cmd    *exec.Cmd
	stdout io.ReadCloser
	name   string

	pid     atomic.Int64  // once started
	done    chan struct{} // closed when the process has been waited for
	waitErr error
}

func (p *process) newRunner(s *Strategy, argv []string, spec *exec.Cmd) (*boxRunner, error) {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = append(append(s.environ(p.home, p.tmp), spec.Env...), p.mark)
	cmd.Dir = p.dir
	cmd.Stdin = nil // /dev/null
	cmd.Stderr = p.stderr
	cmd.WaitDelay = waitDelay
	// Its own process group, so that a Ctrl-C in a terminal reaches calcsol
	// only, and killing the group ends what the plugin started in it.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	return &boxRunner{p: p, cmd: cmd, stdout: stdout, name: argv[0], done: make(chan struct{})}, nil
}

func (r *boxRunner) Start(context.Context) error {
	// Checked again just before it starts, as go-plugin's SecureConfig would.
	if err := r.p.s.checkFile(); err != nil {
		return err
	}
	if err := r.cmd.Start(); err != nil {
		return err
	}
	r.pid.Store(int64(r.cmd.Process.Pid))
	return nil
}

func (r *boxRunner) Wait(context.Context) error {
	err := r.cmd.Wait()
	r.waitErr = err
	close(r.done)
	return err
}

// ended reports whether the process has been waited for (its pid may then
// be another process's).
func (r *boxRunner) ended() bool {
	if r == nil {
		return true
	}
	select {
	case <-r.done:
		return true
	default:
		return false
	}
}

func (r *boxRunner) Kill(context.Context) error {
	r.p.killTree()
	return nil
}

func (r *boxRunner) Diagnose(context.Context) string { return "" }
func (r *boxRunner) Stdout() io.ReadCloser           { return r.stdout }

// Stderr is empty: the process's stderr goes to the process's sink
// directly, not through go-plugin's logger.
func (r *boxRunner) Stderr() io.ReadCloser { return io.NopCloser(strings.NewReader("")) }
func (r *boxRunner) Name() string          { return r.name }

func (r *boxRunner) ID() string {
	if pid := r.pid.Load(); pid != 0 {
		return fmt.Sprint(pid)
	}
	return ""
}

func (r *boxRunner) PluginToHost(n, a string) (string, string, error) { return n, a, nil }
func (r *boxRunner) HostToPlugin(n, a string) (string, string, error) { return n, a, nil }

const stillRunning = "still running"

// status describes how the process ended — "exit status 2", "killed by
// signal 9 (killed)" — waiting up to d for it; "still running" if it has
// not.
func (r *boxRunner) status(d time.Duration) string {
	select {
	case <-r.done:
	case <-time.After(d):
		return stillRunning
	}
	ps := r.cmd.ProcessState
	if ps == nil {
		return fmt.Sprint(r.waitErr)
	}
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return fmt.Sprintf("killed by signal %d (%v)", int(ws.Signal()), ws.Signal())
	}
	return fmt.Sprintf("exit status %d", ps.ExitCode())
}

// endedBy reports whether the process has ended, killed by one of sigs.
func (r *boxRunner) endedBy(sigs []os.Signal) bool {
	if !r.ended() || r.cmd.ProcessState == nil {
		return false
	}
	ws, ok := r.cmd.ProcessState.Sys().(syscall.WaitStatus)
	return ok && ws.Signaled() && slices.Contains(sigs, os.Signal(ws.Signal()))
}

// StderrShown is how much of a plugin's stderr calcsol copies to its own, in
// all the plugin's processes together; beyond it, each process's stderr is
// counted, its last bytes kept for failure reasons, and one line says how
// much was not shown.
const StderrShown = 64 << 10

// tailSize is how much of the end of a process's stderr is kept.
const tailSize = 4 << 10

// sink takes a process's stderr: it copies it to calcsol's while the
// strategy's allowance lasts, keeps the last tailSize bytes and counts all.
type sink struct {
	out     io.Writer
	shown   *atomic.Int64 // bytes of the strategy's processes copied to out
	mu      sync.Mutex
	buf     []byte
	total   int64
	dropped int64
	midLine bool // what was shown ends inside a line
}

func (t *sink) Write(b []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.total += int64(len(b))
	show := b
	if left := StderrShown - t.shown.Add(int64(len(b))) + int64(len(b)); left < int64(len(b)) {
		show = b[:max(left, 0)]
	}
	if len(show) > 0 {
		_, _ = t.out.Write(show)
		t.midLine = show[len(show)-1] != '\n'
	}
	t.dropped += int64(len(b) - len(show))
	if len(b) >= tailSize {
		t.buf = append(t.buf[:0], b[len(b)-tailSize:]...)
	} else {
		t.buf = append(t.buf, b...)
		if len(t.buf) > tailSize {
			t.buf = append(t.buf[:0], t.buf[len(t.buf)-tailSize:]...)
		}
	}
	return len(b), nil
}

// close writes the line that says how much was not shown, if any was not.
func (t *sink) close(name string, pid int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.dropped > 0 {
		nl := ""
		if t.midLine {
			nl = "\n"
		}
		fmt.Fprintf(t.out, "%scalcsol: plugin %s (pid %d): %d bytes of its stderr not shown (%d in all; calcsol shows a plugin's first %d KiB)\n",
			nl, name, pid, t.dropped, t.total, StderrShown>>10)
		t.dropped, t.midLine = 0, false
	}
}

// suffix is " (stderr: …last line…)", with the byte count when the plugin
// wrote more than the tail; "" when it wrote nothing.
func (t *sink) suffix() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := strings.TrimSpace(string(t.buf))
	if s == "" {
		return ""
	}
	lines := strings.Split(s, "\n")
	// A Go panic's first line says what; a Python traceback's last line.
	last := strings.TrimSpace(lines[len(lines)-1])
	for _, l := range lines {
		if strings.HasPrefix(l, "panic: ") {
			last = strings.TrimSpace(l)
			break
		}
	}
	const most = 300
	if len(last) > most {
		last = "…" + last[len(last)-most:]
	}
	if t.total > int64(len(t.buf)) {
		return fmt.Sprintf(" (stderr, %d bytes, ends: %s)", t.total, last)
	}
	return " (stderr: " + last + ")"
}
