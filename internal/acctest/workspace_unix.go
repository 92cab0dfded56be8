//go:build unix

package acctest

import (
	"os/exec"
	"syscall"
)

// ownGroup starts cmd in a process group of its own, so that Kill can end
// terraform and the provider it started together, as a CI runner that
// vanishes does.
func ownGroup(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} }

// killGroup sends SIGKILL to the process group of cmd.
func killGroup(cmd *exec.Cmd) error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
