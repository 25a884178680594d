package tournament

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/calcsol/calcsol/tournament/stats"
)

// BaselineFormat names the baseline file format: version 2 carries a
// checksum of its content.
const BaselineFormat = "calcsol-baseline 2"

// BaselineFormatV1 is the format of the baselines of an older calcsol,
// without a checksum: still read, their counts checked against their
// bitmaps.
const BaselineFormatV1 = "calcsol-baseline 1"

// MaxTracedDecks is the largest corpus whose games a baseline keeps the
// traces of (for deterministic strategies), so that a regression names the
// first move where a flipped deck's game changed.
const MaxTracedDecks = 1000

// RegressAlpha is the significance level at which a stochastic strategy's
// drop in wins fails a regression check (exact McNemar test, two-sided).
const RegressAlpha = 0.01

// Baseline records what a tournament's strategies won, deck by deck, with
// the hashes that say what was played: a later run of the same config
// (Regress) must win the same decks.
type Baseline struct {
	Format        string `yaml:"format" json:"format"`
	RecordVersion int    `yaml:"record_version" json:"record_version"`
	// Checksum is the SHA-256 of the rest of the baseline (ContentSHA).
	Checksum string         `yaml:"checksum,omitempty" json:"checksum,omitempty"`
	Program  string         `yaml:"program" json:"program"`
	Seed     uint64         `yaml:"seed" json:"seed"`
	Config   string         `yaml:"config" json:"config"` // the resolved tournament config
	Cells    []BaselineCell `yaml:"cells" json:"cells"`
}

// BaselineCell is one strategy × corpus × rules of a baseline.
type BaselineCell struct {
	Strategy   string `yaml:"strategy" json:"strategy"`
	Hash       string `yaml:"hash" json:"hash"`
	Stochastic bool   `yaml:"stochastic,omitempty" json:"stochastic,omitempty"`
	Corpus     string `yaml:"corpus" json:"corpus"`
	CorpusSHA  string `yaml:"corpus_sha256" json:"corpus_sha256"`
	Rules      string `yaml:"rules" json:"rules"`
	Games      int    `yaml:"games" json:"games"`
	Wins       int    `yaml:"wins" json:"wins"`
	// Won is the bitset of decks won (bit d of byte d/8), base64.
	Won string `yaml:"won" json:"won"`
	// Traces, for a deterministic strategy on a small corpus, are the games'
	// traces, one line per deck, gzipped, base64.
	Traces string `yaml:"traces,omitempty" json:"traces,omitempty"`
}

// traceBook collects the traces of the cells a baseline keeps them for.
type traceBook map[int][]string

func (t *Tournament) traced(cell int) bool {
	c := t.cells[cell]
	return c.Applicable && !c.Stochastic && c.Corpus.Len <= MaxTracedDecks
}

// sink keeps the traces of traced cells and passes the records on.
func (b traceBook) sink(t *Tournament, next Sink) Sink {
	return SinkFunc(func(recs []Record) error {
		for i := range recs {
			r := &recs[i]
			if t.traced(r.cell) {
				tr := b[r.cell]
				if tr == nil {
					tr = make([]string, t.cells[r.cell].Corpus.Len)
					b[r.cell] = tr
				}
				tr[r.Deck] = r.Trace
			}
		}
		return next.Write(recs)
	})
}

// MakeBaseline plays the whole tournament (traces kept for deterministic
// strategies on corpora of at most MaxTracedDecks decks) and records it.
func (t *Tournament) MakeBaseline(ctx context.Context, config string, opt RunOptions) (*Baseline, error) {
	opt.Shard, opt.Skip, opt.Trace = Shard{}, 0, true
	ta := t.NewTally()
	book := traceBook{}
	if err := t.Run(ctx, book.sink(t, ta.Sink(nil)), opt); err != nil {
		return nil, err
	}
	return t.baseline(config, ta, book)
}

