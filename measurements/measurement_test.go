package measurements

import (
	"strings"
	"testing"
)

func TestRuns(t *testing.T) {
	for _, c := range []struct{ verdicts, runs string }{
		{"", ""},
		{"W", "1W"},
		{strings.Repeat("W", 30000), "30000W"},
		{"WWW?LLW", "3W1?2L1W"},
	} {
		if got := runs(c.verdicts); got != c.runs {
			t.Errorf("runs(%q) = %q, want %q", c.verdicts, got, c.runs)
		}
		if got, err := expandRuns(c.runs); err != nil || got != c.verdicts {
			t.Errorf("expandRuns(%q) = %q, %v; want %q", c.runs, got, err, c.verdicts)
		}
	}
	for _, bad := range []string{"W", "3", "0W", "2W3"} {
		if got, err := expandRuns(bad); err == nil {
			t.Errorf("expandRuns(%q) = %q, want an error", bad, got)
		}
	}
}

// TestExpandChecks changes one game of a kept measurement, and one verdict:
// the expansion no longer has the SHA-256 the header keeps, and says so.
func TestExpandChecks(t *testing.T) {
	for name, change := range map[string]func(*Measurement){
		"a game's time":  func(m *Measurement) { m.games[0][3].Micros += 0.01 },
		"a game's end":   func(m *Measurement) { m.games[0][0].End = "stuck" },
		"a verdict":      func(m *Measurement) { m.Header.Verdicts[0].Runs = "29999W1?" },
		"the run's seed": func(m *Measurement) { m.Header.Manifest.Seed++ },
	} {
		m, err := Read("contender-4")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := m.ShardFiles(0); err != nil {
			t.Fatalf("unchanged: %v", err)
		}
		change(m)
		if _, err := m.ShardFiles(0); err == nil || !strings.Contains(err.Error(), "sha256") {
			t.Errorf("%s changed: err %v, want a sha256 mismatch", name, err)
		}
	}
}

// FuzzRuns: verdicts (any string without digits) survive runs and
// expandRuns, and expandRuns takes any input without panicking.
func FuzzRuns(f *testing.F) {
	for _, s := range []string{"", "W", "WWW?LLW", "3W1?2L1W", "30000W", "0W", "99999999999999999999W"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !strings.ContainsAny(s, "0123456789") {
			if got, err := expandRuns(runs(s)); err != nil || got != s {
				t.Errorf("expandRuns(runs(%q)) = %q, %v", s, got, err)
			}
		}
		if v, err := expandRuns(s); err == nil {
			if again, err := expandRuns(runs(v)); err != nil || again != v {
				t.Errorf("expandRuns(%q) = %q, which runs does not give back", s, v)
			}
		}
	})
}
