package tournament

import (
	"bufio"
	"cmp"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/calcsol/calcsol/tournament/stats"
)

// RunID says who played what under which rules: the identity every record of
// a single-strategy run (`calcsol eval --out`) carries.
type RunID struct {
	Strategy  string
	Corpus    string
	CorpusSHA string
	Rules     string // a Variant key: "3-base"
}

// Paired reports whether two runs can be compared deck by deck: the same
// corpus (by checksum) under the same rules. The error says why not.
func (a RunID) Paired(b RunID) error {
	switch {
	case a.CorpusSHA != b.CorpusSHA:
		return fmt.Errorf("the runs played different corpora (%s, sha256 %.12s…; %s, sha256 %.12s…): their decks cannot be paired", a.Corpus, a.CorpusSHA, b.Corpus, b.CorpusSHA)
	case a.Rules != b.Rules:
		return fmt.Errorf("the runs played different rules (%s; %s): a deck-by-deck comparison would mix rule variants", a.Rules, b.Rules)
	}
	return nil
}

// WriteJSONL writes one record (Record, the tournament's format) per result,
// in the order given, each carrying id.
func WriteJSONL(w io.Writer, id RunID, results []DeckResult) error {
	bw := bufio.NewWriter(w)
	var buf []byte
	for _, r := range results {
		rec := Record{V: RecordVersion, Strategy: id.Strategy, Corpus: id.Corpus, CorpusSHA: id.CorpusSHA, Rules: id.Rules,
			Deck: r.Deck, Won: r.Won, Placed: r.Placed, Failed: r.Failed, End: r.Reason}
		if r.Failed && rec.End == "" {
			rec.End = "failed"
		}
		buf = rec.AppendJSON(buf[:0])
		if _, err := bw.Write(buf); err != nil {
			return fmt.Errorf("write results: deck %d: %w", r.Deck, err)
		}
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("write results: %w", err)
	}
	return nil
}

// ReadJSONL reads the records of one run written by WriteJSONL: every record
// of the same strategy, corpus and rules, in increasing deck order — 0, 1,
// 2, … for a whole corpus, or a tournament shard's decks (0, 30, 60, … in
// its records). Errors name the line: "results line 3: deck 5 after
// deck 7".
func ReadJSONL(r io.Reader) (RunID, []DeckResult, error) {
	id, out, err := readJSONL(r, false)
	if err == nil && len(out) == 0 {
		err = errors.New("no records")
	}
	return id, out, err
}

// readJSONL is ReadJSONL, leaving out a torn last line (no newline yet: a
// shard being played) if tolerateTorn.
func readJSONL(r io.Reader, tolerateTorn bool) (RunID, []DeckResult, error) {
	var c runCollector
	_, err := ReadRecords(r, tolerateTorn, c.add)
	return c.id, c.out, err
}

// readReportRun is readJSONL for a report directory's results, checked
// against their checksums as far as those go (a shard being played
// checksums a block once it is written); a torn last line or gzip member
// is left out.
func readReportRun(dir string) (RunID, []DeckResult, error) {
	m, err := ReadManifest(dir)
	if errors.Is(err, os.ErrNotExist) {
		m, err = Manifest{}, nil // results alone, unchecked
	}
	if err != nil {
		return RunID{}, nil, err
	}
	rr, err := openReport(dir, &m, tailKeep, true)
	if err != nil {
		return RunID{}, nil, err
	}
	defer rr.close()
	var c runCollector
	for {
		rec, err := rr.next()
		if err == io.EOF {
			return c.id, c.out, nil
		}
		if err == nil {
			err = c.add(rr.line, rec)
		}
		if err != nil {
			return c.id, c.out, err
		}
	}
}

// runCollector gathers the records of one run, checking that they are of
// one strategy, corpus and rules, in increasing deck order.
type runCollector struct {
	id  RunID
	out []DeckResult
}

