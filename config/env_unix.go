//go:build !windows && !darwin

package config

import "path/filepath"

func envKey(name string) string { return name }

func homeOf(e Env) string { return e.vars["HOME"] }

func platformCacheHome(e Env) string { return filepath.Join(e.Home(), ".cache") }

func platformConfigHome(e Env) string { return filepath.Join(e.Home(), ".config") }
