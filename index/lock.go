package index

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/gofrs/flock"
)

// ErrLocked is returned when another process holds the index.
var ErrLocked = errors.New("index is locked by another process")

// Role says what the process that holds an index's write lock is doing;
// the lock's owner file records it so that others can name the holder.
type Role string

// The roles of writers.
const (
	RoleBuild     Role = "lwr index build"
	RoleWatch     Role = "lwr index watch" // the daemon
	RoleAutoBuild Role = "lwr search (building the index)"
)

// Holder is the process that holds an index's write lock.
type Holder struct {
	PID  int
	Role Role
}

// Daemon reports whether the holder is the daemon of the index.
func (h Holder) Daemon() bool { return h.Role == RoleWatch }

func (h Holder) String() string {
	if h.PID <= 0 {
		return "another process"
	}
	s := fmt.Sprintf("process %d", h.PID)
	if h.Role != "" {
		s += " (" + string(h.Role) + ")"
	}
	return s
}

// LockedError names the process that holds the index.
type LockedError struct {
	Dir string
	Holder
}

func (e *LockedError) Error() string {
	return fmt.Sprintf("the index %s is in use by %s; wait for it to finish or stop it (lwr index stop for a daemon)", e.Dir, e.Holder)
}

func (e *LockedError) Unwrap() error { return ErrLocked }

// The lock files in the index folder: the lock itself, and the file in
// which the writer that holds it names itself (a separate file, because
// Windows does not let others read a locked range).
const (
	lockFile  = "lock"
	ownerFile = "lock.owner"
)

// LockHolder returns the process that holds the write lock of the index
// folder dir, and false when no process holds it (a killed writer leaves
// its owner file behind; the operating system has released its lock).
func LockHolder(dir string) (Holder, bool) {
	lk := flock.New(filepath.Join(dir, lockFile))
	ok, err := lk.TryRLock()
	if err != nil {
		return Holder{}, false
	}
	if ok {
		_ = lk.Unlock()
		return Holder{}, false
	}
	return readOwner(dir), true
}

// Killed returns the writer that ended without releasing the index
// folder dir (killed, or crashed): its owner file is left behind while no
// process holds the write lock. A daemon's: the index may miss the
// changes made since.
func Killed(dir string) (Holder, bool) {
	if _, held := LockHolder(dir); held {
		return Holder{}, false
	}
	h := readOwner(dir)
	return h, h.PID > 0
}

func readOwner(dir string) Holder {
	b, err := os.ReadFile(filepath.Join(dir, ownerFile))
	if err != nil {
		return Holder{}
	}
	pid, role, _ := strings.Cut(strings.TrimSpace(string(b)), " ")
	n, _ := strconv.Atoi(pid)
	return Holder{PID: n, Role: Role(role)}
}

// fileLock is an advisory lock on the lock file of an index folder:
// exclusive for the one writer, shared for readers. The operating system
// drops it when the process dies, so a killed build never leaves a stale
// lock.
type fileLock struct {
	f         *flock.Flock
	dir       string
	exclusive bool
}

// acquireLock takes the lock, polling until timeout. A writer records its
// pid and role in the owner file so that others can name it.
func acquireLock(dir string, exclusive bool, timeout time.Duration, role Role) (*fileLock, error) {
	p := filepath.Join(dir, lockFile)
	lk := flock.New(p, flock.SetFlag(os.O_CREATE|os.O_RDWR), flock.SetPermissions(0o600))
	try := lk.TryRLock
	if exclusive {
		try = lk.TryLock
	}
	deadline := time.Now().Add(timeout)
	for {
		ok, err := try()
		if err != nil {
			return nil, fmt.Errorf("lock %s: %w", p, err)
		}
		if ok {
			break
		}
		if time.Now().After(deadline) {
			_ = lk.Close()
			return nil, &LockedError{Dir: dir, Holder: readOwner(dir)}
		}
		time.Sleep(25 * time.Millisecond)
	}
	if exclusive {
		_ = os.WriteFile(filepath.Join(dir, ownerFile), []byte(fmt.Sprintf("%d %s\n", os.Getpid(), role)), 0o600)
	}
	return &fileLock{f: lk, dir: dir, exclusive: exclusive}, nil
}

func (l *fileLock) release() error {
	if l == nil || l.f == nil {
		return nil
	}
	if l.exclusive {
		_ = os.Remove(filepath.Join(l.dir, ownerFile))
	}
	err := l.f.Unlock()
	if cerr := l.f.Close(); err == nil {
		err = cerr
	}
	l.f = nil
	return err
}
