package plugin_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/calcsol/calcsol/configs"
	"github.com/calcsol/calcsol/plugin"
	"github.com/calcsol/calcsol/solver"
)

// playAll plays decks on one goroutine per session, each taking an equal
// share of them and keeping batch games in play at once (a game that ends
// makes room for the next deal), so that large batches reach the plugin
// whole.
func playAll(tb testing.TB, sessions []solver.Session, ds []solver.Deck, r solver.Rules, batch int) (wins int) {
	var next atomic.Int64
	var won atomic.Int64
	var wg sync.WaitGroup
	chunk := (len(ds) + len(sessions) - 1) / len(sessions)
	for _, sess := range sessions {
		wg.Go(func() {
			var p solver.Player
			deals := make([]solver.Deal, 0, chunk)
			res := make([]solver.Result, chunk)
			for {
				lo := int(next.Add(int64(chunk))) - chunk
				if lo >= len(ds) {
					return
				}
				deals = deals[:0]
				for i := lo; i < min(lo+chunk, len(ds)); i++ {
					deals = append(deals, solver.Deal{Deck: &ds[i], Game: solver.GameID(i)})
				}
				if err := p.Play(context.Background(), sess, r, deals, res[:len(deals)], solver.PlayOptions{Window: batch}); err != nil {
					tb.Error(err)
					return
				}
				for _, g := range res[:len(deals)] {
					if g.Failed {
						tb.Errorf("game failed: %s", g.Reason)
						return
					}
					if g.Won {
						won.Add(1)
					}
				}
			}
		})
	}
	wg.Wait()
	return int(won.Load())
}

// startSessions opens n sessions of s (for a plugin, n processes) and closes
// them when the benchmark ends.
func startSessions(b *testing.B, s solver.Strategy, r solver.Rules, n int) []solver.Session {
	var out []solver.Session
	for range n {
		sess, err := s.Start(context.Background(), r)
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { sess.Close() })
		out = append(out, sess)
	}
	return out
}

// benchPlay times whole passes over ds with sessions that are already open
// (a plugin's start is measured apart, by BenchmarkStart).
func benchPlay(b *testing.B, sessions []solver.Session, ds []solver.Deck, r solver.Rules, batch, want int) {
	games := 0
	host0, plugins0 := cpuTime()
	for b.Loop() {
		if w := playAll(b, sessions, ds, r, batch); w != want {
			b.Fatalf("%d wins, in process %d", w, want)
		}
		games += len(ds)
	}
	host, plugins := cpuTime()
	b.ReportMetric(float64(games)/b.Elapsed().Seconds(), "games/s")
	reportCPU(b, host-host0, plugins-plugins0, games)
}

// BenchmarkThroughput plays the same decks with the priority strategy in
// process (game by game, and in lockstep batches of 4096 as a plugin's
// games are played) and through a Go plugin (calcsol plugin serve priority)
// at batch sizes 1, 64, 1024 and 4096, two workers (one session, so one
// plugin process, each), the sessions open before the clock starts. One op
// is the whole corpus; cpu-µs/game is the CPU time of host and plugins per
// game (plugin-cpu-µs/game the plugins' part), the figure to compare on a
// loaded machine, games/s the one on an idle one.
//
//	go test ./plugin -run '^$' -bench '^BenchmarkThroughput$' -benchtime 3x
func BenchmarkThroughput(b *testing.B) {
	calcsol := build(b, "./cmd/calcsol")
	ds := shippedDecks(b, "uniform-30000", 8192)
	r := solver.Rules{Stacks: 3}
	in, err := configs.Strategies().BuildSpec("priority")
	if err != nil {
		b.Fatal(err)
	}
	workers := 2
	if w, _ := strconv.Atoi(os.Getenv("PLUGIN_BENCH_WORKERS")); w > 0 {
		workers = w
	}
	want := playAll(b, startSessions(b, in, r, workers), ds, r, 256)
	b.Run("in-process", func(b *testing.B) {
		benchPlay(b, startSessions(b, in, r, workers), ds, r, 256, want)
	})
	// The same strategy in process, but played in lockstep batches as a
	// plugin's games are (a session that is not a bare Chooser): what the
	// batching itself costs, without the protocol.
	b.Run("in-process-lockstep", func(b *testing.B) {
		benchPlay(b, lockstep(startSessions(b, in, r, workers)), ds, r, 4096, want)
	})
	for _, batch := range []int{1, 64, 1024, 4096} {
		b.Run(fmt.Sprintf("plugin/batch=%d", batch), func(b *testing.B) {
			p := newPlugin(b, plugin.Config{Command: calcsol + " plugin serve priority", Batch: batch})
			benchPlay(b, startSessions(b, p, r, workers), ds, r, batch, want)
		})
	}
}

