package tune

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// LogFormat is the first field of a tuning log's header line.
const LogFormat = "calcsol-tune 1"

// CorpusInfo identifies a corpus in a log.
type CorpusInfo struct {
	Name     string `json:"name"`
	About    string `json:"about"`
	Checksum string `json:"sha256"`
}

func infoOf(c *Corpus) CorpusInfo {
	return CorpusInfo{Name: c.Name, About: c.About, Checksum: c.Checksum}
}

// Header is the first line of a tuning log: everything that decides the
// search except its budget, so that a resumed run can check it continues
// the same search.
type Header struct {
	Format    string     `json:"format"`
	Seed      uint64     `json:"seed"`
	Rules     string     `json:"rules"`
	Train     CorpusInfo `json:"train"`
	Validate  CorpusInfo `json:"validate"`
	StartName string     `json:"start_name"`
	Start     string     `json:"start"` // the start candidate's key
	Space     string     `json:"space"`
	Accept    string     `json:"accept"`
	Race      string     `json:"race"`
	Patience  int        `json:"patience"`
	Kick      int        `json:"kick"`
}

func (opt *Options) header() Header {
	sp := opt.Space
	var parts []string
	if sp.Ops {
		if sp.Extended {
			parts = append(parts, "operations with F, E")
		} else {
			parts = append(parts, "operations")
		}
	}
	if opt.Start.Table == nil {
		// No table is tuned: the strategy's fixed parts are the spec
		// (StartName, which sameSearch leaves aside for a table's name).
		parts = append(parts, "spec "+opt.StartName)
	}
	if len(sp.Options) > 0 {
		parts = append(parts, "options "+strings.Join(sp.Options, ","))
	}
	for _, p := range sp.Params {
		parts = append(parts, "param "+p.Name)
	}
	race := "off"
	if opt.Race > 0 {
		race = fmt.Sprintf("first %g of the training decks, drop when worse at p < %g", opt.Race, opt.RaceAlpha)
	}
	return Header{
		Format: LogFormat, Seed: opt.Seed, Rules: opt.Rules.String(),
		Train: infoOf(opt.Train), Validate: infoOf(opt.Validate),
		StartName: opt.StartName, Start: opt.Start.Key(),
		Space: strings.Join(parts, "; "), Accept: opt.Accept.String(), Race: race,
		Patience: opt.Patience, Kick: opt.Kick,
	}
}

// sameSearch checks that a log's header (old) describes the search h does;
// the corpora's names may differ (a spec moved), their checksums may not.
func (h Header) sameSearch(old Header) error {
	a, b := h, old
	a.Train.Name, b.Train.Name, a.Validate.Name, b.Validate.Name = "", "", "", ""
	a.StartName, b.StartName = "", ""
	if a == b {
		return nil
	}
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	return fmt.Errorf("tune: the log to resume is of another search:\n  log:  %s\n  this: %s", jb, ja)
}

// Record is one evaluation of the search.
type Record struct {
	Eval int    `json:"eval"` // 0 is the start
	Kind string `json:"kind"` // start, move or kick
	Move string `json:"move,omitempty"`
	Key  string `json:"key"` // the candidate's Key
	// Home is, for a kick, iterated local search's decision on the local
	// optimum reached: "set" (first), "replaced" (it beat the home base) or
	// "kept" (the home base stays).
	Home string `json:"home,omitempty"`
	// Decks are the training decks the candidate played (fewer than all when
	// it was dropped early), Wins its wins among them; OnlyCurrent and
	// OnlyCandidate count the decks only the current point, or only the
	// candidate, won; P is McNemar's exact p-value on those two counts.
	Decks         int     `json:"decks"`
	Wins          int     `json:"wins"`
	OnlyCurrent   int     `json:"only_current"`
	OnlyCandidate int     `json:"only_candidate"`
	P             float64 `json:"p"`
	Accepted      bool    `json:"accepted"`
	// ValWins are the candidate's validation wins, for an accepted one.
	ValWins *int `json:"val_wins,omitempty"`
	// After the decision: the current point's training and validation wins,
	// and the evaluation and validation wins of the best point so far.
	CurWins  int `json:"current_wins"`
	CurVal   int `json:"current_val_wins"`
	BestEval int `json:"best_eval"`
	BestVal  int `json:"best_val_wins"`
	// Candidate is the accepted candidate in full (Candidate.Text).
	Candidate string `json:"candidate,omitempty"`
}

// Log is a tuning log read back.
type Log struct {
	Header  Header
	Records []Record
}

// ReadLog reads a tuning log. A last line cut short (the search was killed
// while writing it) is dropped; any other malformed line is an error.
func ReadLog(r io.Reader, name string) (*Log, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	lines := bytes.Split(data, []byte("\n"))
	complete := len(data) > 0 && data[len(data)-1] == '\n'
	var l Log
	for i, line := range lines {
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		last := i == len(lines)-1 && !complete
		if i == 0 {
			if err := json.Unmarshal(line, &l.Header); err != nil || l.Header.Format != LogFormat {
				return nil, fmt.Errorf("%s: line 1: not a tuning log header (want format %q)", name, LogFormat)
			}
			continue
		}
		var rec Record
		dec := json.NewDecoder(bytes.NewReader(line))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&rec); err != nil {
			if last {
				break
			}
			return nil, fmt.Errorf("%s: line %d: %w", name, i+1, err)
		}
		if rec.Eval != len(l.Records) {
			return nil, fmt.Errorf("%s: line %d: evaluation %d, want %d", name, i+1, rec.Eval, len(l.Records))
		}
		l.Records = append(l.Records, rec)
	}
	if l.Header.Format == "" {
		return nil, fmt.Errorf("%s: empty log", name)
	}
	return &l, nil
}

var errNoRecords = errors.New("tune: no evaluations to draw")
