package tournament

import (
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"sync"

	"github.com/calcsol/calcsol/internal/atomicfile"
	"github.com/calcsol/calcsol/internal/buildid"
)

// Files of a report directory (docs/tournament.md).
const (
	ResultsFile  = "results.jsonl"
	ManifestFile = "manifest.json"
	ConfigFile   = "config.yaml"
)

// ReportFormat names the format of a report directory's manifest.
const ReportFormat = "calcsol-tournament-report"

// Manifest says exactly what produced a report: the program, the resolved
// config, the corpora by checksum, the strategies by configuration hash, the
// cells (with those not applicable), the run seed and the shard.
type Manifest struct {
	Format        string             `json:"format"`
	RecordVersion int                `json:"record_version"`
	Program       string             `json:"program"`
	ConfigSHA     string             `json:"config_sha256"`
	Seed          uint64             `json:"seed"`
	Shard         string             `json:"shard,omitempty"`
	Trace         bool               `json:"trace,omitempty"`
	Strategies    []ManifestStrategy `json:"strategies"`
	Corpora       []ManifestCorpus   `json:"corpora"`
	Rules         []string           `json:"rules"`
	Cells         []ManifestCell     `json:"cells"`
	Bounds        []ManifestBound    `json:"bounds,omitempty"`
	// Blind is set for a blind run (blind.go): the seed's commitment from
	// the start, the seed itself once the run is finished.
	Blind *ManifestBlind `json:"blind,omitempty"`
	// Sums says how the records are checksummed (nil: a report of a
	// calcsol that kept no checksums).
	Sums *RecordSums `json:"record_checksums,omitempty"`
}

// ManifestBound is a clairvoyant bound as a manifest records it: its
// verdicts one character a deck (Bound.Verdicts), so that merged and
// regressed reports show the same efficiency view as the run.
type ManifestBound struct {
	Corpus   string `json:"corpus"`
	Rules    string `json:"rules"`
	Source   string `json:"source"`
	Verdicts string `json:"verdicts"`
}

// ManifestStrategy is an entrant as a manifest records it.
type ManifestStrategy struct {
	Name       string `json:"name"`
	Spec       string `json:"spec"`
	Hash       string `json:"hash"`
	Stochastic bool   `json:"stochastic,omitempty"`
}

// ManifestCorpus is a corpus as a manifest records it.
type ManifestCorpus struct {
	Name   string `json:"name"`
	SHA    string `json:"sha256"`
	Decks  int    `json:"decks"`
	Source string `json:"source"`
}

// ManifestCell is a cell as a manifest records it.
type ManifestCell struct {
	Strategy      string `json:"strategy"`
	Corpus        string `json:"corpus"`
	Rules         string `json:"rules"`
	NotApplicable string `json:"not_applicable,omitempty"`
}

// ProgramVersion names the running program: its module version, the VCS
// revision when the build recorded one, the Go version, and the content ID
// of the executable (the hash of its contents the go command stamps into
// it, package internal/buildid; the SHA-256 of the file where there is
// none), so that two builds of different code never pass for the same
// program (Go builds are reproducible: the same code and toolchain give the
// same executable on every machine).
var ProgramVersion = sync.OnceValue(func() string {
	v := "calcsol"
	if bi, ok := debug.ReadBuildInfo(); ok {
		v += " " + bi.Main.Version
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				v += " " + s.Value
			case "vcs.modified":
				if s.Value == "true" {
					v += "+modified"
				}
			}
		}
		v += " " + bi.GoVersion
	}
	exe, err := os.Executable()
	if err != nil {
		return v
	}
	if id, err := buildid.Read(exe); err == nil {
		return v + " build:" + buildid.Content(id)
	}
	if f, err := os.Open(exe); err == nil {
		defer f.Close()
		h := sha256.New()
		if _, err := io.Copy(h, f); err == nil {
			v += fmt.Sprintf(" exe:%.16x", h.Sum(nil))
		}
	}
	return v
})

