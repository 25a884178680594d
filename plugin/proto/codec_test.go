package proto

import (
	"bytes"
	"testing"

	"google.golang.org/grpc/mem"
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
