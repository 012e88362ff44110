package report

import (
	"os"
	"path/filepath"
)

// Windows locks files only: a hidden lock file in the folder.
const dirLockFlag = os.O_CREATE | os.O_RDWR

func dirLockPath(dir string) string { return filepath.Join(dir, ".lwr-finalize.lock") }
