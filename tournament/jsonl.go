package tournament

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/calcsol/calcsol/solver"
)

// record is one line of the JSONL results format (docs/eval.md):
// {"deck":0,"won":true,"placed":52}, with "reason" only for a failed game.
// The fields are pointers when read so that a missing field is an error.
type record struct {
	Deck   int    `json:"deck"`
	Won    bool   `json:"won"`
	Placed int    `json:"placed"`
	Reason string `json:"reason,omitempty"`
}

type readRecord struct {
	Deck   *int    `json:"deck"`
	Won    *bool   `json:"won"`
	Placed *int    `json:"placed"`
	Reason *string `json:"reason"`
}

// WriteJSONL writes one JSON record per result, in the order given (Evaluate
// gives deck order): {"deck":i,"won":bool,"placed":N}, plus "reason" when the
// strategy failed. A failed result with no reason is written with reason
// "failed", so that a record is failed exactly when it has a reason.
func WriteJSONL(w io.Writer, results []DeckResult) error {
	bw := bufio.NewWriter(w)
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	for _, r := range results {
		rec := record{Deck: r.Deck, Won: r.Won, Placed: r.Placed}
		if r.Failed {
			rec.Reason = r.Reason
			if rec.Reason == "" {
				rec.Reason = "failed"
			}
		}
		if err := enc.Encode(rec); err != nil {
			return fmt.Errorf("write results: deck %d: %w", r.Deck, err)
		}
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("write results: %w", err)
	}
	return nil
}

// maxLine bounds one JSONL record; a reason is a short message.
const maxLine = 1 << 20

// ReadJSONL reads results written by WriteJSONL. Records must be in deck
// order 0, 1, 2, …, one per line; empty lines are skipped. A record with a
// reason is a failed game. Errors name the line: "results line 3: deck 5, want 2".
func ReadJSONL(r io.Reader) ([]DeckResult, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), maxLine)
	var out []DeckResult
	line := 0
	for sc.Scan() {
		line++
		b := bytes.TrimSpace(sc.Bytes())
		if len(b) == 0 {
			continue
		}
		res, err := parseRecord(b)
		if err != nil {
			return out, fmt.Errorf("results line %d: %w", line, err)
		}
		if res.Deck != len(out) {
			return out, fmt.Errorf("results line %d: deck %d, want %d (records must be in deck order)", line, res.Deck, len(out))
		}
		out = append(out, res)
	}
	if err := sc.Err(); err != nil {
		return out, fmt.Errorf("results line %d: %w", line+1, err)
	}
	return out, nil
}

// parseRecord reads one JSONL record.
func parseRecord(b []byte) (DeckResult, error) {
	var rec readRecord
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&rec); err != nil {
		return DeckResult{}, err
	}
	if dec.More() {
		return DeckResult{}, errors.New("more than one record on the line")
	}
	switch {
	case rec.Deck == nil:
		return DeckResult{}, errors.New(`no "deck"`)
	case rec.Won == nil:
		return DeckResult{}, errors.New(`no "won"`)
	case rec.Placed == nil:
		return DeckResult{}, errors.New(`no "placed"`)
	}
	res := DeckResult{Deck: *rec.Deck, Won: *rec.Won, Placed: *rec.Placed}
	if res.Placed < 0 || res.Placed > solver.DeckSize {
		return res, fmt.Errorf("placed %d; want 0..%d", res.Placed, solver.DeckSize)
	}
	if res.Won != (res.Placed == solver.DeckSize) {
		return res, fmt.Errorf("won is %t with %d cards placed", res.Won, res.Placed)
	}
	if rec.Reason != nil {
		if *rec.Reason == "" {
			return res, errors.New(`empty "reason" (omit it for a game played out)`)
		}
		res.Failed, res.Reason = true, *rec.Reason
	}
	return res, nil
}
