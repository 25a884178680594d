package clairvoyant_test

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/calcsol/calcsol/clairvoyant"
	"github.com/calcsol/calcsol/clairvoyant/lines"
	"github.com/calcsol/calcsol/decks/corpus"
	"github.com/calcsol/calcsol/internal/longtest"
	"github.com/calcsol/calcsol/solver"
)

// solvedTwenty solves 20 decks with 4 stacks, pre-placed, within a budget
// that leaves some unknown, and writes the bound file with its lines to a
// temporary directory.
func solvedTwenty(t *testing.T) (c *corpus.Calculation, path string, res []clairvoyant.Result) {
	t.Helper()
	c, err := corpus.NewCalculation("twenty", corpusDecks(t, 20))
	if err != nil {
		t.Fatal(err)
	}
	rules := solver.Rules{Stacks: 4, Preplaced: true}
	s, err := clairvoyant.SolveCorpus(context.Background(), c, clairvoyant.CorpusJob{Rules: rules, Budget: clairvoyant.Budget{Nodes: 2_000}, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	if s.Winnable == 0 || s.Winnable == 20 {
		t.Fatalf("%d of 20 winnable: want some but not all", s.Winnable)
	}
	lf, err := clairvoyant.EncodeLines(c.Decks(), c.Checksum, rules, s.Results)
	if err != nil {
		t.Fatal(err)
	}
	path = filepath.Join(t.TempDir(), "twenty-s4p.json")
	b := clairvoyant.NewBoundFile("twenty", c.Checksum, rules, clairvoyant.Budget{Nodes: 2_000}, s.Results)
	if err := clairvoyant.WriteBound(path, b, lf); err != nil {
		t.Fatal(err)
	}
	return c, path, s.Results
}

// A solved corpus's bound file verifies: each winnable deck has a line
// that wins; the unknowns have none and are counted.
func TestVerifyBound(t *testing.T) {
	c, path, res := solvedTwenty(t)
	b, lf, err := clairvoyant.ReadBound(path)
	if err != nil || lf == nil {
		t.Fatalf("read back: %v, lines %v", err, lf != nil)
	}
	if b.Lines != "twenty-s4p.lines.gz" {
		t.Errorf("lines field %q", b.Lines)
	}
	chk, err := clairvoyant.VerifyBound(b, lf, c.Checksum, c.Decks(), nil)
	if err != nil {
		t.Fatal(err)
	}
	tally := clairvoyant.Count(res)
	if !chk.OK() || chk.Verified != tally.Winnable || chk.Unknown != tally.Unknown || chk.Decks != 20 || chk.Moves == 0 {
		t.Errorf("check %+v, want every one of %d winnable verified", chk, tally.Winnable)
	}

	// The verdicts read back with their lines: every Yes has a trace that wins.
	prior, err := b.Settled(c.Checksum, b.Rules(), c.Len)
	if err != nil {
		t.Fatal(err)
	}
	if n := clairvoyant.WithLines(prior, c.Decks(), b.Rules(), lf); n != 0 {
		t.Errorf("%d winnable verdicts lost their lines", n)
	}
	for i, r := range prior {
		if r.Winnable == clairvoyant.Yes {
			if g, err := solver.Replay(&c.Decks()[i], b.Rules(), r.Trace); err != nil || !g.Won() {
				t.Errorf("deck %d: trace read back does not win (%v)", i, err)
			}
		}
	}
	// Without lines, each Yes is to be searched again.
	if n := clairvoyant.WithLines(prior, c.Decks(), b.Rules(), nil); n != tally.Winnable || clairvoyant.Count(prior).Winnable != 0 {
		t.Errorf("without lines: %d searched again, want %d", n, tally.Winnable)
	}
}

// Each way a bound file can fail the check names the first deck and why.
func TestVerifyBoundFails(t *testing.T) {
	c, path, res := solvedTwenty(t)
	var won, unknown []int
	for i, r := range res {
		if r.Winnable == clairvoyant.Yes {
			won = append(won, i)
		} else {
			unknown = append(unknown, i)
		}
	}
	yes := true
	for _, tc := range []struct {
		name   string
		change func(b *clairvoyant.BoundFile, lf *lines.File)
		deck   int
		reason string
	}{
		// Another deck's line: every place it names is one the rules allow
		// (the encoding can name no other), but the game is lost (checked
		// below).
		{"wrong line", func(b *clairvoyant.BoundFile, lf *lines.File) {
			lf.Lines[won[1]] = lf.Lines[won[0]]
		}, won[1], "marked winnable, but its line does not win: the line ends with "},
		{"no line", func(b *clairvoyant.BoundFile, lf *lines.File) {
			lf.Lines[won[2]] = nil
		}, won[2], "marked winnable, but has no winning line"},
		{"line cut short", func(b *clairvoyant.BoundFile, lf *lines.File) {
			l := lf.Lines[won[3]]
			lf.Lines[won[3]] = l[:len(l)-1]
		}, won[3], "marked winnable, but its line does not win"},
		{"unknown with a line", func(b *clairvoyant.BoundFile, lf *lines.File) {
			lf.Lines[unknown[0]] = lf.Lines[won[0]]
		}, unknown[0], "a winning line for a deck marked unknown"},
		{"winnable without a line", func(b *clairvoyant.BoundFile, lf *lines.File) {
			b.Winnable[unknown[0]] = &yes
		}, unknown[0], "marked winnable, but has no winning line"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, lf, err := clairvoyant.ReadBound(path)
			if err != nil {
				t.Fatal(err)
			}
			tc.change(b, lf)
			chk, err := clairvoyant.VerifyBound(b, lf, c.Checksum, c.Decks(), nil)
			if err != nil {
				t.Fatal(err)
			}
			if chk.OK() || chk.Failed != 1 || chk.First == nil || chk.First.Deck != tc.deck || !strings.Contains(chk.First.Reason, tc.reason) {
				t.Errorf("check %+v (first %v), want deck %d: %q", chk, chk.First, tc.deck, tc.reason)
			}
		})
	}
	// The wrong line above is wrong by the rules alone, not by the checker's say.
	b, lf, _ := clairvoyant.ReadBound(path)
	tr, err := lines.Decode(&c.Decks()[won[1]], b.Rules(), lf.Lines[won[0]])
	if err == nil {
		if g, err := solver.Replay(&c.Decks()[won[1]], b.Rules(), tr); err == nil && g.Won() {
			t.Errorf("deck %d's line wins deck %d too: not a corruption", won[0], won[1])
		}
	}

	// Files that do not fit together are errors, not failed decks.
	other := slices.Clone(c.Decks())
	other[0], other[1] = other[1], other[0]
	if _, err := clairvoyant.VerifyBound(b, lf, "other", other, nil); err == nil || !strings.Contains(err.Error(), "not these 20 decks") {
		t.Errorf("another corpus: %v", err)
	}
	if _, err := clairvoyant.VerifyBound(b, nil, c.Checksum, c.Decks(), nil); !errors.Is(err, clairvoyant.ErrNoLines) {
		t.Errorf("no lines: %v, want ErrNoLines", err)
	}
	lf.Rules.Preplaced = false
	if _, err := clairvoyant.VerifyBound(b, lf, c.Checksum, c.Decks(), nil); err == nil || !strings.Contains(err.Error(), "the bound file is for") {
		t.Errorf("lines for other rules: %v", err)
	}
}

// A bound file never claims a win without a line: EncodeLines refuses a
// Yes without a trace that wins.
func TestEncodeLinesRefuses(t *testing.T) {
	decks := corpusDecks(t, 2)
	rules := solver.Rules{Stacks: 4}
	for _, tc := range []struct {
		name string
		res  []clairvoyant.Result
		want string
	}{
		{"no trace", []clairvoyant.Result{{}, {Winnable: clairvoyant.Yes}}, "deck 1: winnable, but no winning line"},
		{"losing trace", []clairvoyant.Result{{Winnable: clairvoyant.Yes, Trace: []solver.Move{}}, {}}, "deck 0: winning line: the line does not win"},
		{"count", []clairvoyant.Result{{}}, "1 results for 2 decks"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := clairvoyant.EncodeLines(decks, "x", rules, tc.res)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want %q", err, tc.want)
			}
		})
	}
}

// TestShippedBoundsVerify: every shipped bound file carries a winning line
// for each deck it marks winnable, and each line wins by the rules alone.
// The 30,000-deck files are a long check (CALCSOL_LONG=1).
func TestShippedBoundsVerify(t *testing.T) {
	files, err := filepath.Glob("../decks/corpora/bounds/*.json")
	if err != nil || len(files) == 0 {
		t.Fatalf("no shipped bound files (%v)", err)
	}
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			b, lf, err := clairvoyant.ReadBound(path)
			if err != nil {
				t.Fatal(err)
			}
			if b.Decks > 1000 && !longtest.Enabled() {
				t.Skipf("%d decks: a long check (%s=1)", b.Decks, longtest.Env)
			}
			if lf == nil {
				t.Fatal("no winning lines")
			}
			c, err := corpus.OpenCalculation(b.Corpus, b.Corpus) // a shipped corpus
			if err != nil {
				t.Fatal(err)
			}
			chk, err := clairvoyant.VerifyBound(b, lf, c.Checksum, c.Decks(), nil)
			if err != nil {
				t.Fatal(err)
			}
			if !chk.OK() || chk.Verified != b.Won {
				t.Errorf("check %+v, first failure %v", chk, chk.First)
			}
		})
	}
}
