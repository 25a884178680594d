//go:build unix

package atomicfile

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestMain lets the test binary play a writer that Create's a temporary file
// and waits to be killed.
func TestMain(m *testing.M) {
	if path := os.Getenv("ATOMICFILE_TEST_WRITER"); path != "" {
		f, err := Create(path)
		if err != nil {
			os.Exit(3)
		}
		os.Stdout.WriteString(f.Name() + "\n")
		time.Sleep(time.Minute)
		os.Exit(4)
	}
	os.Exit(m.Run())
}

// writer starts a process that holds a temporary file for path, and returns
// it with the temporary file's name.
func writer(t *testing.T, path string) (*exec.Cmd, string) {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "ATOMICFILE_TEST_WRITER="+path)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	name, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	return cmd, strings.TrimSpace(name)
}

// A writer killed with SIGKILL leaves its temporary file, never the target;
// RemoveStale removes it, and only it: not a live writer's, nor other
// files.
func TestRemoveStale(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "big.txt")
	killed, killedTmp := writer(t, path)
	_, liveTmp := writer(t, path)
	if err := killed.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	killed.Wait()
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Fatalf("a killed writer left the target: %v", err)
	}
	other := filepath.Join(dir, ".other.txt.tmp-1")
	if err := os.WriteFile(other, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	removed, err := RemoveStale(path)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(removed, []string{killedTmp}) {
		t.Errorf("removed %q, want only the killed writer's %q", removed, killedTmp)
	}
	for _, name := range []string{liveTmp, other} {
		if _, err := os.Stat(name); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}