func (c *runCollector) add(line int, rec Record) error {
	rid := RunID{rec.Strategy, rec.Corpus, rec.CorpusSHA, rec.Rules}
	if len(c.out) == 0 {
		c.id = rid
	} else if rid != c.id {
		return fmt.Errorf("results line %d: a record of %s on %s under %s among records of %s on %s under %s",
			line, rid.Strategy, rid.Corpus, rid.Rules, c.id.Strategy, c.id.Corpus, c.id.Rules)
	}
	if n := len(c.out); n > 0 && rec.Deck <= c.out[n-1].Deck {
		return fmt.Errorf("results line %d: deck %d after deck %d (records must be in increasing deck order)", line, rec.Deck, c.out[n-1].Deck)
	}
	c.out = append(c.out, DeckResult{Deck: rec.Deck, Won: rec.Won, Placed: rec.Placed, Failed: rec.Failed, Reason: rec.End})
	return nil
}

// ReadResults reads the records of one run from paths, each a file written by
// WriteJSONL (plain or gzipped) or a report directory (its
// results.jsonl.gz or results.jsonl, whose torn end, if any, is left out:
// a shard being played): one file, or the
// shards of a tournament, finished or not. Every file must hold records of
// the same strategy, corpus and rules; the records are joined in deck
// order, and a deck recorded twice is refused. A report directory with no
// records yet is passed over; a file with none is refused. Errors name the
// file.
func ReadResults(paths ...string) (RunID, []DeckResult, error) {
	if len(paths) == 0 {
		return RunID{}, nil, errors.New("no records: no file given")
	}
	var id RunID
	var all []DeckResult
	first := ""              // the first file with records, whose RunID is id
	from := map[int]string{} // the file that recorded each deck
	for _, path := range paths {
		dir := false
		var fid RunID
		var res []DeckResult
		if fi, err := os.Stat(path); err == nil && fi.IsDir() {
			dir = true
			if fid, res, err = readReportRun(path); err != nil {
				return RunID{}, nil, fmt.Errorf("%s: %w", path, err)
			}
			if p, err := ResultsPath(path); err == nil {
				path = p
			}
		} else {
			f, err := openRecords(path)
			if err != nil {
				return RunID{}, nil, err
			}
			fid, res, err = readJSONL(f, false)
			f.Close()
			if err != nil {
				return RunID{}, nil, fmt.Errorf("%s: %w", path, err)
			}
		}
		if len(res) == 0 {
			if dir {
				continue // a shard that has recorded nothing yet
			}
			return RunID{}, nil, fmt.Errorf("%s: no records", path)
		}
		if first == "" {
			id, first = fid, path
		} else if fid != id {
			return RunID{}, nil, fmt.Errorf("%s: records of %s on %s under %s, but %s holds records of %s on %s under %s: not one run",
				path, fid.Strategy, fid.Corpus, fid.Rules, first, id.Strategy, id.Corpus, id.Rules)
		}
		for _, r := range res {
			if prev, ok := from[r.Deck]; ok {
				return RunID{}, nil, fmt.Errorf("%s: deck %d is recorded in %s too", path, r.Deck, prev)
			}
			from[r.Deck] = path
		}
		all = append(all, res...)
	}
	if len(all) == 0 {
		return RunID{}, nil, fmt.Errorf("%s: no records", strings.Join(paths, ","))
	}
	slices.SortFunc(all, func(a, b DeckResult) int { return cmp.Compare(a.Deck, b.Deck) })
	return id, all, nil
}

// DeckMismatchError says that two runs to be paired recorded different
// decks: how many each recorded and how many both did.
type DeckMismatchError struct{ A, B, Both int }

func (e *DeckMismatchError) Error() string {
	return fmt.Sprintf("the runs cover different decks (%d and %d, %d recorded by both)", e.A, e.B, e.Both)
}

// Comparison is two runs compared deck by deck (CompareRuns).
type Comparison struct {
	IDs [2]RunID
	// Runs are the records of the decks compared, in deck order: the same
	// decks in both.
	Runs [2][]DeckResult
	// LeftOut counts the decks only one run recorded, left out of the
	// comparison (only when asked for: CompareRuns' common).
	LeftOut [2]int
	stats.Paired
	// Diff is the rate of A minus the rate of B on the decks compared, with
	// its 95 % interval (stats.PairedDiff).
	Diff, DiffLo, DiffHi float64
	// Estimate, when one run recorded only a sample of the other's decks,
	// estimates its rate on all of them (nil otherwise).
	Estimate *Extrapolation
}