// Manifest describes the tournament as run with seed, shard and config hash.
func (t *Tournament) Manifest(configSHA string, shard Shard, trace bool) Manifest {
	m := Manifest{Format: ReportFormat, RecordVersion: RecordVersion, Program: ProgramVersion(), ConfigSHA: configSHA,
		Seed: t.seed, Shard: shard.String(), Trace: trace, Sums: newRecordSums()}
	for _, e := range t.plan.Entrants {
		m.Strategies = append(m.Strategies, ManifestStrategy{e.Name, e.Spec, e.Hash, e.Strategy.Info().Stochastic})
	}
	for _, c := range t.plan.Corpora {
		m.Corpora = append(m.Corpora, ManifestCorpus{c.Name, c.Checksum, c.Len, c.Source})
	}
	for _, v := range t.plan.Variants {
		m.Rules = append(m.Rules, v.Key())
	}
	for _, c := range t.cells {
		m.Cells = append(m.Cells, ManifestCell{c.Entrant.Name, c.Corpus.Name, c.Variant.Key(), c.Reason})
	}
	for i := range t.plan.Bounds {
		b := &t.plan.Bounds[i]
		m.Bounds = append(m.Bounds, ManifestBound{b.Corpus, variantRulesKey(b.Rules), b.Source, b.Verdicts()})
	}
	m.Blind = t.manifestBlind()
	return m
}

// Skeleton is the tournament a manifest describes, without its strategies:
// enough to order, count and report records (merge, baseline), not to play.
func (m Manifest) Skeleton() (*Tournament, error) {
	if m.Blind != nil {
		return nil, errors.New("manifest: a blind run's report: its decks were drawn for it alone, so it is not merged or made a baseline")
	}
	t := &Tournament{seed: m.Seed}
	entrants := map[string]*Entrant{}
	for _, s := range m.Strategies {
		t.plan.Entrants = append(t.plan.Entrants, Entrant{Name: s.Name, Spec: s.Spec, Hash: s.Hash})
	}
	for i := range t.plan.Entrants {
		entrants[t.plan.Entrants[i].Name] = &t.plan.Entrants[i]
	}
	corpora := map[string]*Corpus{}
	for _, c := range m.Corpora {
		cp := &Corpus{Name: c.Name, Checksum: c.SHA, Len: c.Decks, Source: c.Source}
		t.plan.Corpora = append(t.plan.Corpora, cp)
		corpora[c.Name] = cp
	}
	for _, r := range m.Rules {
		v, err := ParseVariant(r)
		if err != nil {
			return nil, err
		}
		t.plan.Variants = append(t.plan.Variants, v)
	}
	stochastic := map[string]bool{}
	for _, s := range m.Strategies {
		stochastic[s.Name] = s.Stochastic
	}
	for _, c := range m.Cells {
		e, cp := entrants[c.Strategy], corpora[c.Corpus]
		v, err := ParseVariant(c.Rules)
		if e == nil || cp == nil || err != nil {
			return nil, fmt.Errorf("manifest: cell %s × %s × %s names what the manifest does not list", c.Strategy, c.Corpus, c.Rules)
		}
		t.cells = append(t.cells, Cell{Entrant: e, Corpus: cp, Variant: v, Applicable: c.NotApplicable == "",
			Reason: c.NotApplicable, Stochastic: stochastic[c.Strategy], seed: cellSeed(m.Seed, e.Name, cp.Checksum)})
	}
	for _, mb := range m.Bounds {
		v, err := ParseVariant(mb.Rules)
		cp := corpora[mb.Corpus]
		if err != nil || cp == nil {
			return nil, fmt.Errorf("manifest: bound of corpus %s, rules %s: not a corpus and rules of the manifest", mb.Corpus, mb.Rules)
		}
		b, err := ParseVerdicts(mb.Corpus, cp.Checksum, v.Rules, mb.Source, mb.Verdicts)
		if err != nil {
			return nil, fmt.Errorf("manifest: %w", err)
		}
		if b.Decks != cp.Len {
			return nil, fmt.Errorf("manifest: bound of corpus %s, rules %s: %d verdicts for %d decks", mb.Corpus, mb.Rules, b.Decks, cp.Len)
		}
		t.plan.Bounds = append(t.plan.Bounds, b)
	}
	return t, nil
}

// WriteManifest writes dir/manifest.json.
func WriteManifest(dir string, m Manifest) error {
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.Write(filepath.Join(dir, ManifestFile), append(b, '\n'))
}

