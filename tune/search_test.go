package tune

import (
	"bytes"
	"context"
	"errors"
	"image/png"
	"os"
	"strings"
	"testing"

	"github.com/calcsol/calcsol/configs"
	"github.com/calcsol/calcsol/internal/longtest"
	"github.com/calcsol/calcsol/solver"
	"github.com/calcsol/calcsol/strategies"
)

func corpus(t *testing.T, count int, seed uint64) *Corpus {
	t.Helper()
	c, err := CorpusSpec{Deck: "standard52", Shuffle: "U", Count: count, Seed: seed}.Generate("test")
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// build plays a candidate's table with its parameters as table options.
func build(c Candidate) (solver.Strategy, error) {
	load := func(string, int) (*strategies.Table, error) { return CloneTable(c.Table), nil }
	return strategies.PriorityKind(load).Build(c.Params)
}

// testOptions is a small search: 400 training and validation decks, 150
// under the race detector (package longtest), whose value is in the
// workers' concurrency.
func testOptions(t *testing.T, evals int, workers int) Options {
	n := longtest.Size(150, 150, 400) // decks a corpus: the checks compare searches with each other
	return Options{
		Rules:     solver.Rules{Stacks: 3},
		Train:     corpus(t, n, 5),
		Validate:  corpus(t, n, 6),
		Space:     &Space{Rules: solver.Rules{Stacks: 3}, Ops: true, Options: []string{"tx_respects_reservation"}},
		Start:     Candidate{Table: table1(t), Params: map[string]string{}},
		StartName: "table1",
		Build:     build,
		Seed:      7,
		Evals:     evals,
		Accept:    AcceptRule{Alpha: 0.2},
		Race:      0.25,
		Patience:  15,
		Kick:      2,
		Workers:   workers,
	}
}

func search(t *testing.T, opt Options) (*Result, string) {
	t.Helper()
	var log bytes.Buffer
	opt.Log = &log
	res, err := Search(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	return res, log.String()
}

// TestSearchDeterministic: the same seed and budget give the same log and
// result, whatever the number of workers; another seed another search.
func TestSearchDeterministic(t *testing.T) {
	res1, log1 := search(t, testOptions(t, 60, 1))
	res2, log2 := search(t, testOptions(t, 60, 3))
	if log1 != log2 {
		t.Fatalf("same seed, different logs:\n%s\n---\n%s", log1, log2)
	}
	if res1.Best.Candidate.Text() != res2.Best.Candidate.Text() || res1.Best.Eval != res2.Best.Eval {
		t.Fatalf("same seed, different results")
	}
	if res1.Evals != 60 || len(res1.Records) != 61 {
		t.Fatalf("%d evaluations, %d records; want 60 and 61", res1.Evals, len(res1.Records))
	}
	kinds := map[string]int{}
	for _, r := range res1.Records {
		kinds[r.Kind]++
	}
	if kinds["kick"] == 0 || res1.Best.ValWins < res1.Start.ValWins {
		t.Errorf("kinds %v, best validation %d, start %d: want a kick and no loss", kinds, res1.Best.ValWins, res1.Start.ValWins)
	}
	opt := testOptions(t, 60, 1)
	opt.Seed = 8
	if _, log3 := search(t, opt); log3 == log1 {
		t.Error("another seed gave the same log")
	}
}

// TestSearchResume: a search stopped after some evaluations and resumed
// from its log ends with the same log and result as one run straight
// through, also when the log's last line was cut short.
func TestSearchResume(t *testing.T) {
	full, fullLog := search(t, testOptions(t, 50, 2))
	for _, cut := range []int{0, 1, 17, 30} {
		var partLog string
		if cut == 0 {
			// A budget of 0 is refused; resume from the start record alone.
			lines := strings.SplitAfter(fullLog, "\n")
			partLog = lines[0] + lines[1]
		} else {
			_, partLog = search(t, testOptions(t, cut, 2))
		}
		for _, torn := range []bool{false, true} {
			text := partLog
			if torn {
				text += `{"eval":` // killed while writing the next line
			}
			l, err := ReadLog(strings.NewReader(text), "part.jsonl")
			if err != nil {
				t.Fatal(err)
			}
			opt := testOptions(t, 50, 2)
			opt.Resume = l
			res, log := search(t, opt)
			if log != fullLog {
				t.Fatalf("cut %d: the resumed log differs from the uninterrupted one", cut)
			}
			if res.Best.Candidate.Text() != full.Best.Candidate.Text() || res.Best.Eval != full.Best.Eval || res.Best.TrainWins != full.Best.TrainWins {
				t.Fatalf("cut %d: resumed result differs", cut)
			}
		}
	}
	// A log of another search is refused.
	l, err := ReadLog(strings.NewReader(fullLog), "full.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	opt := testOptions(t, 50, 2)
	opt.Seed = 99
	opt.Resume = l
	if _, err := Search(context.Background(), opt); err == nil || !strings.Contains(err.Error(), "another search") {
		t.Errorf("resume with another seed: %v", err)
	}
}

func TestSearchCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	opt := testOptions(t, 1000, 2)
	var log bytes.Buffer
	opt.Log = &log
	opt.Progress = func(p Progress) {
		if p.Evals == 5 {
			cancel()
		}
	}
	res, err := Search(ctx, opt)
	if !errors.Is(err, context.Canceled) || res == nil || res.Evals != 5 {
		t.Fatalf("err %v, result %+v; want cancelled after 5", err, res)
	}
	l, err := ReadLog(&log, "log")
	if err != nil || len(l.Records) != 6 {
		t.Fatalf("log after cancel: %v, %d records", err, len(l.Records))
	}
}

func TestAcceptRule(t *testing.T) {
	tests := []struct {
		name              string
		rule              AcceptRule
		onlyInc, onlyCand int
		want              bool
	}{
		{"no discordant decks", DefaultAccept, 0, 0, false},
		{"equal", DefaultAccept, 20, 20, false},
		{"better but not significant", DefaultAccept, 10, 15, false},
		{"significantly better", DefaultAccept, 10, 30, true},
		{"significantly worse", DefaultAccept, 30, 10, false},
		{"all six only the candidate's", DefaultAccept, 0, 6, true}, // p = 2/64
		{"five only the candidate's", DefaultAccept, 0, 5, false},   // p = 2/32
		{"large and close", DefaultAccept, 1000, 1100, true},        // p ≈ 0.03
		{"large and closer", DefaultAccept, 1000, 1080, false},      // p ≈ 0.08
		{"margin met", AcceptRule{Margin: 5}, 10, 15, true},         // 5 more
		{"margin missed", AcceptRule{Margin: 5}, 10, 14, false},     // 4 more
		{"margin ignores alpha", AcceptRule{Margin: 3, Alpha: 1}, 3, 5, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, p := tc.rule.Better(tc.onlyInc, tc.onlyCand)
			if got != tc.want {
				t.Errorf("Better(%d, %d) = %v (p = %.4g), want %v", tc.onlyInc, tc.onlyCand, got, p, tc.want)
			}
		})
	}
}

// TestCorpusSpec: a spec makes the same decks as `calcsol corpus generate`;
// the shipped uniform-1000 corpus is shuffle U, seed 1.
func TestCorpusSpec(t *testing.T) {
	c := corpus(t, 1000, 1)
	shipped, err := LoadCorpus("uniform-1000", nil)
	if err != nil {
		t.Fatal(err)
	}
	if c.Checksum != shipped.Checksum || len(c.Decks) != 1000 || c.Decks[999] != shipped.Decks[999] {
		t.Errorf("spec checksum %s, shipped %s", c.Checksum, shipped.Checksum)
	}
	for _, name := range configs.TuneCorpusNames() {
		data, _ := configs.TuneCorpusSpec(name)
		if _, err := ParseCorpusSpec(data, name); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	if _, err := ParseCorpusSpec([]byte("shuffle: U\ncount: 3\nseed: 1\ncolour: red\n"), "x.yaml"); err == nil {
		t.Error("unknown key accepted")
	}
}

func TestWriteChart(t *testing.T) {
	res, _ := search(t, testOptions(t, 40, 2))
	path := t.TempDir() + "/curve.png"
	if err := WriteChart(path, res, "test"); err != nil {
		t.Fatal(err)
	}
	fh, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	img, err := png.Decode(fh)
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() < 400 || b.Dy() < 200 {
		t.Errorf("chart %v: too small", b)
	}
}

// TestSearchParams: the same search tunes declared parameters, here two of
// the priority kind's, without touching the table.
func TestSearchParams(t *testing.T) {
	opt := testOptions(t, 8, 2)
	opt.Space = &Space{Rules: opt.Rules, Params: []solver.Param{
		{Name: "deadlock_check", Kind: solver.ParamChoice, Choices: []string{"partial", "exact", "none"}},
		{Name: "tx_respects_reservation", Kind: solver.ParamBool},
	}}
	opt.Start.Params = map[string]string{"deadlock_check": "partial", "tx_respects_reservation": "true"}
	opt.Patience = 4
	res, _ := search(t, opt)
	for r := solver.Rank(1); r <= solver.NumRanks; r++ {
		if strategies.FormatOps(res.Best.Candidate.Table.Ops[r]) != strategies.FormatOps(opt.Start.Table.Ops[r]) {
			t.Fatalf("rank %s changed while only parameters were tuned", r)
		}
	}
	// The exact deadlock check wins more than the partial one (priority.md).
	if res.Best.Candidate.Params["deadlock_check"] != "exact" {
		t.Errorf("best %v, want deadlock_check=exact", res.Best.Candidate.Params)
	}
}
