package config

import (
	"path/filepath"
	"strings"
)

// Windows compares environment names without case.
func envKey(name string) string { return strings.ToUpper(name) }

// homeOf is %USERPROFILE% (then %HOME%, which some shells set).
func homeOf(e Env) string {
	if h := e.vars["USERPROFILE"]; h != "" {
		return h
	}
	return e.vars["HOME"]
}

// The cache (the index, the web cache) goes to %LocalAppData%, which is
// not synced between machines; the configuration to %AppData%
// (os.UserCacheDir, os.UserConfigDir).
func platformCacheHome(e Env) string {
	if d := e.vars["LOCALAPPDATA"]; filepath.IsAbs(d) {
		return d
	}
	return filepath.Join(e.Home(), "AppData", "Local")
}

func platformConfigHome(e Env) string {
	if d := e.vars["APPDATA"]; filepath.IsAbs(d) {
		return d
	}
	return filepath.Join(e.Home(), "AppData", "Roaming")
}
