package search

import (
	"context"
	"fmt"
	"testing"

	"github.com/calcsol/calcsol/configs"
	"github.com/calcsol/calcsol/solver"
)

// benchGames plays whole games with s, one deck per iteration, and reports
// milliseconds per game.
func benchGames(b *testing.B, s solver.Strategy, r solver.Rules) {
	ds := loadCorpus(b)
	sess, err := s.Start(context.Background(), r)
	if err != nil {
		b.Fatal(err)
	}
	defer sess.Close()
	var p solver.Player
	res := make([]solver.Result, 1)
	i := 0
	b.ReportAllocs()
	for b.Loop() {
		deal := []solver.Deal{{Deck: &ds[i%len(ds)], Game: solver.GameID(i)}}
		if err := p.Play(context.Background(), sess, r, deal, res, solver.PlayOptions{}); err != nil {
			b.Fatal(err)
		}
		i++
	}
	b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/game")
}

func BenchmarkGames(b *testing.B) {
	reg := configs.Strategies()
	for _, k := range Kinds() {
		reg.MustRegister(k)
	}
	for _, spec := range []string{
		"deadlock-graph",
		"priority:deadlock_check=exact+endgame:k=4",
		"priority:deadlock_check=exact+rescue+endgame:k=4",
		"priority:deadlock_check=exact+sample:n=32,assign=true+endgame:k=4",
		"priority:deadlock_check=exact+pimc:k=20,n=16,nodes=5000+endgame:k=4",
	} {
		s, err := reg.BuildSpec(spec)
		if err != nil {
			b.Fatal(err)
		}
		for _, st := range []int{3, 4} {
			b.Run(fmt.Sprintf("%s/%d-stacks", spec, st), func(b *testing.B) {
				benchGames(b, s, solver.Rules{Stacks: st})
			})
		}
	}
}

// BenchmarkEndgameK measures one exact search from the positions the
// deadlock-graph player reaches with k cards left (4 stacks, A 2 3 4
// pre-placed), each with a fresh memo: time and memo entries grow with k.
func BenchmarkEndgameK(b *testing.B) {
	r := solver.Rules{Stacks: 4, Preplaced: true}
	ds := loadCorpus(b)
	for _, k := range []int{4, 5, 6, 7, 8} {
		var pos []solver.State
		for i := 0; i < len(ds) && len(pos) < 20; i++ {
			if st, ok := playTo(b, &ds[i], r, k); ok && st.StockLen() == k {
				pos = append(pos, st)
			}
		}
		b.Run(fmt.Sprintf("k=%d", k), func(b *testing.B) {
			i, nodes, memo := 0, int64(0), 0
			for b.Loop() {
				e := NewEndgame()
				st := pos[i%len(pos)]
				e.Best(&st)
				nodes += e.Nodes
				memo += len(e.memo)
				i++
			}
			b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N), "ms/search")
			b.ReportMetric(float64(nodes)/float64(b.N), "nodes/search")
			b.ReportMetric(float64(memo)/float64(b.N), "memo/search")
		})
	}
}
