package tournament

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
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
// its results.jsonl). Errors name the line: "results line 3: deck 5 after
// deck 7".
func ReadJSONL(r io.Reader) (RunID, []DeckResult, error) {
	var id RunID
	var out []DeckResult
	_, err := ReadRecords(r, false, func(line int, rec Record) error {
		rid := RunID{rec.Strategy, rec.Corpus, rec.CorpusSHA, rec.Rules}
		if len(out) == 0 {
			id = rid
		} else if rid != id {
			return fmt.Errorf("results line %d: a record of %s on %s under %s among records of %s on %s under %s",
				line, rid.Strategy, rid.Corpus, rid.Rules, id.Strategy, id.Corpus, id.Rules)
		}
		if n := len(out); n > 0 && rec.Deck <= out[n-1].Deck {
			return fmt.Errorf("results line %d: deck %d after deck %d (records must be in increasing deck order)", line, rec.Deck, out[n-1].Deck)
		}
		out = append(out, DeckResult{Deck: rec.Deck, Won: rec.Won, Placed: rec.Placed, Failed: rec.Failed, Reason: rec.End})
		return nil
	})
	if err == nil && len(out) == 0 {
		err = errors.New("no records")
	}
	return id, out, err
}

// CompareFiles reads two runs written by WriteJSONL (calcsol eval --out) and
// compares them deck by deck (Compare), refusing runs on different corpora
// or rules (RunID.Paired). Errors name the file.
func CompareFiles(a, b string) ([2][]DeckResult, Paired, error) {
	var runs [2][]DeckResult
	var ids [2]RunID
	for i, path := range []string{a, b} {
		f, err := os.Open(path)
		if err != nil {
			return runs, Paired{}, err
		}
		ids[i], runs[i], err = ReadJSONL(f)
		f.Close()
		if err != nil {
			return runs, Paired{}, fmt.Errorf("%s: %w", path, err)
		}
	}
	if err := ids[0].Paired(ids[1]); err != nil {
		return runs, Paired{}, fmt.Errorf("compare %s %s: %w", a, b, err)
	}
	c, err := Compare(runs[0], runs[1])
	return runs, c, err
}
