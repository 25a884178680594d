package proto

import (
	"bytes"
	"slices"
	"testing"

	"google.golang.org/grpc/mem"
	"google.golang.org/protobuf/proto"
)

// TestCodec marshals requests of several sizes and reads them back, whole
// and split in pieces as gRPC may hand them over; buffers come back from the
// pool with old bytes in them, which must not show.
func TestCodec(t *testing.T) {
	var c codec
	for _, n := range []int{0, 1, 100, 40_000, 300_000} {
		obs := bytes.Repeat([]byte{0xa5, 1, 2}, n/3)
		in := &DecideRequest{Count: uint32(n), Observations: obs, Ended: []uint64{1, 2, 3}}
		for range 2 { // the second time, from a used buffer
			data, err := c.Marshal(in)
			if err != nil {
				t.Fatal(err)
			}
			whole := data.Materialize()
			for _, split := range [][]int{nil, {len(whole) / 3, 2 * len(whole) / 3}} {
				var pieces mem.BufferSlice
				at := 0
				for _, e := range append(split, len(whole)) {
					pieces = append(pieces, mem.SliceBuffer(whole[at:e]))
					at = e
				}
				var out DecideRequest
				if err := c.Unmarshal(pieces, &out); err != nil {
					t.Fatalf("%d bytes in %d pieces: %v", n, len(pieces), err)
				}
				if out.Count != in.Count || !bytes.Equal(out.Observations, in.Observations) || len(out.Ended) != 3 {
					t.Fatalf("%d bytes in %d pieces: read back count %d, %d bytes, ended %v", n, len(pieces), out.Count, len(out.Observations), out.Ended)
				}
			}
			data.Free()
		}
	}
}

func TestPoolSizes(t *testing.T) {
	for _, n := range []int{0, 1, 2, 3, 1000, 1024, 1025, 1 << 20, 1<<maxShift + 1} {
		b := buffers.Get(n)
		if len(*b) != n || cap(*b) < n {
			t.Fatalf("Get(%d): len %d cap %d", n, len(*b), cap(*b))
		}
		buffers.Put(b)
	}
}

// TestCodecReuses reads batches of shrinking and growing size into one
// message: each reads back exactly, and once the blob has grown, reading a
// batch allocates nothing.
func TestCodecReuses(t *testing.T) {
	var c codec
	var req DecideRequest
	var resp DecideResponse
	for _, n := range []int{50_000, 10, 0, 30_000, 50_000} {
		blob := bytes.Repeat([]byte{byte(n)}, n)
		for _, tc := range []struct {
			in, out proto.Message
			blob    func() []byte
		}{
			{&DecideRequest{Count: uint32(n), Observations: blob, Ended: []uint64{uint64(n)}}, &req, func() []byte { return req.Observations }},
			{&DecideResponse{Count: uint32(n), Decisions: blob}, &resp, func() []byte { return resp.Decisions }},
		} {
			data, err := c.Marshal(tc.in)
			if err != nil {
				t.Fatal(err)
			}
			if err := c.Unmarshal(data, tc.out); err != nil {
				t.Fatal(err)
			}
			data.Free()
			if !bytes.Equal(tc.blob(), blob) {
				t.Errorf("%T of %d bytes: read back %d bytes", tc.in, n, len(tc.blob()))
			}
		}
		if req.Count != uint32(n) || resp.Count != uint32(n) || len(req.Ended) != 1 || req.Ended[0] != uint64(n) {
			t.Errorf("batch of %d: counts %d and %d, ended %v", n, req.Count, resp.Count, req.Ended)
		}
	}
	b, _ := proto.Marshal(&DecideResponse{Count: 7, Decisions: make([]byte, 40_000)})
	if allocs := testing.AllocsPerRun(10, func() { _ = unmarshal(b, &resp) }); allocs != 0 {
		t.Errorf("reading a batch into a grown message: %v allocations", allocs)
	}
}

// FuzzReadBatch: whatever the bytes, the batch messages read as
// proto.Unmarshal reads them, or both refuse them.
func FuzzReadBatch(f *testing.F) {
	for _, m := range []proto.Message{
		&DecideRequest{Count: 3, Observations: []byte{1, 2, 3}, Ended: []uint64{1, 1 << 40}},
		&DecideResponse{Count: 1, Decisions: []byte("abc")},
	} {
		b, _ := proto.Marshal(m)
		f.Add(b)
	}
	// ended unpacked, a field twice, an unknown field, a wrong wire type
	f.Add([]byte{0x18, 0x05, 0x18, 0x06, 0x08, 0x01, 0x08, 0x02, 0x20, 0x07, 0x12, 0x01, 0xff, 0x0a, 0x00})
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, pair := range [][2]proto.Message{{&DecideRequest{}, &DecideRequest{}}, {&DecideResponse{}, &DecideResponse{}}} {
			fast, slow := pair[0], pair[1]
			_, errFast := unmarshalBatch(b, fast)
			errSlow := proto.Unmarshal(b, slow)
			if (errFast == nil) != (errSlow == nil) {
				t.Fatalf("%T from % x: readBatch error %v, proto.Unmarshal error %v", fast, b, errFast, errSlow)
			}
			if errSlow != nil {
				continue
			}
			if !batchEqual(fast, slow) {
				t.Fatalf("%T from % x: readBatch %v, proto.Unmarshal %v", fast, b, fast, slow)
			}
		}
	})
}

// batchEqual compares the known fields of two batch messages.
func batchEqual(a, b proto.Message) bool {
	switch a := a.(type) {
	case *DecideRequest:
		b := b.(*DecideRequest)
		return a.Count == b.Count && bytes.Equal(a.Observations, b.Observations) && slices.Equal(a.Ended, b.Ended)
	case *DecideResponse:
		b := b.(*DecideResponse)
		return a.Count == b.Count && bytes.Equal(a.Decisions, b.Decisions)
	}
	return false
}
