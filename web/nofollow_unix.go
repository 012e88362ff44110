//go:build unix

package web

import (
	"errors"
	"os"
	"syscall"
)

// openNoFollow opens the cache file without following a symbolic link at
// its last component, closing the gap between the boundary check and the open.
func openNoFollow(name string, flag int, perm os.FileMode) (*os.File, error) {
	return os.OpenFile(name, flag|syscall.O_NOFOLLOW, perm)
}

// isSymlinkOpenError reports the error O_NOFOLLOW gives for a link.
func isSymlinkOpenError(err error) bool {
	return errors.Is(err, syscall.ELOOP) || errors.Is(err, syscall.EMLINK)
}
