package tournament

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
)

// CompressedResultsFile is where a report directory keeps its records: the
// lines of results.jsonl, gzipped a checksum block at a time. Each block of
// SumBlock lines is one gzip member, written whole once the block is
// complete (a sitting's last block when the sitting ends), so that the file
// always ends at the end of a block, unless a crash tore the last write;
// `zcat results.jsonl.gz` gives the lines, and the checksums of
// results.sha256 are those of the lines, as for results.jsonl. A report of
// an older calcsol, or one expanded from the kept measurements, has a plain
// results.jsonl instead: readers take either.
const CompressedResultsFile = "results.jsonl.gz"

// ResultsPath is the file that holds the records of report directory dir:
// its results.jsonl.gz, or its results.jsonl (the plain form), whichever
// it has; results.jsonl.gz when it has neither yet. A directory with both is
// an error: which one holds the run is unclear.
func ResultsPath(dir string) (string, error) {
	path, _, err := resultsPath(dir)
	return path, err
}

// HasResults reports whether dir holds a run's records, in either form.
func HasResults(dir string) bool {
	for _, name := range []string{CompressedResultsFile, ResultsFile} {
		if _, err := os.Stat(filepath.Join(dir, name)); err == nil {
			return true
		}
	}
	return false
}

// resultsPath is ResultsPath, and whether the file is compressed.
func resultsPath(dir string) (string, bool, error) {
	gz, plain := filepath.Join(dir, CompressedResultsFile), filepath.Join(dir, ResultsFile)
	_, gerr := os.Stat(gz)
	_, perr := os.Stat(plain)
	switch {
	case gerr == nil && perr == nil:
		return "", false, fmt.Errorf("report %s holds both %s and %s: not one run's records (move one away)", dir, CompressedResultsFile, ResultsFile)
	case perr == nil:
		return plain, false, nil
	}
	return gz, true, nil
}

