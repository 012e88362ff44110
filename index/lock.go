package index

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// ErrLocked is returned when another process holds the index.
var ErrLocked = errors.New("index is locked by another process")

// LockedError names the process that holds the index.
type LockedError struct {
	Dir    string
	PID    int
	Holder string // what the holder said it was doing, e.g. "lwr index build"
}

func (e *LockedError) Error() string {
	who := "another process"
	if e.PID > 0 {
		who = fmt.Sprintf("process %d", e.PID)
		if e.Holder != "" {
			who += " (" + e.Holder + ")"
		}
	}
	return fmt.Sprintf("the index %s is in use by %s; wait for it to finish or stop it (lwr index stop for a daemon)", e.Dir, who)
}

func (e *LockedError) Unwrap() error { return ErrLocked }

// fileLock is an advisory lock on a file in the index folder: exclusive for
// the one writer, shared for readers. The kernel drops it when the process
// dies, so a killed build never leaves a stale lock.
type fileLock struct {
	f         *os.File
	exclusive bool
}

// acquireLock takes the lock, polling until timeout. A writer records its
// pid and role in the file so that others can name it.
func acquireLock(dir, p string, exclusive bool, timeout time.Duration, role string) (*fileLock, error) {
	f, err := os.OpenFile(p, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("open lock %s: %w", p, err)
	}
	how := syscall.LOCK_SH
	if exclusive {
		how = syscall.LOCK_EX
	}
	deadline := time.Now().Add(timeout)
	for {
		err = syscall.Flock(int(f.Fd()), how|syscall.LOCK_NB)
		if err == nil {
			break
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) {
			f.Close()
			return nil, fmt.Errorf("lock %s: %w", p, err)
		}
		if time.Now().After(deadline) {
			le := &LockedError{Dir: dir}
			if b, err := os.ReadFile(p); err == nil {
				pid, holder, _ := strings.Cut(strings.TrimSpace(string(b)), " ")
				le.PID, _ = strconv.Atoi(pid)
				le.Holder = holder
			}
			f.Close()
			return nil, le
		}
		time.Sleep(25 * time.Millisecond)
	}
	if exclusive {
		if err := f.Truncate(0); err == nil {
			_, _ = f.WriteAt([]byte(fmt.Sprintf("%d %s\n", os.Getpid(), role)), 0)
		}
	}
	return &fileLock{f: f, exclusive: exclusive}, nil
}

func (l *fileLock) release() error {
	if l == nil || l.f == nil {
		return nil
	}
	if l.exclusive {
		_ = l.f.Truncate(0)
	}
	err := syscall.Flock(int(l.f.Fd()), syscall.LOCK_UN)
	if cerr := l.f.Close(); err == nil {
		err = cerr
	}
	l.f = nil
	return err
}
