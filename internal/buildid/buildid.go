// Package buildid reads the Go build ID of an executable: the string the
// go command stamps into every binary it links, whose last part is a hash
// of the binary's own contents (the content ID). Two executables with the
// same build ID are the same program, and reading it costs a few pages of
// the file, where hashing the whole executable costs tens of milliseconds
// on every start of a command that records which program made its output.
package buildid

import (
	"bytes"
	"debug/elf"
	"encoding/binary"
	"errors"
	"io"
	"os"
	"strings"
)

// ErrNone is returned for a file that carries no Go build ID (not a Go
// executable, or one linked with -buildid=).
var ErrNone = errors.New("no Go build ID")

// Read returns the Go build ID of the executable at path: parts joined by
// slashes, the last of them the content ID.
func Read(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	if id, err := readELF(f); err == nil {
		return id, nil
	}
	// Other formats (Mach-O, PE, …) carry the ID as text near the start of
	// the file, as the go command itself looks for it.
	head := make([]byte, 32<<10)
	n, err := io.ReadFull(f, head)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return "", err
	}
	return fromText(head[:n])
}

// readELF reads the ID from an ELF file's .note.go.buildid section.
func readELF(r io.ReaderAt) (string, error) {
	ef, err := elf.NewFile(r)
	if err != nil {
		return "", err
	}
	s := ef.Section(".note.go.buildid")
	if s == nil {
		return "", ErrNone
	}
	data, err := s.Data()
	if err != nil {
		return "", err
	}
	return fromNote(data, ef.ByteOrder)
}

// fromNote parses an ELF note: name size, description size, type, then
// the name "Go" and the description, the build ID, each padded to 4 bytes.
func fromNote(note []byte, order binary.ByteOrder) (string, error) {
	const goBuildIDType = 4
	if len(note) < 16 {
		return "", ErrNone
	}
	namesz, descsz, typ := order.Uint32(note), order.Uint32(note[4:]), order.Uint32(note[8:])
	nameEnd := 12 + (uint64(namesz)+3)&^3
	if typ != goBuildIDType || namesz != 4 || uint64(len(note)) < nameEnd+uint64(descsz) ||
		string(note[12:16]) != "Go\x00\x00" {
		return "", ErrNone
	}
	return valid(string(note[nameEnd : nameEnd+uint64(descsz)]))
}

// fromText finds the ID where the linker writes it in the text of every
// format: \xff Go build ID: "…"\n \xff.
func fromText(b []byte) (string, error) {
	const prefix = "\xff Go build ID: \""
	i := bytes.Index(b, []byte(prefix))
	if i < 0 {
		return "", ErrNone
	}
	rest := b[i+len(prefix):]
	j := bytes.IndexByte(rest, '"')
	if j < 0 {
		return "", ErrNone
	}
	return valid(string(rest[:j]))
}

// valid returns id when it looks like a build ID: non-empty parts of
// printable characters, at least two of them (action and content).
func valid(id string) (string, error) {
	parts := strings.Split(id, "/")
	if len(parts) < 2 {
		return "", ErrNone
	}
	for _, p := range parts {
		if p == "" {
			return "", ErrNone
		}
		for _, c := range p {
			if c <= ' ' || c > '~' || c == '"' {
				return "", ErrNone
			}
		}
	}
	return id, nil
}

// Content returns the content ID: the last part of the build ID.
func Content(id string) string {
	return id[strings.LastIndexByte(id, '/')+1:]
}
