package plugin

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/hashicorp/go-hclog"
	goplugin "github.com/hashicorp/go-plugin"
	"github.com/hashicorp/go-plugin/runner"

	"github.com/calcsol/calcsol/internal/interrupt"
	"github.com/calcsol/calcsol/plugin/proto"
	"github.com/calcsol/calcsol/solver"
)

// process is one running plugin program.
type process struct {
	s        *Strategy
	client   *goplugin.Client
	runner   atomic.Pointer[boxRunner] // the one go-plugin asked for
	strategy proto.StrategyClient
	stderr   *sink
	root     string // the process's own directory: its home and temporary files
	home     string
	tmp      string
	dir      string // its working directory
	mark     string // NAME=VALUE in its environment, and in its children's
	deltas   bool   // the plugin takes delta records
	once     sync.Once
}

// live holds the processes started and not yet killed, for KillAll.
var live = struct {
	sync.Mutex
	m map[*process]struct{}
}{m: map[*process]struct{}{}}

// startWait bounds the wait for how a process that failed to start ended.
const startWait = 100 * time.Millisecond

// markName is the variable that marks a plugin process and what it starts.
const markName = "CALCSOL_PLUGIN_BOX"

var marks atomic.Int64

// startProcess starts the plugin program and opens its session for rules r.
func (s *Strategy) startProcess(ctx context.Context, r solver.Rules) (*process, *solver.Info, error) {
	if err := s.checkFile(); err != nil {
		return nil, nil, err
	}
	// A directory of ours for the plugin's home and temporary files, removed
	// with the process: a killed plugin cannot remove it itself.
	root, err := os.MkdirTemp("", "calcsol-plugin-")
	if err != nil {
		return nil, nil, fmt.Errorf("plugin %s: %w", s.argv[0], err)
	}
	p := &process{s: s, root: root, mark: fmt.Sprintf("%s=%d-%d", markName, os.Getpid(), marks.Add(1)), home: filepath.Join(root, "home"), tmp: filepath.Join(root, "tmp"), dir: s.cfg.Dir,
		stderr: &sink{out: s.cfg.Stderr, shown: &s.shown}}
	for _, d := range []string{p.home, p.tmp} {
		if err := os.Mkdir(d, 0o700); err != nil {
			os.RemoveAll(root)
			return nil, nil, fmt.Errorf("plugin %s: %w", s.argv[0], err)
		}
	}
	if p.dir == "" {
		p.dir = p.home
	} else if p.dir, err = filepath.Abs(p.dir); err != nil {
		os.RemoveAll(root)
		return nil, nil, fmt.Errorf("plugin %s: dir: %w", s.argv[0], err)
	}
	argv := s.resolved()
	p.client = goplugin.NewClient(&goplugin.ClientConfig{
		HandshakeConfig: proto.Handshake,
		Plugins:         goplugin.PluginSet{proto.PluginName: &proto.GRPCPlugin{}},
		// go-plugin would give the plugin calcsol's environment and stdin:
		// the runner starts it contained instead.
		RunnerFunc: func(_ hclog.Logger, spec *exec.Cmd, _ string) (runner.Runner, error) {
			r, err := p.newRunner(s, argv, spec)
			if err != nil {
				return nil, err
			}
			p.runner.Store(r)
			return r, nil
		},
		SkipHostEnv: true,
		// The socket's directory is go-plugin's, in TMPDIR: under root its
		// path could pass the 108 bytes a socket's may have.
		AllowedProtocols: []goplugin.Protocol{goplugin.ProtocolGRPC},
		GRPCDialOptions:  proto.DialOptions(),
		StartTimeout:     s.cfg.StartTimeout,
		Logger:           hclog.NewNullLogger(),
		Stderr:           io.Discard, // the runner's stderr is empty
		SyncStdout:       io.Discard,
		SyncStderr:       p.stderr,
	})
	track(p)

	fail := func(what string, err error) (*process, *solver.Info, error) {
		// A process that ended by itself says how; one that still runs is
		// killed here, which says nothing.
		how := ""
		if st := p.status(startWait); st != stillRunning && st != "not started" {
			how = " (" + st + ")"
		}
		p.kill()
		return nil, nil, fmt.Errorf("plugin %s %s%s: %w%s", s.argv[0], what, how, err, p.stderr.suffix())
	}
	rpc, err := p.client.Client()
	if err != nil {
		return fail("did not start", err)
	}
	raw, err := rpc.Dispense(proto.PluginName)
	if err != nil {
		return fail("did not start", err)
	}
	sc, ok := raw.(proto.StrategyClient)
	if !ok {
		return fail("did not start", fmt.Errorf("dispensed %T", raw))
	}
	p.strategy = sc
	cctx, cancel := context.WithTimeout(ctx, s.cfg.StartTimeout)
	defer cancel()
	ir, err := sc.Info(cctx, &proto.InfoRequest{})
	if err != nil {
		return fail("did not describe itself", err)
	}
	sr, err := sc.Start(cctx, &proto.StartRequest{Rules: &proto.Rules{Stacks: uint32(r.Stacks), Preplaced: r.Preplaced, Names: r.Names}})
	switch {
	case err != nil:
		return fail("did not start its session", err)
	case sr.GetNotApplicable():
		p.kill()
		return nil, nil, fmt.Errorf("plugin %s: %s: %w", s.argv[0], sr.GetError(), solver.ErrNotApplicable)
	case sr.GetError() != "":
		return fail("did not start its session", errors.New(sr.GetError()))
	}
	p.deltas = sr.GetDeltas()
	info := &solver.Info{Name: ir.GetName(), Stochastic: ir.GetStochastic(), Params: proto.ToParams(ir.GetParams())}
	return p, info, nil
}

