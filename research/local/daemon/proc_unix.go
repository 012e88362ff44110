//go:build !windows

package daemon

import "syscall"

// detached makes a started daemon the leader of a session of its own,
// without a controlling terminal.
func detached() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setsid: true} }

// terminate asks a daemon that does not answer to stop, with SIGTERM.
func terminate(pid int) error { return syscall.Kill(pid, syscall.SIGTERM) }