// lockstep hides each session's type, so that solver.Player plays it in
// lockstep batches rather than game by game.
func lockstep(sessions []solver.Session) []solver.Session {
	out := make([]solver.Session, len(sessions))
	for i, s := range sessions {
		out[i] = struct{ solver.Session }{s}
	}
	return out
}

// BenchmarkStart measures what a plugin session costs to open and close: a
// process started, its handshake, its session, and its end.
func BenchmarkStart(b *testing.B) {
	calcsol := build(b, "./cmd/calcsol")
	p := newPlugin(b, plugin.Config{Command: calcsol + " plugin serve priority"})
	for b.Loop() {
		sess, err := p.Start(context.Background(), solver.DefaultRules())
		if err != nil {
			b.Fatal(err)
		}
		sess.Close()
	}
}

// BenchmarkPythonThroughput plays the Python example (lowest stack) through
// the protocol, two workers and so two Python processes, batch 1024, beside
// the same strategy in Go in process.
//
//	go test ./plugin -run '^$' -bench PythonThroughput -benchtime 2x
func BenchmarkPythonThroughput(b *testing.B) {
	if _, err := exec.Command(python, "-c", "import grpc, google.protobuf").CombinedOutput(); err != nil {
		b.Skip("needs " + python + " with grpcio and protobuf")
	}
	ds := shippedDecks(b, "uniform-30000", 4096)
	r := solver.Rules{Stacks: 3}
	in := solver.FromChooser(solver.Info{Name: "lowest-stack"}, func(solver.Rules) (solver.Chooser, error) { return lowestStack{}, nil })
	py := newPlugin(b, plugin.Config{Command: python + " ../examples/pyplugin/plugin.py", Batch: 1024})
	want := playAll(b, startSessions(b, in, r, 2), ds, r, 1024)
	b.Run("go-in-process", func(b *testing.B) {
		benchPlay(b, startSessions(b, in, r, 2), ds, r, 1024, want)
	})
	b.Run("python-plugin/batch=1024", func(b *testing.B) {
		benchPlay(b, startSessions(b, py, r, 2), ds, r, 1024, want)
	})
}

// cpuTime is the CPU time used so far by this process, the host, and by
// its children: those that ended (RUSAGE_CHILDREN) and those still
// running, the plugin processes (from /proc, in clock ticks of 10 ms).
func cpuTime() (host, plugins time.Duration) {
	var self, kids syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &self)
	_ = syscall.Getrusage(syscall.RUSAGE_CHILDREN, &kids)
	d := func(t syscall.Timeval) time.Duration { return time.Duration(t.Nano()) }
	host = d(self.Utime) + d(self.Stime)
	total := d(kids.Utime) + d(kids.Stime)
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	for _, f := range stats {
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		s := string(b)
		// After the command name in parentheses: state ppid ... utime (the
		// 14th field) stime (15th).
		fields := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
		if len(fields) < 13 || fields[1] != strconv.Itoa(os.Getpid()) {
			continue
		}
		ut, _ := strconv.Atoi(fields[11])
		st, _ := strconv.Atoi(fields[12])
		total += time.Duration(ut+st) * 10 * time.Millisecond
	}
	return host, total
}

// reportCPU reports the CPU time per game, host and plugins together (and
// the plugins' share), and what it allows on 2 cores that do nothing else:
// a figure that a loaded machine distorts less than games/s.
func reportCPU(b *testing.B, host, plugins time.Duration, games int) {
	perGame := (host + plugins).Seconds() / float64(games)
	b.ReportMetric(perGame*1e6, "cpu-µs/game")
	b.ReportMetric(plugins.Seconds()/float64(games)*1e6, "plugin-cpu-µs/game")
	b.ReportMetric(2/perGame, "games/s@2cpu")
}
