// Package testprog builds the programs that tests run as processes —
// calcsol, the example Go plugin, the misbehaving test plugin and the
// lookup plugin of the blind-play test — once
// per version of the sources, for every package's tests to share:
//
//	dir, err := testprog.Dir("../..") // the module root, from cmd/calcsol
//	calcsol := filepath.Join(dir, "calcsol")
//
// The programs are kept in the user's cache directory, under
// calcsol-test/<checkout>/build-<sources>, where <sources> hashes the Go
// version and build settings and every file of the module but its tests
// (_test.go files and testdata directories, but for the test plugins' own):
// a test run after one that built them, the code unchanged, builds nothing
// and does not even ask the go command. A build goes to a temporary
// directory renamed into place under a lock, so test processes running at
// once (the plugin and command tests of one go test ./...) build once and
// never see half a program; the programs of the checkout's earlier
// sources are removed then.
//
// PythonMissing says whether the Python plugin can run here, for the tests
// that start it.
package testprog

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/calcsol/calcsol/internal/atomicfile"
)

// Programs are the main packages built, relative to the module root; a
// program's file in Dir is its last path element.
var Programs = []string{"./cmd/calcsol", "./examples/goplugin", "./plugin/testdata/misbehave", "./cmd/calcsol/testdata/lookup"}

// Dir returns the directory holding Programs built from the module at
// root, building them first if this version of the sources has not been.
func Dir(root string) (string, error) {
	root, err := filepath.Abs(root)
	if err != nil {
		return "", err
	}
	key, err := sourceKey(root)
	if err != nil {
		return "", err
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	sum := sha256.Sum256([]byte(root))
	parent := filepath.Join(cache, "calcsol-test", hex.EncodeToString(sum[:8]))
	dir := filepath.Join(parent, "build-"+key)
	if built(dir) {
		return dir, nil
	}
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return "", err
	}
	unlock, err := lock(filepath.Join(parent, ".lock"))
	if err != nil {
		return "", err
	}
	defer unlock()
	if built(dir) { // by another test process, while this one waited
		return dir, nil
	}
	tmp, err := os.MkdirTemp(parent, ".build-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(tmp)
	// One go build links the programs in parallel.
	cmd := exec.Command("go", append([]string{"build", "-o", tmp + string(filepath.Separator)}, Programs...)...)
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build %v: %v\n%s", Programs, err, out)
	}
	os.RemoveAll(dir) // a build cut short
	if err := os.Rename(tmp, dir); err != nil {
		return "", err
	}
	// The checkout's directory holds only its latest build (and the lock).
	old, _ := os.ReadDir(parent)
	for _, o := range old {
		if name := o.Name(); name != filepath.Base(dir) && name != ".lock" && !strings.HasPrefix(name, ".build-") {
			os.RemoveAll(filepath.Join(parent, name))
		}
	}
	return dir, nil
}

// built reports whether dir holds every program.
func built(dir string) bool {
	for _, p := range Programs {
		if _, err := os.Stat(filepath.Join(dir, path.Base(p))); err != nil {
			return false
		}
	}
	return true
}

// lock waits (up to ten minutes: a build on a loaded machine) for the
// lock file at name, and returns its release.
func lock(name string) (unlock func(), err error) {
	f, err := os.OpenFile(name, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, err
	}
	for deadline := time.Now().Add(10 * time.Minute); ; time.Sleep(20 * time.Millisecond) {
		busy, err := atomicfile.TryLock(f, true)
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("locking %s: %w", name, err)
		}
		if !busy {
			return func() { f.Close() }, nil
		}
		if time.Now().After(deadline) {
			f.Close()
			return nil, fmt.Errorf("locking %s: another test process has held it for ten minutes", name)
		}
	}
}

// sourceKey hashes what a build of Programs from the module at root
// depends on: the Go version and build settings, and every file of the
// module but the tests — the Go sources, go.mod and go.sum, the files they
// embed — and the test plugins' directories. Files and directories whose
// names start with . or _ are left out.
func sourceKey(root string) (string, error) {
	h := sha256.New()
	out, err := exec.Command("go", "env", "GOVERSION", "GOOS", "GOARCH", "GOFLAGS", "CGO_ENABLED",
		"GOEXPERIMENT", "GOAMD64", "GOARM64", "GOTOOLCHAIN").Output()
	if err != nil {
		return "", fmt.Errorf("go env: %v", err)
	}
	h.Write(out)
	keep := map[string]bool{}
	for _, p := range Programs {
		keep[filepath.Join(root, filepath.FromSlash(p))] = true
	}
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		// Names that start with . or _ are none of a build's, as for the go
		// command (.git, a Python plugin's __pycache__ the tests leave).
		name := d.Name()
		hidden := path != root && (strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_"))
		// Under a testdata directory only the test programs count: a
		// script beside a program (cmd/calcsol/testdata) is no build's.
		rel, _ := filepath.Rel(root, path)
		test := underTestdata(rel) && !inProgram(path, keep)
		switch {
		case d.IsDir() && (hidden || test && !inKept(path, keep)):
			return filepath.SkipDir
		case hidden || test || !d.Type().IsRegular() || strings.HasSuffix(name, "_test.go"):
			return nil
		}
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		defer f.Close()
		info, err := f.Stat()
		if err != nil {
			return err
		}
		fmt.Fprintf(h, "%s\x00%d\x00", rel, info.Size())
		_, err = io.Copy(h, f)
		return err
	})
	if err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)[:8]), nil
}

// underTestdata reports whether the relative path rel is in a testdata
// directory.
func underTestdata(rel string) bool {
	return slices.Contains(strings.Split(filepath.ToSlash(rel), "/"), "testdata")
}

// inProgram reports whether path is in the directory of a program that is
// itself in a testdata directory (a test plugin's).
func inProgram(path string, keep map[string]bool) bool {
	for k := range keep {
		if underTestdata(k) && strings.HasPrefix(path, k+string(filepath.Separator)) {
			return true
		}
	}
	return false
}

// inKept reports whether dir is a program's directory or holds one.
func inKept(dir string, keep map[string]bool) bool {
	for k := range keep {
		if k == dir || strings.HasPrefix(k, dir+string(filepath.Separator)) {
			return true
		}
	}
	return false
}
