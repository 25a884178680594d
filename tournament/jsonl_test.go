package tournament

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
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

func TestCompareFiles(t *testing.T) {
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
	tests := []struct {
		name, a, b string
		want       Paired
		err        string
	}{
		{"paired", pa, pb, Paired{Games: 3, Both: 1, OnlyA: 1, OnlyB: 1}, ""},
		{"itself", pa, pa, Paired{Games: 3, Both: 2, Neither: 1}, ""},
		{"missing", pa, filepath.Join(dir, "none.jsonl"), Paired{}, "none.jsonl: no such file"},
		{"other rules", pa, write("four.jsonl", four, true, false, true), Paired{}, "four.jsonl: the runs played different rules"},
		{"other corpus", pa, write("corpus.jsonl", corpus, true, false, true), Paired{}, "corpus.jsonl: the runs played different corpora"},
		{"other length", pa, write("short.jsonl", b, true), Paired{}, "compare: 3 results against 1"},
		{"not records", pa, write("empty.jsonl", b), Paired{}, "empty.jsonl: no records"},
		{"shards", writeShard("s1.jsonl", testID, 0, 30, true, false, true), writeShard("s1b.jsonl", b, 0, 30, false, false, true), Paired{Games: 3, Both: 1, OnlyA: 1, Neither: 1}, ""},
		{"other shard", writeShard("s1c.jsonl", testID, 0, 30, true, false, true), writeShard("s2.jsonl", b, 1, 30, true, false, true), Paired{}, "compare: result 0 is deck 0 in one run and deck 1 in the other"},
	}
	for _, tt := range tests {
		runs, c, err := CompareFiles(tt.a, tt.b)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%s: error %v, want one containing %q", tt.name, err, tt.err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if c.Games != tt.want.Games || c.Both != tt.want.Both || c.OnlyA != tt.want.OnlyA || c.OnlyB != tt.want.OnlyB || c.Neither != tt.want.Neither || len(runs[0]) != 3 {
			t.Errorf("%s: %+v, want %+v", tt.name, c, tt.want)
		}
	}
}
