package tournament

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"os"
	"path/filepath"
	"strconv"

	"github.com/calcsol/calcsol/internal/atomicfile"
)

// SumsFile is the file of a report directory that holds the checksums of
// its records (docs/tournament.md).
const SumsFile = "results.sha256"

// SumBlock is the number of lines of results.jsonl a checksum covers: a
// record changed behind calcsol's back is named within SumBlock lines.
const SumBlock = 256

// RecordSums, in a manifest, says that the run checksums its records: the
// SHA-256 of each block of Block lines of results.jsonl, a line of File
// appended as each block is written (a sitting's last block may be
// shorter). A manifest without it was written by a calcsol that kept no
// checksums.
type RecordSums struct {
	File  string `json:"file"`
	Block int    `json:"block"`
}

func newRecordSums() *RecordSums { return &RecordSums{File: SumsFile, Block: SumBlock} }

// sumsHeader heads a sums file.
const sumsHeader = "# calcsol record checksums: FIRST-LAST lines of results.jsonl, SHA-256 of those lines\n"

// sumChunk is one line of a sums file: lines First..Last (1-based) of
// results.jsonl, newlines included, hash to Sum.
type sumChunk struct {
	First, Last int
	Sum         [sha256.Size]byte
}

func (c sumChunk) appendLine(b []byte) []byte {
	b = strconv.AppendInt(b, int64(c.First), 10)
	b = append(b, '-')
	b = strconv.AppendInt(b, int64(c.Last), 10)
	b = append(b, ' ')
	b = hex.AppendEncode(b, c.Sum[:])
	return append(b, '\n')
}

// readSums reads the sums file at path: the chunks, contiguous from line 1.
// A last line without its newline (a run killed while writing it) is left
// out. On an error it returns the chunks read before the bad line.
func readSums(path string) ([]sumChunk, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var out []sumChunk
	for n := 1; len(data) > 0; n++ {
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			break // torn
		}
		line := data[:i]
		data = data[i+1:]
		if len(line) == 0 || line[0] == '#' {
			continue
		}
		c, err := parseSumLine(line)
		next := 1
		if len(out) > 0 {
			next = out[len(out)-1].Last + 1
		}
		if err == nil && c.First != next {
			err = fmt.Errorf("lines %d-%d, want a block from line %d", c.First, c.Last, next)
		}
		if err != nil {
			return out, fmt.Errorf("%s:%d: %w", path, n, err)
		}
		out = append(out, c)
	}
	return out, nil
}

func parseSumLine(line []byte) (sumChunk, error) {
	var c sumChunk
	rng, sum, ok := bytes.Cut(line, []byte{' '})
	a, b, ok2 := bytes.Cut(rng, []byte{'-'})
	if !ok || !ok2 || hex.DecodedLen(len(sum)) != sha256.Size {
		return c, fmt.Errorf("%q: want FIRST-LAST and a SHA-256 in hex", line)
	}
	var err1, err2 error
	c.First, err1 = strconv.Atoi(string(a))
	c.Last, err2 = strconv.Atoi(string(b))
	if _, err := hex.Decode(c.Sum[:], sum); err != nil || err1 != nil || err2 != nil || c.First < 1 || c.Last < c.First {
		return c, fmt.Errorf("%q: want FIRST-LAST and a SHA-256 in hex", line)
	}
	return c, nil
}

// summer checksums lines as they are written, a block at a time.
type summer struct {
	h     hash.Hash
	first int // the first line of the open block
	n     int // lines in it
}

// newSummer starts the block whose first line is next.
func newSummer(next int) *summer { return &summer{h: sha256.New(), first: next} }

// add hashes one line (with its newline) and, when it fills the block,
// appends the block's sums line to out.
func (s *summer) add(line, out []byte) []byte {
	s.h.Write(line)
	s.n++
	if s.n == SumBlock {
		return s.flush(out)
	}
	return out
}

// flush closes the open block, if it has lines, appending its sums line
// to out.
func (s *summer) flush(out []byte) []byte {
	if s.n == 0 {
		return out
	}
	c := sumChunk{First: s.first, Last: s.first + s.n - 1}
	s.h.Sum(c.Sum[:0])
	s.h.Reset()
	s.first, s.n = c.Last+1, 0
	return c.appendLine(out)
}

