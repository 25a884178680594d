package plugin

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"

	"github.com/hashicorp/go-hclog"
	goplugin "github.com/hashicorp/go-plugin"

	"github.com/calcsol/calcsol/internal/interrupt"
	"github.com/calcsol/calcsol/plugin/proto"
	"github.com/calcsol/calcsol/solver"
)

// process is one running plugin program.
type process struct {
	client   *goplugin.Client
	cmd      *exec.Cmd
	strategy proto.StrategyClient
	stderr   *tail
	sockDir  string
	deltas   bool // the plugin takes delta records
	once     sync.Once
}

// live holds the processes started and not yet killed, for KillAll.
var live = struct {
	sync.Mutex
	m map[*process]struct{}
}{m: map[*process]struct{}{}}

// startProcess starts the plugin program and opens its session for rules r.
func (s *Strategy) startProcess(ctx context.Context, r solver.Rules) (*process, *solver.Info, error) {
	if err := s.checkFile(); err != nil {
		return nil, nil, err
	}
	// The plugin makes its socket in a directory of ours, removed with the
	// process: a killed plugin cannot remove it itself.
	sockDir, err := os.MkdirTemp("", "calcsol-plugin-")
	if err != nil {
		return nil, nil, fmt.Errorf("plugin %s: %w", s.argv[0], err)
	}
	cmd := exec.Command(s.argv[0], s.argv[1:]...)
	cmd.Env = []string{goplugin.EnvUnixSocketDir + "=" + sockDir} // go-plugin adds ours after
	// Its own process group, so that killing the group ends whatever the
	// plugin started, and a Ctrl-C in a terminal reaches calcsol only.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	p := &process{cmd: cmd, stderr: &tail{}, sockDir: sockDir}
	cc := &goplugin.ClientConfig{
		HandshakeConfig:  proto.Handshake,
		Plugins:          goplugin.PluginSet{proto.PluginName: &proto.GRPCPlugin{}},
		Cmd:              cmd,
		AllowedProtocols: []goplugin.Protocol{goplugin.ProtocolGRPC},
		GRPCDialOptions:  proto.DialOptions(),
		StartTimeout:     s.cfg.StartTimeout,
		Logger:           hclog.NewNullLogger(),
		Stderr:           io.MultiWriter(p.stderr, s.cfg.Stderr),
		SyncStdout:       io.Discard,
		SyncStderr:       s.cfg.Stderr,
	}
	if s.cfg.SHA256 != "" && s.file == s.argv[0] {
		// go-plugin checks the program again as it starts it.
		sum, _ := hexDecode(s.cfg.SHA256)
		cc.SecureConfig = &goplugin.SecureConfig{Checksum: sum, Hash: newSHA256()}
	}
	p.client = goplugin.NewClient(cc)
	track(p)

	fail := func(what string, err error) (*process, *solver.Info, error) {
		p.kill()
		return nil, nil, fmt.Errorf("plugin %s %s: %v%s", s.argv[0], what, err, p.stderr.suffix())
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

// kill ends the process and its process group, and forgets it.
func (p *process) kill() {
	p.once.Do(func() {
		if p.cmd.Process != nil {
			_ = syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
		}
		p.client.Kill()
		_ = os.RemoveAll(p.sockDir)
		untrack(p)
	})
}

// While plugin processes run, SIGINT, SIGTERM and SIGHUP kill them all and
// end the program with status 128 + the signal's number: a plugin never
// outlives an interrupted calcsol. The handler is installed only while a plugin runs, so
// a program's own handling of those signals is untouched otherwise; with
// plugins running, an interrupted run ends as if killed (a tournament resumes
// from its records as after kill -9).
var (
	signals  = make(chan os.Signal, 1)
	stopping atomic.Bool
)

func init() {
	go func() {
		sig := <-signals
		stopping.Store(true)
		KillAll()
		n := 1
		if s, ok := sig.(syscall.Signal); ok {
			n = 128 + int(s)
		}
		os.Exit(n)
	}()
}

// track records a started process; the first one installs the handler.
func track(p *process) {
	live.Lock()
	defer live.Unlock()
	if len(live.m) == 0 {
		signal.Notify(signals, interrupt.Signals...)
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

// tail keeps the last bytes a plugin wrote to stderr, for error reasons.
type tail struct {
	mu  sync.Mutex
	buf []byte
}

const tailSize = 400

func (t *tail) Write(b []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, b...)
	if len(t.buf) > tailSize {
		t.buf = append(t.buf[:0], t.buf[len(t.buf)-tailSize:]...)
	}
	return len(b), nil
}

// suffix is " (stderr: …last line…)", or "" when the plugin wrote nothing.
func (t *tail) suffix() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := strings.TrimSpace(string(t.buf))
	if s == "" {
		return ""
	}
	lines := strings.Split(s, "\n")
	// A Go panic's first line says what; a Python traceback's last line.
	last := strings.TrimSpace(lines[len(lines)-1])
	for _, l := range lines {
		if strings.HasPrefix(l, "panic: ") {
			last = strings.TrimSpace(l)
			break
		}
	}
	return " (stderr: " + last + ")"
}
