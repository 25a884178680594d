package measurements_test

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/calcsol/calcsol/measurements"
	"github.com/calcsol/calcsol/tournament"
	"github.com/calcsol/calcsol/tournament/stats"
)

// row is what README.md's table says of one measurement.
type row struct {
	shards       []int // the finished shards (others may be under way)
	games, wins  int
	rate, lo, hi string // as printed, without "%" and brackets: "74.00", "71.20", "76.62"
}

// readTable reads README.md's table of measurements: a row per directory,
//
//	| `name` | `configs/….yaml` | 12, 13 | 2,000 | 1,480 | 74.00 % [71.20, 76.62] |
func readTable(t *testing.T) map[string]row {
	t.Helper()
	f, err := os.Open("README.md")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	re := regexp.MustCompile("^\\| `([^`]+)` \\| `[^`]+` \\| ([0-9, ]+|none) \\| ([0-9,]+) \\| ([0-9,]+) \\| ([0-9.]+) % \\[([0-9.]+), ([0-9.]+)\\] \\|$")
	num := func(s string) int {
		n, err := strconv.Atoi(strings.ReplaceAll(s, ",", ""))
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	rows := map[string]row{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		m := re.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		var r row
		for _, k := range strings.Split(m[2], ",") {
			if k != "none" {
				r.shards = append(r.shards, num(strings.TrimSpace(k)))
			}
		}
		r.games, r.wins = num(m[3]), num(m[4])
		r.rate, r.lo, r.hi = m[5], m[6], m[7]
		rows[m[1]] = r
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return rows
}

// TestMeasurements expands every measurement's shards (package
// measurements) and reads them as `calcsol merge --partial` does (one
// program, config, seed and corpus; each record in its shard's share; no
// deck twice), then checks them against README.md's table: the finished
// shards, the games recorded (of unfinished shards too), the wins and the
// Wilson interval. No game may have failed.
func TestMeasurements(t *testing.T) {
	rows := readTable(t)
	names := kept(t)
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			want, ok := rows[name]
			if !ok {
				t.Fatalf("README.md's table has no row for %s", name)
			}
			ta, _, progress, err := tournament.Progress(expand(t, name))
			if err != nil {
				t.Fatal(err)
			}
			var done []int
			for _, p := range progress {
				if p.Done() {
					done = append(done, p.Shard.K)
				}
			}
			slices.Sort(done)
			if !slices.Equal(done, want.shards) {
				t.Errorf("shards %v here, README.md says %v", done, want.shards)
			}
			cells := ta.Tallies()
			if len(cells) != 1 {
				t.Fatalf("%d cells; a measurement is one strategy on one corpus under one rule", len(cells))
			}
			c := cells[0]
			if c.Failures != 0 {
				t.Errorf("%d failed games", c.Failures)
			}
			lo, hi := stats.Wilson(c.Wins, c.Games, stats.Z95)
			got := row{done, c.Games, c.Wins, pct(float64(c.Wins) / float64(c.Games)), pct(lo), pct(hi)}
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("README.md says %+v, the records %+v", want, got)
			}
		})
	}
	for name := range rows {
		if !slices.Contains(names, name) {
			t.Errorf("README.md's table has a row for %s, which is not kept here", name)
		}
	}
}