// CorruptError says that a report's results cannot be trusted from a line
// on: a torn or unreadable record, a block whose checksum differs (a record
// changed after calcsol wrote it), records that are not the run's, or
// checksums that do not fit the records. Keep is the number of leading
// lines known good, where Repair truncates: the lines before the block at
// fault, never a guess inside it.
type CorruptError struct {
	File string
	// Line is the line at fault; a block is Line to Last.
	Line, Last int
	Err        error
	Keep       int
}

func (e *CorruptError) Error() string {
	switch {
	case e.Line == 0: // the fault is in the checksums, which Err names
		return e.Err.Error()
	case e.Last > e.Line:
		return fmt.Sprintf("%s:%d-%d: %v", e.File, e.Line, e.Last, e.Err)
	}
	return fmt.Sprintf("%s:%d: %v", e.File, e.Line, e.Err)
}

func (e *CorruptError) Unwrap() error { return e.Err }

// errTampered is the reason of a block whose checksum differs.
var errTampered = errors.New("checksum mismatch: a record here was changed after calcsol wrote it")

// tailMode says what a reader does with the lines after the last checksum.
type tailMode int

const (
	// tailRefuse: they are an error (a finished report has none).
	tailRefuse tailMode = iota
	// tailDrop: they are left out (and counted): a resumed run plays those
	// games again rather than take records nothing vouches for.
	tailDrop
	// tailKeep: they are read unchecked (a shard still being written).
	tailKeep
)

// resultsReader reads a report directory's records (results.jsonl.gz, or
// the plain results.jsonl of an older report) record by record, checking
// each block of lines against its checksum when the block's last line is
// read (the records of a block are returned before that: a caller that
// acts on them must undo what it did on an error).
type resultsReader struct {
	path, sumsPath string
	f              *os.File
	br             *bufio.Reader
	members        *memberReader // a gzipped file's, nil for a plain one
	legacy         bool          // no checksums: nothing to check
	chunks         []sumChunk
	ci             int // the chunk of the next line
	h              hash.Hash
	covered        int // the lines the checksums cover
	coveredSize    int64
	tail           tailMode
	tolerateTorn   bool
	tornMember     bool // a gzipped file ended in a torn member

	line int   // lines read
	size int64 // their bytes
	keep int   // Keep of an error at the last line read
	// Tail counts the lines left out after the last checksum (tailDrop),
	// Torn whether a torn last line was left out.
	Tail int
	Torn bool
}

// openReport opens dir's results for reading, in either form, with the
// checksums its manifest m says it keeps (none: a report of an older
// calcsol).
func openReport(dir string, m *Manifest, tail tailMode, tolerateTorn bool) (*resultsReader, error) {
	path, gz, err := resultsPath(dir)
	if err != nil {
		return nil, err
	}
	r := &resultsReader{path: path, tail: tail, tolerateTorn: tolerateTorn, h: sha256.New()}
	r.legacy = m.Sums == nil
	if !r.legacy {
		r.sumsPath = filepath.Join(dir, m.Sums.File)
		chunks, err := readSums(r.sumsPath)
		if err != nil {
			keep := 0
			if len(chunks) > 0 {
				keep = chunks[len(chunks)-1].Last
			}
			if errors.Is(err, os.ErrNotExist) {
				err = fmt.Errorf("%s: missing, yet %s says the records carry checksums", r.sumsPath, ManifestFile)
			}
			return nil, &CorruptError{File: r.sumsPath, Err: err, Keep: keep}
		}
		r.chunks = chunks
		if len(chunks) > 0 {
			r.covered = chunks[len(chunks)-1].Last
		}
	}
	f, err := os.Open(r.path)
	if err != nil {
		return nil, err
	}
	r.f, r.br = f, bufio.NewReaderSize(f, 1<<16)
	if gz {
		r.members = newMemberReader(f)
		r.br = bufio.NewReaderSize(r.members, 1<<16)
	}
	return r, nil
}

func (r *resultsReader) close() { r.f.Close() }

// errorAt is err at the last line read, as a *CorruptError.
func (r *resultsReader) errorAt(err error) error {
	return &CorruptError{File: r.path, Line: r.line, Err: err, Keep: r.keep}
}

