package plugin_test

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/calcsol/calcsol/configs"
	"github.com/calcsol/calcsol/plugin"
	"github.com/calcsol/calcsol/solver"
)

// playAll plays decks with s on workers goroutines, each with its own
// session, taking batch decks at a time: tournament.Evaluate's loop without
// its cap on chunks, so that large batches reach the plugin whole.
func playAll(tb testing.TB, s solver.Strategy, ds []solver.Deck, r solver.Rules, workers, batch int) (wins int) {
	var next atomic.Int64
	var won atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			sess, err := s.Start(context.Background(), r)
			if err != nil {
				tb.Error(err)
				return
			}
			defer sess.Close()
			var p solver.Player
			deals := make([]solver.Deal, 0, batch)
			res := make([]solver.Result, batch)
			for {
				lo := int(next.Add(int64(batch))) - batch
				if lo >= len(ds) {
					return
				}
				deals = deals[:0]
				for i := lo; i < min(lo+batch, len(ds)); i++ {
					deals = append(deals, solver.Deal{Deck: &ds[i], Game: solver.GameID(i)})
				}
				if err := p.Play(context.Background(), sess, r, deals, res[:len(deals)], solver.PlayOptions{}); err != nil {
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

// BenchmarkThroughput plays the same decks with the priority strategy in
// process and through a Go plugin (calcsol plugin serve priority) at batch
// sizes 1, 64 and 1024, two workers (one session, so one plugin process,
// each). One op is the whole corpus; games/s is the figure to compare.
//
//	go test ./plugin -run '^$' -bench Throughput -benchtime 3x
func BenchmarkThroughput(b *testing.B) {
	calcsol := build(b, "./cmd/calcsol")
	ds := shippedDecks(b, "uniform-30000", 8192)
	r := solver.Rules{Stacks: 3}
	in, err := configs.Strategies().BuildSpec("priority")
	if err != nil {
		b.Fatal(err)
	}
	want := playAll(b, in, ds, r, 2, 256)
	workers := 2
	if w, _ := strconv.Atoi(os.Getenv("PLUGIN_BENCH_WORKERS")); w > 0 {
		workers = w
	}
	cases := []struct {
		name  string
		s     solver.Strategy
		batch int
	}{{"in-process", in, 256}}
	for _, batch := range []int{1, 64, 1024, 4096} {
		p := newPlugin(b, plugin.Config{Command: calcsol + " plugin serve priority", Batch: batch})
		cases = append(cases, struct {
			name  string
			s     solver.Strategy
			batch int
		}{fmt.Sprintf("plugin/batch=%d", batch), p, batch})
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			games := 0
			for b.Loop() {
				if w := playAll(b, c.s, ds, r, workers, c.batch); w != want {
					b.Fatalf("%d wins, in process %d", w, want)
				}
				games += len(ds)
			}
			b.ReportMetric(float64(games)/b.Elapsed().Seconds(), "games/s")
		})
	}
}
