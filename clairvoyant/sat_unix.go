//go:build unix

package clairvoyant

import (
	"os/exec"
	"syscall"
)

// ownProcessGroup starts cmd in a process group of its own, out of reach of
// the terminal's Ctrl-C (the context stops it instead).
func ownProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}
