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

// NewEnv builds an Env from KEY=VALUE pairs; nil means the process environment.
func NewEnv(environ []string) Env {
	if environ == nil {
		environ = os.Environ()
	}
	e := Env{vars: make(map[string]string, len(environ))}
	for _, kv := range environ {
		if k, v, ok := strings.Cut(kv, "="); ok {
			e.vars[k] = v
		}
	}
	return e
}

// Lookup returns a variable and whether it is set and not empty.
func (e Env) Lookup(name string) (string, bool) {
	v, ok := e.vars[name]
	return v, ok && v != ""
}

// Get returns a variable or "".
func (e Env) Get(name string) string { return e.vars[name] }

// Home is the user's home folder.
func (e Env) Home() string {
	if h := e.vars["HOME"]; h != "" {
		return h
	}
	if h, err := os.UserHomeDir(); err == nil {
		return h
	}
	return "."
}

// CacheHome is $XDG_CACHE_HOME or ~/.cache.
func (e Env) CacheHome() string {
	if d := e.vars["XDG_CACHE_HOME"]; filepath.IsAbs(d) {
		return d
	}
	return filepath.Join(e.Home(), ".cache")
}

// ConfigHome is $XDG_CONFIG_HOME or ~/.config.
func (e Env) ConfigHome() string {
	if d := e.vars["XDG_CONFIG_HOME"]; filepath.IsAbs(d) {
		return d
	}
	return filepath.Join(e.Home(), ".config")
}

// ExpandHome replaces a leading ~ with the home folder.
func (e Env) ExpandHome(p string) string {
	if p == "~" {
		return e.Home()
	}
	if strings.HasPrefix(p, "~/") {
		return filepath.Join(e.Home(), p[2:])
	}
	return p
}