// ReadResultsData returns the lines of dir's records as they were written,
// decompressed when they are (the form measurements keep and checksum).
func ReadResultsData(dir string) ([]byte, error) {
	path, err := ResultsPath(dir)
	if err != nil {
		return nil, err
	}
	f, err := openRecords(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return b, nil
}

// openRecords opens a file of records, gzipped (it starts with gzip's magic
// number) or plain, for reading its lines.
func openRecords(path string) (io.ReadCloser, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	br := bufio.NewReaderSize(f, 1<<16)
	if magic, _ := br.Peek(2); bytes.Equal(magic, []byte{0x1f, 0x8b}) {
		return struct {
			io.Reader
			io.Closer
		}{newMemberReader(br), f}, nil
	}
	return struct {
		io.Reader
		io.Closer
	}{br, f}, nil
}

// errTornMember ends the lines of a gzipped results file whose last member
// is incomplete: a run killed, or a machine that went down, while it was
// written.
var errTornMember = errors.New("incomplete last gzip member (a torn write)")

// memberReader reads the lines of a gzipped results file. It hands out a
// member's lines only once the whole member is read and its CRC checked, so
// that a torn last member is never half read (it ends with errTornMember
// instead), and it knows where each member ends, in the lines and in the
// file: where a file that continues is cut.
type memberReader struct {
	n    int64 // bytes read from the file
	src  io.Reader
	br   *bufio.Reader
	zr   *gzip.Reader
	buf  bytes.Buffer
	out  []byte // what is left to hand out of the last member read
	ends []memberEnd
	err  error
}

// memberEnd is where a member ends: Plain bytes of lines, Comp of the file.
type memberEnd struct{ Plain, Comp int64 }

func newMemberReader(r io.Reader) *memberReader {
	m := &memberReader{src: r}
	m.br = bufio.NewReaderSize(countingReader{m}, 1<<16)
	return m
}

type countingReader struct{ m *memberReader }

func (c countingReader) Read(p []byte) (int, error) {
	n, err := c.m.src.Read(p)
	c.m.n += int64(n)
	return n, err
}

// Read implements io.Reader.
func (m *memberReader) Read(p []byte) (int, error) {
	for len(m.out) == 0 {
		if m.err != nil {
			return 0, m.err
		}
		m.out, m.err = m.member()
	}
	n := copy(p, m.out)
	m.out = m.out[n:]
	return n, nil
}

// member reads the next member whole: io.EOF after the last one,
// errTornMember for a torn one.
func (m *memberReader) member() ([]byte, error) {
	at := m.n - int64(m.br.Buffered())
	var err error
	if m.zr == nil {
		m.zr, err = gzip.NewReader(m.br)
	} else {
		err = m.zr.Reset(m.br)
	}
	if err == nil {
		m.zr.Multistream(false)
		m.buf.Reset()
		_, err = m.buf.ReadFrom(m.zr)
	}
	switch {
	case err == io.EOF:
		return nil, io.EOF // nothing after the last member
	case errors.Is(err, io.ErrUnexpectedEOF):
		return nil, errTornMember
	case err != nil:
		return nil, fmt.Errorf("gzip member at byte %d: %w", at, err)
	}
	var plain int64
	if len(m.ends) > 0 {
		plain = m.ends[len(m.ends)-1].Plain
	}
	m.ends = append(m.ends, memberEnd{plain + int64(m.buf.Len()), m.n - int64(m.br.Buffered())})
	return m.buf.Bytes(), nil
}

// offset is where in the file the lines up to plain bytes end: the end of
// a member (a block), or an error if no member ends there.
func (m *memberReader) offset(plain int64) (int64, error) {
	if plain == 0 {
		return 0, nil
	}
	i := sort.Search(len(m.ends), func(i int) bool { return m.ends[i].Plain >= plain })
	if i == len(m.ends) || m.ends[i].Plain != plain {
		return 0, fmt.Errorf("no gzip member ends after byte %d of the records: not a file calcsol wrote a block at a time", plain)
	}
	return m.ends[i].Comp, nil
}

// recordWriter writes record lines in a results file's form and checksums
// them a block at a time: plain, the lines as they come; compressed, each
// block as one gzip member once the block is complete (CompressedResultsFile).
// The caller writes Data to the file, then appends Sums to the checksums,
// in that order, so that a checksum never precedes its lines.
type recordWriter struct {
	gz    bool
	zw    *gzip.Writer
	block []byte // compressed: the lines of the open block
	sum   *summer
	Data  bytes.Buffer
	Sums  []byte
}

// newRecordWriter starts with the block whose first line is next; sums is
// what Sums starts with.
func newRecordWriter(gz bool, next int, sums []byte) *recordWriter {
	w := &recordWriter{gz: gz, sum: newSummer(next), Sums: sums}
	if gz {
		w.zw, _ = gzip.NewWriterLevel(&w.Data, gzip.DefaultCompression)
	}
	return w
}

// add adds one line, with its newline.
func (w *recordWriter) add(line []byte) error {
	if !w.gz {
		w.Data.Write(line)
		w.Sums = w.sum.add(line, w.Sums)
		return nil
	}
	w.block = append(w.block, line...)
	n := len(w.Sums)
	if w.Sums = w.sum.add(line, w.Sums); len(w.Sums) > n {
		return w.member()
	}
	return nil
}

// closeBlock closes the open block (the last of a sitting or a file).
func (w *recordWriter) closeBlock() error {
	w.Sums = w.sum.flush(w.Sums)
	if w.gz {
		return w.member()
	}
	return nil
}

// member compresses the block's lines as one member into Data.
func (w *recordWriter) member() error {
	if len(w.block) == 0 {
		return nil
	}
	w.zw.Reset(&w.Data)
	if _, err := w.zw.Write(w.block); err != nil {
		return err
	}
	w.block = w.block[:0]
	return w.zw.Close()
}

// writeData writes Data to dst and empties it.
func (w *recordWriter) writeData(dst io.Writer) error {
	_, err := dst.Write(w.Data.Bytes())
	w.Data.Reset()
	return err
}
