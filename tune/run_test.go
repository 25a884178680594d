package tune

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/calcsol/calcsol/configs"
	"github.com/calcsol/calcsol/solver"
)

// runJob is a small tuning run of Table 1 on corpus specs in dir.
func runJob(t *testing.T, dir string) Job {
	t.Helper()
	r := solver.Rules{Stacks: 3}
	s, err := NewSetup(configs.Strategies(), SetupInput{Spec: "priority", Table: "nanzaki-shintani"}, r, configs.LoadPriorityFor)
	if err != nil {
		t.Fatal(err)
	}
	spec := func(name string, seed string) string {
		path := filepath.Join(dir, name+".yaml")
		if err := os.WriteFile(path, []byte("shuffle: U\ncount: 60\nseed: "+seed+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	j := Job{Setup: s, Train: spec("train", "1"), Validate: spec("validate", "2"), Test: spec("test", "3"),
		Out: filepath.Join(dir, "t.yaml"), Log: filepath.Join(dir, "t.jsonl"), Chart: filepath.Join(dir, "t.png"),
		Name: "t", Args: []string{"tune", "--evals", "4"}, FormatTable: configs.FormatPriority}
	j.Options = Options{Rules: r, Seed: 1, Evals: 4, Accept: DefaultAccept, Patience: 3, Kick: 2, Workers: 2}
	return j
}

// Run loads the corpora, searches, tests and writes the result, the log
// and the chart; what it writes to Text comes after Searched.
func TestRun(t *testing.T) {
	dir := t.TempDir()
	job := runJob(t, dir)
	var text strings.Builder
	job.Text = &text
	searched := false
	job.Searched = func() {
		if text.Len() != 0 {
			t.Error("Text written before Searched")
		}
		searched = true
	}
	o, err := Run(context.Background(), job)
	if err != nil {
		t.Fatal(err)
	}
	if !searched || o.Report == nil || o.Result.Evals != 4 || o.Options.Train == nil || o.Options.Validate == nil {
		t.Fatalf("searched %v, report %v, %d evaluations", searched, o.Report, o.Result.Evals)
	}
	if !strings.Contains(text.String(), o.Report.String()) {
		t.Errorf("Text lacks the test report:\n%s", text.String())
	}
	for _, p := range []string{job.Out, job.Log, job.Chart} {
		if st, err := os.Stat(p); err != nil || st.Size() == 0 {
			t.Errorf("%s: %v", p, err)
		}
	}
	out, _ := os.ReadFile(job.Out)
	if !strings.Contains(string(out), "Tuned by calcsol tune from nanzaki-shintani") {
		t.Errorf("result file:\n%s", out)
	}
}

// Run's input errors say which input is wrong.
func TestRunInputErrors(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name string
		edit func(*Job)
		what string
		want string
	}{
		{"train", func(j *Job) { j.Train = filepath.Join(dir, "none.txt") }, "train", "no such file"},
		{"test", func(j *Job) { j.Test = filepath.Join(dir, "none.yaml") }, "test", "no such file"},
		{"no validation", func(j *Job) { j.Validate = "" }, "", ErrNoCorpus.Error()},
		{"not held out", func(j *Job) { j.Validate = j.Train }, "", "training corpus"},
		{"resume", func(j *Job) { j.Resume = filepath.Join(dir, "none.jsonl") }, "resume", "no such file"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			job := runJob(t, dir)
			tc.edit(&job)
			_, err := Run(context.Background(), job)
			var ie *InputError
			if !errors.As(err, &ie) || ie.What != tc.what || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want an InputError about %q saying %q", err, tc.what, tc.want)
			}
		})
	}
}
