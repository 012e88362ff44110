//go:build darwin || dragonfly || freebsd || (linux && !android) || netbsd || openbsd

package boltfile

import (
	"errors"
	"os"
	"syscall"
)

// tryLock takes the lock bbolt takes on f (flock), without waiting; false
// when another process holds it.
func tryLock(f *os.File, exclusive bool) (bool, error) {
	how := syscall.LOCK_SH
	if exclusive {
		how = syscall.LOCK_EX
	}
	err := syscall.Flock(int(f.Fd()), how|syscall.LOCK_NB)
	if errors.Is(err, syscall.EWOULDBLOCK) {
		return false, nil
	}
	return err == nil, err
}

func unlock(f *os.File) error { return syscall.Flock(int(f.Fd()), syscall.LOCK_UN) }
