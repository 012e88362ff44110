//go:build unix

package web

import (
	"os/exec"
	"syscall"
)

// killGroup runs cmd in a process group of its own and makes cancelling
// it kill the whole group, so that children of the command die with it.
func killGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error {
		if cmd.Process == nil {
			return nil
		}
		err := syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		if err == syscall.ESRCH {
			return nil
		}
		return err
	}
}
