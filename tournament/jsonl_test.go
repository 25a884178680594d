package tournament

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/calcsol/calcsol/tournament/stats"
)

var testID = RunID{Strategy: "greedy", Corpus: "small", CorpusSHA: "abc", Rules: "3-base"}

func TestWriteJSONL(t *testing.T) {
	res := []DeckResult{
		{Deck: 0, Won: true, Placed: 52, Reason: "won"},
		{Deck: 1, Placed: 37, Reason: "stuck"},
		{Deck: 2, Placed: 3, Failed: true, Reason: `strategy panicked: "<x>"`},
		{Deck: 3, Placed: 0, Failed: true},
	}
	var b bytes.Buffer
	if err := WriteJSONL(&b, testID, res); err != nil {
		t.Fatal(err)
	}
	want := `{"v":1,"strategy":"greedy","corpus":"small","corpus_sha256":"abc","rules":"3-base","deck":0,"won":true,"placed":52,"end":"won"}
{"v":1,"strategy":"greedy","corpus":"small","corpus_sha256":"abc","rules":"3-base","deck":1,"won":false,"placed":37,"end":"stuck"}
{"v":1,"strategy":"greedy","corpus":"small","corpus_sha256":"abc","rules":"3-base","deck":2,"won":false,"placed":3,"failed":true,"end":"strategy panicked: \"\u003cx\u003e\""}
{"v":1,"strategy":"greedy","corpus":"small","corpus_sha256":"abc","rules":"3-base","deck":3,"won":false,"placed":0,"failed":true,"end":"failed"}
`
	if diff := cmp.Diff(want, b.String()); diff != "" {
		t.Fatalf("(-want +got):\n%s", diff)
	}
	id, got, err := ReadJSONL(&b)
	if err != nil {
		t.Fatal(err)
	}
	if id != testID {
		t.Errorf("id %+v, want %+v", id, testID)
	}
	res[3].Reason = "failed"
	if diff := cmp.Diff(res, got); diff != "" {
		t.Errorf("round trip (-want +got):\n%s", diff)
	}
}

