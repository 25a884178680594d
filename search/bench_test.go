package search

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

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
	reg := registry()
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

// BenchmarkFastPresets plays whole games with the fast presets
// (configs/presets.yaml), each under its rules: what the default tournament
// pays a game on its 30,000-deck corpus.
func BenchmarkFastPresets(b *testing.B) {
	reg := registry()
	for _, c := range []struct {
		preset string
		rules  solver.Rules
	}{
		{"fast-3", solver.Rules{Stacks: 3}},
		{"fast-3p", solver.Rules{Stacks: 3, Preplaced: true}},
		{"fast-4", solver.Rules{Stacks: 4}},
		{"fast-4p", solver.Rules{Stacks: 4, Preplaced: true}},
	} {
		s, err := reg.BuildSpec(c.preset)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(c.preset, func(b *testing.B) { benchGames(b, s, c.rules) })
	}
}

// BenchmarkRescuedPlayouts plays whole games (4 stacks, tables start
// empty) with the sampling player whose playouts are rescued, 32 orders a
// decision: the rescue played out exactly, then giving up lost playouts,
// then with a budget of search states for each cycle check.
func BenchmarkRescuedPlayouts(b *testing.B) {
	reg := registry()
	for _, rescue := range []string{"rescue", "rescue:give_up=true", "rescue:give_up=true,nodes=3000", "rescue:give_up=true,nodes=1000"} {
		spec := "priority:table=tuned-4,deadlock_check=exact,reassign_tops=true+" + rescue + "+sample:n=32,assign=true,race=3+rescue+endgame:k=4"
		s, err := reg.BuildSpec(spec)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(rescue, func(b *testing.B) {
			benchGames(b, s, solver.Rules{Stacks: 4})
		})
	}
}

// BenchmarkSampleTops plays whole games (3 stacks, A 2 3 4 pre-placed) with
// the raced sampling player over the tuned table whose tops may change
// tables, 32 orders a decision, deciding only the drawn card's place and
// deciding the moves of stack tops too: what tops=true costs.
func BenchmarkSampleTops(b *testing.B) {
	reg := registry()
	for _, tops := range []string{"false", "true"} {
		spec := "priority:table=tuned-3-preplaced,deadlock_check=exact,reassign_tops=true+sample:n=32,assign=true,race=3,tops=" + tops + "+rescue+endgame:k=4"
		s, err := reg.BuildSpec(spec)
		if err != nil {
			b.Fatal(err)
		}
		b.Run("tops="+tops, func(b *testing.B) {
			benchGames(b, s, solver.Rules{Stacks: 3, Preplaced: true})
		})
	}
}

// BenchmarkSampleAltTables plays whole games (3 stacks, tables start
// empty) with the raced sampling player over tuned-3-exact deciding the
// stack tops too, 32 orders a decision, its playouts by that table alone,
// with one alternative table and with two: what alt_tables costs.
func BenchmarkSampleAltTables(b *testing.B) {
	reg := registry()
	for _, alt := range []string{"", "tuned-3", "tuned-3;tuned-3-preplaced"} {
		spec := "priority:table=tuned-3-exact,deadlock_check=exact,reassign_tops=true+sample:n=32,assign=true,race=3,tops=true"
		name := "alt_tables=none"
		if alt != "" {
			spec += ",alt_tables=" + alt
			name = "alt_tables=" + strings.ReplaceAll(alt, ";", "+")
		}
		s, err := reg.BuildSpec(spec + "+rescue+endgame:k=4")
		if err != nil {
			b.Fatal(err)
		}
		b.Run(name, func(b *testing.B) {
			benchGames(b, s, solver.Rules{Stacks: 3})
		})
	}
}

// BenchmarkSamplePilot plays whole games (3 stacks, A 2 3 4 pre-placed)
// with the raced sampling player of BenchmarkSampleTops (32 orders a
// decision, tops decided too), its orders played out by the table alone
// and, with 12 or 20 cards or fewer in the stock, by a pilot of it: what
// pilot=K costs; memo=off is pilot=20 without the pilot's memos of the
// base's playouts and of its own (playMemo, pilotKeyOf), pilot-memo=off
// without the second only, and own-check=off without settling a decision
// by the base's playouts of its own move (ownWinsAll): all play the same
// games.
func BenchmarkSamplePilot(b *testing.B) {
	reg := registry()
	for _, c := range []struct {
		k        string
		memo     bool
		own      bool // the pilot's memo of its own playouts
		ownCheck bool
	}{{"0", true, true, true}, {"12", true, true, true}, {"20", true, true, true}, {"20", true, true, false}, {"20", true, false, true}, {"20", false, false, true}} {
		spec := "priority:table=tuned-3-preplaced,deadlock_check=exact,reassign_tops=true+sample:n=32,assign=true,race=3,tops=true,pilot=" + c.k + "+rescue+endgame:k=4"
		s, err := reg.BuildSpec(spec)
		if err != nil {
			b.Fatal(err)
		}
		name := "pilot=" + c.k
		sample := s.(*EndgameStrategy).Base.(*RescueStrategy).Base.(*SampleStrategy)
		switch {
		case !c.memo:
			sample.noMemo = true
			name += ",memo=off"
		case !c.own:
			sample.noPilotMemo = true
			name += ",pilot-memo=off"
		case !c.ownCheck:
			sample.noOwnCheck = true
			name += ",own-check=off"
		}
		b.Run(name, func(b *testing.B) {
			benchGames(b, s, solver.Rules{Stacks: 3, Preplaced: true})
		})
	}
}

