package progress

import (
	"bytes"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestLine(t *testing.T) {
	tests := []struct {
		done, total int64
		elapsed     time.Duration
		want        string
	}{
		{0, 10_000, 0, "[....................]   0 %  0/10,000 decks"},
		{3_500, 10_000, 2 * time.Second, "[#######.............]  35 %  3,500/10,000 decks  1,750/s  4s left"},
		{10_000, 10_000, 4 * time.Second, "[####################] 100 %  10,000/10,000 decks  2,500/s"},
	}
	for _, tc := range tests {
		if got := Line(tc.done, tc.total, "decks", tc.elapsed); got != tc.want {
			t.Errorf("Line(%d, %d, %v) =\n%q, want\n%q", tc.done, tc.total, tc.elapsed, got, tc.want)
		}
	}
}

// syncBuffer is a bytes.Buffer safe for the drawing goroutine.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// Not a terminal (a buffer, a pipe, a file): not one byte.
func TestCount(t *testing.T) {
	tests := []struct {
		name  string
		start int
		calls []int
		want  int64
	}{
		{"none", 0, nil, 0},
		{"running count", 0, []int{3, 7, 10}, 10},
		{"resumed at 5", 5, []int{8, 12}, 7},
		{"repeated count", 0, []int{4, 4, 6}, 6},
		{"parts restart at 0", 0, []int{500, 1000, 300, 1000, 1000}, 2000},
	}
	for _, tt := range tests {
		b := start(nil, "games", 0, false, nil)
		count := b.Count(tt.start)
		for _, d := range tt.calls {
			count(d)
		}
		if got := b.Done(); got != tt.want {
			t.Errorf("%s: %d done, want %d", tt.name, got, tt.want)
		}
	}
	var nilBar *Bar
	nilBar.Count(0)(3) // a nil bar counts nothing, and does not panic
}

func TestNoOutputWhenNotATerminal(t *testing.T) {
	var buf syncBuffer
	b := Start(&buf, "decks", 10)
	b.Add(5)
	time.Sleep(2 * Interval)
	b.Stop()
	b.Stop()
	if buf.String() != "" {
		t.Errorf("wrote %q to a non-terminal", buf.String())
	}
	if b.Done() != 5 {
		t.Errorf("Done = %d, want 5", b.Done())
	}
	var nilBar *Bar
	nilBar.Add(1)
	nilBar.Stop()
}

// On a terminal the bar redraws its line and clears it at the end.
func TestDrawsOnATerminal(t *testing.T) {
	var buf syncBuffer
	b := start(&buf, "sets", 100, true, nil)
	b.Add(50)
	time.Sleep(3 * Interval)
	b.Stop()
	out := buf.String()
	if !strings.Contains(out, "50/100 sets") || !strings.HasSuffix(out, "\r\033[K") {
		t.Errorf("output %q: want a 50/100 line, then a cleared line", out)
	}
}
