//go:build !windows

package configtest

import (
	"os"
	"testing"
)

func tempDir(t testing.TB) string { return t.TempDir() }

func removeAll(dir string) error { return os.RemoveAll(dir) }