// BaselineFromReport records the complete (unsharded or merged) report in
// dir as a baseline; traces are kept if the run recorded them.
func BaselineFromReport(dir string) (*Baseline, error) {
	m, err := ReadManifest(dir)
	if err != nil {
		return nil, err
	}
	if m.Shard != "" {
		return nil, fmt.Errorf("report %s is shard %s: merge the shards first", dir, m.Shard)
	}
	cfg, err := os.ReadFile(filepath.Join(dir, ConfigFile))
	if err != nil {
		return nil, err
	}
	t, err := m.Skeleton()
	if err != nil {
		return nil, err
	}
	ta := t.NewTally()
	book := traceBook{}
	rr, err := openReport(dir, &m, tailRefuse, false)
	if err != nil {
		return nil, err
	}
	defer rr.close()
	sink := book.sink(t, ta.Sink(nil))
	for {
		rec, err := rr.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		if rec.cell, err = ta.Cell(&rec); err != nil {
			return nil, rr.errorAt(err)
		}
		if !m.Trace {
			rec.Trace = ""
		}
		if err := sink.Write([]Record{rec}); err != nil {
			return nil, rr.errorAt(err)
		}
	}
	if !m.Trace {
		book = traceBook{}
	}
	for i, c := range t.cells {
		if c.Applicable && ta.tally[i].Games != c.Corpus.Len {
			return nil, fmt.Errorf("report %s is incomplete: %s × %s × %s has %d of %d games (resume it first)",
				dir, c.Entrant.Name, c.Corpus.Name, c.Variant.Key(), ta.tally[i].Games, c.Corpus.Len)
		}
	}
	b, err := t.baseline(string(cfg), ta, book)
	if err == nil {
		b.Program = m.Program
		b.Seal()
	}
	return b, err
}

func (t *Tournament) baseline(config string, ta *Tally, book traceBook) (*Baseline, error) {
	b := &Baseline{Format: BaselineFormat, RecordVersion: RecordVersion, Program: ProgramVersion(), Seed: t.seed, Config: config}
	for i, c := range t.cells {
		if !c.Applicable {
			continue
		}
		x := &ta.tally[i]
		bc := BaselineCell{Strategy: c.Entrant.Name, Hash: c.Entrant.Hash, Stochastic: c.Stochastic, Corpus: c.Corpus.Name,
			CorpusSHA: c.Corpus.Checksum, Rules: c.Variant.Key(), Games: x.Games, Wins: x.Wins, Won: encodeBits(x.Won, c.Corpus.Len)}
		if tr, ok := book[i]; ok {
			var z bytes.Buffer
			zw, _ := gzip.NewWriterLevel(&z, gzip.BestCompression)
			io.WriteString(zw, strings.Join(tr, "\n"))
			if err := zw.Close(); err != nil {
				return nil, err
			}
			bc.Traces = base64.StdEncoding.EncodeToString(z.Bytes())
		}
		b.Cells = append(b.Cells, bc)
	}
	b.Seal()
	return b, nil
}

