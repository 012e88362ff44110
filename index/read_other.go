//go:build !unix

package index

// openFlags are added to the flags a source file is opened with (none
// here: there are no FIFOs among a folder's files).
const openFlags = 0
