package tournament

import (
	"bytes"
	"errors"
	"io"
	"testing"
)

// Lines written a block a member read back as they were, and a file cut
// anywhere reads as the whole members before the cut, then ends: cleanly at
// a member's end, with errTornMember inside one; where each member ends is
// known in the lines and in the file. Any other bytes are an error, never
// a panic.
func FuzzMembers(f *testing.F) {
	f.Add([]byte("a\nb\n"), 3, uint(0))
	f.Add([]byte("{\"v\":1}\n"), 1, uint(7))
	f.Add([]byte{0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff}, 0, uint(0))
	f.Fuzz(func(t *testing.T, data []byte, block int, cut uint) {
		if block <= 0 {
			// Not lines of a writer: any bytes.
			m := newMemberReader(bytes.NewReader(data))
			io.ReadAll(m)
			return
		}
		w := newRecordWriter(true, 1, nil)
		lines := bytes.SplitAfter(data, []byte("\n"))
		var whole [][]byte // the lines of each member
		var open []byte
		for i, l := range lines {
			if len(l) == 0 {
				continue
			}
			w.add(l)
			open = append(open, l...)
			if (i+1)%block == 0 {
				w.closeBlock()
				whole, open = append(whole, open), nil
			}
		}
		w.closeBlock()
		if len(open) > 0 {
			whole = append(whole, open)
		}
		file := w.Data.Bytes()
		n := int(cut % uint(len(file)+1))
		m := newMemberReader(bytes.NewReader(file[:n]))
		got, err := io.ReadAll(m)
		if err != nil && !errors.Is(err, errTornMember) {
			t.Fatalf("cut at %d of %d: %v", n, len(file), err)
		}
		var want []byte
		for i, e := range m.ends {
			want = append(want, whole[i]...)
			if e.Plain != int64(len(want)) || e.Comp > int64(n) {
				t.Fatalf("member %d ends at %+v; want plain %d, within the %d bytes", i, e, len(want), n)
			}
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("cut at %d of %d: read %q, want the whole members %q", n, len(file), got, want)
		}
		if (err == nil) != (n == len(file) || len(m.ends) > 0 && m.ends[len(m.ends)-1].Comp == int64(n) || n == 0) {
			t.Fatalf("cut at %d of %d, %d members read: error %v", n, len(file), len(m.ends), err)
		}
		if n == len(file) && !bytes.Equal(got, bytes.Join(whole, nil)) {
			t.Fatalf("read %q, wrote %q", got, bytes.Join(whole, nil))
		}
	})
}
