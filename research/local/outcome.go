package local

import (
	"context"
	"errors"

	"lwr/analyzer"
	"lwr/config"
	"lwr/index"
	"lwr/policy"
	"lwr/research/report"
)

// The exit statuses of the command line.
const (
	ExitOK       = 0
	ExitError    = 1   // anything else
	ExitUsage    = 2   // bad flags, arguments, input or configuration
	ExitBusy     = 3   // the index (or a deep research topic) is held by another process, or the daemon does not answer (or is stale)
	ExitPolicy   = 4   // currentness_policy_invalid: the currentness file is invalid
	ExitCanceled = 130 // interrupted
)

// Outcome is what an error means for whoever asked: the fixed code an MCP
// tool error (and the failure evidence of a research) starts with, and
// the exit status of the command line.
type Outcome struct {
	Code string
	Exit int
}

// outcomes is the one table of them, first match wins; a report.Failure
// (a research or a finalize) carries its own code.
var outcomes = []struct {
	is      func(error) bool
	outcome Outcome
}{
	{anyOf(context.Canceled, context.DeadlineExceeded), Outcome{string(report.ReasonCanceled), ExitCanceled}},
	{anyOf(policy.ErrCurrentnessInvalid), Outcome{policy.CodeCurrentnessInvalid, ExitPolicy}},
	{anyOf(policy.ErrPreferencesInvalid), Outcome{policy.CodePreferencesInvalid, ExitUsage}},
	{func(err error) bool { return errors.As(err, new(*report.ValidationError)) }, Outcome{string(report.ReasonValidationFailed), ExitError}},
	{anyOf(report.ErrOutsideWorkspace), Outcome{"path_outside_workspace", ExitUsage}},
	{anyOf(index.ErrNoRoot), Outcome{"source_root_missing", ExitUsage}},
	{anyOf(index.ErrNotDocument), Outcome{"not_a_document", ExitUsage}},
	{anyOf(ErrInvalidInput, index.ErrEmptyQuery, index.ErrQueryTooLong, ErrBadRange, config.ErrInvalid, analyzer.ErrSynonymFile, analyzer.ErrUserDict),
		Outcome{string(report.ReasonInvalidInput), ExitUsage}},
	{anyOf(ErrNotAnswering, ErrSyncing, ErrStaleDaemon, ErrDaemonRunning, index.ErrLocked), Outcome{string(report.ReasonIndexBusy), ExitBusy}},
	{anyOf(ErrInUse), Outcome{"topic_busy", ExitBusy}},
}

// ErrInUse is something other than the index another process holds (a
// deep research topic its run or an agent's tool works on).
var ErrInUse = errors.New("in use by another process")

func anyOf(targets ...error) func(error) bool {
	return func(err error) bool {
		for _, t := range targets {
			if errors.Is(err, t) {
				return true
			}
		}
		return false
	}
}

// OutcomeOf looks an error up in the one table of outcomes: nil is
// ExitOK, an error of no row is "failed" and ExitError. A report.Failure
// is its reason, with the exit status of that reason's row (or of the
// error it wraps).
func OutcomeOf(err error) Outcome {
	if err == nil {
		return Outcome{Exit: ExitOK}
	}
	var f *report.Failure
	if errors.As(err, &f) {
		o := lookup(f.Err)
		if o.Exit == ExitError {
			o.Exit = exitOfReason(f.Reason)
		}
		return Outcome{Code: string(f.Reason), Exit: o.Exit}
	}
	return lookup(err)
}

func lookup(err error) Outcome {
	for _, row := range outcomes {
		if row.is(err) {
			return row.outcome
		}
	}
	return Outcome{Code: "failed", Exit: ExitError}
}

// exitOfReason is the exit status of a failure's reason.
func exitOfReason(r report.Reason) int {
	for _, row := range outcomes {
		if row.outcome.Code == string(r) {
			return row.outcome.Exit
		}
	}
	if r == report.ReasonInsideSourceRoot {
		return ExitUsage
	}
	return ExitError
}
