//go:build !linux

package plugin

import "syscall"

// Elsewhere than on Linux there is no child subreaper to hand calcsol what a
// plugin left: calcsol kills the plugin's process group, and a process that
// left the group (setsid) is not found.

func adoptOrphans() {}

// killTree kills the process and its group.
func (p *process) killTree() {
	if pid := p.pid(); pid != 0 {
		_ = syscall.Kill(-pid, syscall.SIGKILL)
		if !p.runner.Load().ended() {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	}
}
