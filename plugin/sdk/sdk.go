// Package sdk is what a strategy plugin for calcsol imports. A plugin is a
// program whose main serves a solver.Strategy — the same interface as a
// built-in strategy — over calcsol's plugin protocol:
//
//	func main() { sdk.Serve(myStrategy) }
//
// A stateless player can be written as a solver.Chooser and made a Strategy
// with solver.FromChooser. calcsol starts the program, one process per
// session, and talks to it over gRPC (hashicorp/go-plugin); see
// docs/plugins.md for the walkthrough, the protocol and its rules.
//
// The program exits by itself when calcsol goes away, even when calcsol was
// killed without a chance to stop it (the SDK watches its parent process).
package sdk

import (
	"context"
	"errors"
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
	"sync"
	"time"

	"github.com/hashicorp/go-hclog"
	goplugin "github.com/hashicorp/go-plugin"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/calcsol/calcsol/plugin/internal/games"
	"github.com/calcsol/calcsol/plugin/proto"
	"github.com/calcsol/calcsol/solver"
)

// Serve serves s as a calcsol plugin until the host stops it or goes away.
// It does not return. Run by hand, outside calcsol, the program says it is a
// plugin and exits with status 1.
func Serve(s solver.Strategy) {
	ServeServer(NewServer(s))
}

// ServeServer serves srv (a Server, or a wrapper of one) over go-plugin;
// most plugins want Serve.
func ServeServer(srv proto.StrategyServer) {
	if os.Getenv("GOMAXPROCS") == "" {
		runtime.GOMAXPROCS(1)
	}
	go watchParent(os.Getppid(), 200*time.Millisecond)
	startProfile()
	goplugin.Serve(&goplugin.ServeConfig{
		HandshakeConfig: proto.Handshake,
		Plugins:         goplugin.PluginSet{proto.PluginName: &proto.GRPCPlugin{Impl: srv}},
		GRPCServer:      proto.NewGRPCServer,
		Logger:          hclog.New(&hclog.LoggerOptions{Level: hclog.Warn, Output: os.Stderr}),
	})
	os.Exit(0)
}

// watchParent exits the process when its parent changes: the host died (a
// kill -9 leaves no chance to stop its plugins) and the plugin was handed to
// another process. calcsol gives a plugin /dev/null for stdin, so the end
// of stdin cannot tell.
func watchParent(ppid int, every time.Duration) {
	for {
		time.Sleep(every)
		if os.Getppid() != ppid {
			os.Exit(3)
		}
	}
}

// Server is the strategy service around a solver.Strategy: it holds the
// process's one session and decodes and encodes the batches.
type Server struct {
	proto.UnimplementedStrategyServer
	strategy solver.Strategy

	mu    sync.Mutex
	sess  solver.Session
	reqs  []solver.Request
	out   []solver.Decision
	ended []solver.GameID
	blob  []byte

	// games holds, per game in play, its position and the move the
	// strategy answered: a delta record is that position after the move,
	// with the card the record names drawn.
	games   games.Table[game]
	tracked []*game // the batch's entries, by record
}

type game struct {
	st   solver.State
	move solver.Move
	ok   bool // st and move are usable
}

// NewServer returns the service for s.
func NewServer(s solver.Strategy) *Server { return &Server{strategy: s} }

// Info implements proto.StrategyServer.
func (s *Server) Info(context.Context, *proto.InfoRequest) (*proto.InfoResponse, error) {
	info := s.strategy.Info()
	return &proto.InfoResponse{Name: info.Name, Stochastic: info.Stochastic, Params: proto.FromParams(info.Params)}, nil
}

// Start implements proto.StrategyServer.
func (s *Server) Start(ctx context.Context, req *proto.StartRequest) (resp *proto.StartResponse, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.sess != nil {
		return nil, status.Error(codes.FailedPrecondition, "a session is already open in this process")
	}
	r := solver.Rules{Stacks: int(req.GetRules().GetStacks()), Preplaced: req.GetRules().GetPreplaced(), Names: req.GetRules().GetNames()}
	defer func() {
		if v := recover(); v != nil {
			resp, err = &proto.StartResponse{Error: fmt.Sprintf("starting the session panicked: %v", v)}, nil
		}
	}()
	sess, err := s.strategy.Start(ctx, r)
	switch {
	case errors.Is(err, solver.ErrNotApplicable):
		return &proto.StartResponse{NotApplicable: true, Error: err.Error()}, nil
	case err != nil:
		return &proto.StartResponse{Error: err.Error()}, nil
	case sess == nil:
		return &proto.StartResponse{Error: "the strategy opened no session"}, nil
	}
	s.sess = sess
	return &proto.StartResponse{Deltas: true}, nil
}

