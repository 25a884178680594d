package deadlock

import (
	"flag"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/calcsol/calcsol/decks/shuffle"
	"github.com/calcsol/calcsol/solver"
)

var statsGames = flag.Int("games", 200, "games per configuration in TestPartialVsExactStats")

// missStats counts, over the stacking moves a player considered, how often
// Partial and Exact disagree.
type missStats struct {
	games, moves   int
	exact, partial int // moves each check refuses (position deadlock-free before)
	missed         int // Exact refuses, Partial lets through
	gamesFooled    int // games in which the Partial-guarded player closed a cycle
	byShape        map[string]int
	smallest       string // the missed move with the fewest stacked cards
	smallestCards  int
}

// shape describes a cycle for the statistics: its length and how many
// stacks it runs through, and whether it uses a "lies above" link (a card
// not directly on the next one, which check 2 cannot see).
func shape(c *Cycle) string {
	stacks := map[int]bool{}
	above := ""
	for i, k := range c.Cards {
		stacks[k.Stack] = true
		if c.Links[i] == LiesAbove {
			above = ", lies above"
		}
	}
	return fmt.Sprintf("%d cards, %d stacks%s", len(c.Cards), len(stacks), above)
}

func stacked(p solver.View) int {
	n := 0
	for s := range p.Stacks() {
		n += p.Height(s)
	}
	return n
}

// measure plays games random decks with a player guarded by Partial (the
// paper's check) and compares the two checks at every stacking move it
// considers in a deadlock-free position.
func measure(t *testing.T, stacks, games int, careful bool) missStats {
	rules := solver.Rules{Stacks: stacks}
	st := missStats{byShape: map[string]int{}}
	for seed := range uint64(games) {
		d := randomDeck(seed)
		pl := &player{rng: shuffle.NewRand(seed), tableFirst: 1, careful: careful, guard: Partial}
		var trace []solver.Move
		pl.visit = func(p solver.View, y solver.Rank, x, s int) {
			if FindCycle(p) != nil {
				return // already deadlocked: nothing new to refuse
			}
			st.moves++
			e, pa := Exact(p, y, x, s), Partial(p, y, x, s)
			if e != nil {
				st.exact++
			}
			if pa {
				st.partial++
			}
			if pa && e == nil {
				t.Fatalf("%v, deck %s, trace %q, %s on %c for %d: Partial sees a deadlock, Exact none",
					rules, &d, solver.FormatTrace(trace, rules), y, rules.StackName(s), x)
			}
			if e != nil && !pa {
				st.missed++
				st.byShape[shape(e)]++
				if n := stacked(p); st.smallest == "" || n < st.smallestCards {
					st.smallestCards = n
					st.smallest = fmt.Sprintf("deck %s\ntrace %s\nstacks %s\nmove %s on %c for table %d\n%v",
						&d, solver.FormatTrace(trace, rules), stacksString(p), y, rules.StackName(s), x, e)
				}
			}
		}
		fooled := false
		play(t, &d, rules, pl, func(g *solver.Game, tr []solver.Move) {
			trace = tr
			if !fooled && tr[len(tr)-1].Kind == solver.ToStack && FindCycle(g.View()) != nil {
				fooled = true
			}
		})
		st.games++
		if fooled {
			st.gamesFooled++
		}
	}
	return st
}

// TestPartialVsExactStats measures how much Nanzaki & Shintani's partial check
// misses. Its log is the table of docs/deadlock.md:
//
//	go test ./deadlock -run TestPartialVsExactStats -v -games 5000
//
// As a test it asserts what must hold whatever the figures: Partial never
// refuses a move Exact allows (checked inside measure), and it does miss some.
func TestPartialVsExactStats(t *testing.T) {
	for _, stacks := range []int{3, 4} {
		for _, careful := range []bool{false, true} {
			st := measure(t, stacks, *statsGames, careful)
			player := "random"
			if careful {
				player = "careful"
			}
			t.Logf("%d stacks, %s player guarded by Partial, %d games: %d stacking moves considered in deadlock-free positions; "+
				"Exact refuses %d (%.2f %%), Partial %d; Partial misses %d (%.2f %% of moves, %.1f %% of the deadlocks); "+
				"%d games (%.1f %%) stacked into a deadlock Partial did not see",
				stacks, player, st.games, st.moves, st.exact, pct(st.exact, st.moves), st.partial,
				st.missed, pct(st.missed, st.moves), pct(st.missed, st.exact), st.gamesFooled, pct(st.gamesFooled, st.games))
			var shapes []string
			for k, v := range st.byShape {
				shapes = append(shapes, fmt.Sprintf("%6d  %s", v, k))
			}
			slices.Sort(shapes)
			slices.Reverse(shapes)
			t.Logf("missed cycles by shape:\n%s", strings.Join(shapes, "\n"))
			t.Logf("smallest miss (%d stacked cards):\n%s", st.smallestCards, st.smallest)
			if st.missed == 0 {
				t.Errorf("%d stacks, %s: Partial missed nothing in %d games", stacks, player, st.games)
			}
		}
	}
}

func pct(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return 100 * float64(a) / float64(b)
}
