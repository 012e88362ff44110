package config

import (
	"os"
	"path/filepath"
	"strings"
)

// Env is a snapshot of the process environment, so that tests can pass
// their own and nothing below config reads the real one.
type Env struct {
	vars map[string]string
}

// NewEnv builds an Env from KEY=VALUE pairs; nil means the process
// environment. Names compare as the operating system compares them
// (without case on Windows).
func NewEnv(environ []string) Env {
	if environ == nil {
		environ = os.Environ()
	}
	e := Env{vars: make(map[string]string, len(environ))}
	for _, kv := range environ {
		if k, v, ok := strings.Cut(kv, "="); ok && k != "" {
			e.vars[envKey(k)] = v
		}
	}
	return e
}

// Lookup returns a variable and whether it is set and not empty.
func (e Env) Lookup(name string) (string, bool) {
	v, ok := e.vars[envKey(name)]
	return v, ok && v != ""
}

// Get returns a variable or "".
func (e Env) Get(name string) string { return e.vars[envKey(name)] }

// Home is the user's home folder.
func (e Env) Home() string {
	if h := homeOf(e); h != "" {
		return h
	}
	if h, err := os.UserHomeDir(); err == nil {
		return h
	}
	return "."
}

// CacheHome is the user's cache folder: $XDG_CACHE_HOME, else the
// platform's (~/.cache; %LocalAppData% on Windows; ~/Library/Caches on
// macOS).
func (e Env) CacheHome() string {
	if d := e.Get("XDG_CACHE_HOME"); filepath.IsAbs(d) {
		return d
	}
	return platformCacheHome(e)
}

// ConfigHome is the user's configuration folder: $XDG_CONFIG_HOME, else
// the platform's (~/.config; %AppData% on Windows; ~/Library/Application
// Support on macOS).
func (e Env) ConfigHome() string {
	if d := e.Get("XDG_CONFIG_HOME"); filepath.IsAbs(d) {
		return d
	}
	return platformConfigHome(e)
}

// ExpandHome replaces a leading ~ (~/ or ~\ on Windows) with the home
// folder.
func (e Env) ExpandHome(p string) string {
	if p == "~" {
		return e.Home()
	}
	if strings.HasPrefix(p, "~/") || strings.HasPrefix(p, "~"+string(filepath.Separator)) {
		return filepath.Join(e.Home(), p[2:])
	}
	return p
}
