// Command misbehave is a plugin for the host's tests: it plays (the first
// legal move, tables first) or misbehaves as its first argument says. With a
// second argument, a directory, it writes a file named by its pid there as it
// starts, so that a test can find the processes it left.
//
//	good       plays
//	crash      exits on its third batch
//	panic      its strategy panics on its second batch (the SDK recovers)
//	hang       never answers a batch
//	junk       writes junk to stdout before the handshake
//	crashstart exits before the handshake
//	illegal    answers a move onto a stack that does not exist
//	wronggame  answers each decision tagged with another game
//	malformed  answers a truncated decision blob
//	report     plays, having written env.PID into the directory: its
//	           environment, then cwd=…, stdin=… (what fd 0 is)
//	flood      writes 1 MiB to stderr, then "flood: last words", and exits
//	           with status 5 on its first batch
//	exit7      exits with status 7 on its first batch
//	sigkill    kills itself with SIGKILL on its first batch
//	setsid     plays, having started a child in a session of its own (which
//	           writes its pid into the directory and sleeps)
//	daemon     plays, having started a child that starts such a sleeper and
//	           exits (a double fork: the sleeper is an orphan at once)
//	setsidcrash starts a sleeper as setsid does, exits on its first batch
//	setsidhang starts a sleeper as setsid does, never answers a batch
//	rarecrash  exits on its 75th batch
//
// Each mode that starts a sleeper waits for its pid file before serving.
package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/calcsol/calcsol/plugin/proto"
	"github.com/calcsol/calcsol/plugin/sdk"
	"github.com/calcsol/calcsol/solver"
)

func main() {
	mode := os.Args[1]
	if len(os.Args) > 2 {
		pid := strconv.Itoa(os.Getpid())
		if err := os.WriteFile(filepath.Join(os.Args[2], pid), nil, 0o644); err != nil {
			panic(err)
		}
	}
	switch mode {
	case "report":
		report(os.Args[2])
	case "sleeper":
		select {}
	case "middle":
		start("sleeper", os.Args[2])
		os.Exit(0)
	case "setsid", "setsidcrash", "setsidhang":
		n := files(os.Args[2])
		start("sleeper", os.Args[2])
		await(os.Args[2], n+1)
	case "daemon":
		n := files(os.Args[2])
		start("middle", os.Args[2])
		await(os.Args[2], n+2)
	case "junk":
		fmt.Println("hello from a plugin that talks too much")
	case "crashstart":
		os.Exit(1)
	}
	st := solver.FromChooser(solver.Info{Name: "misbehave-" + mode}, func(solver.Rules) (solver.Chooser, error) {
		return &player{mode: mode}, nil
	})
	srv := sdk.NewServer(&batches{Strategy: st, mode: mode})
	switch mode {
	case "wronggame", "malformed":
		sdk.ServeServer(&tamper{Server: srv, mode: mode})
	default:
		sdk.ServeServer(srv)
	}
}

// batches counts the batches of its sessions and misbehaves on one.
type batches struct {
	solver.Strategy
	mode string
}

func (b *batches) Start(ctx context.Context, r solver.Rules) (solver.Session, error) {
	s, err := b.Strategy.Start(ctx, r)
	return &counted{Session: s, mode: b.mode}, err
}

type counted struct {
	solver.Session
	mode string
	n    int
}

func (c *counted) Decide(ctx context.Context, reqs []solver.Request, out []solver.Decision) error {
	c.n++
	switch {
	case c.mode == "crash" && c.n == 3:
		os.Exit(2)
	case c.mode == "panic" && c.n == 2:
		panic("misbehave: boom")
	case c.mode == "hang" || c.mode == "setsidhang":
		select {}
	case c.mode == "flood":
		// Straight to fd 2, as a crashing runtime writes.
		line := []byte(strings.Repeat("x", 1023) + "\n")
		for range 1024 {
			syscall.Write(2, line)
		}
		syscall.Write(2, []byte("flood: last words\n"))
		os.Exit(5)
	case c.mode == "rarecrash" && c.n == 75:
		os.Exit(6)
	case c.mode == "setsidcrash":
		os.Exit(4)
	case c.mode == "exit7":
		os.Exit(7)
	case c.mode == "sigkill":
		syscall.Kill(os.Getpid(), syscall.SIGKILL)
		select {}
	}
	return c.Session.Decide(ctx, reqs, out)
}

type player struct {
	mode  string
	moves []solver.Move
}

func (p *player) Choose(v solver.View) (solver.Move, error) {
	if p.mode == "illegal" {
		return solver.Move{Kind: solver.ToStack, Stack: 7}, nil
	}
	p.moves = v.AppendLegalMoves(p.moves[:0])
	for _, m := range p.moves {
		if m.Kind != solver.ToStack {
			return m, nil
		}
	}
	if len(p.moves) == 0 {
		return solver.Move{}, solver.ErrResign
	}
	return p.moves[0], nil
}

// tamper spoils the answers of a well-behaved server.
type tamper struct {
	*sdk.Server
	mode string
}

func (t *tamper) Decide(ctx context.Context, req *proto.DecideRequest) (*proto.DecideResponse, error) {
	resp, err := t.Server.Decide(ctx, req)
	if err != nil {
		return nil, err
	}
	b := resp.Decisions
	if t.mode == "malformed" {
		resp.Decisions = b[:len(b)-3]
		return resp, nil
	}
	var out []byte
	for len(b) > 0 {
		game, d, rest, err := proto.ReadDecision(b)
		if err != nil {
			return nil, err
		}
		out = proto.AppendDecision(out, game+1_000_000, d)
		b = rest
	}
	resp.Decisions = out
	return resp, nil
}

// report writes the process's environment, working directory and stdin to
// dir/env.PID.
func report(dir string) {
	var b strings.Builder
	for _, kv := range os.Environ() {
		b.WriteString(kv + "\n")
	}
	cwd, _ := os.Getwd()
	stdin, _ := os.Readlink("/proc/self/fd/0")
	fmt.Fprintf(&b, "cwd=%s\nstdin=%s\n", cwd, stdin)
	if err := os.WriteFile(filepath.Join(dir, "env."+strconv.Itoa(os.Getpid())), []byte(b.String()), 0o644); err != nil {
		panic(err)
	}
}

// start runs this program again in mode, with dir, in a session of its own.
func start(mode, dir string) {
	self, err := os.Executable()
	if err != nil {
		panic(err)
	}
	cmd := exec.Command(self, mode, dir)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		panic(err)
	}
}

// files counts the files in dir.
func files(dir string) int {
	es, _ := os.ReadDir(dir)
	return len(es)
}

// await waits until dir holds n files.
func await(dir string, n int) {
	for range 1000 {
		if files(dir) >= n {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	panic("misbehave: the sleeper did not start")
}
