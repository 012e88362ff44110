package report

import (
	"context"
	"fmt"
	"time"

	"github.com/gofrs/flock"
)

// lockDir takes an exclusive lock on a folder (finalizes into the same
// folder take turns), waiting up to timeout.
func lockDir(ctx context.Context, dir string, timeout time.Duration) (func(), error) {
	lk := flock.New(dirLockPath(dir), flock.SetFlag(dirLockFlag), flock.SetPermissions(0o644))
	deadline := time.Now().Add(timeout)
	for {
		ok, err := lk.TryLock()
		if err != nil {
			return nil, fmt.Errorf("lock %s: %w", dir, err)
		}
		if ok {
			return func() { _ = lk.Unlock() }, nil
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("lock %s: another lwr is finalizing a report there for more than %s", dir, timeout)
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(20 * time.Millisecond):
		}
	}
}
