package tune

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/calcsol/calcsol/internal/atomicfile"
	"github.com/calcsol/calcsol/strategies"
)

// Job is a whole tuning run, as `calcsol tune` makes one: the corpora by
// name, the search from Setup, the test on held-out decks, and the files
// it writes (the result, the log as the search goes, the chart).
type Job struct {
	Setup *Setup
	// Options are the search's. Run fills in Train, Validate, the fields
	// that come from Setup, Resume and Log.
	Options Options
	// Train, Validate and Test name the corpora (LoadCorpus; specs finds a
	// shipped corpus spec by name). Test "" skips the test.
	Train, Validate, Test string
	Specs                 func(name string) ([]byte, bool)
	// Resume is the log of the search to continue ("" for none).
	Resume string
	// Out, Log and Chart are the files written: the result (a table file
	// by FormatTable, or a strategy spec file), the search log, the tuning
	// curve.
	Out, Log, Chart string
	// Name names a tuned table; Args is the command line, for the result's
	// provenance.
	Name string
	Args []string
	// FormatTable writes a tuned table with its provenance as a comment
	// (configs.FormatPriority).
	FormatTable func(t *strategies.Table, comment string) []byte
	// Text, when not nil, is where the search's summary (WriteSummary) and
	// the test's report are written, each as soon as it is known.
	Text io.Writer
	// Searched, when not nil, is called once the search has ended well,
	// before anything is written to Text (to end a progress line, say).
	Searched func()
}

// ErrNoCorpus is a Job without a training or a validation corpus.
var ErrNoCorpus = errors.New("a training and a validation corpus are required")

// InputError is a corpus or log a Job names that cannot be used: What is
// the Job field ("train", "validate", "test", "resume"), or "" when the
// corpora together are wrong (CheckHeldOut).
type InputError struct {
	What string
	Err  error
}

func (e *InputError) Error() string {
	if e.What == "" {
		return e.Err.Error()
	}
	return e.What + ": " + e.Err.Error()
}

func (e *InputError) Unwrap() error { return e.Err }

// Outcome is what a Job did.
type Outcome struct {
	Result *Result
	Report *Report // the test, nil when there was none
	// Options are the search's, as Run completed them.
	Options Options
}

// Run runs job: it loads the corpora and checks they are held out from
// each other, reads the log to resume, searches (writing the log as it
// goes, so that an interrupted search can be resumed), scores the start
// and the result on the test decks, and writes the chart and the result.
// When the search stops early (ctx cancelled) the Outcome holds what it
// did, with the error.
func Run(ctx context.Context, job Job) (*Outcome, error) {
	load := func(what, arg string) (*Corpus, error) {
		if arg == "" {
			return nil, nil
		}
		c, err := LoadCorpus(arg, job.Specs)
		if err != nil {
			return nil, &InputError{what, err}
		}
		return c, nil
	}
	train, err := load("train", job.Train)
	if err != nil {
		return nil, err
	}
	validate, err := load("validate", job.Validate)
	if err != nil {
		return nil, err
	}
	test, err := load("test", job.Test)
	if err != nil {
		return nil, err
	}
	if train == nil || validate == nil {
		return nil, &InputError{"", ErrNoCorpus}
	}
	if err := CheckHeldOut(train, validate, test); err != nil {
		return nil, &InputError{"", err}
	}
	s, opt := job.Setup, job.Options
	opt.Train, opt.Validate = train, validate
	opt.Space, opt.Start, opt.StartName, opt.Build, opt.Incremental = s.Space, s.Start, s.StartName, s.Build, s.Incremental
	if job.Resume != "" {
		fh, err := os.Open(job.Resume)
		if err != nil {
			return nil, &InputError{"resume", err}
		}
		opt.Resume, err = ReadLog(fh, job.Resume)
		fh.Close()
		if err != nil {
			return nil, &InputError{"resume", err}
		}
	}
	// A resumed log has been read whole above.
	logFile, err := os.Create(job.Log)
	if err != nil {
		return nil, err
	}
	defer logFile.Close()
	opt.Log = logFile
	res, err := Search(ctx, opt)
	o := &Outcome{Result: res, Options: opt}
	if err != nil {
		return o, err
	}
	if err := logFile.Close(); err != nil {
		return o, err
	}
	if job.Searched != nil {
		job.Searched()
	}
	if job.Text != nil {
		WriteSummary(job.Text, res, opt, job.Log)
	}
	if test != nil {
		if o.Report, err = Test(ctx, test, opt.Rules, s.Build, res.Start.Candidate, res.Best.Candidate, opt.Workers); err != nil {
			return o, err
		}
		if job.Text != nil {
			fmt.Fprint(job.Text, o.Report)
		}
	}
	if err := WriteChart(job.Chart, res, fmt.Sprintf("tuning %s, %s", s.StartName, opt.Rules)); err != nil {
		return o, fmt.Errorf("chart: %w", err)
	}
	out := s.Output(res, o.Report, opt, job.Name, job.Args)
	text := out.SpecFile()
	if out.Table != nil {
		text = job.FormatTable(out.Table, out.Provenance)
	}
	return o, atomicfile.Write(job.Out, text)
}