// ReadManifest reads dir/manifest.json.
func ReadManifest(dir string) (Manifest, error) {
	var m Manifest
	if fi, err := os.Stat(dir); err == nil && !fi.IsDir() {
		return m, fmt.Errorf("report %s: a file, not a report directory (a shell glob ending in / matches directories only: shard-*/)", dir)
	}
	b, err := os.ReadFile(filepath.Join(dir, ManifestFile))
	if err != nil {
		return m, fmt.Errorf("report %s: %w", dir, err)
	}
	if err := json.Unmarshal(b, &m); err != nil {
		return m, fmt.Errorf("report %s: %s: %w", dir, ManifestFile, err)
	}
	if m.Format != ReportFormat {
		return m, fmt.Errorf("report %s: %s is not a tournament report's manifest", dir, ManifestFile)
	}
	if m.RecordVersion != RecordVersion {
		return m, fmt.Errorf("report %s: record format version %d; this calcsol reads %d", dir, m.RecordVersion, RecordVersion)
	}
	return m, nil
}

// order calls f with every game of the shard in the run's order.
func (t *Tournament) order(s Shard, f func(cell, deck int) bool) {
	for ci, c := range t.cells {
		if !c.Applicable {
			continue
		}
		if order := t.deckOrder(c.Corpus); order != nil {
			for _, d := range order {
				if s.Has(d) && !f(ci, d) {
					return
				}
			}
			continue
		}
		for d := 0; d < c.Corpus.Len; d++ {
			if s.Has(d) && !f(ci, d) {
				return
			}
		}
	}
}

// Results is a report directory's records opened for appending: a Sink
// that writes records a block at a time into results.jsonl.gz, each block
// of SumBlock lines one gzip member written at once when the block is
// complete (Close writes the last, shorter one), so that a run killed at
// any point leaves whole blocks and at most one torn last member; after
// each block it appends the block's checksum to results.sha256. A run
// resumed in a report with a plain results.jsonl appends to it a batch at
// a time instead. Either way a killed run loses only what a resumed one
// would play again: the games after the last checksum.
type Results struct {
	f, sums *os.File
	w       *recordWriter
	buf     []byte
}

// ResultsOpened is what OpenResults found in a report directory.
type ResultsOpened struct {
	// Done is the number of games recorded and kept: the Skip of the run
	// that continues.
	Done int
	// Dropped counts the lines after the last checksum, left out and
	// truncated (a run killed before it checksummed them): their games are
	// played again. Torn says a torn last line was cut off.
	Dropped int
	Torn    bool
	// Failed are the decks, per cell, recorded as failed.
	Failed   []Bitset
	Failures int
}

// OpenResults opens dir's records for a run of shard s of t, creating
// results.jsonl.gz or, to resume, reading the records it holds: they must be the first games
// of the run's order, and each block of them must have the checksum
// results.sha256 gives it (a torn last line, and lines after the last
// checksum, are cut off). Each record read is counted in ta. It returns how
// many games are done, the Skip of the run that continues. A record that
// cannot be trusted is a *CorruptError naming its file and line.
func (t *Tournament) OpenResults(dir string, s Shard, ta *Tally) (*Results, int, error) {
	r, o, err := t.openResults(dir, s, ta)
	return r, o.Done, err
}

