package golden

import (
	"os"
	"path/filepath"
	"testing"
)

// fakeT records failures instead of stopping the test.
type fakeT struct {
	testing.TB
	failed bool
}

func (f *fakeT) Helper()               {}
func (f *fakeT) Errorf(string, ...any) { f.failed = true }
func (f *fakeT) Fatalf(string, ...any) { f.failed = true }
func (f *fakeT) Fatal(...any)          { f.failed = true }

func TestCheck(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "testdata", "sub", "x.golden")
	shipped := filepath.Join(dir, "configs", "table.yaml")
	tests := []struct {
		name   string
		path   string
		update bool
		got    string
		fail   bool
	}{
		{"missing file", path, false, "a\n", true},
		{"update writes", path, true, "a\n", false},
		{"same bytes", path, false, "a\n", false},
		{"different bytes", path, false, "b\n", true},
		{"update outside testdata", shipped, true, "a\n", true},
	}
	defer func(u bool) { *update = u }(*update)
	for _, tc := range tests {
		*update = tc.update
		f := &fakeT{TB: t}
		Check(f, tc.path, []byte(tc.got))
		if f.failed != tc.fail {
			t.Errorf("%s: failed = %v, want %v", tc.name, f.failed, tc.fail)
		}
	}
	if b, _ := os.ReadFile(path); string(b) != "a\n" {
		t.Errorf("file holds %q after the update, want %q", b, "a\n")
	}
	if _, err := os.Stat(shipped); err == nil {
		t.Errorf("-update wrote %s, outside testdata", shipped)
	}
}
