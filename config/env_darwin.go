package config

import "path/filepath"

func envKey(name string) string { return name }

func homeOf(e Env) string { return e.vars["HOME"] }

// macOS keeps caches and settings under ~/Library (os.UserCacheDir,
// os.UserConfigDir).
func platformCacheHome(e Env) string { return filepath.Join(e.Home(), "Library", "Caches") }

func platformConfigHome(e Env) string {
	return filepath.Join(e.Home(), "Library", "Application Support")
}