func (t *Tournament) openResults(dir string, s Shard, ta *Tally) (*Results, ResultsOpened, error) {
	var o ResultsOpened
	path, gz, err := resultsPath(dir)
	if err != nil {
		return nil, o, err
	}
	sumsPath := filepath.Join(dir, SumsFile)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, o, err
	}
	fail := func(err error) (*Results, ResultsOpened, error) {
		f.Close()
		return nil, o, err
	}
	if fi, err := f.Stat(); err != nil {
		return fail(err)
	} else if fi.Size() == 0 {
		// No records (a new run, or one that recorded none): no checksums.
		if err := os.WriteFile(sumsPath, []byte(sumsHeader), 0o644); err != nil {
			return fail(err)
		}
	}
	rr, err := openReport(dir, &Manifest{Sums: newRecordSums()}, tailDrop, true)
	if err != nil {
		return fail(err)
	}
	defer rr.close()
	o.Failed = make([]Bitset, len(t.cells))
	// Walk the expected order alongside the file.
	err = nil
	t.order(s, func(cell, deck int) bool {
		rec, rerr := rr.next()
		if rerr == io.EOF {
			return false
		}
		if rerr != nil {
			err = rerr
			return false
		}
		c := t.cells[cell]
		if k := (RecordKey{c.Entrant.Name, c.Corpus.Name, c.Variant.Key(), deck}); rec.Key() != k {
			err = rr.errorAt(fmt.Errorf("record of %s × %s × %s deck %d, want %s × %s × %s deck %d: not this run's records in its order",
				rec.Strategy, rec.Corpus, rec.Rules, rec.Deck, k.Strategy, k.Corpus, k.Rules, k.Deck))
			return false
		}
		rec.cell = cell
		if aerr := ta.Add(&rec); aerr != nil {
			err = rr.errorAt(aerr)
			return false
		}
		if rec.Failed {
			if o.Failed[cell] == nil {
				o.Failed[cell] = NewBitset(c.Corpus.Len)
			}
			o.Failed[cell].Set(deck)
			o.Failures++
		}
		o.Done++
		return true
	})
	if err == nil {
		// Every game of the run is recorded: nothing may follow.
		if _, rerr := rr.next(); rerr != io.EOF {
			if rerr == nil {
				rerr = rr.errorAt(errors.New("more records than the run has games"))
			}
			err = rerr
		}
	}
	if err != nil {
		return fail(err)
	}
	o.Dropped, o.Torn = rr.Tail, rr.Torn
	// Cut what is not kept, then append.
	size, err := rr.checkedSize()
	if err != nil {
		return fail(err)
	}
	if err := f.Truncate(size); err != nil {
		return fail(err)
	}
	if _, err := f.Seek(size, io.SeekStart); err != nil {
		return fail(err)
	}
	sums, err := os.OpenFile(sumsPath, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return fail(err)
	}
	return &Results{f: f, sums: sums, w: newRecordWriter(gz, rr.covered+1, nil)}, o, nil
}

// Write implements Sink.
func (r *Results) Write(recs []Record) error {
	for i := range recs {
		r.buf = recs[i].AppendJSON(r.buf[:0])
		if err := r.w.add(r.buf); err != nil {
			return err
		}
	}
	return r.flush()
}

// flush writes the records made whole, then their checksums.
func (r *Results) flush() error {
	if r.w.Data.Len() > 0 {
		if err := r.w.writeData(r.f); err != nil {
			return err
		}
	}
	if len(r.w.Sums) > 0 {
		_, err := r.sums.Write(r.w.Sums)
		r.w.Sums = r.w.Sums[:0]
		return err
	}
	return nil
}

// Close writes the last block and its checksum and closes the files.
func (r *Results) Close() error {
	err := r.w.closeBlock()
	if err == nil {
		err = r.flush()
	}
	if cerr := r.sums.Close(); err == nil {
		err = cerr
	}
	if cerr := r.f.Close(); err == nil {
		err = cerr
	}
	return err
}

