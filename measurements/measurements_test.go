package measurements_test

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/calcsol/calcsol/tournament"
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

// TestMeasurements reads every measurement's shards as `calcsol merge
// --partial` does (one program, config, seed and corpus; each record in
// its shard's share; no deck twice) and checks them against README.md's
// table: the finished shards, the games recorded (of unfinished shards too),
// the wins and the Wilson interval. No game may have failed, and a finished
// shard keeps its summary.md and summary.json.
func TestMeasurements(t *testing.T) {
	rows := readTable(t)
	dirs, err := filepath.Glob("*/*/manifest.json")
	if err != nil {
		t.Fatal(err)
	}
	names := map[string][]string{}
	for _, m := range dirs {
		shard := filepath.Dir(m)
		name := filepath.Dir(shard)
		names[name] = append(names[name], shard)
	}
	if len(names) == 0 {
		t.Fatal("no measurement here")
	}
	for name, shards := range names {
		t.Run(name, func(t *testing.T) {
			want, ok := rows[name]
			if !ok {
				t.Fatalf("README.md's table has no row for %s", name)
			}
			ta, _, progress, err := tournament.Progress(shards)
			if err != nil {
				t.Fatal(err)
			}
			var done []int
			for _, p := range progress {
				if !p.Done() {
					continue
				}
				done = append(done, p.Shard.K)
				for _, f := range []string{"summary.md", "summary.json"} {
					if _, err := os.Stat(filepath.Join(p.Dir, f)); err != nil {
						t.Errorf("shard %d is finished but its %s is not kept: %v", p.Shard.K, f, err)
					}
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
			lo, hi := tournament.Wilson(c.Wins, c.Games, tournament.Z95)
			got := row{done, c.Games, c.Wins, pct(float64(c.Wins) / float64(c.Games)), pct(lo), pct(hi)}
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("README.md says %+v, the records %+v", want, got)
			}
		})
	}
}

func pct(p float64) string { return strconv.FormatFloat(100*p, 'f', 2, 64) }
