package boltfile

import (
	"errors"
	"os"

	"golang.org/x/sys/windows"
)

// bbolt locks the byte range -1..0 of the file (bbolt issue 121).
const m1 = 1<<32 - 1

// tryLock takes the lock bbolt takes on f (LockFileEx), without waiting;
// false when another process holds it.
func tryLock(f *os.File, exclusive bool) (bool, error) {
	flags := uint32(windows.LOCKFILE_FAIL_IMMEDIATELY)
	if exclusive {
		flags |= windows.LOCKFILE_EXCLUSIVE_LOCK
	}
	err := windows.LockFileEx(windows.Handle(f.Fd()), flags, 0, 1, 0, &windows.Overlapped{Offset: m1, OffsetHigh: m1})
	if errors.Is(err, windows.ERROR_LOCK_VIOLATION) {
		return false, nil
	}
	return err == nil, err
}

func unlock(f *os.File) error {
	return windows.UnlockFileEx(windows.Handle(f.Fd()), 0, 1, 0, &windows.Overlapped{Offset: m1, OffsetHigh: m1})
}
