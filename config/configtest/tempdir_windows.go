package configtest

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func tempDir(t testing.TB) string {
	dir, err := os.MkdirTemp("", "lwr-test-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := removeTree(dir); err != nil {
			t.Errorf("remove %s: %v", dir, err)
		}
	})
	return dir
}

func removeAll(dir string) error {
	if _, err := os.Lstat(dir); os.IsNotExist(err) {
		return nil
	}
	return removeTree(dir)
}

// removeTree removes files first, then folders deepest first.
func removeTree(dir string) error {
	var dirs []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			dirs = append(dirs, p)
			return nil
		}
		_ = os.Chmod(p, 0o666)
		return os.Remove(p)
	})
	if err != nil {
		return err
	}
	slices.Reverse(dirs)
	for _, d := range dirs {
		if err := os.Remove(d); err != nil {
			return err
		}
	}
	return nil
}
