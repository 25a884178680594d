package tournament

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// One writer at a time: a second lock of a held directory is refused with
// the holder's pid; released, the directory locks again and the lock file
// is gone; a lock file left by a run that ended without releasing it is
// taken over and named.
func TestLockDir(t *testing.T) {
	host, _ := os.Hostname()
	dead := LockHolder{PID: 99999999, Host: "node-7", Since: time.Date(2026, 11, 30, 8, 0, 0, 0, time.UTC)}
	tests := []struct {
		name      string
		leftOver  string // lock file content before the first lock ("" for none)
		wantStale LockHolder
	}{
		{"fresh", "", LockHolder{}},
		{"stale", `{"pid":99999999,"host":"node-7","since":"2026-11-30T08:00:00Z"}`, dead},
		{"empty left-over file", "\n", LockHolder{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if tc.leftOver != "" {
				if err := os.WriteFile(filepath.Join(dir, LockFile), []byte(tc.leftOver), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if err := CheckDirLock(dir); err != nil {
				t.Errorf("CheckDirLock before the lock: %v, want nil", err)
			}
			l, err := LockDir(dir)
			if err != nil {
				t.Fatal(err)
			}
			if l.Stale != tc.wantStale {
				t.Errorf("Stale %+v, want %+v", l.Stale, tc.wantStale)
			}
			for name, err := range map[string]error{"LockDir": second(dir), "CheckDirLock": CheckDirLock(dir)} {
				var be *BusyError
				if !errors.As(err, &be) || be.Holder.PID != os.Getpid() || be.Holder.Host != host {
					t.Errorf("%s of a held directory: %v, want a BusyError naming pid %d on %s", name, err, os.Getpid(), host)
				}
			}
			if err := l.Release(); err != nil {
				t.Fatal(err)
			}
			if err := l.Release(); err != nil {
				t.Errorf("second Release: %v", err)
			}
			if _, err := os.Stat(filepath.Join(dir, LockFile)); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("lock file after Release: %v, want none", err)
			}
			again, err := LockDir(dir)
			if err != nil {
				t.Fatalf("LockDir after Release: %v", err)
			}
			if again.Stale != (LockHolder{}) {
				t.Errorf("Stale after a clean release: %+v, want none", again.Stale)
			}
			again.Release()
		})
	}
}

func second(dir string) error {
	l, err := LockDir(dir)
	l.Release()
	return err
}

func TestBusyErrorMessage(t *testing.T) {
	h := LockHolder{PID: 1234, Host: "node-7", Since: time.Date(2026, 12, 1, 9, 30, 0, 0, time.UTC)}
	tests := []struct {
		err  BusyError
		want string
	}{
		{BusyError{"r", h}, "report directory r is in use by calcsol pid 1234 on host node-7 since 2026-12-01T09:30:00Z (one writer at a time; wait for it to end, or end it)"},
		{BusyError{"r", LockHolder{}}, "report directory r is in use by another calcsol (one writer at a time; wait for it to end, or end it)"},
	}
	for _, tc := range tests {
		if got := tc.err.Error(); got != tc.want {
			t.Errorf("got  %s\nwant %s", got, tc.want)
		}
	}
}

// The lock helper process: holds the lock of $CALCSOL_LOCK_HELPER, says so,
// and waits to be killed.
func TestLockHelperProcess(t *testing.T) {
	dir := os.Getenv("CALCSOL_LOCK_HELPER")
	if dir == "" {
		t.Skip("the helper of TestLockAcrossProcesses")
	}
	if _, err := LockDir(dir); err != nil {
		os.Stdout.WriteString("error: " + err.Error() + "\n")
		os.Exit(1)
	}
	os.Stdout.WriteString("locked\n")
	time.Sleep(time.Minute)
	os.Exit(0)
}

// Another process holds the lock: refused, naming it; killed with SIGKILL
// (no chance to release), its lock is stale and taken over, named as the
// holder that ended.
func TestLockAcrossProcesses(t *testing.T) {
	if runtime.GOOS == "windows" || runtime.GOOS == "plan9" {
		t.Skip("no flock(2)")
	}
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^TestLockHelperProcess$")
	cmd.Env = append(os.Environ(), "CALCSOL_LOCK_HELPER="+dir)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	line, _ := bufio.NewReader(out).ReadString('\n')
	if line != "locked\n" {
		t.Fatalf("helper: %q", line)
	}
	var be *BusyError
	if err := second(dir); !errors.As(err, &be) || be.Holder.PID != cmd.Process.Pid {
		t.Fatalf("LockDir while the helper holds it: %v, want a BusyError naming pid %d", err, cmd.Process.Pid)
	}
	cmd.Process.Kill()
	cmd.Wait()
	l, err := LockDir(dir)
	if err != nil {
		t.Fatalf("LockDir after the holder was killed: %v", err)
	}
	defer l.Release()
	if l.Stale.PID != cmd.Process.Pid {
		t.Errorf("Stale %+v, want the killed helper's pid %d", l.Stale, cmd.Process.Pid)
	}
}

// Two sessions on one report directory: the second is refused while the
// first holds it, fresh or resumed, and the first's records are exactly
// those of a run alone; once the first is closed, a resume opens.
func TestSessionLock(t *testing.T) {
	tn, err := New(context.Background(), testPlan(t, 40), 42)
	if err != nil {
		t.Fatal(err)
	}
	config := []byte("the config\n")
	alone := t.TempDir()
	s, err := tn.Open(SessionOptions{Config: config, Dir: alone, Workers: 2, Log: &bytes.Buffer{}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Play(context.Background()); err != nil {
		t.Fatal(err)
	}
	s.Close()

	dir := t.TempDir()
	first, err := tn.Open(SessionOptions{Config: config, Dir: dir, Workers: 2, Log: &bytes.Buffer{}})
	if err != nil {
		t.Fatal(err)
	}
	m, _, err := ReadRun(dir)
	if err != nil {
		t.Fatal(err)
	}
	for name, opt := range map[string]SessionOptions{
		"fresh":   {Config: config, Dir: dir, Workers: 2, Log: &bytes.Buffer{}},
		"resumed": {Config: config, Dir: dir, Resume: &m, Workers: 2, Log: &bytes.Buffer{}},
	} {
		_, err := tn.Open(opt)
		var be *BusyError
		if !errors.As(err, &be) || !errors.As(err, new(*DirError)) || be.Holder.PID != os.Getpid() {
			t.Errorf("%s second session: %v, want a DirError holding a BusyError", name, err)
		}
	}
	if _, err := first.Play(context.Background()); err != nil {
		t.Fatal(err)
	}
	first.Close()
	if a, b := readRecordLines(t, alone), readRecordLines(t, dir); a != b {
		t.Errorf("records with a refused second writer differ from a run alone")
	}
	// Closed, the directory serves again: a resume, not a fresh run.
	if _, err := tn.Open(SessionOptions{Config: config, Dir: dir, Workers: 2, Log: &bytes.Buffer{}}); err == nil || !strings.Contains(err.Error(), "holds a run's results already") {
		t.Errorf("a fresh session on a finished run: %v, want it refused", err)
	}
	again, err := tn.Open(SessionOptions{Config: config, Dir: dir, Resume: &m, Workers: 2, Log: &bytes.Buffer{}})
	if err != nil {
		t.Fatalf("resume after Close: %v", err)
	}
	again.Close()
}
