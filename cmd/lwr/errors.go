package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"lwr/index"
	"lwr/research/local"
)

// The exit statuses (local.OutcomeOf's table, the MCP tools' too).
const (
	exitOK       = local.ExitOK
	exitError    = local.ExitError
	exitUsage    = local.ExitUsage
	exitBusy     = local.ExitBusy
	exitPolicy   = local.ExitPolicy
	exitCanceled = local.ExitCanceled
)

// usagef is an error the user fixes by changing the command line
// (local.ErrInvalidInput: exit 2, invalid_input).
func usagef(format string, args ...any) error { return local.Invalidf(format, args...) }

// usage marks an error as one the user fixes by changing the command line.
func usage(err error) error { return local.Invalid(err) }

// reportedError is an error already shown to the user (e.g. as JSON); main
// only sets the exit code.
type reportedError struct{ err error }

func (e reportedError) Error() string { return e.err.Error() }
func (e reportedError) Unwrap() error { return e.err }

// exitCode turns an error into the process exit code (local.OutcomeOf)
// and prints it as one sentence, unless it was reported already.
func exitCode(err error, stderr io.Writer) int {
	if err == nil {
		return exitOK
	}
	var rep reportedError
	if !errors.As(err, &rep) {
		fmt.Fprintln(stderr, "lwr: "+sentence(err))
	}
	return local.OutcomeOf(err).Exit
}

// sentence makes an error read as one sentence.
func sentence(err error) string {
	if errors.Is(err, context.Canceled) {
		return "interrupted."
	}
	s := strings.TrimSpace(err.Error())
	if errors.Is(err, index.ErrNoRoot) && !strings.Contains(s, local.MissingRootSentence) {
		s = local.MissingRootSentence + " (" + strings.TrimSpace(strings.TrimPrefix(s, index.ErrNoRoot.Error()+":")) + ")"
	}
	if s != "" && !strings.HasSuffix(s, ".") && !strings.HasSuffix(s, "。") {
		s += "."
	}
	return s
}
