package main

import (
	"os"

	"golang.org/x/sys/windows"
	"golang.org/x/term"
)

// setupConsole makes the console's output code page UTF-8 while lwr runs,
// so that a program reading lwr's output through the console (a
// PowerShell pipeline, cmd.exe) decodes Japanese as lwr writes it; Go
// writes to the console itself in UTF-16 whatever the code page. restore
// puts the code page back.
func setupConsole() (restore func()) {
	const utf8CP = 65001
	prev, err := windows.GetConsoleOutputCP()
	if err != nil || prev == utf8CP {
		return func() {}
	}
	if windows.SetConsoleOutputCP(utf8CP) != nil {
		return func() {}
	}
	return func() { _ = windows.SetConsoleOutputCP(prev) }
}

// colorTerminal reports whether f is a console that shows VT colour
// sequences, turning them on (Windows 10 and later) when it can.
func colorTerminal(f *os.File) bool {
	if !term.IsTerminal(int(f.Fd())) {
		return false
	}
	h := windows.Handle(f.Fd())
	var mode uint32
	if windows.GetConsoleMode(h, &mode) != nil {
		return false
	}
	if mode&windows.ENABLE_VIRTUAL_TERMINAL_PROCESSING != 0 {
		return true
	}
	return windows.SetConsoleMode(h, mode|windows.ENABLE_VIRTUAL_TERMINAL_PROCESSING) == nil
}
