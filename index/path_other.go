//go:build !windows

package index

// foldPath is how paths compare: as they are (file names are case
// sensitive).
func foldPath(p string) string { return p }
