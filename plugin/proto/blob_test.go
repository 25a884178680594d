package proto_test

import (
	"bytes"
	"encoding/binary"
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/calcsol/calcsol/plugin/proto"
	"github.com/calcsol/calcsol/solver"
)

// positions plays n random games (uniform legal moves) under r and returns
// every position seen.
func positions(n int, r solver.Rules) []solver.Position {
	rng := rand.New(rand.NewPCG(1, 2))
	var out []solver.Position
	var g solver.Game
	var moves []solver.Move
	for range n {
		var d solver.Deck
		for i := range d {
			d[i] = solver.Rank(i%solver.NumRanks + 1)
		}
		rng.Shuffle(len(d), func(a, b int) { d[a], d[b] = d[b], d[a] })
		if err := g.Reset(&d, r); err != nil {
			panic(err)
		}
		for !g.Over() {
			v := g.View()
			out = append(out, v.Position())
			moves = v.AppendLegalMoves(moves[:0])
			if len(moves) == 0 {
				break
			}
			m := moves[rng.IntN(len(moves))]
			if m.Kind == solver.ToStack && rng.IntN(2) == 0 {
				m.Table = int8(1 + rng.IntN(solver.Tables))
				if v.Check(m) != nil {
					m.Table = 0
				}
			}
			if err := g.Apply(m); err != nil {
				panic(err)
			}
		}
	}
	return out
}

// TestObservationRoundTrip: a record holds what MarshalBinary writes, and
// the SDK's reading gives back the game, the seed, the flags and the
// position.
func TestObservationRoundTrip(t *testing.T) {
	for _, r := range []solver.Rules{{Stacks: 3}, {Stacks: 4, Preplaced: true}, {Stacks: 8, Names: "!@#$%^&*"}, {Stacks: 1}} {
		ps := positions(20, r)
		var blob []byte
		for i := range ps {
			blob = proto.AppendObservation(blob, uint64(i)<<40, ^uint64(i), byte(i%2), ps[i].View())
		}
		for i := range ps {
			o, rest, err := proto.ReadObservation(blob)
			if err != nil {
				t.Fatalf("%s: record %d: %v", r, i, err)
			}
			want, _ := ps[i].MarshalBinary()
			if !bytes.Equal(o.Position, want) {
				t.Fatalf("%s: record %d: position % x, MarshalBinary % x", r, i, o.Position, want)
			}
			if o.Game != uint64(i)<<40 || o.Seed != ^uint64(i) || o.Flags != byte(i%2) {
				t.Fatalf("%s: record %d: game %d seed %d flags %d", r, i, o.Game, o.Seed, o.Flags)
			}
			got, err := solver.DecodePosition(o.Position)
			if err != nil {
				t.Fatalf("%s: record %d: %v", r, i, err)
			}
			if got.String() != ps[i].String() {
				t.Fatalf("%s: record %d: decoded\n%s\nwant\n%s", r, i, got.String(), ps[i].String())
			}
			blob = rest
		}
		if len(blob) != 0 {
			t.Fatalf("%s: %d bytes left", r, len(blob))
		}
	}
}

// TestDeltaRecords: delta records read back with their game, seed and
// card, between whole records; a delta record whose body is not one rank is
// refused.
func TestDeltaRecords(t *testing.T) {
	p := positions(1, solver.Rules{Stacks: 3})[0]
	var blob []byte
	for i := range 14 {
		if i%5 == 0 {
			blob = proto.AppendObservation(blob, uint64(i), 99, proto.FirstDecision, p.View())
		} else {
			blob = proto.AppendDelta(blob, uint64(i), 99, solver.Rank(i-1))
		}
	}
	for i := range 14 {
		o, rest, err := proto.ReadObservation(blob)
		if err != nil {
			t.Fatalf("record %d: %v", i, err)
		}
		switch {
		case o.Game != uint64(i) || o.Seed != 99:
			t.Fatalf("record %d: game %d, seed %d", i, o.Game, o.Seed)
		case i%5 == 0 && o.Flags != proto.FirstDecision:
			t.Fatalf("record %d: flags %d, want a whole first record", i, o.Flags)
		case i%5 != 0 && (o.Flags != proto.Delta || len(o.Position) != 1 || o.Position[0] != byte(i-1)):
			t.Fatalf("record %d: flags %d, body % x; want a delta record of rank %d", i, o.Flags, o.Position, i-1)
		}
		blob = rest
	}
	for _, tc := range []struct {
		name string
		body []byte
	}{
		{"no card", nil},
		{"two bytes", []byte{1, 2}},
		{"rank 14", []byte{14}},
	} {
		rec := append(binary.LittleEndian.AppendUint64(nil, 1), make([]byte, 8)...)
		rec = append(rec, proto.Delta, byte(len(tc.body)))
		rec = append(rec, tc.body...)
		if _, _, err := proto.ReadObservation(rec); err == nil {
			t.Errorf("a delta record with %s: no error", tc.name)
		}
	}
}

