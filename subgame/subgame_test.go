package subgame

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/calcsol/calcsol/internal/longtest"
)

// bruteWins counts the orders of the stock that best play wins, by playing
// the rules as written on explicit stacks: no labels shifted, no index.
// need is the next card needed; stock holds the cards not on a stack.
func bruteWins(need int, m int, stacks [][]int, stock []int) uint64 {
	if need == m {
		return 1
	}
	var total uint64
	for i, c := range stock {
		rest := slices.Delete(slices.Clone(stock), i, i+1)
		if c == need {
			st := cloneStacks(stacks)
			n := need + 1
			for moved := true; moved; {
				moved = false
				for s := range st {
					if h := len(st[s]); h > 0 && st[s][h-1] == n {
						st[s] = st[s][:h-1]
						n++
						moved = true
					}
				}
			}
			total += bruteWins(n, m, st, rest)
			continue
		}
		var best uint64
		for s := range stacks {
			if h := len(stacks[s]); h > 0 && stacks[s][h-1] < c {
				continue // c would bury a card needed before it: lost
			}
			st := cloneStacks(stacks)
			st[s] = append(st[s], c)
			best = max(best, bruteWins(need, m, st, rest))
		}
		total += best
	}
	return total
}

func cloneStacks(s [][]int) [][]int {
	out := make([][]int, len(s))
	for i := range s {
		out[i] = slices.Clone(s[i])
	}
	return out
}

// TestSolveMatchesBruteForce checks every position of tiny tables against
// the plain enumeration.
func TestSolveMatchesBruteForce(t *testing.T) {
	for _, k := range []Key{{1, 6}, {2, 6}, {3, 5}, {4, 4}} {
		t.Run(k.String(), func(t *testing.T) {
			wins, err := solve(context.Background(), k)
			if err != nil {
				t.Fatal(err)
			}
			for m := 1; m <= k.Cards; m++ {
				for idx, got := range wins[m] {
					var p Position
					p.Cards = m
					p.decode(idx, k.Stacks)
					stacks := make([][]int, k.Stacks)
					stock := []int{0}
					for l := m - 1; l >= 1; l-- { // bottom of each stack first: the largest card
						if s := p.Where[l]; s != 0 {
							stacks[s-1] = append(stacks[s-1], l)
						} else {
							stock = append(stock, l)
						}
					}
					if want := bruteWins(0, m, stacks, stock); got != want {
						t.Fatalf("%d cards, stacks %v, stock %v: solver %d, enumeration %d", m, stacks, stock, got, want)
					}
				}
			}
		})
	}
}

// TestOneStackIsCatalan: with one stack, play is forced, and the orders won
// are the stack-sortable permutations (Knuth, The Art of Computer
// Programming, vol. 1, §2.2.1), counted by the Catalan numbers.
func TestOneStackIsCatalan(t *testing.T) {
	catalan := []uint64{1, 1, 2, 5, 14, 42, 132, 429, 1430, 4862, 16796, 58786, 208012, 742900}
	wins, err := solve(context.Background(), Key{1, MaxCards})
	if err != nil {
		t.Fatal(err)
	}
	for m := 1; m <= MaxCards; m++ {
		if got := wins[m][0]; got != catalan[m] {
			t.Errorf("%d cards in the stock: %d orders won, want Catalan %d", m, got, catalan[m])
		}
	}
}

// TestStacksEnough: with m−1 stacks every order of m cards is won.
func TestStacksEnough(t *testing.T) {
	tab, err := Build(context.Background(), Key{5, 6})
	if err != nil {
		t.Fatal(err)
	}
	for m := 1; m <= 6; m++ {
		if v := tab.Value(&Position{Cards: m}); v != Scale {
			t.Errorf("%d cards, 5 stacks: value %d, want %d", m, v, Scale)
		}
	}
}

func TestDefaultCards(t *testing.T) {
	for _, c := range []struct{ stacks, want int }{{1, 13}, {2, 13}, {3, 12}, {4, 10}, {5, 9}, {8, 7}} {
		if got := DefaultCards(c.stacks); got != c.want {
			t.Errorf("DefaultCards(%d) = %d, want %d", c.stacks, got, c.want)
		}
		if err := (Key{c.stacks, DefaultCards(c.stacks)}).Validate(); err != nil {
			t.Errorf("default key for %d stacks: %v", c.stacks, err)
		}
	}
}

