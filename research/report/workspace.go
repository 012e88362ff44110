package report

import (
	"os"
	"path/filepath"
)

// FindWorkspace returns the workspace of dir: the top of the git work
// tree holding it (the nearest folder with a .git folder or file), else
// dir itself, absolute.
func FindWorkspace(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	for d := abs; ; {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d, nil
		}
		parent := filepath.Dir(d)
		if parent == d {
			return abs, nil
		}
		d = parent
	}
}
