//go:build !windows

package configtest

import "testing"

func tempDir(t testing.TB) string { return t.TempDir() }
