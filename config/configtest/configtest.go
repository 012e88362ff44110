// Package configtest gives tests what lwr reads of its environment: temp
// folders, an environment with its own home, cache and configuration
// folders, so that no test reads or writes the user's, and the damage
// lwr's bbolt files (the manifest, Bleve's root, the web cache) are found
// in.
package configtest

import (
	"os"
	"path/filepath"
	"runtime"
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

// RemoveAll removes a folder tree, also where the operating system's
// removal of one is not available (see TempDir); a failure fails the test.
func RemoveAll(t testing.TB, dir string) {
	t.Helper()
	if err := removeAll(dir); err != nil {
		t.Fatal(err)
	}
}

// Symlink makes a symbolic link, or skips the test where links are not
// what users meet: Windows, where they need a privilege (and Wine makes
// them unix links, which the Windows build does not see as links).
func Symlink(t testing.TB, target, link string) {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("symbolic links need a privilege on Windows (and Wine makes them unix links)")
	}
	if err := os.Symlink(target, link); err != nil {
		t.Skip("no symbolic links here:", err)
	}
}
