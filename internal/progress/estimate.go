package progress

import (
	"fmt"
	"sync"
	"time"

	"github.com/calcsol/calcsol/internal/textblock"
)

// Estimate is the time a run has left when its parts cost unequal amounts a
// game: a tournament plays its cells one after another, and a cell of a
// sampling player can cost a thousand times what the cells before it did,
// so the run's rate so far says nothing about its end. Each part's cost a
// game is what its own games took so far; before it has started, what the
// same group's parts took (one strategy on another corpus or rule
// variant); failing that, the prior it was declared with (a preset's
// measured cost); failing that the part is untimed, and the estimate says
// how many games it leaves out instead of guessing.
//
// The games are counted in the run's order: Skip the ones already done (a
// resumed run), then Played for each game as it is recorded. Safe for use
// from several goroutines.
type Estimate struct {
	mu      sync.Mutex
	workers int
	parts   []estPart
	next    int // the part the next game belongs to
}

type estPart struct {
	group       string
	games, done int64
	timed       int64         // games done whose time was seen
	spent       time.Duration // their time, summed
	prior       time.Duration // declared cost a game; 0: none
}

// NewEstimate starts an estimate of a run played by workers in parallel.
func NewEstimate(workers int) *Estimate {
	return &Estimate{workers: max(workers, 1)}
}

// AddPart appends a part of games games, played after the parts added
// before it. Parts of one group share their measured cost; prior is the
// declared cost of one game (0: none).
func (e *Estimate) AddPart(games int64, group string, prior time.Duration) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if games > 0 {
		e.parts = append(e.parts, estPart{group: group, games: games, prior: prior})
	}
}

// Skip counts n games at the start of the run's order as done, without a
// time (the records a resumed run found).
func (e *Estimate) Skip(n int64) {
	e.mu.Lock()
	defer e.mu.Unlock()
	for n > 0 && e.next < len(e.parts) {
		p := &e.parts[e.next]
		k := min(n, p.games-p.done)
		p.done += k
		n -= k
		if p.done == p.games {
			e.next++
		}
	}
}

// Played counts the next game of the run's order as done in d, the time a
// worker spent on it.
func (e *Estimate) Played(d time.Duration) {
	e.mu.Lock()
	defer e.mu.Unlock()
	for e.next < len(e.parts) && e.parts[e.next].done == e.parts[e.next].games {
		e.next++
	}
	if e.next == len(e.parts) {
		return
	}
	p := &e.parts[e.next]
	p.done++
	p.timed++
	p.spent += d
}

// cost is part i's estimated cost a game, false when nothing says.
func (e *Estimate) cost(i int) (time.Duration, bool) {
	p := e.parts[i]
	if p.timed > 0 {
		return p.spent / time.Duration(p.timed), true
	}
	var spent time.Duration
	var timed int64
	for _, q := range e.parts {
		if q.group == p.group {
			spent += q.spent
			timed += q.timed
		}
	}
	if timed > 0 {
		return spent / time.Duration(timed), true
	}
	return p.prior, p.prior > 0
}

// Left is the wall time the games not yet done will take on the workers,
// over the parts whose cost is known, and how many games of parts with no
// known cost it leaves out.
func (e *Estimate) Left() (left time.Duration, untimed int64) {
	e.mu.Lock()
	defer e.mu.Unlock()
	var work float64 // worker-seconds
	for i, p := range e.parts {
		rest := p.games - p.done
		if rest == 0 {
			continue
		}
		c, ok := e.cost(i)
		if !ok {
			untimed += rest
			continue
		}
		work += float64(rest) * c.Seconds()
	}
	return time.Duration(work / float64(e.workers) * float64(time.Second)), untimed
}

// Text is Left as the progress line shows it: "2m10s left", or with games
// of an unknown cost "≥ 5s left, 12,000 games untimed".
func (e *Estimate) Text() string {
	left, untimed := e.Left()
	s := Human(left) + " left"
	if untimed > 0 {
		s = "≥ " + s + ", " + textblock.Group(untimed) + " games untimed"
	}
	return s
}

// Human writes d for a person: "12s", "4m10s", above an hour to the
// minute, "33h20m".
func Human(d time.Duration) string {
	if d < time.Hour {
		return d.Round(time.Second).String()
	}
	d = d.Round(time.Minute)
	return fmt.Sprintf("%dh%02dm", int(d.Hours()), int(d.Minutes())%60)
}

// Announce is the line a run prints when it starts whose games, by the
// costs known before any is played, take longer than long on its workers
// ("" when they do not): so that a run of hours says so at once.
func (e *Estimate) Announce(long time.Duration) string {
	left, untimed := e.Left()
	if left < long {
		return ""
	}
	s := fmt.Sprintf("estimated: about %s on %d workers (the presets' costs a game", Human(left), e.workers)
	if untimed > 0 {
		s += fmt.Sprintf("; %s games not yet timed", textblock.Group(untimed))
	}
	return s + ")"
}
