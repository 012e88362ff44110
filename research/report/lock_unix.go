//go:build !windows

package report

import "os"

// On Unix the folder itself is locked (flock works on a folder), so that
// finalizing leaves no file behind.
const dirLockFlag = os.O_RDONLY

func dirLockPath(dir string) string { return dir }
