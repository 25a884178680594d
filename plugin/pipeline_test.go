package plugin

import (
	"context"
	"testing"

	"google.golang.org/grpc"

	"github.com/calcsol/calcsol/configs"
	"github.com/calcsol/calcsol/decks/corpus"
	"github.com/calcsol/calcsol/plugin/proto"
	"github.com/calcsol/calcsol/plugin/sdk"
	"github.com/calcsol/calcsol/solver"
)

// direct is a StrategyClient that calls a server in the same process: the
// protocol's encoding without gRPC and without a second process.
type direct struct{ srv *sdk.Server }

func (d direct) Info(ctx context.Context, in *proto.InfoRequest, _ ...grpc.CallOption) (*proto.InfoResponse, error) {
	return d.srv.Info(ctx, in)
}
func (d direct) Start(ctx context.Context, in *proto.StartRequest, _ ...grpc.CallOption) (*proto.StartResponse, error) {
	return d.srv.Start(ctx, in)
}
func (d direct) Decide(ctx context.Context, in *proto.DecideRequest, _ ...grpc.CallOption) (*proto.DecideResponse, error) {
	return d.srv.Decide(ctx, in)
}
func (d direct) End(ctx context.Context, in *proto.EndRequest, _ ...grpc.CallOption) (*proto.EndResponse, error) {
	return d.srv.End(ctx, in)
}
func (d direct) Close(ctx context.Context, in *proto.CloseRequest, _ ...grpc.CallOption) (*proto.CloseResponse, error) {
	return d.srv.Close(ctx, in)
}

// BenchmarkPipeline plays the priority strategy through the host's session
// and the SDK's server in one process, with no gRPC between them: what the
// protocol's encoding costs, apart from the transport. One op is 4,096
// games in batches of 1,024 on one core.
func BenchmarkPipeline(b *testing.B) {
	ds, err := corpus.LoadCalculationDecks("uniform-30000")
	if err != nil {
		b.Fatal(err)
	}
	ds = ds[:4096]
	rules := solver.Rules{Stacks: 3}
	in, _ := configs.Strategies().BuildSpec("priority")
	srv := sdk.NewServer(in)
	if _, err := srv.Start(context.Background(), &proto.StartRequest{Rules: &proto.Rules{Stacks: 3}}); err != nil {
		b.Fatal(err)
	}
	st, _ := New(Config{Command: "unused"})
	sess := &session{s: st, rules: rules, first: solver.DeckSize - 1, p: &process{strategy: direct{srv}, deltas: true}}
	var p solver.Player
	const batch = 1024
	deals := make([]solver.Deal, batch)
	res := make([]solver.Result, batch)
	games := 0
	b.ReportAllocs()
	for b.Loop() {
		for lo := 0; lo < len(ds); lo += batch {
			for i := range deals {
				deals[i] = solver.Deal{Deck: &ds[lo+i], Game: solver.GameID(lo + i)}
			}
			if err := p.Play(context.Background(), sess, rules, deals, res, solver.PlayOptions{}); err != nil {
				b.Fatal(err)
			}
			if res[0].Failed {
				b.Fatal(res[0].Reason)
			}
		}
		games += len(ds)
	}
	b.ReportMetric(float64(games)/b.Elapsed().Seconds(), "games/s")
}
