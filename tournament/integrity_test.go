package tournament

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/calcsol/calcsol/solver"
)

var usField = regexp.MustCompile(`,"us":[0-9.]+`)

// readRecordLines is the lines of dir's records, timing fields removed.
func readRecordLines(t *testing.T, dir string) string {
	t.Helper()
	b, err := ReadResultsData(dir)
	if err != nil {
		t.Fatal(err)
	}
	return usField.ReplaceAllString(string(b), "")
}

// writeRecordLines writes lines as dir's records, in the form dir has
// them: gzipped a block a member, as a run writes them, or plain.
func writeRecordLines(t *testing.T, dir string, lines string) {
	t.Helper()
	path, gz, err := resultsPath(dir)
	if err != nil {
		t.Fatal(err)
	}
	w := newRecordWriter(gz, 1, nil)
	for _, l := range strings.SplitAfter(lines, "\n") {
		if l != "" {
			w.add([]byte(l))
		}
	}
	w.closeBlock()
	if err := os.WriteFile(path, w.Data.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// plainReport turns dir's records into the plain results.jsonl of a
// report of an older calcsol.
func plainReport(t *testing.T, dir string) {
	t.Helper()
	b, err := ReadResultsData(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ResultsFile), b, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(dir, CompressedResultsFile)); err != nil {
		t.Fatal(err)
	}
}

// runDir plays tn into a new report directory and returns it.
func runDir(t *testing.T, tn *Tournament, config []byte) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "report")
	s, err := tn.Open(SessionOptions{Config: config, Dir: dir, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.Play(context.Background()); err != nil {
		t.Fatal(err)
	}
	return dir
}

// copyReport copies the files of a report directory.
func copyReport(t *testing.T, from string) string {
	t.Helper()
	to := filepath.Join(t.TempDir(), "copy")
	os.Mkdir(to, 0o755)
	entries, _ := os.ReadDir(from)
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(from, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(to, e.Name()), b, 0o644)
	}
	return to
}

