package tune

import (
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"
)

// CheckHeldOut refuses corpora that would judge the search on the decks it
// was tuned on: validation or test equal to training, or test equal to
// validation. test may be nil.
func CheckHeldOut(train, validate, test *Corpus) error {
	for _, c := range []*Corpus{validate, test} {
		if c != nil && c.Checksum == train.Checksum {
			return fmt.Errorf("corpus %s is the training corpus: the search would be judged on the decks it was tuned on", c.Name)
		}
	}
	if test != nil && test.Checksum == validate.Checksum {
		return fmt.Errorf("the test corpus is the validation corpus: it would not be held out")
	}
	return nil
}

// WriteSummary prints what a search did (evaluations, speed, games; the log
// at logPath) and the start's and best's scores on the training and
// validation decks.
func WriteSummary(w io.Writer, res *Result, opt Options, logPath string) {
	made := res.Evals + 1 - res.Replayed // the start is evaluation 0
	fmt.Fprintf(w, "%d evaluations (%d replayed from the log, %d made in %s: %.1f candidates/s on %d workers; %d games played, %d skipped as unaffected); log %s\n",
		res.Evals, res.Replayed, made, res.Elapsed.Round(time.Millisecond), float64(made)/res.Elapsed.Seconds(), opt.Workers, res.Games, res.Skipped, logPath)
	fmt.Fprintf(w, "training   %s: start %s, best %s\n", opt.Train.Name, rate(res.Start.TrainWins, res.TrainDecks), rate(res.Best.TrainWins, res.TrainDecks))
	fmt.Fprintf(w, "validation %s: start %s, best %s (evaluation %d)\n", opt.Validate.Name, rate(res.Start.ValWins, res.ValDecks), rate(res.Best.ValWins, res.ValDecks), res.Best.Eval)
}

// ProgressLine reports the search on one line of w while w is a terminal,
// at most five times a second; elsewhere it is nil (Options.Progress: none).
func ProgressLine(w io.Writer) func(Progress) {
	fh, ok := w.(*os.File)
	if !ok {
		return nil
	}
	if st, err := fh.Stat(); err != nil || st.Mode()&os.ModeCharDevice == 0 {
		return nil
	}
	var last time.Time
	return func(p Progress) {
		if time.Since(last) < 200*time.Millisecond && p.Evals != p.Budget {
			return
		}
		last = time.Now()
		budget := ""
		if p.Budget > 0 {
			budget = fmt.Sprintf("/%d", p.Budget)
		}
		fmt.Fprintf(w, "\rtune: evaluation %d%s  %s  accepted %d  training %.2f %%  best validation %.2f %%  %.1f/s   ",
			p.Evals, budget, p.Elapsed.Round(time.Second), p.Accepted, 100*p.TrainRate, 100*p.BestValRate,
			float64(p.Evals)/max(p.Elapsed.Seconds(), 1e-9))
	}
}

// ResultArgs drops from a command line the flags that do not change the
// result (--resume, --log, --chart, --workers), so that the provenance names
// the command that gives the same table from scratch.
func ResultArgs(args []string) []string {
	var out []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		name, _, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if strings.HasPrefix(a, "--") && slices.Contains([]string{"resume", "log", "chart", "workers"}, name) {
			if !hasValue {
				i++ // the value is the next argument
			}
			continue
		}
		if a == "" {
			a = `""`
		}
		out = append(out, a)
	}
	return out
}