// BenchmarkSamplePilot4 plays whole games (4 stacks, tables start empty)
// with the player of configs/contender-4.yaml at 64 orders a decision
// instead of 256, with and without settling a decision by the base's
// playouts of its own move (own-check=off): the same games.
func BenchmarkSamplePilot4(b *testing.B) {
	reg := registry()
	for _, off := range []bool{false, true} {
		s, err := reg.BuildSpec("priority:table=tuned-4,deadlock_check=exact,reassign_tops=true+rescue:give_up=true,nodes=1000+sample:n=64,assign=true,race=3,tops=true,pilot=20+rescue+endgame:k=4")
		if err != nil {
			b.Fatal(err)
		}
		s.(*EndgameStrategy).Base.(*RescueStrategy).Base.(*SampleStrategy).noOwnCheck = off
		name := "pilot=20"
		if off {
			name += ",own-check=off"
		}
		b.Run(name, func(b *testing.B) { benchGames(b, s, solver.Rules{Stacks: 4}) })
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

// BenchmarkAcyclic times the cycle check on positions with random cards
// stacked (3 stacks, most of them lost, so the search must try every way of
// taking them apart), against the same search remembering failed states in
// a Go map cleared before each check (mapAcyclic, the first version): the
// ratio of the two in one run, and how the cost grows with the cards
// stacked.
func BenchmarkAcyclic(b *testing.B) {
	r := solver.Rules{Stacks: 3}
	for _, n := range []int{12, 20, 28} {
		rng := rand.New(rand.NewPCG(uint64(n), 7))
		pos := make([]solver.State, 200)
		lost := 0
		for i := range pos {
			pos[i] = randomStacked(rng, r, n)
			if !Acyclic(&pos[i]) {
				lost++
			}
		}
		for _, impl := range []string{"keyset", "map"} {
			b.Run(fmt.Sprintf("stacked=%d/%s", n, impl), func(b *testing.B) {
				var a acyclicSearch
				var m mapAcyclic
				i := 0
				for b.Loop() {
					st := &pos[i%len(pos)]
					if impl == "keyset" {
						a.acyclic(st)
					} else {
						m.acyclic(st)
					}
					i++
				}
				b.ReportMetric(float64(lost)/float64(len(pos)), "lost-share")
			})
		}
	}
}

// mapAcyclic is the first version of the cycle check's search: the same
// states in a slower order of trying (every skip over every stack top) and
// a map for the failed states. The benchmark's reference, and
// TestAcyclicVersionsAgree's.
type mapAcyclic struct {
	acyclicSearch // the stacks read, and the key and shortage of a state
	failed        map[uint64]struct{}
}

func (a *mapAcyclic) acyclic(st *solver.State) bool {
	if a.failed == nil {
		a.failed = map[uint64]struct{}{}
	}
	clear(a.failed)
	h, p := a.load(st)
	return a.dfs(h, p)
}

// shortByCount is acyclicSearch.short counted rank by rank and table by
// table, as the first version did.
func (a *mapAcyclic) shortByCount(p [solver.Tables]int) bool {
	for r := solver.Rank(1); r <= solver.NumRanks; r++ {
		free := 0
		for x := 1; x <= solver.Tables; x++ {
			if solver.TablePos(x, r) >= p[x-1] {
				free++
			}
		}
		if free < a.count[r] {
			return true
		}
	}
	return false
}

func (a *mapAcyclic) dfs(h [solver.MaxStacks]int, p [solver.Tables]int) bool {
	key, empty := a.key(h, p)
	if empty {
		return true
	}
	if _, ok := a.failed[key]; ok {
		return false
	}
	if a.shortByCount(p) {
		a.failed[key] = struct{}{}
		return false
	}
	for skip := 0; skip < solver.NumRanks; skip++ {
		for s := range a.n {
			if h[s] == 0 {
				continue
			}
			r := a.stacks[s][h[s]-1]
			for x := 1; x <= solver.Tables; x++ {
				k := solver.TablePos(x, r)
				if k-p[x-1] != skip {
					continue
				}
				h2, p2 := h, p
				h2[s]--
				p2[x-1] = k + 1
				a.count[r]--
				ok := a.dfs(h2, p2)
				a.count[r]++
				if ok {
					return true
				}
			}
		}
	}
	a.failed[key] = struct{}{}
	return false
}