// readLine reads one line with its newline, at most maxLine bytes.
func (r *resultsReader) readLine() ([]byte, error) {
	b, err := r.br.ReadSlice('\n')
	if err == bufio.ErrBufferFull {
		long := append([]byte(nil), b...)
		for err == bufio.ErrBufferFull && len(long) < maxLine {
			b, err = r.br.ReadSlice('\n')
			long = append(long, b...)
		}
		b = long
	}
	if err == errTornMember {
		r.tornMember = true
		err = io.EOF
	}
	return b, err
}

// next returns the next record and its line; io.EOF at the end.
func (r *resultsReader) next() (Record, error) {
	for {
		if !r.legacy && r.tail == tailDrop && r.line == r.covered {
			// The rest carries no checksum: count it, leave it out.
			for {
				b, err := r.readLine()
				if len(b) > 0 && err == nil {
					r.Tail++
				}
				if err != nil {
					r.Torn = len(b) > 0 || r.tornMember || err != io.EOF
					return Record{}, io.EOF
				}
			}
		}
		b, err := r.readLine()
		if err == io.EOF {
			if (len(b) > 0 || r.tornMember) && (r.legacy || r.line >= r.covered) {
				if r.tolerateTorn {
					r.Torn = true
					return Record{}, io.EOF
				}
				r.line++
				r.keep = r.keepLine()
				if len(b) == 0 {
					return Record{}, r.errorAt(errTornMember)
				}
				return Record{}, r.errorAt(errors.New("incomplete last line (a torn record)"))
			}
			if !r.legacy && r.line < r.covered {
				c := r.chunks[r.ci]
				return Record{}, &CorruptError{File: r.path, Line: r.line + 1, Keep: c.First - 1,
					Err: fmt.Errorf("ends at line %d, yet %s has checksums of lines up to %d: records were removed", r.line, r.sumsPath, r.covered)}
			}
			return Record{}, io.EOF
		}
		if err == bufio.ErrBufferFull {
			err = fmt.Errorf("a line longer than %d bytes: not a record", maxLine)
		}
		if err != nil {
			r.line++
			r.keep = r.keepLine()
			return Record{}, r.errorAt(err)
		}
		r.line++
		r.keep = r.keepLine()
		r.size += int64(len(b))
		if !r.legacy {
			if r.line <= r.covered {
				c := r.chunks[r.ci]
				r.h.Write(b)
				if r.line == c.Last {
					var sum [sha256.Size]byte
					r.h.Sum(sum[:0])
					r.h.Reset()
					if sum != c.Sum {
						return Record{}, &CorruptError{File: r.path, Line: c.First, Last: c.Last, Err: errTampered, Keep: c.First - 1}
					}
					r.ci++
					if r.line == r.covered {
						r.coveredSize = r.size
					}
				}
			} else if r.tail == tailRefuse {
				return Record{}, r.errorAt(fmt.Errorf("no checksum in %s from this line on (the run stopped before it wrote them: resume it first)", r.sumsPath))
			}
		}
		t := bytes.TrimSpace(b)
		if len(t) == 0 {
			continue
		}
		rec, err := ParseRecord(t)
		if err != nil {
			return Record{}, r.errorAt(err)
		}
		return rec, nil
	}
}

// keepLine is where a repair would truncate for an error at the current
// line: before its block, after the last block when it has none, or just
// before it without checksums.
func (r *resultsReader) keepLine() int {
	switch {
	case r.legacy:
		return r.line - 1
	case r.line <= r.covered:
		return r.chunks[r.ci].First - 1
	}
	return r.covered
}

// checkedSize is where in the file the lines read that a resumed run
// keeps end: with tailDrop, those the checksums cover. Gzipped, they must
// end at the end of a member (a *CorruptError otherwise).
func (r *resultsReader) checkedSize() (int64, error) {
	size, lines := r.size, r.line
	if !r.legacy && r.tail == tailDrop && r.line == r.covered {
		size, lines = r.coveredSize, r.covered
	}
	if r.members == nil {
		return size, nil
	}
	off, err := r.members.offset(size)
	if err != nil {
		// Repair writes the file anew, a member a block.
		return 0, &CorruptError{File: r.path, Line: lines + 1, Err: err, Keep: lines}
	}
	return off, nil
}