func TestDecisionRoundTrip(t *testing.T) {
	ds := []solver.Decision{
		{Move: solver.Move{Kind: solver.ToTable, Rank: 5, Table: 4}},
		{Move: solver.Move{Kind: solver.ToStack, Stack: 7, Table: 0}},
		{Move: solver.Move{Kind: solver.ToStack, Rank: 13, Stack: 2, Table: 3}},
		{Move: solver.Move{Kind: solver.StackToTable, Stack: 1, Table: 2}},
		{Move: solver.Move{Kind: solver.Resign}, Reason: "no hope"},
		{Failed: true, Reason: "out of memory"},
	}
	var blob []byte
	for i, d := range ds {
		blob = proto.AppendDecision(blob, uint64(100+i), d)
	}
	for i, want := range ds {
		game, d, rest, err := proto.ReadDecision(blob)
		if err != nil {
			t.Fatal(err)
		}
		if game != uint64(100+i) {
			t.Errorf("decision %d: game %d", i, game)
		}
		if diff := cmp.Diff(want, d); diff != "" {
			t.Errorf("decision %d (-want +got):\n%s", i, diff)
		}
		blob = rest
	}
	long := proto.AppendDecision(nil, 1, solver.Decision{Failed: true, Reason: string(bytes.Repeat([]byte("x"), 300))})
	if _, d, _, err := proto.ReadDecision(long); err != nil || len(d.Reason) != 255 {
		t.Errorf("a long reason: %d bytes, %v; want cut to 255", len(d.Reason), err)
	}
}

// FuzzReadDecision: any bytes are read without a panic, and a record read
// writes back to the same bytes.
func FuzzReadDecision(f *testing.F) {
	f.Add(proto.AppendDecision(nil, 7, solver.Decision{Move: solver.Move{Kind: solver.ToStack, Stack: 1, Table: 2}}))
	f.Add(proto.AppendDecision(nil, 7, solver.Decision{Failed: true, Reason: "why"}))
	f.Add([]byte{1, 2, 3})
	f.Fuzz(func(t *testing.T, b []byte) {
		game, d, rest, err := proto.ReadDecision(b)
		if err != nil {
			return
		}
		again := proto.AppendDecision(nil, game, d)
		if n := len(b) - len(rest); !bytes.Equal(again, b[:n]) && !d.Failed {
			t.Errorf("read % x, wrote % x", b[:n], again)
		}
	})
}

// FuzzReadObservation: any bytes are read and decoded without a panic.
func FuzzReadObservation(f *testing.F) {
	for _, p := range positions(2, solver.Rules{Stacks: 3})[:5] {
		f.Add(proto.AppendObservation(nil, 1, 2, 0, p.View()))
	}
	f.Add(proto.AppendDelta(nil, 1, 2, 5))
	f.Fuzz(func(t *testing.T, b []byte) {
		for len(b) > 0 {
			o, rest, err := proto.ReadObservation(b)
			if err != nil {
				return
			}
			_, _ = solver.DecodePosition(o.Position)
			b = rest
		}
	})
}

// BenchmarkBlob measures the per-decision cost of the protocol's encoding on
// each side: the host writing observations and reading decisions, the SDK
// reading observations (with DecodePosition) and writing decisions.
func BenchmarkBlob(b *testing.B) {
	ps := positions(40, solver.Rules{Stacks: 3})
	var obs []byte
	for i := range ps {
		obs = proto.AppendObservation(obs, uint64(i), 0, 0, ps[i].View())
	}
	var dec []byte
	for i := range ps {
		dec = proto.AppendDecision(dec, uint64(i), solver.Decision{Move: solver.Move{Kind: solver.ToStack, Stack: 1}})
	}
	b.Run("host-encode", func(b *testing.B) {
		var buf []byte
		for b.Loop() {
			buf = buf[:0]
			for i := range ps {
				buf = proto.AppendObservation(buf, uint64(i), 0, 0, ps[i].View())
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(ps)), "ns/decision")
	})
	b.Run("sdk-decode", func(b *testing.B) {
		for b.Loop() {
			rest := obs
			for range ps {
				o, r, _ := proto.ReadObservation(rest)
				if _, err := solver.DecodePosition(o.Position); err != nil {
					b.Fatal(err)
				}
				rest = r
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(ps)), "ns/decision")
	})
	b.Run("sdk-encode", func(b *testing.B) {
		var buf []byte
		d := solver.Decision{Move: solver.Move{Kind: solver.ToStack, Stack: 1}}
		for b.Loop() {
			buf = buf[:0]
			for i := range ps {
				buf = proto.AppendDecision(buf, uint64(i), d)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(ps)), "ns/decision")
	})
	b.Run("host-decode", func(b *testing.B) {
		for b.Loop() {
			rest := dec
			for range ps {
				_, _, r, _ := proto.ReadDecision(rest)
				rest = r
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(ps)), "ns/decision")
	})
}
