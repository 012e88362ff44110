// Package configtest gives tests what lwr reads of its environment: temp
// folders, an environment with its own home, cache and configuration
// folders, so that no test reads or writes the user's, and the damage
// lwr's bbolt files (the manifest, Bleve's root, the web cache) are found
// in.
package configtest

import (
	"path/filepath"
	"testing"
)

// TempDir is t.TempDir, also where the operating system's removal of a
// folder tree is not available (Windows binaries under Wine, whose
// RemoveAll fails): the folder is removed file by file when the test ends.
func TempDir(t testing.TB) string {
	t.Helper()
	return tempDir(t)
}

// Env is an environment (KEY=VALUE pairs) with its own home, cache and
// configuration folders, followed by extra.
func Env(t testing.TB, extra ...string) []string {
	t.Helper()
	home := TempDir(t)
	return append([]string{
		"HOME=" + home,
		"USERPROFILE=" + home,
		"XDG_CACHE_HOME=" + filepath.Join(home, ".cache"),
		"XDG_CONFIG_HOME=" + filepath.Join(home, ".config"),
		"LOCALAPPDATA=" + filepath.Join(home, "AppData", "Local"),
		"APPDATA=" + filepath.Join(home, "AppData", "Roaming"),
	}, extra...)
}