// Repair truncates dir's results to the lines e says are good (e.Keep) and
// its checksums to the blocks within them, so that the run can resume from
// there. A gzipped file is written anew, a member a block (a member may
// hold lines on both sides of the cut: a file gzipped by hand is one
// member). It returns the number of lines it dropped.
func Repair(dir string, e *CorruptError) (int, error) {
	path, gz, err := resultsPath(dir)
	if err != nil {
		return 0, err
	}
	sumsPath := filepath.Join(dir, SumsFile)
	chunks, _ := readSums(sumsPath)
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	var lines, dropped int
	if gz {
		tmp, err := atomicfile.Create(path)
		if err != nil {
			return 0, err
		}
		defer tmp.Abort()
		m := &memberSink{w: newRecordWriter(true, 1, nil), dst: tmp, blocks: chunks}
		if lines, dropped, err = keepLines(newMemberReader(f), e.Keep, m.add); err == nil {
			err = m.flush()
		}
		if err == nil {
			err = tmp.Commit()
		}
		if err != nil {
			return 0, err
		}
	} else {
		var size int64
		lines, dropped, _ = keepLines(f, e.Keep, func(line []byte) error { size += int64(len(line)); return nil })
		if err := os.Truncate(path, size); err != nil {
			return 0, err
		}
	}
	out := []byte(sumsHeader)
	for _, c := range chunks {
		if c.Last <= lines {
			out = c.appendLine(out)
		}
	}
	if err := atomicfile.Write(sumsPath, out); err != nil {
		return 0, err
	}
	return dropped, nil
}

// keepLines calls kept with each of the first keep lines of a results file
// (fewer if it has fewer whole lines) and returns their number and the
// number of lines after them; what cannot be read, a torn gzip member say,
// counts as one line, and ends the file.
func keepLines(r io.Reader, keep int, kept func(line []byte) error) (lines, dropped int, err error) {
	br := bufio.NewReaderSize(r, 1<<16)
	var cur []byte // the line being read
	for {
		b, rerr := br.ReadSlice('\n')
		cur = append(cur, b...)
		if rerr == bufio.ErrBufferFull {
			continue // a long line: its rest follows
		}
		if len(cur) > 0 && lines < keep && rerr == nil {
			if err := kept(cur); err != nil {
				return lines, dropped, err
			}
			lines++
		} else if len(cur) > 0 || rerr != nil && rerr != io.EOF {
			dropped++
		}
		cur = cur[:0]
		if rerr != nil {
			return lines, dropped, nil
		}
	}
}

// memberSink gzips lines into dst a member a block of blocks; flush, at
// the end, makes the lines after the last block one more member.
type memberSink struct {
	w      *recordWriter
	dst    io.Writer
	blocks []sumChunk
	line   int
}

func (m *memberSink) add(line []byte) error {
	m.w.block = append(m.w.block, line...)
	m.line++
	if len(m.blocks) > 0 && m.line == m.blocks[0].Last {
		m.blocks = m.blocks[1:]
		return m.flush()
	}
	return nil
}

func (m *memberSink) flush() error {
	if err := m.w.member(); err != nil {
		return err
	}
	return m.w.writeData(m.dst)
}

// SumsOf is the results.sha256 a run writes for the results.jsonl lines
// results (whole lines): for records restored from a copy that was checked
// otherwise (the kept measurements, checked against their SHA-256).
func SumsOf(results []byte) []byte {
	out := []byte(sumsHeader)
	s := newSummer(1)
	for len(results) > 0 {
		i := bytes.IndexByte(results, '\n') + 1
		if i == 0 {
			i = len(results)
		}
		out = s.add(results[:i], out)
		results = results[i:]
	}
	return s.flush(out)
}

// Unchecked returns those of the report directories dirs whose manifest
// says their records carry no checksums (reports of an older calcsol):
// their records are read as they are, and an edit of them goes unseen.
func Unchecked(dirs ...string) []string {
	var out []string
	for _, d := range dirs {
		if m, err := ReadManifest(d); err == nil && m.Sums == nil {
			out = append(out, d)
		}
	}
	return out
}