// Merge joins the reports of the shards of one tournament into dir: the
// records in the order of a single run, and its manifest and config. It
// refuses shards of another program, config, seed or corpus, and names
// missing and duplicate shards. It returns the merged tally.
func Merge(dir string, shards []string) (*Tally, Manifest, error) {
	ms, ks, err := shardManifests(shards)
	if err != nil {
		return nil, Manifest{}, err
	}
	first, sh := ms[0], ks[0]
	byK := make([]string, sh.N)
	for i, s := range ks {
		byK[s.K-1] = shards[i]
	}
	var missing []string
	for k, d := range byK {
		if d == "" {
			missing = append(missing, fmt.Sprintf("%d/%d", k+1, sh.N))
		}
	}
	if len(missing) > 0 {
		return nil, first, fmt.Errorf("merge: missing shard(s) %s", strings.Join(missing, ", "))
	}
	t, err := first.Skeleton()
	if err != nil {
		return nil, first, err
	}
	// One reader per shard, each checked against its checksums; the single
	// run's order takes deck d from shard d mod N.
	readers := make([]*resultsReader, sh.N)
	for k, d := range byK {
		rr, err := openReport(d, &ms[slices.Index(shards, d)], tailRefuse, false)
		if err != nil {
			return nil, first, fmt.Errorf("merge: shard %s: %w", d, err)
		}
		defer rr.close()
		readers[k] = rr
	}
	out := first
	out.Shard = ""
	out.Sums = newRecordSums()
	if err := WriteManifest(dir, out); err != nil {
		return nil, first, err
	}
	if cfg, err := os.ReadFile(filepath.Join(byK[0], ConfigFile)); err == nil {
		if err := atomicfile.Write(filepath.Join(dir, ConfigFile), cfg); err != nil {
			return nil, first, err
		}
	}
	ta := t.NewTally()
	rw := newRecordWriter(true, 1, []byte(sumsHeader))
	err = atomicfile.WriteFunc(filepath.Join(dir, CompressedResultsFile), func(w io.Writer) error {
		var ferr error
		var buf []byte
		t.order(Shard{}, func(cell, deck int) bool {
			k := deck % sh.N
			rec, err := readers[k].next()
			c := t.cells[cell]
			switch {
			case err == io.EOF:
				ferr = fmt.Errorf("merge: shard %s is incomplete at %s × %s × %s deck %d (resume it first)", byK[k], c.Entrant.Name, c.Corpus.Name, c.Variant.Key(), deck)
				return false
			case err != nil:
				ferr = fmt.Errorf("merge: shard %s: %w", byK[k], err)
				return false
			case rec.Key() != (RecordKey{c.Entrant.Name, c.Corpus.Name, c.Variant.Key(), deck}):
				ferr = fmt.Errorf("merge: shard %s: %w (resume it first)", byK[k], readers[k].errorAt(
					fmt.Errorf("record of %s × %s × %s deck %d, want %s × %s × %s deck %d: out of order",
						rec.Strategy, rec.Corpus, rec.Rules, rec.Deck, c.Entrant.Name, c.Corpus.Name, c.Variant.Key(), deck)))
				return false
			}
			if ferr = ta.Add(&rec); ferr != nil {
				ferr = fmt.Errorf("merge: shard %s: %w", byK[k], readers[k].errorAt(ferr))
				return false
			}
			buf = rec.AppendJSON(buf[:0])
			if ferr = rw.add(buf); ferr == nil && rw.Data.Len() >= 1<<16 {
				ferr = rw.writeData(w)
			}
			return ferr == nil
		})
		if ferr != nil {
			return ferr
		}
		for k, rr := range readers {
			if _, err := rr.next(); err == nil {
				return fmt.Errorf("merge: shard %s: %w", byK[k], rr.errorAt(errors.New("records beyond the shard's share")))
			} else if err != io.EOF {
				return fmt.Errorf("merge: shard %s: %w", byK[k], err)
			}
		}
		if err := rw.closeBlock(); err != nil {
			return err
		}
		return rw.writeData(w)
	})
	if err != nil {
		return nil, first, err
	}
	if err := atomicfile.Write(filepath.Join(dir, SumsFile), rw.Sums); err != nil {
		return nil, first, err
	}
	return ta, out, nil
}

// shardManifests reads the manifests of the shard reports in dirs and
// their shards, and checks that they are shards of one run (one program,
// config, seed and corpora, one number of shards) with no shard twice.
func shardManifests(dirs []string) ([]Manifest, []Shard, error) {
	if len(dirs) == 0 {
		return nil, nil, errors.New("merge: no shard reports given")
	}
	var ms []Manifest
	for _, d := range dirs {
		m, err := ReadManifest(d)
		if err != nil {
			return nil, nil, err
		}
		ms = append(ms, m)
	}
	first := ms[0]
	sh, err := ParseShard(first.Shard)
	if first.Shard == "" || err != nil {
		return nil, nil, fmt.Errorf("merge: %s is not a shard's report (no shard k/N in its manifest)", dirs[0])
	}
	ks := make([]Shard, len(ms))
	seen := map[int]string{}
	for i, m := range ms {
		if err := sameRun(first, m); err != nil {
			return nil, nil, fmt.Errorf("merge: %s and %s: %w", dirs[0], dirs[i], err)
		}
		s, err := ParseShard(m.Shard)
		if err != nil || s.N != sh.N {
			return nil, nil, fmt.Errorf("merge: %s is shard %q, not one of %d", dirs[i], m.Shard, sh.N)
		}
		if prev, ok := seen[s.K]; ok {
			return nil, nil, fmt.Errorf("merge: shard %d/%d given twice (%s and %s)", s.K, s.N, prev, dirs[i])
		}
		seen[s.K] = dirs[i]
		ks[i] = s
	}
	return ms, ks, nil
}

