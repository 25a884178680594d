package lines

import (
	"bytes"
	"testing"

	"github.com/calcsol/calcsol/solver"
)

// FuzzDecode: any bytes either fail to decode or decode into moves the rules
// accept; a decoded line that wins encodes back to the same bytes.
func FuzzDecode(f *testing.F) {
	wins := readWins(f)
	for i, w := range wins {
		data, err := Encode(&w.deck, w.rules, w.trace)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(uint8(i), data)
	}
	f.Add(uint8(0), []byte{})
	f.Add(uint8(1), []byte{0xff, 0xff, 0xff})
	f.Fuzz(func(t *testing.T, k uint8, data []byte) {
		w := wins[int(k)%len(wins)]
		moves, err := Decode(&w.deck, w.rules, data)
		if err != nil {
			return
		}
		g, err := solver.Replay(&w.deck, w.rules, moves)
		if err != nil {
			t.Fatalf("decoded line does not replay: %v", err)
		}
		if !g.Won() {
			return
		}
		again, err := Encode(&w.deck, w.rules, moves)
		if err != nil || !bytes.Equal(again, data) {
			t.Fatalf("re-encoded %x (%v), want %x", again, err, data)
		}
	})
}

// FuzzRead: a lines file that reads writes back to a file that reads the
// same.
func FuzzRead(f *testing.F) {
	var b bytes.Buffer
	lf := File{Checksum: "ab", Rules: solver.Rules{Stacks: 3}, Lines: [][]byte{nil, {}, {1, 2}}}
	if err := lf.Write(&b); err != nil {
		f.Fatal(err)
	}
	f.Add(b.Bytes())
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		got, err := Read(bytes.NewReader(data))
		if err != nil {
			return
		}
		var out bytes.Buffer
		if err := got.Write(&out); err != nil {
			t.Fatal(err)
		}
		again, err := Read(bytes.NewReader(out.Bytes()))
		if err != nil {
			t.Fatal(err)
		}
		if again.Checksum != got.Checksum || again.Rules != got.Rules || len(again.Lines) != len(got.Lines) {
			t.Fatalf("read back %+v, want %+v", again, got)
		}
		for i := range got.Lines {
			if (got.Lines[i] == nil) != (again.Lines[i] == nil) || !bytes.Equal(got.Lines[i], again.Lines[i]) {
				t.Fatalf("line %d: %x, want %x", i, again.Lines[i], got.Lines[i])
			}
		}
	})
}
