//go:build unix

package index

import "syscall"

// openFlags are added to the flags a source file is opened with: a FIFO
// swapped in after the Lstat must not block the open.
const openFlags = syscall.O_NONBLOCK