// editFile rewrites dir/name through f; ResultsFile names the lines of
// the records, in either form.
func editFile(t *testing.T, dir, name string, f func(string) string) {
	t.Helper()
	if name == ResultsFile {
		b, err := ReadResultsData(dir)
		if err != nil {
			t.Fatal(err)
		}
		writeRecordLines(t, dir, f(string(b)))
		return
	}
	path := filepath.Join(dir, name)
	b, err := os.ReadFile(path)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	out := f(string(b))
	if out == "\x00remove" {
		os.Remove(path)
		return
	}
	if err := os.WriteFile(path, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
}

// editLine applies f to line n (1-based) of s.
func editLine(n int, f func(string) string) func(string) string {
	return func(s string) string {
		lines := strings.SplitAfter(s, "\n")
		lines[n-1] = f(lines[n-1])
		return strings.Join(lines, "")
	}
}

// A report's records are checksummed a block at a time: a record forged
// after the run (a left-behind child making a strategy win), a torn line
// or gzip member, records removed or checksums missing are refused by
// --resume with the file and the line or block; --repair truncates to the
// last good block, says what it drops, and the run resumed to its end has
// exactly the records of the run as played. Checksums the run was killed
// before writing leave their records to be played again. All this holds
// for the gzipped records a run writes and for the plain results.jsonl of
// an older calcsol's report.
func TestRecordChecksums(t *testing.T) {
	tn, err := New(context.Background(), testPlan(t, 120), 42)
	if err != nil {
		t.Fatal(err)
	}
	config := []byte("the config\n")
	played := runDir(t, tn, config)
	want := readRecordLines(t, played)
	games := strings.Count(want, "\n")
	if games <= 2*SumBlock {
		t.Fatalf("%d games: too few for three blocks", games)
	}
	lastBlock := games - games%SumBlock + 1
	gz := func(f func([]byte) []byte) func(string) string {
		return func(s string) string { return string(f([]byte(s))) }
	}
	tests := []struct {
		name    string
		file    string
		edit    func(string) string
		err     string // "" for a run that resumes as it is; FILE is the records'
		keep    int    // the lines --repair keeps
		log     string
		only    string // the one form of records the case is for
		dropSum bool   // the last checksum is removed too
	}{
		{name: "intact", file: ResultsFile, edit: func(s string) string { return s },
			log: "resuming: 600 of 600 games recorded; playing the other 0\n"},
		{name: "forged win", file: ResultsFile, edit: editLine(300, func(l string) string {
			l = regexp.MustCompile(`"won":false,"placed":\d+`).ReplaceAllString(l, `"won":true,"placed":52`)
			return regexp.MustCompile(`,"end":"[^"]*"`).ReplaceAllString(l, `,"end":"won"`)
		}), err: "FILE:257-512: checksum mismatch: a record here was changed", keep: 256},
		{name: "torn line", file: ResultsFile, edit: editLine(100, func(l string) string { return l[:len(l)/2] + "\n" }),
			err: "FILE:100: unexpected EOF", keep: 0},
		{name: "junk line too long", file: ResultsFile, edit: editLine(10, func(string) string { return strings.Repeat("x", 2<<20) + "\n" }),
			err: "FILE:10: a line longer than 1048576 bytes", keep: 0},
		{name: "line removed", file: ResultsFile, edit: func(s string) string { return s[:strings.LastIndex(s[:len(s)-1], "\n")+1] },
			err: "records were removed", keep: lastBlock - 1},
		{name: "junk appended after the last checksum", file: ResultsFile, only: ResultsFile, edit: func(s string) string { return s + "junk\n" },
			log: "resuming: the last 1 records carry no checksum"},
		{name: "junk member appended after the last checksum", file: CompressedResultsFile, only: CompressedResultsFile,
			edit: gz(func(b []byte) []byte {
				w := newRecordWriter(true, 1, nil)
				w.add([]byte("junk\n"))
				w.closeBlock()
				return append(b, w.Data.Bytes()...)
			}), log: "resuming: the last 1 records carry no checksum"},
		{name: "checksums missing", file: SumsFile, edit: func(string) string { return "\x00remove" },
			err: "results.sha256: missing", keep: 0},
		{name: "checksum line garbled", file: SumsFile, edit: editLine(3, func(string) string { return "257-512 xyz\n" }),
			err: "results.sha256:3: \"257-512 xyz\"", keep: 256},
		{name: "last checksum never written", file: SumsFile, edit: func(s string) string { return s[:strings.LastIndex(s[:len(s)-1], "\n")+1] },
			log: "resuming: the last " + itoa(games-lastBlock+1) + " records carry no checksum"},
		// A machine that went down while the last block was written: part
		// of its member, and no checksum.
		{name: "torn last member", file: CompressedResultsFile, only: CompressedResultsFile, dropSum: true, edit: gz(func(b []byte) []byte { return b[:len(b)-20] }),
			log: "resuming: 512 of 600 games recorded"},
		{name: "torn member with its checksum", file: CompressedResultsFile, only: CompressedResultsFile, edit: gz(func(b []byte) []byte { return b[:len(b)-20] }),
			err: "records were removed", keep: lastBlock - 1},
		// gzip(1) makes one member of the whole: read as it is, but the
		// lines after the last checksum cannot be cut off alone.
		{name: "gzipped by hand", file: CompressedResultsFile, only: CompressedResultsFile, edit: gz(oneMember),
			log: "resuming: 600 of 600 games recorded"},
		{name: "gzipped by hand, last checksum never written", file: CompressedResultsFile, only: CompressedResultsFile, dropSum: true,
			edit: gz(oneMember), err: "FILE:513: no gzip member ends after byte", keep: 512},
		{name: "member garbled", file: CompressedResultsFile, only: CompressedResultsFile, edit: gz(func(b []byte) []byte {
			i := bytes.Index(b[1:], []byte{0x1f, 0x8b}) + 1 // the second member
			b[i+40] ^= 0xff
			return b
		}), err: "FILE:257: gzip member at byte", keep: 256},
	}
	for _, tc := range tests {
		for _, form := range []string{CompressedResultsFile, ResultsFile} {
			for _, repair := range []bool{false, true} {
				if tc.only != "" && form != tc.only {
					continue
				}
				name := tc.name + ", " + form
				if repair {
					name += ", --repair"
				}
				wantErr := strings.ReplaceAll(tc.err, "FILE", form)
				t.Run(name, func(t *testing.T) {
					dir := copyReport(t, played)
					if form == ResultsFile {
						plainReport(t, dir)
					}
					if tc.dropSum {
						editFile(t, dir, SumsFile, func(s string) string { return s[:strings.LastIndex(s[:len(s)-1], "\n")+1] })
					}
					editFile(t, dir, tc.file, tc.edit)
					m, text, err := ReadRun(dir)
					if err != nil {
						t.Fatal(err)
					}
					var log bytes.Buffer
					s, err := tn.Open(SessionOptions{Config: text, Dir: dir, Resume: &m, Workers: 2, Log: &log, Repair: repair})
					if wantErr != "" && !repair {
						var ce *CorruptError
						if !errors.As(err, &ce) || !strings.Contains(err.Error(), wantErr) || ce.Keep != tc.keep {
							t.Fatalf("error %v (keep %d), want a CorruptError containing %q, keep %d", err, keepOf(ce), wantErr, tc.keep)
						}
						if !strings.Contains(err.Error(), "--repair keeps "+linesUpTo(tc.keep)+",") {
							t.Errorf("error %v does not say what --repair would keep", err)
						}
						return
					}
					if err != nil {
						t.Fatal(err)
					}
					defer s.Close()
					if _, err := s.Play(context.Background()); err != nil {
						t.Fatal(err)
					}
					if wantErr != "" && !strings.Contains(log.String(), "repair: keeping "+linesUpTo(tc.keep)+" of "+filepath.Join(dir, form)) {
						t.Errorf("log %q does not say what the repair kept", log.String())
					}
					if tc.log != "" && !strings.Contains(log.String(), tc.log) {
						t.Errorf("log %q, want %q", log.String(), tc.log)
					}
					if got := readRecordLines(t, dir); got != want {
						t.Errorf("the resumed run's records differ from the run's as played")
					}
					if _, err := os.Stat(filepath.Join(dir, form)); err != nil {
						t.Errorf("the resumed run left its records in another form: %v", err)
					}
					// What is left checks out whole.
					if _, err := BaselineFromReport(dir); err != nil {
						t.Errorf("after the resume: %v", err)
					}
				})
			}
		}
	}
}

// oneMember is gzipped records gzipped anew as one member.
func oneMember(b []byte) []byte {
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		panic(err)
	}
	lines, err := io.ReadAll(zr)
	if err != nil {
		panic(err)
	}
	var out bytes.Buffer
	zw := gzip.NewWriter(&out)
	zw.Write(lines)
	zw.Close()
	return out.Bytes()
}