func TestReadJSONLErrors(t *testing.T) {
	rec := func(fields string) string {
		return `{"v":1,"strategy":"s","corpus":"c","corpus_sha256":"x","rules":"3-base",` + fields + "}\n"
	}
	tests := []struct {
		name, in, want string
	}{
		{"order", rec(`"deck":2,"won":false,"placed":1`) + rec(`"deck":1,"won":false,"placed":1`), "results line 2: deck 1 after deck 2"},
		{"twice", rec(`"deck":0,"won":false,"placed":1`) + rec(`"deck":0,"won":false,"placed":1`), "results line 2: deck 0 after deck 0"},
		{"negative", rec(`"deck":-1,"won":false,"placed":1`), "results line 1: deck -1"},
		{"missing won", rec(`"deck":0,"placed":1`), `results line 1: want "deck", "won" and "placed"`},
		{"old format", `{"deck":0,"won":false,"placed":1}` + "\n", `results line 1: no "v" (format version)`},
		{"other version", `{"v":2,"deck":0,"won":false,"placed":1}` + "\n", `results line 1: record format version 2`},
		{"no corpus", `{"v":1,"strategy":"s","rules":"3-base","deck":0,"won":false,"placed":1}` + "\n", `results line 1: want "strategy", "corpus"`},
		{"unknown field", rec(`"deck":0,"won":false,"placed":1,"x":2`), `results line 1: json: unknown field "x"`},
		{"placed range", rec(`"deck":0,"won":false,"placed":53`), "results line 1: placed 53; want 0..52"},
		{"won without 52", rec(`"deck":0,"won":true,"placed":51`), "results line 1: won is true with 51 cards placed"},
		{"two runs", rec(`"deck":0,"won":false,"placed":1`) + strings.Replace(rec(`"deck":1,"won":false,"placed":1`), `"x"`, `"y"`, 1), "results line 2: a record of s on c under 3-base among"},
		{"not json", "\n\ndeck 0\n", "results line 3: invalid character"},
		{"empty", "", "no records"},
		{"torn last line", rec(`"deck":0,"won":false,"placed":1`) + `{"v":1,"strat`, "results line 2: incomplete last line"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := ReadJSONL(strings.NewReader(tc.in))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
}

func TestRunIDPaired(t *testing.T) {
	other := testID
	other.CorpusSHA = "def"
	if err := testID.Paired(other); err == nil || !strings.Contains(err.Error(), "different corpora") {
		t.Errorf("different corpora: %v", err)
	}
	other = testID
	other.Rules = "4-base"
	if err := testID.Paired(other); err == nil || !strings.Contains(err.Error(), "different rules (3-base; 4-base)") {
		t.Errorf("different rules: %v", err)
	}
	other = testID
	other.Strategy = "random"
	if err := testID.Paired(other); err != nil {
		t.Errorf("two strategies on the same decks: %v", err)
	}
}

// FuzzReadJSONL checks that whatever ReadJSONL accepts, WriteJSONL writes back
// in a form that reads to the same results (parse → write → parse).
func FuzzReadJSONL(f *testing.F) {
	f.Add(`{"v":1,"strategy":"s","corpus":"c","corpus_sha256":"x","rules":"3-base","deck":0,"won":true,"placed":52}` + "\n")
	f.Add(`{"v":1,"strategy":"s<&>","corpus":"c","corpus_sha256":"x","rules":"3-base","deck":0,"won":false,"placed":3,"failed":true,"end":"\u2028"}`)
	f.Fuzz(func(t *testing.T, in string) {
		id, res, err := ReadJSONL(strings.NewReader(in))
		if err != nil {
			return
		}
		var b bytes.Buffer
		if err := WriteJSONL(&b, id, res); err != nil {
			t.Fatal(err)
		}
		id2, again, err := ReadJSONL(&b)
		if err != nil {
			t.Fatalf("re-reading %q: %v", b.String(), err)
		}
		if diff := cmp.Diff(res, again); diff != "" || id != id2 {
			t.Fatalf("round trip (-first +second):\n%s", diff)
		}
	})
}

func TestCompareRuns(t *testing.T) {
	dir := t.TempDir()
	// writeShard writes the records of the decks first, first+step, … (a
	// tournament shard's).
	writeShard := func(name string, id RunID, first, step int, won ...bool) string {
		var res []DeckResult
		for i, w := range won {
			res = append(res, DeckResult{Deck: first + i*step, Won: w, Placed: map[bool]int{true: 52, false: 7}[w]})
		}
		var b strings.Builder
		if err := WriteJSONL(&b, id, res); err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	write := func(name string, id RunID, won ...bool) string { return writeShard(name, id, 0, 1, won...) }
	b := testID
	b.Strategy = "other"
	four, corpus := testID, testID
	four.Rules, corpus.CorpusSHA = "4-base", "def"
	pa := write("a.jsonl", testID, true, false, true)
	pb := write("b.jsonl", b, true, true, false)
	s1 := writeShard("s1.jsonl", testID, 0, 30, true, false, true)
	s1b := writeShard("s1b.jsonl", b, 0, 30, false, false, true)
	s2 := writeShard("s2.jsonl", testID, 1, 30, true, true, false)
	s2b := writeShard("s2b/"+ResultsFile, b, 1, 30, false, true, true) // a report directory's
	short := write("short.jsonl", b, true)
	// A shard being played: a torn last line (left out), and one that has
	// recorded nothing yet (passed over); the same torn file outside a
	// report directory is refused.
	torn := writeShard("torn/"+ResultsFile, b, 0, 30, false, false)
	data, err := os.ReadFile(torn)
	if err != nil {
		t.Fatal(err)
	}
	data = append(data, data[:20]...)
	for _, p := range []string{torn, filepath.Join(dir, "torn.jsonl")} {
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	empty := filepath.Join(dir, "empty-shard")
	if err := os.MkdirAll(empty, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(empty, ResultsFile), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	// The same records gzipped: a file as gzip(1) makes it, one member, and
	// report directories as a run writes them, a member a block (one of
	// them torn at the end: a shard being played), beside one that holds
	// both forms.
	gzipped := func(from, to string, members bool, cut int) string {
		data, err := os.ReadFile(from)
		if err != nil {
			t.Fatal(err)
		}
		var z bytes.Buffer
		if members {
			w := newRecordWriter(true, 1, nil)
			for _, l := range bytes.SplitAfter(data, []byte("\n")) {
				w.add(l)
				w.closeBlock() // a member a line, so that there are several
			}
			z = w.Data
		} else {
			zw := gzip.NewWriter(&z)
			zw.Write(data)
			zw.Close()
		}
		to = filepath.Join(dir, to)
		os.MkdirAll(filepath.Dir(to), 0o755)
		if err := os.WriteFile(to, z.Bytes()[:z.Len()-cut], 0o644); err != nil {
			t.Fatal(err)
		}
		return to
	}
	s1gz := gzipped(s1, "s1.jsonl.gz", false, 0)
	s2bgz := filepath.Dir(gzipped(s2b, "s2bgz/"+CompressedResultsFile, true, 0))
	tornGz := filepath.Dir(gzipped(s1b, "torngz/"+CompressedResultsFile, true, 10))
	both := filepath.Dir(gzipped(s2b, "both/"+CompressedResultsFile, true, 0))
	writeShard("both/"+ResultsFile, b, 1, 30, false, true, true)
	files := func(p ...string) []string { return p }
	tests := []struct {
		name    string
		a, b    []string
		common  bool
		want    stats.Paired
		decks   []int  // the decks compared
		leftOut [2]int // decks only one run recorded
		err     string
	}{
		{"paired", files(pa), files(pb), false, stats.Paired{Games: 3, Both: 1, OnlyA: 1, OnlyB: 1}, []int{0, 1, 2}, [2]int{}, ""},
		{"itself", files(pa), files(pa), false, stats.Paired{Games: 3, Both: 2, Neither: 1}, []int{0, 1, 2}, [2]int{}, ""},
		{"missing", files(pa), files(filepath.Join(dir, "none.jsonl")), false, stats.Paired{}, nil, [2]int{}, "none.jsonl: no such file"},
		{"no file", files(pa), nil, false, stats.Paired{}, nil, [2]int{}, "no file given"},
		{"other rules", files(pa), files(write("four.jsonl", four, true, false, true)), false, stats.Paired{}, nil, [2]int{}, "four.jsonl: the runs played different rules"},
		{"other corpus", files(pa), files(write("corpus.jsonl", corpus, true, false, true)), false, stats.Paired{}, nil, [2]int{}, "corpus.jsonl: the runs played different corpora"},
		{"other length", files(pa), files(short), false, stats.Paired{}, nil, [2]int{}, "the runs cover different decks (3 and 1, 1 recorded by both)"},
		{"other length, common", files(pa), files(short), true, stats.Paired{Games: 1, Both: 1}, []int{0}, [2]int{2, 0}, ""},
		{"not records", files(pa), files(write("empty.jsonl", b)), false, stats.Paired{}, nil, [2]int{}, "empty.jsonl: no records"},
		{"shards", files(s1), files(s1b), false, stats.Paired{Games: 3, Both: 1, OnlyA: 1, Neither: 1}, []int{0, 30, 60}, [2]int{}, ""},
		{"other shard", files(s1), files(s2b), false, stats.Paired{}, nil, [2]int{}, "different decks (3 and 3, 0 recorded by both)"},
		{"other shard, common", files(s1), files(s2b), true, stats.Paired{}, nil, [2]int{}, "different decks (3 and 3, 0 recorded by both)"},
		{"two shards each, one a directory", files(s2, s1), files(s1b, filepath.Dir(s2b)), false, stats.Paired{Games: 6, Both: 2, OnlyA: 2, OnlyB: 1, Neither: 1}, []int{0, 1, 30, 31, 60, 61}, [2]int{}, ""},
		{"two shards against one, common", files(s1, s2), files(s1b), true, stats.Paired{Games: 3, Both: 1, OnlyA: 1, Neither: 1}, []int{0, 30, 60}, [2]int{3, 0}, ""},
		{"a deck twice", files(s1, s1), files(s1b), false, stats.Paired{}, nil, [2]int{}, "deck 0 is recorded in " + s1 + " too"},
		{"a shard being played, common", files(s1), files(filepath.Dir(torn), empty), true, stats.Paired{Games: 2, OnlyA: 1, Neither: 1}, []int{0, 30}, [2]int{1, 0}, ""},
		{"a torn file", files(s1), files(filepath.Join(dir, "torn.jsonl")), true, stats.Paired{}, nil, [2]int{}, "torn.jsonl: results line 3: incomplete last line"},
		{"nothing recorded yet", files(s1), files(empty), true, stats.Paired{}, nil, [2]int{}, "empty-shard: no records"},
		{"two strategies", files(s1, s2b), files(s1b), false, stats.Paired{}, nil, [2]int{}, "not one run"},
		{"gzipped", files(s2, s1gz), files(s1b, s2bgz), false, stats.Paired{Games: 6, Both: 2, OnlyA: 2, OnlyB: 1, Neither: 1}, []int{0, 1, 30, 31, 60, 61}, [2]int{}, ""},
		{"a gzipped shard being played, common", files(s1), files(tornGz), true, stats.Paired{Games: 2, OnlyA: 1, Neither: 1}, []int{0, 30}, [2]int{1, 0}, ""},
		{"a torn gzipped file", files(s1), files(gzipped(s1b, "torn.jsonl.gz", true, 10)), true, stats.Paired{}, nil, [2]int{}, "torn.jsonl.gz: results line 3: incomplete last gzip member (a torn write)"},
		{"both forms in a directory", files(s2), files(both), false, stats.Paired{}, nil, [2]int{}, "holds both results.jsonl.gz and results.jsonl"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := CompareRuns(tt.a, tt.b, tt.common)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error %v, want one containing %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			c.P = 0
			if c.Paired != tt.want || c.LeftOut != tt.leftOut {
				t.Errorf("%+v, left out %v; want %+v, %v", c.Paired, c.LeftOut, tt.want, tt.leftOut)
			}
			for i := range c.Runs {
				var decks []int
				for _, r := range c.Runs[i] {
					decks = append(decks, r.Deck)
				}
				if !slices.Equal(decks, tt.decks) {
					t.Errorf("run %d compares decks %v, want %v", i, decks, tt.decks)
				}
			}
			if d, _, _ := stats.PairedDiff(c.Both, c.OnlyA, c.OnlyB, c.Neither); c.Diff != d {
				t.Errorf("diff %v, want %v", c.Diff, d)
			}
		})
	}
}

// CompareRuns estimates a run's rate on all the decks of the other when its
// decks are a sample of them (every 5th deck here: a shard), whichever side
// it is on, and only then, with enough decks.
func TestCompareRunsEstimate(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, id RunID, decks int, step int, won func(d int) bool) string {
		var res []DeckResult
		for d := 0; d < decks; d += step {
			res = append(res, DeckResult{Deck: d, Won: won(d), Placed: map[bool]int{true: 52, false: 9}[won(d)]})
		}
		var b strings.Builder
		if err := WriteJSONL(&b, id, res); err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	other := testID
	other.Strategy = "stronger"
	weak := func(d int) bool { return d%3 == 0 }               // 334 of 1000
	strong := func(d int) bool { return d%3 == 0 || d%7 == 1 } // more
	full := write("full.jsonl", testID, 1000, 1, weak)
	sample := write("sample.jsonl", other, 1000, 5, strong)          // 200 decks
	small := write("small.jsonl", other, 1000, 10, strong)           // 100: too few
	fullStrong := write("full-strong.jsonl", other, 1000, 1, strong) // the truth
	truth, err := CompareRuns([]string{full}, []string{fullStrong}, false)
	if err != nil {
		t.Fatal(err)
	}
	if truth.Estimate != nil {
		t.Errorf("runs on the same decks: estimate %+v", truth.Estimate)
	}
	for _, tc := range []struct {
		name string
		a, b string
		run  int
	}{{"B a sample", full, sample, 1}, {"A a sample", sample, full, 0}} {
		c, err := CompareRuns([]string{tc.a}, []string{tc.b}, true)
		if err != nil {
			t.Fatal(err)
		}
		e := c.Estimate
		if e == nil || e.Run != tc.run || e.Decks != 1000 || e.Sample != 200 {
			t.Fatalf("%s: estimate %+v", tc.name, e)
		}
		p := c.Paired
		if tc.run == 0 {
			p.OnlyA, p.OnlyB = p.OnlyB, p.OnlyA
		}
		if est, lo, hi := stats.DifferenceEstimate(334, 1000, p); e.Rate != est || e.Lo != lo || e.Hi != hi {
			t.Errorf("%s: %+v, want %v [%v, %v]", tc.name, e, est, lo, hi)
		}
		rate := float64(truth.Both+truth.OnlyB) / 1000 // the stronger run's own rate on all 1000
		if !(e.Lo <= rate && rate <= e.Hi) {
			t.Errorf("%s: %.4f [%.4f, %.4f] misses the rate on all the decks, %.4f", tc.name, e.Rate, e.Lo, e.Hi, rate)
		}
	}
	if c, err := CompareRuns([]string{full}, []string{small}, true); err != nil || c.Estimate != nil {
		t.Errorf("100 decks: estimate %+v, %v; want none (fewer than %d)", c.Estimate, err, stats.MinEstimateSample)
	}
}
