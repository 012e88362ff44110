//go:build !windows

package main

import (
	"os"

	"golang.org/x/term"
)

// setupConsole has nothing to set up: terminals take UTF-8.
func setupConsole() (restore func()) { return func() {} }

// colorTerminal reports whether f is a terminal, which shows colour.
func colorTerminal(f *os.File) bool { return term.IsTerminal(int(f.Fd())) }