// exited reports whether the process has ended.
func (p *process) exited() bool { return p.client.Exited() }

// kill ends the process and every process it started, and forgets it.
func (p *process) kill() {
	p.once.Do(func() {
		p.killTree()
		p.client.Kill()
		if pid := p.pid(); pid != 0 {
			p.stderr.close(p.s.argv[0], pid)
		}
		_ = os.RemoveAll(p.root)
		untrack(p)
	})
}

// signalWait bounds the wait, after a plugin died of SIGINT, SIGTERM or
// SIGHUP, for the program to be stopped by the same signal.
const signalWait = time.Second

// interruptedWith reports whether the process died of the signal that is
// stopping the program: killed by SIGINT, SIGTERM or SIGHUP (a signal sent
// to every process, as systemd stops a service or a user kills a process
// group), with ctx cancelled within signalWait. The plugin may die a moment
// before calcsol sees the signal; the games of its batch are then
// interrupted, not failed.
func (p *process) interruptedWith(ctx context.Context) bool {
	r := p.runner.Load()
	if r == nil || !interrupt.Watched() || !r.endedBy(interrupt.Signals) {
		return false
	}
	select {
	case <-ctx.Done():
		return true
	case <-time.After(signalWait):
		return false
	}
}

// status says how the process ended (see boxRunner.status).
func (p *process) status(d time.Duration) string {
	r := p.runner.Load()
	if r == nil {
		return "not started"
	}
	return r.status(d)
}

// pid is the process's pid, 0 until it started.
func (p *process) pid() int {
	if r := p.runner.Load(); r != nil {
		return int(r.pid.Load())
	}
	return 0
}

// While plugin processes run, SIGINT, SIGTERM and SIGHUP are calcsol's to
// handle, so that a plugin never outlives an interrupted program. A program
// that stops cleanly for them (interrupt.Watched: calcsol's commands) has
// the first signal to itself: its context is cancelled, the sessions in
// play end their batches with that cancellation (no game is recorded as
// failed for it) and close, which kills their processes, and the program
// exits as it would without plugins — a tournament with the line that says
// how to resume. A second signal, or the first in a program that does not
// watch them, kills every plugin process and ends the program with status
// 128 + the signal's number at once. The handler is installed only while a
// plugin runs, so a program's own handling of those signals is untouched
// otherwise.
var (
	signals  = make(chan os.Signal, 1)
	stopping atomic.Bool
)

func init() {
	go func() {
		left := false // the first signal was left to the program
		for sig := range signals {
			if !left && interrupt.Watched() {
				left = true
				continue
			}
			stopping.Store(true)
			KillAll()
			n := 1
			if s, ok := sig.(syscall.Signal); ok {
				n = 128 + int(s)
			}
			os.Exit(n)
		}
	}()
}

// track records a started process; the first one installs the handler.
func track(p *process) {
	live.Lock()
	defer live.Unlock()
	if len(live.m) == 0 {
		signal.Notify(signals, interrupt.Signals...)
		adoptOrphans()
	}
	live.m[p] = struct{}{}
}

// untrack forgets a killed process; the last one removes the handler.
func untrack(p *process) {
	live.Lock()
	defer live.Unlock()
	if _, ok := live.m[p]; !ok {
		return
	}
	delete(live.m, p)
	if len(live.m) == 0 && !stopping.Load() {
		signal.Stop(signals)
	}
}
