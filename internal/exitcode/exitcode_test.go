package exitcode

import (
	"errors"
	"fmt"
	"testing"
)

// lineError stands for a typed parse error such as *corpus.ParseError.
type lineError struct{ line int }

func (e *lineError) Error() string { return fmt.Sprintf("line %d: bad", e.line) }

// BadInput keeps the typed errors it is given, with %v as with %w: a
// caller can still tell a corpus error by its line.
func TestBadInputKeepsTheChain(t *testing.T) {
	perr := &lineError{3}
	for _, format := range []string{"%v", "%w", "corpus: %v", "--seq: %w"} {
		err := BadInput(format, perr)
		var le *lineError
		if !errors.As(err, &le) || le.line != 3 {
			t.Errorf("BadInput(%q): errors.As finds no *lineError in %v", format, err)
		}
		if want := fmt.Errorf(format, perr).Error(); err.Error() != want {
			t.Errorf("BadInput(%q) says %q, want %q", format, err, want)
		}
	}
}

func TestStatus(t *testing.T) {
	tests := []struct {
		name string
		err  error
		want int
	}{
		{"none", nil, 0},
		{"plain", errors.New("disk full"), Failure},
		{"bad input", BadInput("--n %d: want 0..10", 11), Input},
		{"wrapped bad input", fmt.Errorf("eval: %w", BadInput("x")), Input},
		{"cobra", errors.New(`unknown flag: --frob`), Input},
		{"pflag", errors.New(`invalid argument "x" for "--n" flag`), Input},
		{"arguments", errors.New("accepts 1 arg(s), received 2"), Input},
		{"own code", Error{Code: Regression, Err: errors.New("regressed")}, Regression},
		{"own code over input", Error{Code: Stale, Err: BadInput("stale")}, Stale},
		{"unfinished", Error{Code: Unfinished, Err: fmt.Errorf("--stop-after 1h: %w", errors.New("stopped"))}, Unfinished},
		{"strategy failed", fmt.Errorf("eval: %w", Error{Code: StrategyFailed, Err: errors.New("all failed")}), StrategyFailed},
		{"interrupted", Error{Code: Interrupted, Err: errors.New("interrupted: 3 of 9 games recorded")}, 130},
	}
	for _, tt := range tests {
		if got := Status(tt.err); got != tt.want {
			t.Errorf("%s: Status(%v) = %d, want %d", tt.name, tt.err, got, tt.want)
		}
	}
}

// Every status is its own: a script can tell each outcome by its code.
func TestStatusesDiffer(t *testing.T) {
	seen := map[int]string{}
	for name, code := range map[string]int{"Failure": Failure, "Input": Input, "Regression": Regression, "Stale": Stale,
		"Unfinished": Unfinished, "StrategyFailed": StrategyFailed, "Interrupted": Interrupted} {
		if other, ok := seen[code]; ok {
			t.Errorf("%s and %s are both %d", name, other, code)
		}
		seen[code] = name
	}
}
