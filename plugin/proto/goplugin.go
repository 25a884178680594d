package proto

import (
	"context"

	goplugin "github.com/hashicorp/go-plugin"
	"google.golang.org/grpc"

	"github.com/calcsol/calcsol/solver"
)

// Handshake is what host and plugin must agree on before they talk: the
// protocol version and the magic cookie.
var Handshake = goplugin.HandshakeConfig{
	ProtocolVersion:  Version,
	MagicCookieKey:   MagicCookieKey,
	MagicCookieValue: MagicCookieValue,
}

// A batch's blob is tens to hundreds of kilobytes: with gRPC's default
// 64 KB flow-control window and 32 KB buffers, one request would wait for
// window updates and take many system calls.
const (
	window = 4 << 20
	buffer = 256 << 10
)

// DialOptions are the host's gRPC options for the plugin's connection: the
// window and buffer sizes and the codec that suit large batches.
func DialOptions() []grpc.DialOption {
	return []grpc.DialOption{
		grpc.WithInitialWindowSize(window), grpc.WithInitialConnWindowSize(window),
		grpc.WithReadBufferSize(buffer), grpc.WithWriteBufferSize(buffer),
		grpc.WithDefaultCallOptions(grpc.ForceCodecV2(codec{})),
	}
}

// NewGRPCServer makes the plugin's gRPC server, with opts (go-plugin's)
// and the window and buffer sizes and the codec that suit large batches.
func NewGRPCServer(opts []grpc.ServerOption) *grpc.Server {
	opts = append(opts, grpc.InitialWindowSize(window), grpc.InitialConnWindowSize(window),
		grpc.ReadBufferSize(buffer), grpc.WriteBufferSize(buffer), grpc.ForceServerCodecV2(codec{}))
	return grpc.NewServer(opts...)
}

// GRPCPlugin is the strategy service as a go-plugin plugin: a plugin serves
// Impl; the host gets a StrategyClient from it.
type GRPCPlugin struct {
	goplugin.NetRPCUnsupportedPlugin
	Impl StrategyServer
}

// GRPCServer implements goplugin.GRPCPlugin. Impl's Decide is handed a
// request that is reused once it returns: it must keep no part of it.
func (p *GRPCPlugin) GRPCServer(_ *goplugin.GRPCBroker, s *grpc.Server) error {
	s.RegisterService(&serviceDesc, p.Impl)
	return nil
}

// GRPCClient implements goplugin.GRPCPlugin: a StrategyClient that
// DecideInto answers through without allocating.
func (p *GRPCPlugin) GRPCClient(_ context.Context, _ *goplugin.GRPCBroker, c *grpc.ClientConn) (any, error) {
	return &batchClient{StrategyClient: NewStrategyClient(c), cc: c}, nil
}

// FromParams converts the solver's parameter declarations to the protocol's.
func FromParams(ps []solver.Param) []*Param {
	out := make([]*Param, len(ps))
	for i, p := range ps {
		out[i] = &Param{Name: p.Name, Doc: p.Doc, Kind: Param_Kind(p.Kind), Value: p.Value, Min: p.Min, Max: p.Max, Choices: p.Choices}
	}
	return out
}

// ToParams converts the protocol's parameter declarations to the solver's.
func ToParams(ps []*Param) []solver.Param {
	out := make([]solver.Param, len(ps))
	for i, p := range ps {
		out[i] = solver.Param{Name: p.GetName(), Doc: p.GetDoc(), Kind: solver.ParamKind(p.GetKind()), Value: p.GetValue(), Min: p.GetMin(), Max: p.GetMax(), Choices: p.GetChoices()}
	}
	return out
}
