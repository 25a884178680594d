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
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"runtime/pprof"
	"sync"
	"time"

	"github.com/hashicorp/go-hclog"
	goplugin "github.com/hashicorp/go-plugin"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

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
// another process. go-plugin gives a plugin the host's own stdin, so the
// end of stdin cannot tell.
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
	pos   []solver.Position
	reqs  []solver.Request
	out   []solver.Decision
	ended []solver.GameID
	blob  []byte

	// games holds, per game in play, its last position and the move the
	// strategy answered: the next observation is most often that position
	// after the move and one card drawn, which is cheaper to check than to
	// decode.
	games   map[uint64]*lastMove
	tracked []*lastMove // the batch's entries, by record
	scratch []byte
}

type lastMove struct {
	pos  solver.Position
	move solver.Move
	ok   bool // pos and move are usable
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
	return &proto.StartResponse{}, nil
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
	if cap(s.pos) < n {
		s.pos = make([]solver.Position, n)
		s.reqs = make([]solver.Request, n)
		s.out = make([]solver.Decision, n)
	}
	if s.games == nil {
		s.games = map[uint64]*lastMove{}
	}
	s.tracked = s.tracked[:0]
	b := req.GetObservations()
	for i := range n {
		o, rest, err := proto.ReadObservation(b)
		if err != nil {
			return nil, status.Errorf(codes.InvalidArgument, "record %d: %v", i, err)
		}
		t := s.games[o.Game]
		if t == nil {
			t = &lastMove{}
			s.games[o.Game] = t
		}
		if o.Flags&proto.FirstDecision != 0 || !t.ok || !s.advance(t, o.Position, &s.pos[i]) {
			if s.pos[i], err = solver.DecodePosition(o.Position); err != nil {
				return nil, status.Errorf(codes.InvalidArgument, "record %d (game %d): %v", i, o.Game, err)
			}
		}
		s.tracked = append(s.tracked, t)
		s.reqs[i] = solver.Request{Game: solver.GameID(o.Game), Seed: o.Seed, Position: s.pos[i].View()}
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
		t := s.tracked[i]
		t.pos, t.move = s.pos[i], out[i].Move
		t.ok = !out[i].Failed && out[i].Move.Kind != solver.Resign
	}
	return &proto.DecideResponse{Count: uint32(n), Decisions: s.blob}, nil
}

// advance tries to get the observed position b from t: t's position after
// t's move and the draw of b's drawn card. It writes the position to p and
// reports whether b is exactly that position (else the caller decodes b).
func (s *Server) advance(t *lastMove, b []byte, p *solver.Position) bool {
	st := solver.State{Position: t.pos}
	if st.Apply(t.move) != nil {
		return false
	}
	if st.Drawn() == 0 && len(b) > 3 && len(b) > 3+int(b[2]) {
		if d := solver.Rank(b[3+int(b[2])]); d != 0 && st.Reveal(d) != nil {
			return false
		}
	}
	s.scratch = proto.AppendPosition(s.scratch[:0], st.View())
	if !bytes.Equal(s.scratch, b) {
		return false
	}
	*p = st.Position
	return true
}

func (s *Server) end(ctx context.Context, games []uint64) error {
	if len(games) == 0 {
		return nil
	}
	s.ended = s.ended[:0]
	for _, g := range games {
		delete(s.games, g)
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
