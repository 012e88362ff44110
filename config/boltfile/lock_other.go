//go:build !(darwin || dragonfly || freebsd || (linux && !android) || netbsd || openbsd || windows)

package boltfile

import (
	"errors"
	"os"
)

// tryLock: bbolt locks with fcntl here (android, illumos, solaris, aix)
// or not at all; no lock is taken, so the second look is unlocked.
func tryLock(*os.File, bool) (bool, error) { return false, errors.ErrUnsupported }

func unlock(*os.File) error { return nil }
