package plugin

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// On Linux calcsol is the child subreaper of its plugins (prctl
// PR_SET_CHILD_SUBREAPER): a process a plugin started and left, by its own
// death or by setsid and a double fork, is handed to calcsol rather than to
// PID 1, so calcsol still finds it. To end a plugin, calcsol stops (SIGSTOP)
// the plugin and each process whose parent is one of those stopped, or that
// is a child of calcsol's carrying the plugin's mark (CALCSOL_PLUGIN_BOX in
// the environment it was started with), until no new one appears and all
// are stopped: a stopped process starts no other. Then it kills them all
// and reaps those handed to it.

const prSetChildSubreaper = 36 // PR_SET_CHILD_SUBREAPER, linux/prctl.h

var subreaper sync.Once

// adoptOrphans makes calcsol the subreaper of its plugins' descendants.
func adoptOrphans() {
	subreaper.Do(func() {
		_, _, _ = syscall.RawSyscall(syscall.SYS_PRCTL, prSetChildSubreaper, 1, 0)
	})
}

// proc is a process as /proc shows it.
type proc struct {
	ppid  int
	state byte
}

// procs reads every process's parent and state.
func procs() map[int]proc {
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	out := make(map[int]proc, len(dirs))
	for _, d := range dirs {
		b, err := os.ReadFile(d + "/stat")
		if err != nil {
			continue
		}
		pid, _ := strconv.Atoi(d[len("/proc/"):])
		// After the command name in parentheses: state, ppid.
		i := bytes.LastIndexByte(b, ')')
		f := strings.Fields(string(b[i+1:]))
		if i < 0 || len(f) < 2 {
			continue
		}
		ppid, _ := strconv.Atoi(f[1])
		out[pid] = proc{ppid: ppid, state: f[0][0]}
	}
	return out
}

// marked reports whether process pid was started with mark in its
// environment.
func marked(pid int, mark string) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/environ")
	if err != nil {
		return false
	}
	for _, kv := range bytes.Split(b, []byte{0}) {
		if string(kv) == mark {
			return true
		}
	}
	return false
}

// stopped reports whether a process runs no more: stopped, a zombie, dead,
// or gone.
func stopped(ps map[int]proc, pid int) bool {
	p, ok := ps[pid]
	return !ok || strings.IndexByte("TtZXx", p.state) >= 0
}

// treeRounds bounds the search for a plugin's processes; a round is a scan
// of /proc.
const treeRounds = 200

// killTree kills the process, its group, and every process it started,
// and reaps those that calcsol adopted.
func (p *process) killTree() {
	pid, self := p.pid(), os.Getpid()
	if pid == 0 {
		return
	}
	_ = syscall.Kill(-pid, syscall.SIGSTOP)
	members := map[int]bool{}
	if !p.runner.Load().ended() {
		// Until it is waited for, its pid is its own.
		members[pid] = true
		_ = syscall.Kill(pid, syscall.SIGSTOP)
	}
	for range treeRounds {
		ps := procs()
		grew := false
		for q, pr := range ps {
			if members[q] {
				continue
			}
			if members[pr.ppid] || pr.ppid == self && marked(q, p.mark) {
				members[q] = true
				grew = true
				_ = syscall.Kill(q, syscall.SIGSTOP)
			}
		}
		all := true
		for q := range members {
			all = all && stopped(ps, q)
		}
		if !grew && all {
			break
		}
		if !grew {
			time.Sleep(time.Millisecond)
		}
	}
	_ = syscall.Kill(-pid, syscall.SIGKILL)
	for q := range members {
		_ = syscall.Kill(q, syscall.SIGKILL)
	}
	delete(members, pid) // go-plugin waits for it
	reap(members)
}

// reapWait bounds the wait for killed processes to be handed to calcsol.
const reapWait = 2 * time.Second

// reap waits for the killed processes that are (or become) calcsol's
// children; one whose parent is another of them is handed to calcsol when
// that parent dies.
func reap(pids map[int]bool) {
	deadline := time.Now().Add(reapWait)
	for len(pids) > 0 && time.Now().Before(deadline) {
		for q := range pids {
			var ws syscall.WaitStatus
			n, err := syscall.Wait4(q, &ws, syscall.WNOHANG, nil)
			switch {
			case n == q:
				delete(pids, q)
			case err == syscall.ECHILD:
				if _, err := os.Stat("/proc/" + strconv.Itoa(q)); err != nil {
					delete(pids, q) // gone: reaped by its parent
				}
			}
		}
		if len(pids) > 0 {
			time.Sleep(time.Millisecond)
		}
	}
}
