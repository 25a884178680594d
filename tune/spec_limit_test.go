package tune

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A corpus spec is read up to a limit: a .yaml that is /dev/zero is refused
// at once, not read to the end of memory.
func TestLoadCorpusSpecLimit(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero")
	}
	path := filepath.Join(t.TempDir(), "zero.yaml")
	if err := os.Symlink("/dev/zero", path); err != nil {
		t.Skip(err)
	}
	_, err := LoadCorpus(path, nil)
	if err == nil || !strings.Contains(err.Error(), path+": more than 1048576 bytes: not a corpus spec") {
		t.Fatalf("err = %v", err)
	}
}
