package measurements

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/calcsol/calcsol/solver"
	"github.com/calcsol/calcsol/tournament"
)

// Files of a measurement's directory.
const (
	HeaderFile  = "header.json"
	RecordsFile = "records.tsv.gz"
	ConfigFile  = tournament.ConfigFile
)

// Format names the format of a measurement's header.
const Format = "calcsol-measurement"

// recordsColumns is the first line of RecordsFile.
const recordsColumns = "placed\tus\tend"

// Header is a measurement's header.json.
type Header struct {
	Format string `json:"format"`
	// Manifest is the manifest every shard wrote, without its shard, and
	// without its bounds' verdicts (in Verdicts): one bound's are a
	// character a deck, the same in every shard.
	Manifest tournament.Manifest `json:"manifest"`
	// Verdicts are the verdicts of Manifest.Bounds, in its order.
	Verdicts []Verdicts `json:"verdicts,omitempty"`
	// Shards are the shards kept, in the order of RecordsFile.
	Shards []Shard `json:"shards"`
}

// Verdicts are a bound's verdicts (tournament.ManifestBound): runs of one
// verdict ("30000W", "12W1?3L"), and the SHA-256 of the whole string.
type Verdicts struct {
	Runs   string `json:"runs"`
	SHA256 string `json:"sha256"`
}

// Shard is a shard kept: the games it recorded, the first of its share,
// and the SHA-256 of the manifest.json and results.jsonl it wrote, which
// its expansion must match.
type Shard struct {
	Shard          string `json:"shard"` // k/N
	Games          int    `json:"games"`
	ManifestSHA256 string `json:"manifest_sha256"`
	ResultsSHA256  string `json:"results_sha256"`
}

// game is what a record holds beyond the run's identity and its deck.
type game struct {
	Placed int
	Micros float64
	End    string
}

// Measurement is a measurement read (Read) or made (Compact).
type Measurement struct {
	Header Header
	Config []byte
	games  [][]game // by shard, in Header.Shards' order
}

// Read reads the measurement in dir.
func Read(dir string) (*Measurement, error) {
	m := &Measurement{}
	b, err := os.ReadFile(filepath.Join(dir, HeaderFile))
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&m.Header); err != nil {
		return nil, fmt.Errorf("%s: %s: %w", dir, HeaderFile, err)
	}
	if m.Header.Format != Format {
		return nil, fmt.Errorf("%s: %s is not a measurement's header (format %q)", dir, HeaderFile, m.Header.Format)
	}
	if len(m.Header.Manifest.Cells) != 1 {
		return nil, fmt.Errorf("%s: %s: %d cells; a measurement is one strategy on one corpus under one rule", dir, HeaderFile, len(m.Header.Manifest.Cells))
	}
	if m.Config, err = os.ReadFile(filepath.Join(dir, ConfigFile)); err != nil {
		return nil, err
	}
	f, err := os.Open(filepath.Join(dir, RecordsFile))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if m.games, err = readGames(f, m.Header.Shards); err != nil {
		return nil, fmt.Errorf("%s: %s: %w", dir, RecordsFile, err)
	}
	return m, nil
}