// Decide implements proto.StrategyServer: it decodes the batch, asks the
// session, and packs the decisions. A panic of the strategy fails the batch.
func (s *Server) Decide(ctx context.Context, req *proto.DecideRequest) (resp *proto.DecideResponse, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.sess == nil {
		return nil, status.Error(codes.FailedPrecondition, "no session: Start first")
	}
	defer func() {
		if v := recover(); v != nil {
			resp, err = nil, status.Errorf(codes.Internal, "strategy panicked: %v", v)
		}
	}()
	if err := s.end(ctx, req.GetEnded()); err != nil {
		return nil, status.Errorf(codes.Internal, "end: %v", err)
	}
	n := int(req.GetCount())
	if n > 1<<20 {
		return nil, status.Errorf(codes.InvalidArgument, "batch of %d decisions", n)
	}
	if cap(s.reqs) < n {
		s.reqs = make([]solver.Request, n)
		s.out = make([]solver.Decision, n)
	}
	s.tracked = s.tracked[:0]
	s.games.Begin()
	b := req.GetObservations()
	for i := range n {
		o, rest, err := proto.ReadObservation(b)
		if err != nil {
			return nil, status.Errorf(codes.InvalidArgument, "record %d: %v", i, err)
		}
		g, _ := s.games.Get(o.Game)
		if o.Flags&proto.Delta != 0 {
			if err := g.advance(solver.Rank(o.Position[0])); err != nil {
				return nil, status.Errorf(codes.InvalidArgument, "record %d (game %d): %v", i, o.Game, err)
			}
		} else if g.st.Position, err = solver.DecodePosition(o.Position); err != nil {
			return nil, status.Errorf(codes.InvalidArgument, "record %d (game %d): %v", i, o.Game, err)
		}
		g.ok = false
		s.tracked = append(s.tracked, g)
		s.reqs[i] = solver.Request{Game: solver.GameID(o.Game), Seed: o.Seed, Position: g.st.View()}
		b = rest
	}
	if len(b) != 0 {
		return nil, status.Errorf(codes.InvalidArgument, "%d bytes after %d records", len(b), n)
	}
	out := s.out[:n]
	clear(out)
	if err := s.sess.Decide(ctx, s.reqs[:n], out); err != nil {
		return nil, status.Errorf(codes.Internal, "%v", err)
	}
	// The host sends the next batch only after it has this answer, so the
	// blob can be reused.
	s.blob = s.blob[:0]
	for i := range out {
		s.blob = proto.AppendDecision(s.blob, uint64(s.reqs[i].Game), out[i])
		g := s.tracked[i]
		g.move = out[i].Move
		g.ok = !out[i].Failed && out[i].Move.Kind != solver.Resign
	}
	return &proto.DecideResponse{Count: uint32(n), Decisions: s.blob}, nil
}

// advance plays the game's last answered move and draws drawn, the card
// the host says is drawn now: a delta record.
func (g *game) advance(drawn solver.Rank) error {
	if !g.ok {
		return errors.New("a delta record for a game without a position and an answered move")
	}
	if err := g.st.Apply(g.move); err != nil {
		return fmt.Errorf("a delta record, but the answered move does not apply: %v", err)
	}
	switch {
	case g.st.Drawn() == 0 && drawn != 0:
		return g.st.Reveal(drawn)
	case g.st.Drawn() != drawn:
		return fmt.Errorf("a delta record draws %d, but %d is drawn", drawn, g.st.Drawn())
	}
	return nil
}

func (s *Server) end(ctx context.Context, games []uint64) error {
	if len(games) == 0 {
		return nil
	}
	s.ended = s.ended[:0]
	for _, g := range games {
		s.games.Delete(g)
		s.ended = append(s.ended, solver.GameID(g))
	}
	return s.sess.End(ctx, s.ended)
}

// End implements proto.StrategyServer.
func (s *Server) End(ctx context.Context, req *proto.EndRequest) (*proto.EndResponse, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.sess == nil {
		return &proto.EndResponse{}, nil
	}
	if err := s.end(ctx, req.GetGames()); err != nil {
		return nil, status.Errorf(codes.Internal, "end: %v", err)
	}
	return &proto.EndResponse{}, nil
}

// Close implements proto.StrategyServer.
func (s *Server) Close(context.Context, *proto.CloseRequest) (*proto.CloseResponse, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.sess == nil {
		return &proto.CloseResponse{}, nil
	}
	err := s.sess.Close()
	s.sess = nil
	stopProfile()
	if err != nil {
		return nil, status.Errorf(codes.Internal, "close: %v", err)
	}
	return &proto.CloseResponse{}, nil
}

// ProfileEnv names the environment variable that, set to a file name, makes
// the plugin write a CPU profile of its session there (go tool pprof reads
// it); the profile is written when the session closes. With several
// sessions, each process appends its pid to the name.
const ProfileEnv = "CALCSOL_PLUGIN_CPUPROFILE"

var profile *os.File

func startProfile() {
	name := os.Getenv(ProfileEnv)
	if name == "" {
		return
	}
	f, err := os.Create(fmt.Sprintf("%s.%d", name, os.Getpid()))
	if err != nil {
		fmt.Fprintln(os.Stderr, "plugin: cpu profile:", err)
		return
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		fmt.Fprintln(os.Stderr, "plugin: cpu profile:", err)
		f.Close()
		return
	}
	profile = f
}

func stopProfile() {
	if profile != nil {
		pprof.StopCPUProfile()
		profile.Close()
		profile = nil
	}
}