func keepOf(e *CorruptError) int {
	if e == nil {
		return -1
	}
	return e.Keep
}

func itoa(n int) string { return strconv.Itoa(n) }

// flaky fails every game in which it sees a king drawn while broken is set:
// a strategy that crashed for a while.
type flaky struct{ broken *atomic.Bool }

func (f flaky) Choose(p solver.View) (solver.Move, error) {
	if f.broken.Load() && p.Drawn() == solver.Rank(solver.NumRanks) {
		return solver.Move{}, errors.New("crashed")
	}
	return greedy{}.Choose(p)
}

// --retry-failed plays the games recorded as failed again and puts the new
// records in their place: the strategy mended, the records and the tally
// are those of a run that never failed.
func TestRetryFailed(t *testing.T) {
	var broken atomic.Bool
	plan := testPlan(t, 60)
	plan.Entrants = append(plan.Entrants, Entrant{Name: "flaky", Strategy: fromChooser(func() solver.Chooser { return flaky{&broken} })})
	tn, err := New(context.Background(), plan, 42)
	if err != nil {
		t.Fatal(err)
	}
	config := []byte("c\n")
	clean := readRecordLines(t, runDir(t, tn, config))
	broken.Store(true)
	dir := runDir(t, tn, config)
	failed := strings.Count(readRecordLines(t, dir), `"failed":true`)
	if failed == 0 {
		t.Fatal("no game failed")
	}
	broken.Store(false)
	for _, retry := range []bool{false, true} {
		m, text, err := ReadRun(dir)
		if err != nil {
			t.Fatal(err)
		}
		var log bytes.Buffer
		s, err := tn.Open(SessionOptions{Config: text, Dir: dir, Resume: &m, Workers: 2, Log: &log, RetryFailed: retry})
		if err != nil {
			t.Fatal(err)
		}
		rep, err := s.Play(context.Background())
		s.Close()
		if err != nil {
			t.Fatal(err)
		}
		failures := 0
		for _, r := range rep.Rows {
			failures += r.Failures
		}
		got := readRecordLines(t, dir)
		switch {
		case !retry && (failures != failed || got == clean):
			t.Errorf("a plain resume: %d failures, want the %d recorded", failures, failed)
		case retry && (failures != 0 || got != clean):
			t.Errorf("retried: %d failures, records as a clean run's: %t; want 0 and true", failures, got == clean)
		case retry && !strings.Contains(log.String(), "retrying: "+itoa(failed)+" games recorded as failed\n") ||
			retry && !strings.Contains(log.String(), "0 of them failed again"):
			t.Errorf("log %q", log.String())
		}
	}
}

