package progress

import (
	"testing"
	"time"
)

// part is a part of a run as the tests declare it.
type part struct {
	games int64
	group string
	prior time.Duration
}

// A run of cheap games then a sampling player's: the rate so far would
// give seconds; the estimate gives the sampling player's hours.
func TestEstimate(t *testing.T) {
	ms := time.Millisecond
	tests := []struct {
		name    string
		workers int
		parts   []part
		skip    int64
		played  []time.Duration // one per game, in order
		left    time.Duration
		untimed int64
		text    string
	}{
		{
			name:    "cheap cells done, a preset with a measured cost to come",
			workers: 2,
			parts:   []part{{1000, "priority", 0}, {100, "best-4", 2 * time.Second}},
			played:  repeat(1000, ms),
			left:    100 * time.Second, // 100 games × 2 s over 2 workers
			text:    "1m40s left",
		},
		{
			name:    "a started cell is timed by its own games, not its prior",
			workers: 1,
			parts:   []part{{10, "a", time.Hour}},
			played:  repeat(4, 3*ms),
			left:    18 * ms,
			text:    "0s left",
		},
		{
			name:    "a strategy's next cell costs what its first did",
			workers: 1,
			parts:   []part{{10, "a", 0}, {10, "b", 0}, {100, "a", 0}},
			played:  append(repeat(10, 50*ms), repeat(10, ms)...),
			left:    5 * time.Second,
			text:    "5s left",
		},
		{
			name:    "no cost known: the games are counted, not guessed",
			workers: 2,
			parts:   []part{{10, "a", 0}, {5000, "b", 0}},
			played:  repeat(10, ms),
			untimed: 5000,
			text:    "≥ 0s left, 5,000 games untimed",
		},
		{
			name:    "resumed: the skipped games are done but not timed",
			workers: 1,
			parts:   []part{{100, "a", 0}, {100, "b", time.Minute}},
			skip:    150,
			played:  repeat(10, time.Second),
			left:    40 * time.Second, // part b: 40 left at its own 1 s
			text:    "40s left",
		},
		{
			name:    "empty parts are left out",
			workers: 1,
			parts:   []part{{0, "a", 0}, {3, "b", time.Second}},
			played:  repeat(1, 2*time.Second),
			left:    4 * time.Second,
			text:    "4s left",
		},
		{
			name:    "everything played",
			workers: 4,
			parts:   []part{{2, "a", 0}},
			played:  repeat(5, time.Second), // more than the run: ignored
			text:    "0s left",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := NewEstimate(tc.workers)
			for _, p := range tc.parts {
				e.AddPart(p.games, p.group, p.prior)
			}
			e.Skip(tc.skip)
			for _, d := range tc.played {
				e.Played(d)
			}
			left, untimed := e.Left()
			if left != tc.left || untimed != tc.untimed {
				t.Errorf("Left() = %v, %d untimed; want %v, %d", left, untimed, tc.left, tc.untimed)
			}
			if got := e.Text(); got != tc.text {
				t.Errorf("Text() = %q, want %q", got, tc.text)
			}
		})
	}
}

func repeat(n int, d time.Duration) []time.Duration {
	out := make([]time.Duration, n)
	for i := range out {
		out[i] = d
	}
	return out
}

func TestHuman(t *testing.T) {
	tests := []struct {
		d    time.Duration
		want string
	}{
		{0, "0s"},
		{1499 * time.Millisecond, "1s"},
		{250 * time.Second, "4m10s"},
		{time.Hour + 7*time.Minute + 29*time.Second, "1h07m"},
		{120000 * time.Second, "33h20m"},
	}
	for _, tc := range tests {
		if got := Human(tc.d); got != tc.want {
			t.Errorf("Human(%v) = %q, want %q", tc.d, got, tc.want)
		}
	}
}

// A run that the known costs put above the limit says so before it starts.
func TestAnnounce(t *testing.T) {
	tests := []struct {
		name  string
		parts []part
		want  string
	}{
		{"short", []part{{1000, "fast-4p", 11 * time.Millisecond}}, ""},
		{"hours", []part{{30000, "best-4", 8 * time.Second}}, "estimated: about 33h20m on 2 workers (the presets' costs a game)"},
		{"with untimed games", []part{{100, "best-4", 8 * time.Second}, {1000, "mine", 0}},
			"estimated: about 6m40s on 2 workers (the presets' costs a game; 1,000 games not yet timed)"},
		{"nothing known", []part{{1000, "mine", 0}}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := NewEstimate(2)
			for _, p := range tc.parts {
				e.AddPart(p.games, p.group, p.prior)
			}
			if got := e.Announce(3 * time.Minute); got != tc.want {
				t.Errorf("Announce = %q, want %q", got, tc.want)
			}
		})
	}
}

// The bar of an estimated run shows the estimate's time left.
func TestBarLineEstimated(t *testing.T) {
	e := NewEstimate(1)
	e.AddPart(10, "cheap", 0)
	e.AddPart(10, "dear", time.Minute)
	b := start(nil, "games", 20, false, e)
	for range 10 {
		e.Played(time.Millisecond)
		b.Add(1)
	}
	want := "[##########..........]  50 %  10/20 games  5/s  10m0s left"
	if got := b.line(2 * time.Second); got != want {
		t.Errorf("line = %q, want %q", got, want)
	}
	b.Add(10)
	want = "[####################] 100 %  20/20 games  10/s"
	if got := b.line(2 * time.Second); got != want {
		t.Errorf("done: line = %q, want %q", got, want)
	}
}