// Extrapolation is a run's estimated win rate on all the decks another run
// recorded, from the sample of them both recorded (stats.DifferenceEstimate): the
// shards of a long run played so far, against a finished run of another
// strategy on the same corpus.
type Extrapolation struct {
	Run    int // the run estimated: 0 for A, 1 for B
	Decks  int // the decks the other run recorded, the population
	Sample int // the decks both recorded
	// Rate is the estimate, with its 95 % interval.
	Rate, Lo, Hi float64
}

// CompareRuns reads two runs (ReadResults: each one or more files or report
// directories) and compares them deck by deck (Compare), refusing runs on
// different corpora or rules (RunID.Paired). The runs must cover the same
// decks (a *DeckMismatchError otherwise) unless common, which compares them
// on the decks both recorded and counts the others as left out (the shards
// of a sharded run still being played, say); with no deck in common the
// comparison is refused either way. When one run's decks are a sample of
// the other's, its rate on all of them is estimated too (Extrapolation).
func CompareRuns(a, b []string, common bool) (Comparison, error) {
	var c Comparison
	for i, paths := range [][]string{a, b} {
		var err error
		if c.IDs[i], c.Runs[i], err = ReadResults(paths...); err != nil {
			return c, err
		}
	}
	if err := c.IDs[0].Paired(c.IDs[1]); err != nil {
		return c, fmt.Errorf("compare %s %s: %w", strings.Join(a, ","), strings.Join(b, ","), err)
	}
	ca, cb := Common(c.Runs[0], c.Runs[1])
	if len(ca) == 0 || (!common && (len(ca) != len(c.Runs[0]) || len(cb) != len(c.Runs[1]))) {
		return c, &DeckMismatchError{A: len(c.Runs[0]), B: len(c.Runs[1]), Both: len(ca)}
	}
	c.LeftOut = [2]int{len(c.Runs[0]) - len(ca), len(c.Runs[1]) - len(cb)}
	all := c.Runs
	c.Runs = [2][]DeckResult{ca, cb}
	var err error
	if c.Paired, err = Compare(ca, cb); err != nil {
		return c, err
	}
	c.Diff, c.DiffLo, c.DiffHi = stats.PairedDiff(c.Both, c.OnlyA, c.OnlyB, c.Neither)
	c.Estimate = extrapolate(c.Paired, c.LeftOut, all)
	return c, nil
}

// extrapolate estimates the rate of the run whose decks are a sample of the
// other's (leftOut 0 for it, not for the other) on all the other's decks
// (all: each run's records), when the sample is large enough
// (stats.MinEstimateSample); nil otherwise.
func extrapolate(p stats.Paired, leftOut [2]int, all [2][]DeckResult) *Extrapolation {
	run := -1
	switch {
	case leftOut[1] == 0 && leftOut[0] > 0:
		run = 1
	case leftOut[0] == 0 && leftOut[1] > 0:
		run = 0
		p.OnlyA, p.OnlyB = p.OnlyB, p.OnlyA // B is now the run estimated
	}
	if run < 0 || p.Games < stats.MinEstimateSample {
		return nil
	}
	known := all[1-run]
	e := &Extrapolation{Run: run, Decks: len(known), Sample: p.Games}
	e.Rate, e.Lo, e.Hi = stats.DifferenceEstimate(Summarize(known, 0).Wins, len(known), p)
	return e
}

// Common returns the records of the decks both a and b recorded, in deck
// order; a and b must be in increasing deck order (as ReadResults gives them).
func Common(a, b []DeckResult) (ca, cb []DeckResult) {
	for i, j := 0, 0; i < len(a) && j < len(b); {
		switch {
		case a[i].Deck < b[j].Deck:
			i++
		case a[i].Deck > b[j].Deck:
			j++
		default:
			ca, cb = append(ca, a[i]), append(cb, b[j])
			i++
			j++
		}
	}
	return ca, cb
}
