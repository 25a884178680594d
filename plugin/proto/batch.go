package proto

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"google.golang.org/grpc"
	"google.golang.org/protobuf/encoding/protowire"
)

// A batch's two messages, DecideRequest and DecideResponse, carry a blob of
// tens to hundreds of kilobytes each round. Read by proto.Unmarshal, every
// message allocated its blob anew: in both processes a large allocation
// per round, cleared, and garbage a moment later (a fifth of the host's
// time at batch 4096 went to allocating and collecting). Here the codec
// reads them into the blob the message already holds, and both ends reuse
// their messages: the host one response per session (DecideInto), the
// plugin a pool of requests (its Decide handler).

// readBatch reads a DecideRequest (blob field 2, ended field 3) or a
// DecideResponse (blob field 2, no ended) from b into count, blob and
// ended, reusing their capacity. It accepts what proto.Unmarshal accepts
// for these messages: fields in any order, the last of a scalar winning,
// repeated integers packed or not, unknown fields skipped.
func readBatch(b []byte, count *uint32, blob *[]byte, ended *[]uint64) error {
	*count = 0
	*blob = (*blob)[:0]
	if ended != nil {
		*ended = (*ended)[:0]
	}
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return protowire.ParseError(n)
		}
		if num > protowire.MaxValidNumber {
			return errors.New("invalid field number")
		}
		b = b[n:]
		switch {
		case num == 1 && typ == protowire.VarintType:
			v, n := protowire.ConsumeVarint(b)
			if n < 0 {
				return protowire.ParseError(n)
			}
			*count = uint32(v)
			b = b[n:]
		case num == 2 && typ == protowire.BytesType:
			v, n := protowire.ConsumeBytes(b)
			if n < 0 {
				return protowire.ParseError(n)
			}
			*blob = append((*blob)[:0], v...)
			b = b[n:]
		case num == 3 && ended != nil && typ == protowire.VarintType:
			v, n := protowire.ConsumeVarint(b)
			if n < 0 {
				return protowire.ParseError(n)
			}
			*ended = append(*ended, v)
			b = b[n:]
		case num == 3 && ended != nil && typ == protowire.BytesType:
			v, n := protowire.ConsumeBytes(b)
			if n < 0 {
				return protowire.ParseError(n)
			}
			for len(v) > 0 {
				x, m := protowire.ConsumeVarint(v)
				if m < 0 {
					return protowire.ParseError(m)
				}
				*ended = append(*ended, x)
				v = v[m:]
			}
			b = b[n:]
		default:
			n := protowire.ConsumeFieldValue(num, typ, b)
			if n < 0 {
				return protowire.ParseError(n)
			}
			b = b[n:]
		}
	}
	return nil
}

// unmarshalBatch reads b into m when m is one of the batch messages, and
// reports whether it was.
func unmarshalBatch(b []byte, v any) (bool, error) {
	var err error
	switch m := v.(type) {
	case *DecideRequest:
		err = readBatch(b, &m.Count, &m.Observations, &m.Ended)
	case *DecideResponse:
		err = readBatch(b, &m.Count, &m.Decisions, nil)
	default:
		return false, nil
	}
	if err != nil {
		return true, fmt.Errorf("proto: cannot parse %T: %w", v, err)
	}
	return true, nil
}

// DecideInto is Decide with the answer read into out, whose blob's
// capacity it reuses: out.Decisions is valid until the next call with out.
// A client that cannot (a test's in-process stand-in) answers with Decide.
func DecideInto(ctx context.Context, c StrategyClient, in *DecideRequest, out *DecideResponse) error {
	bc, ok := c.(*batchClient)
	if !ok {
		resp, err := c.Decide(ctx, in)
		if err != nil {
			return err
		}
		out.Count, out.Decisions = resp.GetCount(), resp.GetDecisions()
		return nil
	}
	return bc.cc.Invoke(ctx, Strategy_Decide_FullMethodName, in, out, grpc.StaticMethod())
}

// batchClient is the host's client: the generated one, whose connection
// DecideInto uses.
type batchClient struct {
	StrategyClient
	cc grpc.ClientConnInterface
}

// requests pools the plugin's DecideRequests, with their blobs.
var requests = sync.Pool{New: func() any { return new(DecideRequest) }}

// decideHandler is the generated Decide handler with its request taken from
// the pool and put back once answered: the answer does not refer to it.
func decideHandler(srv any, ctx context.Context, dec func(any) error, interceptor grpc.UnaryServerInterceptor) (any, error) {
	if interceptor != nil {
		return _Strategy_Decide_Handler(srv, ctx, dec, interceptor)
	}
	in := requests.Get().(*DecideRequest)
	defer requests.Put(in)
	if err := dec(in); err != nil {
		return nil, err
	}
	return srv.(StrategyServer).Decide(ctx, in)
}

// serviceDesc is Strategy_ServiceDesc with decideHandler for Decide.
var serviceDesc = func() grpc.ServiceDesc {
	d := Strategy_ServiceDesc
	d.Methods = append([]grpc.MethodDesc(nil), d.Methods...)
	for i := range d.Methods {
		if d.Methods[i].MethodName == "Decide" {
			d.Methods[i].Handler = decideHandler
			return d
		}
	}
	panic(errors.New("proto: the service has no Decide"))
}()
