package main

import (
	"os"
	"testing"
)

// TestResultsTableParses: the chart reads the table docs/results.md has,
// every row of it, with a rate inside its interval.
func TestResultsTableParses(t *testing.T) {
	for _, p := range resultsPoints(t) {
		if p.ms <= 0 || p.lo > p.rate || p.rate > p.hi || p.hi > 100 {
			t.Errorf("%s, %s: %v ms, %v %% [%v, %v]", p.rules, p.player, p.ms, p.rate, p.lo, p.hi)
		}
	}
}

// resultsPoints are the rows of the table docs/results.md has.
func resultsPoints(t *testing.T) []point {
	t.Helper()
	b, err := os.ReadFile("../../docs/results.md")
	if err != nil {
		t.Fatal(err)
	}
	pts, err := parse(string(b), "results.md")
	if err != nil {
		t.Fatal(err)
	}
	return pts
}

func TestParse(t *testing.T) {
	cases := []struct {
		name, text string
		want       int
		bad        bool
	}{
		{"two rows", section + "\n\n| rules | player | CPU ms a game | wins | rate |\n|---|---|---:|---:|---|\n" +
			"| 3 stacks | `fast-3` | 5 | 9,597 of 30,000 | 31.99 % [31.46, 32.52] |\n" +
			"| 3 stacks | `best-3` | 650 | 16,762 of 30,000 | **55.87 %** [55.31, 56.43] |\n", 2, false},
		{"other sections ignored", "## Other\n| a | b | 1 | 2 | 3 % [1, 4] |\n" + section + "\n| 4 | p | 2 | w | 1 % [0, 2] |\n", 1, false},
		{"no table", "## Other\n", 0, true},
		{"the first table only", section + "\n| 4 | p | 2 | w | 1 % [0, 2] |\n\n| a | b | c | d | e |\n", 1, false},
		{"bad row", section + "\n| 3 stacks | p | fast | w | 31 % |\n", 0, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			pts, err := parse(c.text, "x.md")
			if (err != nil) != c.bad || len(pts) != c.want {
				t.Errorf("got %d points, error %v; want %d, error %v", len(pts), err, c.want, c.bad)
			}
		})
	}
}
