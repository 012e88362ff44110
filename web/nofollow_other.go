//go:build !unix

package web

import "os"

// openNoFollow is os.OpenFile; cachePath has refused links already.
func openNoFollow(name string, flag int, perm os.FileMode) (*os.File, error) {
	return os.OpenFile(name, flag, perm)
}

func isSymlinkOpenError(error) bool { return false }