// ContentSHA is the SHA-256, in hex, of the baseline's content: every field
// but Checksum, as compact JSON in the order of the fields. A comment or
// another YAML layout leaves it as it is; an edit of any value changes it.
func (b *Baseline) ContentSHA() string {
	c := *b
	c.Checksum = ""
	data, err := json.Marshal(&c)
	if err != nil {
		panic(err) // strings, numbers and bools only
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// Seal sets Checksum to the content's (ContentSHA): a baseline is sealed
// as it is made, and an edit of it afterwards no longer matches.
func (b *Baseline) Seal() { b.Checksum = b.ContentSHA() }

// BaselineError is a baseline that cannot be trusted: its checksum does not
// match its content, or its counts do not add up.
type BaselineError struct{ Reasons []string }

func (e *BaselineError) Error() string {
	return "baseline refused: " + strings.Join(e.Reasons, "; ")
}

// Verify checks what a baseline can check of itself: its checksum (a
// baseline of format 2 must have one; one of format 1 has none, and its
// content is taken as it is) and, in every cell, that the wins are the
// decks its bitmap marks won and the bitmap is one of its games. A failure
// is a *BaselineError.
func (b *Baseline) Verify() error {
	var bad []string
	switch {
	case b.Format != BaselineFormat && b.Format != BaselineFormatV1:
		return fmt.Errorf("baseline format %q; this calcsol reads %q and %q", b.Format, BaselineFormat, BaselineFormatV1)
	case b.Checksum == "" && b.Format == BaselineFormat:
		bad = append(bad, fmt.Sprintf("no checksum, which format %q carries: the baseline was edited", BaselineFormat))
	case b.Checksum != "" && b.Checksum != b.ContentSHA():
		bad = append(bad, fmt.Sprintf("checksum %.12s… does not match its content (sha256 %.12s…): the baseline was edited after calcsol wrote it", b.Checksum, b.ContentSHA()))
	}
	for _, c := range b.Cells {
		if why := c.addsUp(); why != "" {
			bad = append(bad, fmt.Sprintf("%s × %s × %s: %s", c.Strategy, c.Corpus, c.Rules, why))
		}
	}
	if len(bad) > 0 {
		return &BaselineError{bad}
	}
	return nil
}

// addsUp says why a cell's counts do not fit its bitmap, or "".
func (c *BaselineCell) addsUp() string {
	raw, err := base64.StdEncoding.DecodeString(c.Won)
	switch {
	case err != nil:
		return "won: not base64"
	case c.Games < 0 || c.Wins < 0 || c.Wins > c.Games:
		return fmt.Sprintf("%d wins of %d games", c.Wins, c.Games)
	case len(raw) != (c.Games+7)/8:
		return fmt.Sprintf("won: a bitmap of %d decks, not of its %d games", 8*len(raw), c.Games)
	}
	won := 0
	for d := 0; d < 8*len(raw); d++ {
		if raw[d/8]&(1<<(d%8)) != 0 {
			if d >= c.Games {
				return fmt.Sprintf("won: deck %d marked won, past its %d games", d, c.Games)
			}
			won++
		}
	}
	if won != c.Wins {
		return fmt.Sprintf("wins %d, but its bitmap marks %d decks won: the counts do not add up", c.Wins, won)
	}
	return ""
}

func encodeBits(b Bitset, n int) string {
	raw := make([]byte, (n+7)/8)
	for d := 0; d < n; d++ {
		if b.Has(d) {
			raw[d/8] |= 1 << (d % 8)
		}
	}
	return base64.StdEncoding.EncodeToString(raw)
}

func decodeBits(s string, n int) (Bitset, error) {
	raw, err := base64.StdEncoding.DecodeString(s)
	if err != nil || len(raw) != (n+7)/8 {
		return nil, fmt.Errorf("won: not a base64 bitset of %d decks", n)
	}
	b := NewBitset(n)
	for d := 0; d < n; d++ {
		if raw[d/8]&(1<<(d%8)) != 0 {
			b.Set(d)
		}
	}
	return b, nil
}

func decodeTraces(s string, n int) ([]string, error) {
	raw, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		return nil, fmt.Errorf("traces: %w", err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(raw))
	if err != nil {
		return nil, fmt.Errorf("traces: %w", err)
	}
	text, err := io.ReadAll(zr)
	if err != nil {
		return nil, fmt.Errorf("traces: %w", err)
	}
	tr := strings.Split(string(text), "\n")
	if len(tr) != n {
		return nil, fmt.Errorf("traces: %d games, want %d", len(tr), n)
	}
	return tr, nil
}

// StaleError says a baseline no longer describes what its names stand for:
// a strategy's configuration, a corpus or the record format changed.
type StaleError struct{ Reasons []string }

func (e *StaleError) Error() string {
	return "stale baseline: " + strings.Join(e.Reasons, "; ")
}

// Flip is a deck whose outcome changed against the baseline.
type Flip struct {
	Deck   int
	WasWon bool
	// Move is the 1-based index of the first move where the two games
	// differ (0 when the baseline has no trace); Was and Now are those moves
	// ("" past a game's end).
	Move     int
	Was, Now string
}

// CellCheck is the regression check of one cell.
type CellCheck struct {
	Strategy, Corpus, Rules string
	Stochastic              bool
	BaselineWins, Wins      int
	Games                   int
	// Flipped are the decks won in one run and lost in the other
	// (deterministic strategies).
	Flipped []Flip
	// P is the exact McNemar p-value of the change (stochastic strategies).
	P float64
	// Failed says the cell regressed: a deterministic strategy won another
	// set of decks, or a stochastic one won significantly fewer
	// (P < RegressAlpha); with Changed, significantly fewer too.
	Failed bool
	// Changed says the strategy's configuration changed since the baseline
	// (RegressChanged): its games are compared deck by deck, and only a
	// significant loss of decks is a regression.
	Changed bool
	// OnlyBaseline and OnlyNow count the decks won only by the baseline's
	// run and only by this one.
	OnlyBaseline, OnlyNow int
}

// Regress replays the baseline's cells with t (built from the baseline's
// config) and compares. It returns a *StaleError, before playing, when a
// strategy's hash, a corpus checksum or the record format differ from the
// baseline's.
func (t *Tournament) Regress(ctx context.Context, b *Baseline, opt RunOptions) ([]CellCheck, error) {
	return t.regress(ctx, b, opt, false)
}

// RegressChanged is Regress for a strategy still being worked on (one's
// own plugin or table, whose hash changes with every edit): a cell whose
// strategy's configuration changed is played and compared with the
// baseline deck by deck (Changed), and regresses only if it lost
// significantly more decks than it gained (exact McNemar p < RegressAlpha).
// A changed corpus or record format is still stale.
func (t *Tournament) RegressChanged(ctx context.Context, b *Baseline, opt RunOptions) ([]CellCheck, error) {
	return t.regress(ctx, b, opt, true)
}

func (t *Tournament) regress(ctx context.Context, b *Baseline, opt RunOptions, againstChanged bool) ([]CellCheck, error) {
	var stale []string
	changed := map[int]bool{} // by baseline cell
	if err := b.Verify(); err != nil {
		return nil, err
	}
	var bad []string // counts that do not fit the corpus
	if b.RecordVersion != RecordVersion {
		stale = append(stale, fmt.Sprintf("record format version %d, now %d", b.RecordVersion, RecordVersion))
	}
	index := map[cellKey]int{}
	for i, c := range t.cells {
		index[cellKey{c.Entrant.Name, c.Corpus.Name, c.Variant.Key()}] = i
	}
	type want struct {
		cell   int
		won    Bitset
		traces []string
	}
	wants := make([]want, len(b.Cells))
	for j, bc := range b.Cells {
		i, ok := index[cellKey{bc.Strategy, bc.Corpus, bc.Rules}]
		if !ok {
			stale = append(stale, fmt.Sprintf("%s × %s × %s is no longer in the config", bc.Strategy, bc.Corpus, bc.Rules))
			continue
		}
		c := t.cells[i]
		switch {
		case c.Entrant.Hash != bc.Hash && againstChanged && c.Corpus.Checksum == bc.CorpusSHA && c.Applicable:
			changed[j] = true
		case c.Entrant.Hash != bc.Hash:
			stale = append(stale, fmt.Sprintf("strategy %s's configuration changed (hash %s, was %s)", bc.Strategy, c.Entrant.Hash, bc.Hash))
		case c.Corpus.Checksum != bc.CorpusSHA:
			stale = append(stale, fmt.Sprintf("corpus %s changed (sha256 %.12s…, was %.12s…)", bc.Corpus, c.Corpus.Checksum, bc.CorpusSHA))
			continue // its bitmap is of other decks
		case !c.Applicable:
			stale = append(stale, fmt.Sprintf("strategy %s can no longer play %s", bc.Strategy, bc.Rules))
		}
		if bc.Games != c.Corpus.Len {
			bad = append(bad, fmt.Sprintf("%s × %s × %s: %d games, but corpus %s has %d decks: the counts do not add up",
				bc.Strategy, bc.Corpus, bc.Rules, bc.Games, bc.Corpus, c.Corpus.Len))
			continue
		}
		won, err := decodeBits(bc.Won, c.Corpus.Len)
		if err != nil {
			return nil, fmt.Errorf("baseline cell %s × %s × %s: %w", bc.Strategy, bc.Corpus, bc.Rules, err)
		}
		wants[j] = want{cell: i, won: won}
		if bc.Traces != "" {
			if wants[j].traces, err = decodeTraces(bc.Traces, c.Corpus.Len); err != nil {
				return nil, fmt.Errorf("baseline cell %s × %s × %s: %w", bc.Strategy, bc.Corpus, bc.Rules, err)
			}
		}
	}
	if len(bad) > 0 {
		return nil, &BaselineError{bad}
	}
	stale = dedupe(stale)
	if len(stale) > 0 {
		return nil, &StaleError{stale}
	}
	// Only the baseline's cells are played.
	played := *t
	played.cells = make([]Cell, len(t.cells))
	copy(played.cells, t.cells)
	inBaseline := map[int]int{}
	for j, w := range wants {
		inBaseline[w.cell] = j
	}
	for i := range played.cells {
		if _, ok := inBaseline[i]; !ok {
			played.cells[i].Applicable = false
		}
	}
	checks := make([]CellCheck, len(b.Cells))
	for j, bc := range b.Cells {
		checks[j] = CellCheck{Strategy: bc.Strategy, Corpus: bc.Corpus, Rules: bc.Rules, Stochastic: bc.Stochastic, BaselineWins: bc.Wins, Games: bc.Games, Changed: changed[j]}
	}
	opt.Shard, opt.Skip, opt.Trace = Shard{}, 0, true
	ta := played.NewTally()
	err := played.Run(ctx, ta.Sink(SinkFunc(func(recs []Record) error {
		for i := range recs {
			r := &recs[i]
			j := inBaseline[r.cell]
			w := &wants[j]
			if w.won.Has(r.Deck) == r.Won || t.cells[r.cell].Stochastic && !checks[j].Changed {
				continue
			}
			f := Flip{Deck: r.Deck, WasWon: w.won.Has(r.Deck)}
			if w.traces != nil {
				f.Move, f.Was, f.Now = firstDifference(w.traces[r.Deck], r.Trace)
			}
			checks[j].Flipped = append(checks[j].Flipped, f)
		}
		return nil
	})), opt)
	if err != nil {
		return nil, err
	}
	for j, w := range wants {
		x := &ta.tally[w.cell]
		ch := &checks[j]
		ch.Wins = x.Wins
		onlyBase, onlyNow := 0, 0
		for k := range x.Won {
			onlyBase += popcount(w.won[k] &^ x.Won[k])
			onlyNow += popcount(x.Won[k] &^ w.won[k])
		}
		ch.OnlyBaseline, ch.OnlyNow = onlyBase, onlyNow
		ch.P = stats.McNemarExact(onlyBase, onlyNow)
		if ch.Stochastic || ch.Changed {
			ch.Failed = onlyBase > onlyNow && ch.P < RegressAlpha
		} else {
			ch.Failed = len(ch.Flipped) > 0
		}
	}
	return checks, nil
}

// firstDifference finds the first move where two traces differ.
func firstDifference(was, now string) (move int, a, b string) {
	wa, wb := strings.Fields(was), strings.Fields(now)
	for i := 0; i < max(len(wa), len(wb)); i++ {
		var x, y string
		if i < len(wa) {
			x = wa[i]
		}
		if i < len(wb) {
			y = wb[i]
		}
		if x != y {
			return i + 1, x, y
		}
	}
	return 0, "", ""
}

func dedupe(s []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, x := range s {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}
