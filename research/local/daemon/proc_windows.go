package daemon

import (
	"os"
	"syscall"

	"golang.org/x/sys/windows"
)

// detached starts a daemon in a process group of its own, without a
// console (no window opens; its output goes to its log).
func detached() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{CreationFlags: windows.CREATE_NEW_PROCESS_GROUP | windows.DETACHED_PROCESS, HideWindow: true}
}

// terminate ends a daemon that does not answer over its transport:
// Windows has no signal to ask it.
func terminate(pid int) error {
	p, err := os.FindProcess(pid)
	if err != nil {
		return err
	}
	return p.Kill()
}
