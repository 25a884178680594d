package buildid

import (
	"encoding/binary"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The ID read from this test binary is the one the go command reports.
func TestReadMatchesGoTool(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	got, err := Read(exe)
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("go", "tool", "buildid", exe).Output()
	if err != nil {
		t.Skipf("go tool buildid: %v", err)
	}
	if want := strings.TrimSpace(string(out)); got != want {
		t.Errorf("Read = %q, go tool buildid = %q", got, want)
	}
	if c := Content(got); c == "" || strings.Contains(c, "/") {
		t.Errorf("Content(%q) = %q", got, c)
	}
}

func TestReadNotGo(t *testing.T) {
	path := filepath.Join(t.TempDir(), "script")
	if err := os.WriteFile(path, []byte("#!/bin/sh\necho hi\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if id, err := Read(path); !errors.Is(err, ErrNone) {
		t.Errorf("Read(shell script) = %q, %v; want ErrNone", id, err)
	}
	if _, err := Read(filepath.Join(t.TempDir(), "missing")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("Read(missing) error %v, want not-exist", err)
	}
}

// note lays out an ELF note as the linker writes it.
func note(name string, typ uint32, desc string) []byte {
	pad := func(s string) []byte {
		b := []byte(s)
		for len(b)%4 != 0 {
			b = append(b, 0)
		}
		return b
	}
	b := binary.LittleEndian.AppendUint32(nil, uint32(len(name)))
	b = binary.LittleEndian.AppendUint32(b, uint32(len(desc)))
	b = binary.LittleEndian.AppendUint32(b, typ)
	return append(append(b, pad(name)...), pad(desc)...)
}

func TestParse(t *testing.T) {
	const id = "a1/b2/c3/d4"
	fromLENote := func(b []byte) (string, error) { return fromNote(b, binary.LittleEndian) }
	tests := []struct {
		name  string
		parse func([]byte) (string, error)
		in    []byte
		want  string // "" for ErrNone
	}{
		{"note: build ID", fromLENote, note("Go\x00\x00", 4, id), id},
		{"note: two parts", fromLENote, note("Go\x00\x00", 4, "x/y"), "x/y"},
		{"note: other type", fromLENote, note("Go\x00\x00", 1, id), ""},
		{"note: other name", fromLENote, note("GNU\x00", 4, id), ""},
		{"note: one part", fromLENote, note("Go\x00\x00", 4, "abc"), ""},
		{"note: empty part", fromLENote, note("Go\x00\x00", 4, "a//b"), ""},
		{"note: truncated", fromLENote, note("Go\x00\x00", 4, id)[:18], ""},
		{"note: empty", fromLENote, nil, ""},
		{"text: marker", fromText, []byte("junk\xff Go build ID: \"p/q/r/s\"\n \xffmore"), "p/q/r/s"},
		{"text: no marker", fromText, []byte("Go build ID: \"p/q\""), ""},
		{"text: unterminated", fromText, []byte("\xff Go build ID: \"p/q"), ""},
		{"text: control character", fromText, []byte("\xff Go build ID: \"p/\nq\""), ""},
	}
	for _, tc := range tests {
		got, err := tc.parse(tc.in)
		if tc.want == "" {
			if !errors.Is(err, ErrNone) {
				t.Errorf("%s: %q, %v; want ErrNone", tc.name, got, err)
			}
		} else if err != nil || got != tc.want {
			t.Errorf("%s: %q, %v; want %q", tc.name, got, err, tc.want)
		}
	}
}

// The parsers take any bytes: no panic, and what they return is a valid ID.
func FuzzParse(f *testing.F) {
	f.Add(note("Go\x00\x00", 4, "a1/b2/c3/d4"))
	f.Add([]byte("\xff Go build ID: \"p/q\"\n \xff"))
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, parse := range []func([]byte) (string, error){
			func(b []byte) (string, error) { return fromNote(b, binary.LittleEndian) },
			func(b []byte) (string, error) { return fromNote(b, binary.BigEndian) },
			fromText,
		} {
			if id, err := parse(b); err == nil {
				if _, err := valid(id); err != nil {
					t.Errorf("returned %q, which is not a valid ID", id)
				}
			}
		}
	})
}
