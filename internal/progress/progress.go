// Package progress draws a one-line progress report on standard error while
// a long run works — items done of the total, the rate, the time left — and
// nothing at all when standard error is not a terminal, so logs, pipes and
// tests see no change.
//
//	bar := progress.Start(os.Stderr, "sets", total) // draws every 200 ms on a terminal
//	defer bar.Stop()                                // clears the line
//	… bar.Add(n) from any goroutine as work is done …
//
// A nil *Bar is valid and does nothing, so library code can take one as
// an option. Add is one atomic addition: cheap enough for every item.
package progress

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mattn/go-isatty"

	"github.com/calcsol/calcsol/internal/textblock"
)

// Interval is how often a bar redraws.
const Interval = 200 * time.Millisecond

// Bar is a progress report of one run.
type Bar struct {
	done  atomic.Int64
	total int64
	unit  string
	w     io.Writer
	start time.Time
	stop  chan struct{}
	wg    sync.WaitGroup
	once  sync.Once
	est   *Estimate
}

// IsTerminal reports whether w is a terminal.
func IsTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && (isatty.IsTerminal(f.Fd()) || isatty.IsCygwinTerminal(f.Fd()))
}

// Start begins a report of total items named unit ("decks", "sets"), drawn
// on w every Interval when w is a terminal; otherwise the bar only counts.
func Start(w io.Writer, unit string, total int64) *Bar {
	return start(w, unit, total, IsTerminal(w), nil)
}

// StartEstimated is Start for a run whose items cost unequal amounts: the
// time left is est's (Estimate), not the rate so far spread over the rest.
func StartEstimated(w io.Writer, unit string, total int64, est *Estimate) *Bar {
	return start(w, unit, total, IsTerminal(w), est)
}

func start(w io.Writer, unit string, total int64, draw bool, est *Estimate) *Bar {
	b := &Bar{total: total, unit: unit, w: w, start: time.Now(), stop: make(chan struct{}), est: est}
	if !draw {
		return b
	}
	b.wg.Add(1)
	go func() {
		defer b.wg.Done()
		t := time.NewTicker(Interval)
		defer t.Stop()
		for {
			select {
			case <-b.stop:
				fmt.Fprint(b.w, "\r\033[K")
				return
			case <-t.C:
				fmt.Fprint(b.w, "\r"+b.line(time.Since(b.start))+"\033[K")
			}
		}
	}()
	return b
}

// Add counts n more items done.
func (b *Bar) Add(n int64) {
	if b != nil {
		b.done.Add(n)
	}
}

// Count returns a function that reports a running count to b, for a run
// that reports how far it is rather than what it just did: each call adds
// what done grew by since the previous call, the first since start. A done
// below the previous one starts a new part of the run, counted from 0 (the
// rule variants of an eval, each counted from 0). Call it from one
// goroutine.
func (b *Bar) Count(start int) func(done int) {
	last := start
	return func(done int) {
		if done < last {
			last = 0
		}
		b.Add(int64(done - last))
		last = done
	}
}

// Done is the number of items counted so far.
func (b *Bar) Done() int64 {
	if b == nil {
		return 0
	}
	return b.done.Load()
}

// Stop ends the report and clears its line; it may be called twice.
func (b *Bar) Stop() {
	if b == nil {
		return
	}
	b.once.Do(func() { close(b.stop) })
	b.wg.Wait()
}

// line is the bar's report after elapsed.
func (b *Bar) line(elapsed time.Duration) string {
	done := b.done.Load()
	if b.est == nil {
		return Line(done, b.total, b.unit, elapsed)
	}
	s := lineHead(done, b.total, b.unit, elapsed)
	if done < b.total {
		s += "  " + b.est.Text()
	}
	return s
}

// Line is the text of the report after elapsed, with done of total items:
//
//	[#######.............]  35 %  3,500/10,000 decks  1,234/s  5s left
func Line(done, total int64, unit string, elapsed time.Duration) string {
	s := lineHead(done, total, unit, elapsed)
	secs := elapsed.Seconds()
	if secs <= 0 || done <= 0 || done >= total {
		return s
	}
	rate := float64(done) / secs
	left := time.Duration(float64(total-done) / rate * float64(time.Second)).Round(time.Second)
	return s + fmt.Sprintf("  %s left", left)
}

// lineHead is Line without the time left: the bar, the share, the count
// and the rate.
func lineHead(done, total int64, unit string, elapsed time.Duration) string {
	const width = 20
	frac := 0.0
	if total > 0 {
		frac = min(1, float64(done)/float64(total))
	}
	filled := int(frac * width)
	bar := "[" + strings.Repeat("#", filled) + strings.Repeat(".", width-filled) + "]"
	s := fmt.Sprintf("%s %3.0f %%  %s/%s %s", bar, 100*frac, textblock.Group(done), textblock.Group(total), unit)
	secs := elapsed.Seconds()
	if secs <= 0 || done <= 0 {
		return s
	}
	return s + fmt.Sprintf("  %s/s", textblock.Group(int64(float64(done)/secs)))
}