// readGames reads RecordsFile: a header line, then each shard's games.
func readGames(r io.Reader, shards []Shard) ([][]game, error) {
	zr, err := gzip.NewReader(r)
	if err != nil {
		return nil, err
	}
	sc := bufio.NewScanner(zr)
	line := 0
	if !sc.Scan() || sc.Text() != recordsColumns {
		return nil, fmt.Errorf("line 1: want the columns %q", recordsColumns)
	}
	line++
	out := make([][]game, len(shards))
	for i, s := range shards {
		out[i] = make([]game, 0, s.Games)
		for range s.Games {
			if !sc.Scan() {
				if err := sc.Err(); err != nil {
					return nil, err
				}
				return nil, fmt.Errorf("shard %s: %d games, want %d", s.Shard, len(out[i]), s.Games)
			}
			line++
			f := strings.SplitN(sc.Text(), "\t", 3)
			if len(f) != 3 {
				return nil, fmt.Errorf("line %d: %d columns, want 3 (%s)", line, len(f), recordsColumns)
			}
			var g game
			var err error
			if g.Placed, err = strconv.Atoi(f[0]); err != nil {
				return nil, fmt.Errorf("line %d: placed: %w", line, err)
			}
			if g.Micros, err = strconv.ParseFloat(f[1], 64); err != nil {
				return nil, fmt.Errorf("line %d: us: %w", line, err)
			}
			g.End = f[2]
			out[i] = append(out[i], g)
		}
	}
	if sc.Scan() {
		return nil, fmt.Errorf("line %d: more games than the shards recorded", line+1)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if err := zr.Close(); err != nil {
		return nil, err
	}
	return out, nil
}

// Write writes the measurement into dir (created if missing).
func (m *Measurement) Write(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	h, err := json.MarshalIndent(m.Header, "", "  ")
	if err != nil {
		return err
	}
	var recs bytes.Buffer
	zw, err := gzip.NewWriterLevel(&recs, gzip.BestCompression)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(zw)
	bw.WriteString(recordsColumns + "\n")
	for _, games := range m.games {
		for _, g := range games {
			fmt.Fprintf(bw, "%d\t%s\t%s\n", g.Placed, strconv.FormatFloat(g.Micros, 'f', 2, 64), g.End)
		}
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	if err := zw.Close(); err != nil {
		return err
	}
	for _, f := range []struct {
		name string
		data []byte
	}{{HeaderFile, append(h, '\n')}, {ConfigFile, m.Config}, {RecordsFile, recs.Bytes()}} {
		if err := os.WriteFile(filepath.Join(dir, f.name), f.data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// ShardFiles returns the files shard i of the measurement wrote, byte for
// byte: its config.yaml, manifest.json and results.jsonl. It checks the
// manifest and records against the SHA-256 the header keeps of them.
func (m *Measurement) ShardFiles(i int) (map[string][]byte, error) {
	s := m.Header.Shards[i]
	sh, err := tournament.ParseShard(s.Shard)
	if err != nil {
		return nil, err
	}
	man, err := m.manifest(s.Shard)
	if err != nil {
		return nil, err
	}
	c := m.Header.Manifest.Cells[0]
	var sha string
	for _, cp := range m.Header.Manifest.Corpora {
		if cp.Name == c.Corpus {
			sha = cp.SHA
		}
	}
	var res []byte
	for j, g := range m.games[i] {
		rec := tournament.Record{V: m.Header.Manifest.RecordVersion, Strategy: c.Strategy, Corpus: c.Corpus, CorpusSHA: sha, Rules: c.Rules,
			Deck: sh.K - 1 + j*sh.N, Won: g.Placed == solver.DeckSize, Placed: g.Placed, End: g.End, Micros: g.Micros}
		res = rec.AppendJSON(res)
	}
	for _, f := range []struct {
		name, want string
		data       []byte
	}{{tournament.ManifestFile, s.ManifestSHA256, man}, {tournament.ResultsFile, s.ResultsSHA256, res}} {
		if got := sum(f.data); got != f.want {
			return nil, fmt.Errorf("shard %s: %s expands to sha256 %s, not the %s it had", s.Shard, f.name, got, f.want)
		}
	}
	files := map[string][]byte{ConfigFile: m.Config, tournament.ManifestFile: man, tournament.ResultsFile: res}
	if m.Header.Manifest.Sums != nil {
		// The records' checksums, anew: the records are the shard's (checked above).
		files[tournament.SumsFile] = tournament.SumsOf(res)
	}
	return files, nil
}

// manifest returns a shard's manifest.json as tournament.WriteManifest
// wrote it.
func (m *Measurement) manifest(shard string) ([]byte, error) {
	man := m.Header.Manifest
	man.Shard = shard
	man.Bounds = append([]tournament.ManifestBound(nil), man.Bounds...)
	if len(m.Header.Verdicts) != len(man.Bounds) {
		return nil, fmt.Errorf("%d bounds, %d verdicts", len(man.Bounds), len(m.Header.Verdicts))
	}
	for i, v := range m.Header.Verdicts {
		s, err := expandRuns(v.Runs)
		if err != nil {
			return nil, fmt.Errorf("bound %d: %w", i+1, err)
		}
		if got := sum([]byte(s)); got != v.SHA256 {
			return nil, fmt.Errorf("bound %d: verdicts of sha256 %s, want %s", i+1, got, v.SHA256)
		}
		man.Bounds[i].Verdicts = s
	}
	b, err := json.MarshalIndent(man, "", "  ")
	return append(b, '\n'), err
}

// Expand writes each shard's files (ShardFiles) into dir/shard-k. A file
// already there with other contents is an error (a shard played on from
// an expansion, say), not overwritten.
func (m *Measurement) Expand(dir string) ([]string, error) {
	var dirs []string
	for i, s := range m.Header.Shards {
		files, err := m.ShardFiles(i)
		if err != nil {
			return nil, err
		}
		k, _, _ := strings.Cut(s.Shard, "/")
		d := filepath.Join(dir, "shard-"+k)
		if err := os.MkdirAll(d, 0o755); err != nil {
			return nil, err
		}
		for _, name := range []string{ConfigFile, tournament.ManifestFile, tournament.ResultsFile, tournament.SumsFile} {
			if files[name] == nil {
				continue // a shard of a calcsol that kept no checksums
			}
			p := filepath.Join(d, name)
			old, err := os.ReadFile(p)
			switch {
			case err == nil && bytes.Equal(old, files[name]):
				continue
			case err == nil:
				return nil, fmt.Errorf("%s holds other contents than the kept records: move it away first", p)
			case !errors.Is(err, os.ErrNotExist):
				return nil, err
			}
			if err := os.WriteFile(p, files[name], 0o644); err != nil {
				return nil, err
			}
		}
		dirs = append(dirs, d)
	}
	return dirs, nil
}

func sum(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

// runs encodes s as runs of one character: "WWWL" is "3W1L".
func runs(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		j := i
		for j < len(s) && s[j] == s[i] {
			j++
		}
		b.WriteString(strconv.Itoa(j - i))
		b.WriteByte(s[i])
		i = j
	}
	return b.String()
}

// maxVerdicts bounds the verdicts expandRuns writes: a verdict a deck, and
// a corpus is far smaller.
const maxVerdicts = 1 << 24

// expandRuns is the inverse of runs.
func expandRuns(r string) (string, error) {
	var b strings.Builder
	for i := 0; i < len(r); {
		j := i
		for j < len(r) && r[j] >= '0' && r[j] <= '9' {
			j++
		}
		n, err := strconv.Atoi(r[i:j])
		if err != nil || j == len(r) || n < 1 {
			return "", fmt.Errorf("runs %.40q: at %d, want a count and a character", r, i)
		}
		if n > maxVerdicts-b.Len() {
			return "", fmt.Errorf("runs %.40q: more than %d verdicts", r, maxVerdicts)
		}
		b.WriteString(strings.Repeat(r[j:j+1], n))
		i = j + 1
	}
	return b.String(), nil
}
