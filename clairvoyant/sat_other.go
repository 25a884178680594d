//go:build !unix

package clairvoyant

import "os/exec"

// ownProcessGroup does nothing here: the program shares the terminal's
// Ctrl-C, and an interrupt may then read as a failed SAT solver.
func ownProcessGroup(cmd *exec.Cmd) {}
