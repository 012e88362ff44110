package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"lwr/analyzer"
	"lwr/config"
	"lwr/index"
	"lwr/policy"
	"lwr/research/agent/skill"
	"lwr/research/deep"
	"lwr/research/local"
)

// Exit codes.
const (
	exitOK       = 0
	exitError    = 1   // anything else
	exitUsage    = 2   // bad flags, arguments or configuration
	exitBusy     = 3   // the index (or a deep research topic) is held by another process, or the daemon does not answer (or is stale)
	exitPolicy   = 4   // currentness_policy_invalid: the currentness file is invalid
	exitCanceled = 130 // interrupted
)

// usageError marks errors the user fixes by changing the command line.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error { return usageError{fmt.Sprintf(format, args...)} }

// reportedError is an error already shown to the user (e.g. as JSON); main
// only sets the exit code.
type reportedError struct{ err error }

func (e reportedError) Error() string { return e.err.Error() }
func (e reportedError) Unwrap() error { return e.err }

// exitCode turns an error into the process exit code and prints it as one
// sentence, unless it was reported already.
func exitCode(err error, stderr io.Writer) int {
	if err == nil {
		return exitOK
	}
	var rep reportedError
	if !errors.As(err, &rep) {
		fmt.Fprintln(stderr, "lwr: "+sentence(err))
	}
	var ue usageError
	switch {
	case errors.Is(err, context.Canceled):
		return exitCanceled
	case errors.As(err, &ue), errors.Is(err, config.ErrInvalid), errors.Is(err, skill.ErrNotFolder), errors.Is(err, index.ErrNoRoot), errors.Is(err, analyzer.ErrSynonymFile), errors.Is(err, analyzer.ErrUserDict), isCobraUsage(err):
		return exitUsage
	case errors.Is(err, policy.ErrCurrentnessInvalid):
		return exitPolicy
	case errors.Is(err, policy.ErrPreferencesInvalid):
		return exitUsage
	case errors.Is(err, index.ErrLocked), errors.Is(err, local.ErrNotAnswering), errors.Is(err, local.ErrSyncing), errors.Is(err, local.ErrDaemonRunning), errors.Is(err, local.ErrStaleDaemon),
		errors.Is(err, deep.ErrBusy):
		return exitBusy
	}
	return exitError
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

func isCobraUsage(err error) bool {
	s := err.Error()
	for _, p := range []string{"unknown flag", "unknown shorthand flag", "unknown command", "invalid argument", "flag needs an argument", "accepts ", "requires at least"} {
		if strings.Contains(s, p) {
			return true
		}
	}
	return false
}
