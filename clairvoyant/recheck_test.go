package clairvoyant_test

import (
	"context"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/calcsol/calcsol/clairvoyant"
	"github.com/calcsol/calcsol/solver"
)

// TestRecheckUnwinnable takes positions the full solver calls unwinnable and
// solves them again with each pruning switched off in turn, and with all of
// them off: no variant may find a win (one that runs out of budget proves
// nothing either way and is counted apart).
func TestRecheckUnwinnable(t *testing.T) {
	want := cases(3)
	ds := corpusDecks(t, 400)
	rng := rand.New(rand.NewPCG(3, 2002))
	full := clairvoyant.NewSolver(clairvoyant.Options{})
	variants := map[string]clairvoyant.Options{
		"no cycle check": {NoCycleCheck: true},
		"no memo":        {NoMemo: true},
		"no symmetry":    {NoSymmetry: true},
		"no bound":       {NoBound: true},
		"plain":          clairvoyant.Plain(),
	}
	checked, unsettled := 0, 0
	for i := 0; checked < want && i < 400*scale; i++ {
		d := ds[i%len(ds)]
		rules := solver.Rules{Stacks: 3 + i%2, Preplaced: i%4 >= 2}
		prefix, _, stacked := reducedPosition(t, full, d, rules, rng, 8+rng.IntN(8), 8, 14)
		if stacked > 14 {
			continue
		}
		res, err := full.SolveAfter(context.Background(), d, rules, prefix, clairvoyant.Budget{Nodes: 100_000})
		if err != nil {
			t.Fatal(err)
		}
		if res.Winnable != clairvoyant.No {
			continue
		}
		checked++
		for name, opts := range variants {
			if opts.NoCycleCheck && stacked > 8 {
				continue // every assignment of the stacked cards is tried: too many
			}
			again, err := clairvoyant.NewSolver(opts).SolveAfter(context.Background(), d, rules, prefix, clairvoyant.Budget{Nodes: 300_000})
			if err != nil {
				t.Fatal(err)
			}
			switch again.Winnable {
			case clairvoyant.Yes:
				t.Fatalf("%s, deck %d after %s: unwinnable with every pruning, winnable with %s:\n%s",
					rules, i%len(ds), solver.FormatTrace(prefix, rules), name, solver.FormatTrace(again.Trace, rules))
			case clairvoyant.Unknown:
				unsettled++
			}
		}
	}
	t.Logf("%d unwinnable positions rechecked; %d rechecks ran out of budget", checked, unsettled)
	if checked < want {
		t.Errorf("found %d unwinnable positions to recheck, want %d", checked, want)
	}
}

// TestBoundFileRoundTrip writes a bound file and reads it back.
func TestBoundFileRoundTrip(t *testing.T) {
	results := []clairvoyant.Result{{Winnable: clairvoyant.Yes}, {Winnable: clairvoyant.No}, {}}
	b := clairvoyant.NewBoundFile("c", "ab", solver.Rules{Stacks: 3, Preplaced: true}, clairvoyant.Budget{Nodes: 7}, results)
	var buf bytesBuffer
	if err := b.Write(&buf); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(buf.String(), `"per_deck"`); n != 1 {
		t.Errorf("per_deck written %d times:\n%s", n, buf.String())
	}
	got, err := clairvoyant.ReadBoundFile(&buf)
	if err != nil {
		t.Fatalf("%v\n%s", err, buf.String())
	}
	if got.Won != 1 || got.Lost != 1 || got.Unknown != 1 || got.Winnable[2] != nil || !*got.Winnable[0] || *got.Winnable[1] ||
		got.Rules() != (solver.Rules{Stacks: 3, Preplaced: true}) || got.Checksum != "ab" || got.Budget != 7 {
		t.Errorf("round trip: %+v", *got)
	}
}

// TestReadBoundHeader: the header reader gives a bound file's fields as the
// whole file's reader does, without its verdicts, and refuses what the
// whole reader refuses for the header's sake.
func TestReadBoundHeader(t *testing.T) {
	results := []clairvoyant.Result{{Winnable: clairvoyant.Yes}, {Winnable: clairvoyant.No}, {}}
	b := clairvoyant.NewBoundFile("c", "ab", solver.Rules{Stacks: 4}, clairvoyant.Budget{Nodes: 9}, results)
	var buf bytesBuffer
	if err := b.Write(&buf); err != nil {
		t.Fatal(err)
	}
	written := buf.String()
	tests := []struct {
		name, in, err string
	}{
		{"written", written, ""},
		{"no verdicts", `{"format": "calcsol-clairvoyant-bound 1", "corpus": "c", "checksum": "ab", "stacks": 4, "decks": 0}`, ""},
		{"other format", strings.Replace(written, "bound 1", "bound 9", 1), `format "calcsol-clairvoyant-bound 9"`},
		{"unknown field", strings.Replace(written, `"corpus"`, `"korpus"`, 1), `unknown field "korpus"`},
		{"not an object", `[1, 2]`, "want a JSON object"},
		{"cut short", written[:40], "bound file: "},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := clairvoyant.ReadBoundHeader(strings.NewReader(tc.in))
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want one with %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got.Winnable != nil {
				t.Errorf("verdicts read: %v", got.Winnable)
			}
			if got.Checksum != "ab" || got.Rules() != (solver.Rules{Stacks: 4}) || got.Corpus != "c" {
				t.Errorf("header %+v", *got)
			}
		})
	}
	full, err := clairvoyant.ReadBoundFile(strings.NewReader(written))
	if err != nil {
		t.Fatal(err)
	}
	head, err := clairvoyant.ReadBoundHeader(strings.NewReader(written))
	if err != nil {
		t.Fatal(err)
	}
	full.Winnable = nil
	if !reflect.DeepEqual(head, full) {
		t.Errorf("header %+v, whole file without verdicts %+v", *head, *full)
	}
}