// TestSums pins the bytes of small tables: the same on every machine.
func TestSums(t *testing.T) {
	for _, c := range []struct {
		k   Key
		sum string
	}{
		{Key{2, 8}, "87c6bef0d7c05a3f3fa00c5f64a6433170289786749e8ea3be24c27a86e523a2"},
		{Key{3, 7}, "f0da7da2ac1dd38baf4a07799a8c9e5c8f74b986b3d92b58ee3f98078df976c9"},
	} {
		tab, err := Build(context.Background(), c.k)
		if err != nil {
			t.Fatal(err)
		}
		if got := tab.Sum(); got != c.sum {
			t.Errorf("%s: sum %s, want %s", c.k, got, c.sum)
		}
	}
}

func TestRoundTripAndCorruption(t *testing.T) {
	tab, err := Build(context.Background(), Key{3, 6})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := tab.MarshalBinary()
	back, err := Unmarshal(b)
	if err != nil {
		t.Fatal(err)
	}
	b2, _ := back.MarshalBinary()
	if !slices.Equal(b, b2) {
		t.Fatal("round trip changed the bytes")
	}
	for _, c := range []struct {
		name string
		edit func([]byte) []byte
	}{
		{"flipped value", func(b []byte) []byte { b[headerSize+3] ^= 1; return b }},
		{"truncated", func(b []byte) []byte { return b[:len(b)-1] }},
		{"no header", func(b []byte) []byte { return b[4:] }},
		{"empty", func([]byte) []byte { return nil }},
	} {
		t.Run(c.name, func(t *testing.T) {
			if _, err := Unmarshal(c.edit(slices.Clone(b))); !errors.Is(err, ErrCorrupt) {
				t.Errorf("error %v, want ErrCorrupt", err)
			}
		})
	}
}

func TestLoadCaches(t *testing.T) {
	dir := t.TempDir()
	k := Key{2, 7}
	ctx := context.Background()
	t1, from, cerr, err := Load(ctx, k, dir)
	if err != nil || cerr != nil || from != Built {
		t.Fatalf("first load: %v %v %v", from, cerr, err)
	}
	t2, from, _, err := Load(ctx, k, dir)
	if err != nil || from != FromCache || t2.Sum() != t1.Sum() {
		t.Fatalf("second load: %v %v", from, err)
	}
	// A damaged cache file is built again and replaced.
	path := filepath.Join(dir, FileName(k))
	b, _ := os.ReadFile(path)
	b[headerSize] ^= 0xff
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	t3, from, _, err := Load(ctx, k, dir)
	if err != nil || from != Built || t3.Sum() != t1.Sum() {
		t.Fatalf("load of a damaged file: %v %v", from, err)
	}
	if _, from, _, _ := Load(ctx, k, dir); from != FromCache {
		t.Fatalf("the damaged file was not replaced: %v", from)
	}
}

func TestBuildCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Build(ctx, Key{3, 10}); !errors.Is(err, context.Canceled) {
		t.Errorf("error %v, want context.Canceled", err)
	}
}

func FuzzUnmarshal(f *testing.F) {
	tab, err := Build(context.Background(), Key{2, 4})
	if err != nil {
		f.Fatal(err)
	}
	b, _ := tab.MarshalBinary()
	f.Add(b)
	f.Add([]byte(magic))
	f.Fuzz(func(t *testing.T, b []byte) {
		tab, err := Unmarshal(b)
		if err != nil {
			return
		}
		again, _ := tab.MarshalBinary()
		if !slices.Equal(again, b) {
			t.Fatal("a valid file does not round-trip")
		}
	})
}

// TestKnownSums builds the default tables (about 5 s in all) and checks
// their sums, the ones a cached file must have.
func TestKnownSums(t *testing.T) {
	longtest.Skip(t)
	for k, want := range KnownSums {
		tab, err := Build(context.Background(), k)
		if err != nil {
			t.Fatal(err)
		}
		if got := tab.Sum(); got != want {
			t.Errorf("%s: sum %s, want %s", k, got, want)
		}
	}
}