// expand writes measurement name's shard reports into a temporary
// directory and returns them.
func expand(t *testing.T, name string) []string {
	t.Helper()
	m, err := measurements.Read(name)
	if err != nil {
		t.Fatal(err)
	}
	shards, err := m.Expand(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return shards
}

// kept returns the measurements in this directory.
func kept(t *testing.T) []string {
	t.Helper()
	headers, err := filepath.Glob(filepath.Join("*", measurements.HeaderFile))
	if err != nil {
		t.Fatal(err)
	}
	if len(headers) == 0 {
		t.Fatal("no measurement here")
	}
	var names []string
	for _, h := range headers {
		names = append(names, filepath.Dir(h))
	}
	return names
}

// TestCompactRoundTrip expands a measurement into shard reports and keeps
// them again (measurements.Compact): the same header, config and records,
// whether the shards' records are plain (results.jsonl) or gzipped as a
// later calcsol writes them (results.jsonl.gz). Expand itself checks each
// shard's manifest.json and results.jsonl against the SHA-256 of the files
// the tournament wrote.
func TestCompactRoundTrip(t *testing.T) {
	const name = "contender-4"
	for _, gzipped := range []bool{false, true} {
		dirs := expand(t, name)
		if gzipped {
			for _, d := range dirs {
				gzipRecords(t, d)
			}
		}
		again, err := measurements.Compact(dirs)
		if err != nil {
			t.Fatal(err)
		}
		out := t.TempDir()
		if err := again.Write(out); err != nil {
			t.Fatal(err)
		}
		for _, f := range []string{measurements.HeaderFile, measurements.ConfigFile, measurements.RecordsFile} {
			a, b := readFile(t, filepath.Join(name, f)), readFile(t, filepath.Join(out, f))
			if !bytes.Equal(a, b) {
				t.Errorf("%s: kept again from gzipped records %t, it differs from %s", f, gzipped, filepath.Join(name, f))
			}
		}
	}
}

// gzipRecords replaces report dir's results.jsonl by its gzip,
// results.jsonl.gz.
func gzipRecords(t *testing.T, dir string) {
	t.Helper()
	plain := filepath.Join(dir, tournament.ResultsFile)
	b := readFile(t, plain)
	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	zw.Write(b)
	zw.Close()
	if err := os.WriteFile(filepath.Join(dir, tournament.CompressedResultsFile), z.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(plain); err != nil {
		t.Fatal(err)
	}
}

// readFile reads a file, gunzipped if its name ends in .gz: compress/gzip's
// output may change between Go releases, the records may not.
func readFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if strings.HasSuffix(path, ".gz") {
		zr, err := gzip.NewReader(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		if b, err = io.ReadAll(zr); err != nil {
			t.Fatal(err)
		}
	}
	return b
}

func pct(p float64) string { return strconv.FormatFloat(100*p, 'f', 2, 64) }

// quoteRe matches how the docs quote a measurement under way, the sentence
// possibly broken across lines: "won 4,521 of their 4,558 decks, 99.19 %
// [98.88, 99.41]".
var quoteRe = regexp.MustCompile(`won ([0-9,]+) of their ([0-9,]+) decks,\s+([0-9.]+) % \[([0-9.]+), ([0-9.]+)\]`)

// misquotes returns the quotes in text (as quoteRe matches them) that no row
// of the table says, and how many quotes it read.
func misquotes(text string, rows map[string]row) (bad []string, n int) {
	for _, m := range quoteRe.FindAllStringSubmatch(text, -1) {
		n++
		wins, games := strings.ReplaceAll(m[1], ",", ""), strings.ReplaceAll(m[2], ",", "")
		ok := false
		for _, r := range rows {
			if strconv.Itoa(r.wins) == wins && strconv.Itoa(r.games) == games &&
				r.rate == m[3] && r.lo == m[4] && r.hi == m[5] {
				ok = true
			}
		}
		if !ok {
			bad = append(bad, strings.Join(strings.Fields(m[0]), " "))
		}
	}
	return bad, n
}

func TestMisquotes(t *testing.T) {
	rows := map[string]row{"m": {games: 4558, wins: 4521, rate: "99.19", lo: "98.88", hi: "99.41"}}
	for _, c := range []struct {
		text string
		bad  int
	}{
		{"its shards won 4,521 of their 4,558 decks, 99.19 % [98.88, 99.41].", 0},
		{"its shards won 4,521 of their 4,558 decks,\n99.19 % [98.88, 99.41].", 0},
		{"its shards won 4,520 of their 4,558 decks, 99.19 % [98.88, 99.41].", 1},
		{"its shards won 4,521 of their 4,558 decks, 99.19 % [98.87, 99.41].", 1},
		{"won 4,521 of their 4,558 decks, 99.19 % [98.88, 99.41]; won 3,967 of their 4,000 decks, 99.17 % [98.84, 99.41]", 1},
	} {
		bad, n := misquotes(c.text, rows)
		if len(bad) != c.bad || n == 0 {
			t.Errorf("%q: %d quotes, misquoted %q; want %d misquoted", c.text, n, bad, c.bad)
		}
	}
}

// TestQuotedFigures checks that every figure of a measurement that README.md
// and docs/*.md quote (the findings are in docs/results.md, which must quote
// some) ("won W of their G decks, R % [lo, hi]") is
// a row of this directory's table, which TestMeasurements checks against the
// records: the quotes are written by hand as the shards come in.
func TestQuotedFigures(t *testing.T) {
	rows := readTable(t)
	files, err := filepath.Glob("../docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	total := 0
	for _, f := range append([]string{"../README.md"}, files...) {
		text, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		bad, n := misquotes(string(text), rows)
		total += n
		if filepath.Base(f) == "results.md" && n == 0 {
			t.Errorf("%s, where the findings are, quotes no measurement: the wording changed, so this test checks nothing there; update quoteRe", f)
		}
		for _, q := range bad {
			t.Errorf("%s quotes %q, which no row of README.md's table says", f, q)
		}
	}
	if total == 0 {
		t.Error("no quote of a measurement found: the docs' wording changed, so this test checks nothing; update quoteRe")
	}
}
