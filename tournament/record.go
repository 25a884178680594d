package tournament

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/calcsol/calcsol/solver"
)

// RecordVersion is the version of the per-game record format, written in
// every record as "v". A reader refuses records of another version.
const RecordVersion = 1

// Record is the outcome of one game: who played (Strategy), what (Corpus,
// identified by its checksum, and Deck, the 0-based index in it), under which
// rules (Rules, see Variant.Key), and how it went. It is one line of
// results.jsonl (docs/tournament.md) and of `calcsol eval --out`.
type Record struct {
	V         int    `json:"v"`
	Strategy  string `json:"strategy"`
	Corpus    string `json:"corpus"`
	CorpusSHA string `json:"corpus_sha256"`
	Rules     string `json:"rules"`
	Deck      int    `json:"deck"`
	Won       bool   `json:"won"`
	Placed    int    `json:"placed"`
	// Failed marks a game the strategy failed (an error, an illegal move, a
	// panic, a blown time budget) rather than played out; it counts as lost.
	Failed bool `json:"failed,omitempty"`
	// End says how the game ended ("won", "stuck: …", "resigned: …", the failure).
	End string `json:"end,omitempty"`
	// Micros is the game's share of its batch's wall time, in µs: a timing
	// field, the only one that differs between two runs of the same plan.
	Micros float64 `json:"us,omitempty"`
	// Trace is the game's moves in the trace notation, when recorded.
	Trace string `json:"trace,omitempty"`

	cell int // index of the record's cell in the run that made it
}

// Key is the record's identity: (strategy, corpus, rules, deck).
func (r *Record) Key() RecordKey {
	return RecordKey{r.Strategy, r.Corpus, r.Rules, r.Deck}
}

// RecordKey identifies a game of a tournament.
type RecordKey struct {
	Strategy, Corpus, Rules string
	Deck                    int
}

// AppendJSON appends r as one JSON line (with "\n"). It writes the fields in
// a fixed order, so that two runs of the same plan give the same bytes apart
// from "us"; it is a hand-written encoder because the harness writes a record
// per game and must cost little next to a cheap strategy's game.
func (r *Record) AppendJSON(b []byte) []byte {
	b = append(b, `{"v":`...)
	b = strconv.AppendInt(b, int64(r.V), 10)
	b = append(b, `,"strategy":`...)
	b = appendString(b, r.Strategy)
	b = append(b, `,"corpus":`...)
	b = appendString(b, r.Corpus)
	b = append(b, `,"corpus_sha256":`...)
	b = appendString(b, r.CorpusSHA)
	b = append(b, `,"rules":`...)
	b = appendString(b, r.Rules)
	b = append(b, `,"deck":`...)
	b = strconv.AppendInt(b, int64(r.Deck), 10)
	b = append(b, `,"won":`...)
	b = strconv.AppendBool(b, r.Won)
	b = append(b, `,"placed":`...)
	b = strconv.AppendInt(b, int64(r.Placed), 10)
	if r.Failed {
		b = append(b, `,"failed":true`...)
	}
	if r.End != "" {
		b = append(b, `,"end":`...)
		b = appendString(b, r.End)
	}
	if r.Micros != 0 {
		b = append(b, `,"us":`...)
		b = strconv.AppendFloat(b, r.Micros, 'f', 2, 64)
	}
	if r.Trace != "" {
		b = append(b, `,"trace":`...)
		b = appendString(b, r.Trace)
	}
	return append(b, "}\n"...)
}

// appendString appends s as a JSON string. Names, reasons and traces are
// short ASCII; anything else goes through encoding/json.
func appendString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == '"' || c == '\\' || c >= 0x7f || c == '<' || c == '>' || c == '&' {
			q, _ := json.Marshal(s)
			return append(b, q...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

// ParseRecord reads one record and checks it: the version, every identity
// field present, placed in 0..52, won exactly when 52 cards are placed.
func ParseRecord(line []byte) (Record, error) {
	var raw struct {
		Record
		V      *int  `json:"v"`
		Deck   *int  `json:"deck"`
		Won    *bool `json:"won"`
		Placed *int  `json:"placed"`
	}
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&raw); err != nil {
		return Record{}, err
	}
	if dec.More() {
		return Record{}, errors.New("more than one record on the line")
	}
	r := raw.Record
	switch {
	case raw.V == nil:
		return r, errors.New(`no "v" (format version): not a tournament record`)
	case *raw.V != RecordVersion:
		return r, fmt.Errorf("record format version %d; this calcsol reads version %d", *raw.V, RecordVersion)
	case r.Strategy == "" || r.Corpus == "" || r.CorpusSHA == "" || r.Rules == "":
		return r, errors.New(`want "strategy", "corpus", "corpus_sha256" and "rules"`)
	case raw.Deck == nil || raw.Won == nil || raw.Placed == nil:
		return r, errors.New(`want "deck", "won" and "placed"`)
	}
	r.V, r.Deck, r.Won, r.Placed = *raw.V, *raw.Deck, *raw.Won, *raw.Placed
	if r.Deck < 0 {
		return r, fmt.Errorf("deck %d", r.Deck)
	}
	if r.Placed < 0 || r.Placed > solver.DeckSize {
		return r, fmt.Errorf("placed %d; want 0..%d", r.Placed, solver.DeckSize)
	}
	if r.Won != (r.Placed == solver.DeckSize) {
		return r, fmt.Errorf("won is %t with %d cards placed", r.Won, r.Placed)
	}
	return r, nil
}

// maxLine bounds one record; a trace is at most a few hundred bytes.
const maxLine = 1 << 20

// ReadRecords calls f with every record of r, in order. Errors name the line.
// With tolerateTorn, a last line without its newline (a run killed while
// writing it) is dropped rather than an error; the returned size is the
// length of the complete lines read, where an appending writer resumes.
func ReadRecords(r io.Reader, tolerateTorn bool, f func(line int, rec Record) error) (size int64, err error) {
	br := bufio.NewReaderSize(r, 1<<16)
	line := 0
	for {
		b, err := br.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			long := append([]byte(nil), b...)
			for err == bufio.ErrBufferFull && len(long) < maxLine {
				b, err = br.ReadSlice('\n')
				long = append(long, b...)
			}
			b = long
		}
		if err == io.EOF {
			if len(b) > 0 && !tolerateTorn {
				if rec, perr := ParseRecord(bytes.TrimSpace(b)); perr == nil {
					return size + int64(len(b)), f(line+1, rec)
				}
				return size, fmt.Errorf("results line %d: incomplete last line", line+1)
			}
			return size, nil
		}
		if err != nil {
			return size, fmt.Errorf("results line %d: %w", line+1, err)
		}
		line++
		if t := bytes.TrimSpace(b); len(t) > 0 {
			rec, perr := ParseRecord(t)
			if perr != nil {
				return size, fmt.Errorf("results line %d: %w", line, perr)
			}
			if err := f(line, rec); err != nil {
				return size, err
			}
		}
		size += int64(len(b))
	}
}
