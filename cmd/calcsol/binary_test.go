package main

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
)

// calcsolBinary builds the calcsol binary the scripts and the process
// tests run, once per test process, and sets binDir and binPath. It is
// kept in the user's cache directory under a key of this checkout's
// sources (sourceKey), so that a run after one that built it, the code
// unchanged, builds nothing: a real binary starts in half the time of the
// test binary run as calcsol, and the scripts start it some hundred times.
// A build goes to a temporary directory renamed into place, so that test
// processes running at once (a go test beside another) never see half a
// binary; the binaries of this checkout's earlier sources are removed.
var calcsolBinary = sync.OnceValue(func() error {
	root, err := filepath.Abs("../..")
	if err != nil {
		return err
	}
	key, err := sourceKey(root)
	if err != nil {
		return err
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	sum := sha256.Sum256([]byte(root))
	parent := filepath.Join(cache, "calcsol-test", hex.EncodeToString(sum[:8]))
	dir := filepath.Join(parent, "calcsol-"+key)
	binDir, binPath = dir, filepath.Join(dir, "calcsol")
	if _, err := os.Stat(binPath); err == nil {
		return nil
	}
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(parent, ".calcsol-build-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	cmd := exec.Command("go", "build", "-o", filepath.Join(tmp, "calcsol"), "./cmd/calcsol")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go build ./cmd/calcsol: %v\n%s", err, out)
	}
	if err := os.Rename(tmp, dir); err != nil {
		// Another test process built the same sources first.
		if _, serr := os.Stat(binPath); serr != nil {
			return err
		}
	}
	old, _ := filepath.Glob(filepath.Join(parent, "calcsol-*"))
	for _, o := range old {
		if o != dir {
			os.RemoveAll(o)
		}
	}
	return nil
})

// sourceKey hashes what a build of calcsol from the module at root
// depends on: the Go version and build settings, and every file of the
// module but the tests (_test.go files, testdata directories) — the Go
// sources, go.mod and go.sum, and the files they embed.
func sourceKey(root string) (string, error) {
	h := sha256.New()
	out, err := exec.Command("go", "env", "GOVERSION", "GOOS", "GOARCH", "GOFLAGS", "CGO_ENABLED",
		"GOEXPERIMENT", "GOAMD64", "GOARM64", "GOTOOLCHAIN").Output()
	if err != nil {
		return "", fmt.Errorf("go env: %v", err)
	}
	h.Write(out)
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		switch {
		case d.IsDir() && path != root && (name == "testdata" || strings.HasPrefix(name, ".")):
			return filepath.SkipDir
		case !d.Type().IsRegular() || strings.HasSuffix(name, "_test.go"):
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
		rel, _ := filepath.Rel(root, path)
		fmt.Fprintf(h, "%s\x00%d\x00", rel, info.Size())
		_, err = io.Copy(h, f)
		return err
	})
	if err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)[:8]), nil
}
