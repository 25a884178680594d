package tune

import (
	"bytes"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/calcsol/calcsol/configs"
	"github.com/calcsol/calcsol/internal/golden"
	"github.com/calcsol/calcsol/solver"
	"github.com/calcsol/calcsol/tournament"
	"github.com/calcsol/calcsol/tournament/stats"
)

func TestNewSetup(t *testing.T) {
	r := solver.Rules{Stacks: 3}
	tests := []struct {
		name        string
		in          SetupInput
		want        string // error, or "" for none
		startName   string
		params      []string
		incremental bool
	}{
		{"table", SetupInput{Spec: "priority", Table: "nanzaki-shintani"}, "", "nanzaki-shintani", nil, true},
		{"param", SetupInput{Spec: "priority", NoOps: true, Params: []string{"deadlock_check"}}, "", "priority", []string{"deadlock_check"}, false},
		{"option folded", SetupInput{Spec: "priority:deadlock_check=exact", Tune: []string{"tx_respects_reservation"}}, "", "nanzaki-shintani", nil, true},
		{"table with greedy", SetupInput{Spec: "greedy", Table: "nanzaki-shintani"}, "--table, --option, --options and --extended-ops go with --strategy priority, not greedy", "", nil, false},
		{"bad option", SetupInput{Spec: "priority", Options: []string{"deadlock_check"}}, `--option "deadlock_check": want key=value`, "", nil, false},
		{"undeclared param", SetupInput{Spec: "greedy", Params: []string{"depth"}}, `--param depth: no kind of "greedy" declares it`, "", nil, false},
		{"unknown kind", SetupInput{Spec: "gready", Params: []string{"depth"}}, `--strategy: unknown kind "gready"`, "", nil, false},
		{"nothing", SetupInput{Spec: "priority", NoOps: true}, "nothing to tune", "", nil, false},
		// With the table not tuned, --table and --option go into the spec.
		{"table in spec", SetupInput{Spec: "priority", Table: "tuned-3", Options: []string{"on_exhausted=lose"}, NoOps: true, Params: []string{"deadlock_check"}}, "", "priority:on_exhausted=lose,table=tuned-3", []string{"deadlock_check"}, false},
		{"bad option in spec", SetupInput{Spec: "priority", Options: []string{"on_exhausted"}, NoOps: true, Params: []string{"deadlock_check"}}, `--option "on_exhausted": want key=value`, "", nil, false},
		{"option given twice", SetupInput{Spec: "priority:on_exhausted=lose", Options: []string{"on_exhausted=last-stack"}, NoOps: true, Params: []string{"deadlock_check"}}, "--option on_exhausted=last-stack: the strategy sets on_exhausted=lose", "", nil, false},
		{"option given twice, table tuned", SetupInput{Spec: "priority:deadlock_check=partial", Options: []string{"deadlock_check=exact"}}, "--option deadlock_check=exact: the strategy sets deadlock_check=partial", "", nil, false},
		{"option given twice, alike", SetupInput{Spec: "priority:deadlock_check=exact", Options: []string{"deadlock_check=exact"}}, "", "nanzaki-shintani", nil, true},
		{"extended without ops", SetupInput{Spec: "priority", NoOps: true, Extended: true, Params: []string{"deadlock_check"}}, "--extended-ops goes with tuning the table's operations", "", nil, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, err := NewSetup(configs.Strategies(), tc.in, r, configs.LoadPriorityFor)
			if tc.want != "" {
				if err == nil || !strings.Contains(err.Error(), tc.want) {
					t.Fatalf("error %v, want one containing %q", err, tc.want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var params []string
			for _, p := range s.Space.Params {
				params = append(params, p.Name)
			}
			if s.StartName != tc.startName || !slices.Equal(params, tc.params) || s.Incremental != tc.incremental {
				t.Errorf("start %q, params %v, incremental %v; want %q, %v, %v", s.StartName, params, s.Incremental, tc.startName, tc.params, tc.incremental)
			}
		})
	}
}

// The output of a search, as a table file's provenance and as a spec file,
// against golden files.
func TestSetupOutput(t *testing.T) {
	r := solver.Rules{Stacks: 3}
	train := &Corpus{Name: "train", About: "shuffle U, 10 decks, seed 1", Checksum: "aa"}
	val := &Corpus{Name: "val", About: "shuffle U, 10 decks, seed 2", Checksum: "bb"}
	opt := Options{Rules: r, Train: train, Validate: val, Seed: 7, Accept: DefaultAccept, Workers: 4}
	rep := &Report{Corpus: CorpusInfo{Name: "test", About: "shuffle U, 10 decks, seed 3", Checksum: "cc"},
		Start:  tournament.Summary{Wins: 4, Games: 10, Rate: 0.4, Lo: 0.17, Hi: 0.69},
		Tuned:  tournament.Summary{Wins: 6, Games: 10, Rate: 0.6, Lo: 0.31, Hi: 0.83},
		Paired: stats.Paired{Games: 10, Both: 4, OnlyA: 2, Neither: 4, P: 0.5},
		Diff:   0.2, Lo: -0.1, Hi: 0.45}
	tests := []struct {
		name string
		in   SetupInput
		rep  *Report
	}{
		{"table", SetupInput{Spec: "priority", Table: "nanzaki-shintani"}, rep},
		{"spec", SetupInput{Spec: "priority", NoOps: true, Params: []string{"deadlock_check"}}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, err := NewSetup(configs.Strategies(), tc.in, r, configs.LoadPriorityFor)
			if err != nil {
				t.Fatal(err)
			}
			best := s.Start
			if best.Params["deadlock_check"] != "" {
				best.Params = map[string]string{"deadlock_check": "exact"}
			}
			res := &Result{Start: Point{Candidate: s.Start, TrainWins: 3, ValWins: 4},
				Best: Point{Candidate: best, Eval: 12, TrainWins: 5, ValWins: 6}, TrainDecks: 10, ValDecks: 10,
				Evals: 20, Replayed: 5, Games: 160, Skipped: 40, Elapsed: 2 * time.Second}
			o := s.Output(res, tc.rep, opt, "tuned", []string{"tune", "--out", "t.yaml", "--workers", "8", "--log=x.jsonl", ""})
			got := o.SpecFile()
			if o.Table != nil {
				got = configs.FormatPriority(o.Table, o.Provenance)
			}
			var sum bytes.Buffer
			WriteSummary(&sum, res, opt, "t.jsonl")
			golden.Check(t, "testdata/output-"+tc.name+".golden", append(sum.Bytes(), got...))
		})
	}
}

func TestResultArgs(t *testing.T) {
	tests := []struct {
		in, want []string
	}{
		{[]string{"tune", "--evals", "10"}, []string{"tune", "--evals", "10"}},
		{[]string{"tune", "--workers", "8", "--resume=a.jsonl", "--log", "l", "--chart", "c.png", "--seed", "2"}, []string{"tune", "--seed", "2"}},
		{[]string{"tune", "--test", ""}, []string{"tune", "--test", `""`}},
	}
	for _, tc := range tests {
		if got := ResultArgs(tc.in); !slices.Equal(got, tc.want) {
			t.Errorf("ResultArgs(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestCheckHeldOut(t *testing.T) {
	a, b, c := &Corpus{Name: "a", Checksum: "1"}, &Corpus{Name: "b", Checksum: "2"}, &Corpus{Name: "c", Checksum: "3"}
	tests := []struct {
		name                  string
		train, validate, test *Corpus
		want                  string
	}{
		{"apart", a, b, c, ""},
		{"no test", a, b, nil, ""},
		{"validate is train", a, a, c, "corpus a is the training corpus"},
		{"test is train", a, b, a, "corpus a is the training corpus"},
		{"test is validate", a, b, b, "the test corpus is the validation corpus"},
	}
	for _, tc := range tests {
		err := CheckHeldOut(tc.train, tc.validate, tc.test)
		if (tc.want == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.want)
		}
	}
}

// ProgressLine draws nothing where w is not a terminal.
func TestProgressLineOffTerminal(t *testing.T) {
	if ProgressLine(&bytes.Buffer{}) != nil {
		t.Error("a progress line for a buffer")
	}
}
