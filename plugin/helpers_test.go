package plugin_test

import (
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/calcsol/calcsol/decks/corpus"
	"github.com/calcsol/calcsol/plugin"
	"github.com/calcsol/calcsol/solver"
)

// binDir holds the programs the tests build: calcsol, the example plugin
// and the misbehaving test plugin.
var binDir string

func TestMain(m *testing.M) {
	// These tests wait on plugin processes (starts, timeouts, signals) more
	// than they compute: more of them run at once than there are cores,
	// unless -parallel says otherwise.
	flag.Parse()
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "test.parallel" })
	if !set {
		_ = flag.Set("test.parallel", strconv.Itoa(max(4, runtime.GOMAXPROCS(0))))
	}
	dir, temporary, err := programDir()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binDir = dir
	code := m.Run()
	plugin.KillAll()
	if temporary {
		os.RemoveAll(dir)
	}
	os.Exit(code)
}

// programDir returns the directory for the test programs: one of this
// checkout's own in the user's cache directory, kept between runs — go
// build relinks only a program whose inputs changed, so that a run after
// one that built them, the code unchanged, links nothing (linking the three
// is most of a run's CPU time) — or, without a cache directory, a temporary
// one.
func programDir() (dir string, temporary bool, err error) {
	root, err := filepath.Abs("..")
	if err != nil {
		return "", false, err
	}
	if cache, err := os.UserCacheDir(); err == nil {
		sum := sha256.Sum256([]byte(root))
		dir := filepath.Join(cache, "calcsol-test", hex.EncodeToString(sum[:8]))
		if err := os.MkdirAll(dir, 0o755); err == nil {
			return dir, false, nil
		}
	}
	dir, err = os.MkdirTemp("", "calcsol-plugin-test-")
	return dir, true, err
}

// programs are the main packages the tests run, relative to the module
// root: built together, once per test binary, the first time one is needed
// (one go build links them in parallel; alone, each cost a link in turn).
var programs = []string{"./cmd/calcsol", "./examples/goplugin", "./plugin/testdata/misbehave"}

var built struct {
	once sync.Once
	err  error
}

// build returns the path of program pkg (one of programs), building them
// all the first time.
func build(t testing.TB, pkg string) string {
	t.Helper()
	if !slices.Contains(programs, pkg) {
		t.Fatalf("build %s: not among the test programs %v", pkg, programs)
	}
	built.once.Do(func() {
		// Another test process of this checkout (a -race run beside a plain
		// one) may build into the same directory: one at a time. go build
		// replaces a program by a new file, so one that runs is not touched.
		lock, err := os.OpenFile(filepath.Join(binDir, ".lock"), os.O_CREATE|os.O_RDWR, 0o644)
		if err != nil {
			built.err = err
			return
		}
		defer lock.Close()
		if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
			built.err = fmt.Errorf("locking %s: %w", lock.Name(), err)
			return
		}
		defer syscall.Flock(int(lock.Fd()), syscall.LOCK_UN)
		cmd := exec.Command("go", append([]string{"build", "-o", binDir + string(filepath.Separator)}, programs...)...)
		cmd.Dir = ".."
		if out, err := cmd.CombinedOutput(); err != nil {
			built.err = fmt.Errorf("go build %v: %v\n%s", programs, err, out)
		}
	})
	if built.err != nil {
		t.Fatal(built.err)
	}
	return filepath.Join(binDir, path.Base(pkg))
}

// shippedDecks returns the first n decks of a shipped corpus.
func shippedDecks(t testing.TB, name string, n int) []solver.Deck {
	t.Helper()
	ds, err := corpus.LoadCalculationDecks(name)
	if err != nil {
		t.Fatal(err)
	}
	if n < len(ds) {
		ds = ds[:n]
	}
	return ds
}

// newPlugin builds the strategy for command, its stderr discarded unless
// the test runs verbose.
func newPlugin(t testing.TB, cfg plugin.Config) *plugin.Strategy {
	t.Helper()
	if !testing.Verbose() {
		cfg.Stderr = io.Discard
	}
	s, err := plugin.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// pids returns the pids the misbehaving plugin wrote into dir.
func pids(t testing.TB, dir string) []int {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []int
	for _, e := range es {
		if n, err := strconv.Atoi(e.Name()); err == nil {
			out = append(out, n)
		}
	}
	return out
}

// gone reports whether no process of process group pgid is left (a zombie
// waiting for its new parent counts as gone: it runs no more).
func gone(pgid int) bool {
	if err := syscall.Kill(-pgid, 0); err == syscall.ESRCH {
		return true
	}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pgid))
	if err != nil {
		return true
	}
	// The state follows the command name in parentheses.
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	return i >= 0 && i+2 < len(s) && s[i+2] == 'Z'
}

// waitGone waits up to d for every process group in pgids to end.
func waitGone(t testing.TB, pgids []int, d time.Duration) {
	t.Helper()
	deadline := time.Now().Add(d)
	for _, p := range pgids {
		for !gone(p) {
			if time.Now().After(deadline) {
				t.Fatalf("plugin process group %d still running after %v", p, d)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
}
