//go:build !unix

package acctest

import "os/exec"

func ownGroup(*exec.Cmd) {}

// killGroup kills terraform only: the provider it started ends when its
// parent's pipes close.
func killGroup(cmd *exec.Cmd) error { return cmd.Process.Kill() }
