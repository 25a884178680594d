package proto

import (
	"fmt"
	"math/bits"
	"sync"

	"google.golang.org/grpc/mem"
	"google.golang.org/protobuf/proto"
)

// codec is gRPC's protobuf codec with buffers that fit: gRPC's own takes
// its buffers from a pool with no size between 32 KB and 1 MB, and clears
// a buffer's whole capacity when it hands it out, so each message of a
// large batch cost clearing a megabyte, in both processes (an eighth of
// the host's time at batch 4096). Here a message is marshalled into a
// buffer of the next power of two, not cleared: marshalling writes every
// byte of it.
type codec struct{}

// Name is the codec's content subtype: it is the protobuf codec, under the
// name a plugin in another language expects.
func (codec) Name() string { return "proto" }

func (codec) Marshal(v any) (mem.BufferSlice, error) {
	m, ok := v.(proto.Message)
	if !ok {
		return nil, fmt.Errorf("proto: cannot marshal %T", v)
	}
	o := proto.MarshalOptions{UseCachedSize: true}
	size := o.Size(m) // and caches it for MarshalAppend
	buf := buffers.Get(size)
	b, err := o.MarshalAppend((*buf)[:0], m)
	if err != nil {
		buffers.Put(buf)
		return nil, err
	}
	*buf = b
	return mem.BufferSlice{mem.NewBuffer(buf, buffers)}, nil
}

func (codec) Unmarshal(data mem.BufferSlice, v any) error {
	m, ok := v.(proto.Message)
	if !ok {
		return fmt.Errorf("proto: cannot unmarshal into %T", v)
	}
	if len(data) == 1 {
		return unmarshal(data[0].ReadOnlyData(), m)
	}
	buf := data.MaterializeToBuffer(buffers) // copies every byte in
	defer buf.Free()
	return unmarshal(buf.ReadOnlyData(), m)
}

// unmarshal reads a batch message into the blob it holds (see readBatch),
// any other message as proto.Unmarshal does.
func unmarshal(b []byte, m proto.Message) error {
	if ok, err := unmarshalBatch(b, m); ok {
		return err
	}
	return proto.Unmarshal(b, m)
}

// buffers pools byte slices by power of two of their capacity, up to
// 2^maxShift; a buffer it hands out holds old bytes, for its user to
// overwrite.
var buffers = &pool{}

const maxShift = 24

type pool struct{ by [maxShift + 1]sync.Pool }

func (p *pool) Get(n int) *[]byte {
	k := bits.Len(uint(max(n, 1) - 1)) // 1<<k is the least power of two ≥ n
	if k > maxShift {
		b := make([]byte, n)
		return &b
	}
	if b, ok := p.by[k].Get().(*[]byte); ok {
		*b = (*b)[:n]
		return b
	}
	b := make([]byte, n, 1<<k)
	return &b
}

func (p *pool) Put(b *[]byte) {
	c := cap(*b)
	if c == 0 {
		return
	}
	k := bits.Len(uint(c)) - 1 // 1<<k ≤ c
	if k <= maxShift {
		p.by[k].Put(b)
	}
}