// sameRun reports how two shards' manifests differ, other than the shard.
func sameRun(a, b Manifest) error {
	switch {
	case a.Program != b.Program:
		return fmt.Errorf("made by different programs (%s; %s)", a.Program, b.Program)
	case a.ConfigSHA != b.ConfigSHA:
		return fmt.Errorf("different configs (sha256 %.12s…; %.12s…)", a.ConfigSHA, b.ConfigSHA)
	case a.Seed != b.Seed:
		return fmt.Errorf("different run seeds (%d; %d)", a.Seed, b.Seed)
	case !slices.Equal(a.Corpora, b.Corpora):
		return errors.New("different corpora (checksums differ)")
	case !slices.Equal(a.Strategies, b.Strategies):
		return errors.New("different strategies (configuration hashes differ)")
	case !slices.Equal(a.Cells, b.Cells) || !slices.Equal(a.Rules, b.Rules):
		return errors.New("different rules or cells")
	case a.Trace != b.Trace:
		return errors.New("one recorded traces, the other did not")
	}
	return nil
}

// ShardProgress is how far one shard's report has got: the games it has
// recorded of its share of the run.
type ShardProgress struct {
	Dir   string
	Shard Shard
	Games int // records read
	Share int // games in the shard's share
}

// Done reports whether the shard has recorded its whole share.
func (p ShardProgress) Done() bool { return p.Games == p.Share }

// Progress tallies the records of some of the shards of one tournament,
// finished or not: the running estimate of a sharded run before every shard
// is done (a shard's share is spread over the corpora, so its records are a
// sample of them). Shards may be missing; each record counts once. It
// refuses shards of another program, config, seed or corpus, a shard given
// twice, and a record outside its shard's share; a torn last line (a shard
// being written) is left out. It returns the tally, the first shard's
// manifest, and each shard's progress in the order given.
func Progress(shards []string) (*Tally, Manifest, []ShardProgress, error) {
	ms, ks, err := shardManifests(shards)
	if err != nil {
		return nil, Manifest{}, nil, err
	}
	t, err := ms[0].Skeleton()
	if err != nil {
		return nil, ms[0], nil, err
	}
	ta := t.NewTally()
	out := make([]ShardProgress, len(shards))
	for i, d := range shards {
		p := ShardProgress{Dir: d, Shard: ks[i], Share: t.Games(ks[i])}
		if p.Games, err = tallyShard(ta, d, &ms[i], ks[i]); err != nil {
			return nil, ms[0], nil, fmt.Errorf("merge: shard %s: %w", d, err)
		}
		out[i] = p
	}
	return ta, ms[0], out, nil
}

// tallyShard counts the records of shard sh's report dir in ta, checked
// against their checksums as far as those go (a shard being written
// checksums a block once it is written), and returns how many it read; a
// torn last line (no newline yet) is left out.
func tallyShard(ta *Tally, dir string, m *Manifest, sh Shard) (int, error) {
	rr, err := openReport(dir, m, tailKeep, true)
	if err != nil {
		return 0, err
	}
	defer rr.close()
	n := 0
	for {
		rec, err := rr.next()
		if err == io.EOF {
			return n, nil
		}
		if err != nil {
			return n, err
		}
		if !sh.Has(rec.Deck) {
			return n, rr.errorAt(fmt.Errorf("deck %d is not in shard %d/%d's share", rec.Deck, sh.K, sh.N))
		}
		if err := ta.Add(&rec); err != nil {
			return n, rr.errorAt(err)
		}
		n++
	}
}
