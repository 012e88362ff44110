//go:build !(darwin || dragonfly || freebsd || illumos || linux || netbsd || openbsd || windows)

package boltfile

import (
	"errors"
	"os"
)

// tryLock: no lock is known here, so the second look is taken unlocked.
func tryLock(*os.File, bool) (bool, error) { return false, errors.ErrUnsupported }

func unlock(*os.File) error { return nil }