// A sums file parses to contiguous blocks from line 1, and what it parses
// to is written back as the same lines (a round trip); bad lines are
// errors that name the file and line, never a panic.
func FuzzSums(f *testing.F) {
	f.Add([]byte(sumsHeader + "1-256 3792f8fb65dc8a6ee25768c953dc7768dd5b8b9869861d6a02ecee103a739f65\n"))
	f.Add([]byte("1-2 " + strings.Repeat("ab", 32) + "\n3-3 " + strings.Repeat("00", 32) + "\n4-9 torn"))
	f.Add([]byte("2-3 " + strings.Repeat("ab", 32) + "\n"))
	f.Add([]byte("1-0 x\n\n#\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(t.TempDir(), SumsFile)
		os.WriteFile(path, data, 0o644)
		chunks, err := readSums(path)
		if err != nil && !strings.HasPrefix(err.Error(), path+":") {
			t.Fatalf("error %q does not name the file and line", err)
		}
		next := 1
		var out []byte
		for _, c := range chunks {
			if c.First != next || c.Last < c.First {
				t.Fatalf("blocks not contiguous from line 1: %+v", chunks)
			}
			next = c.Last + 1
			out = c.appendLine(out)
		}
		if err != nil {
			return
		}
		os.WriteFile(path, out, 0o644)
		again, err := readSums(path)
		if err != nil || len(again) != len(chunks) {
			t.Fatalf("round trip: %v, %d blocks of %d", err, len(again), len(chunks))
		}
		for i := range again {
			if again[i] != chunks[i] {
				t.Fatalf("round trip: block %d is %+v, was %+v", i, again[i], chunks[i])
			}
		}
	})
}

// The cost of checksumming one record as Results.Write does, next to a
// game of the cheapest strategy (a few µs): go test -bench RecordSum.
func BenchmarkRecordSum(b *testing.B) {
	rec := Record{V: RecordVersion, Strategy: "priority", Corpus: "uniform-30000", CorpusSHA: strings.Repeat("36cb8dc6", 8),
		Rules: "3-base", Deck: 12345, Placed: 17, End: "stuck: no operation for 7", Micros: 3.52}
	line := rec.AppendJSON(nil)
	s := newSummer(1)
	var out []byte
	b.SetBytes(int64(len(line)))
	b.ReportAllocs()
	for b.Loop() {
		out = s.add(line, out[:0])
	}
}

// SumsOf gives the checksums a run writes for its records.
func TestSumsOf(t *testing.T) {
	tn, err := New(context.Background(), testPlan(t, 120), 42)
	if err != nil {
		t.Fatal(err)
	}
	dir := runDir(t, tn, []byte("c\n"))
	res, _ := ReadResultsData(dir)
	sums, _ := os.ReadFile(filepath.Join(dir, SumsFile))
	if got := SumsOf(res); string(got) != string(sums) {
		t.Errorf("SumsOf:\n%s\nthe run wrote:\n%s", got, sums)
	}
}
