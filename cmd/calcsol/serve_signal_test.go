package main

import (
	"bufio"
	"errors"
	"os"
	"os/exec"
	"os/signal"
	"syscall"
	"testing"
	"time"

	"github.com/calcsol/calcsol/plugin/proto"
)

// ignoredAtStart says which signals this process was started with ignored
// (SIGHUP under nohup), and so its children: read before any test of the
// process installs calcsol's handling, after which none is ignored.
var ignoredAtStart = map[syscall.Signal]bool{
	syscall.SIGTERM: signal.Ignored(syscall.SIGTERM),
	syscall.SIGHUP:  signal.Ignored(syscall.SIGHUP),
	syscall.SIGINT:  signal.Ignored(syscall.SIGINT),
}

// calcsol plugin serve, started as a host starts it (the handshake's cookie
// set), dies of SIGTERM, SIGHUP and SIGINT, as a plugin without calcsol's
// signal handling would (so the host counts its batch as interrupted),
// rather than serve on because that handling caught the signal.
func TestPluginServeStopsForSignals(t *testing.T) {
	t.Parallel()
	processTest(t) // build the binary (skips under the race detector)
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGHUP, syscall.SIGINT} {
		t.Run(sig.String(), func(t *testing.T) {
			// Under nohup (SIGHUP ignored, and so in every child) a
			// plugin serves on after SIGHUP, calcsol's as any other.
			if ignoredAtStart[sig] {
				t.Skipf("%v is ignored here (nohup?), and so in the plugin", sig)
			}
			cmd := exec.Command(binPath, "plugin", "serve", "priority")
			cmd.Env = append(os.Environ(), proto.MagicCookieKey+"="+proto.MagicCookieValue, "TMPDIR="+t.TempDir())
			stdout, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			defer cmd.Process.Kill()
			// The handshake line: serving.
			if _, err := bufio.NewReader(stdout).ReadString('\n'); err != nil {
				t.Fatalf("no handshake line: %v", err)
			}
			cmd.Process.Signal(sig)
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			select {
			case err = <-done:
			case <-time.After(10 * time.Second):
				t.Fatalf("still serving 10 s after %v", sig)
			}
			var ee *exec.ExitError
			if !errors.As(err, &ee) {
				t.Fatalf("after %v: %v, want it killed by the signal", sig, err)
			}
			if ws, ok := ee.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() || ws.Signal() != sig {
				t.Errorf("after %v: %v, want it killed by the signal", sig, err)
			}
		})
	}
}
