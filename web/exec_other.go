//go:build !unix

package web

import "os/exec"

// killGroup keeps exec's default: cancelling kills the process itself.
func killGroup(cmd *exec.Cmd) {}
