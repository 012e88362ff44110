package daemon

import (
	"errors"

	"lwr/index"
	"lwr/policy"
	"lwr/research/local"
)

// codes are the errors a daemon's answer names by code, in one place: the
// server answers an error with the code of the first entry it matches, the
// client's error matches that entry's error again (errors.Is), with the
// daemon's sentence as its text.
var codes = []struct {
	code string
	err  error
}{
	{policy.CodeCurrentnessInvalid, policy.ErrCurrentnessInvalid},
	{policy.CodePreferencesInvalid, policy.ErrPreferencesInvalid},
	{"empty_query", index.ErrEmptyQuery},
	{"query_too_long", index.ErrQueryTooLong},
	{"invalid_input", local.ErrInvalidInput},
	{"syncing", local.ErrSyncing},
	{"stale", local.ErrStaleDaemon},
	{"bad_request", errBadRequest},
}

// errBadRequest is a request the daemon cannot read.
var errBadRequest = errors.New("the daemon cannot read the request")

// The codes of an answer that no entry of codes stands for.
const (
	codeBadRequest = "bad_request" // a request this daemon cannot read (as errBadRequest)
	codeDenied     = "denied"      // without the daemon's token
	codeFailed     = "failed"      // any other error
)

// codeOf is the code of an error the daemon answers.
func codeOf(err error) string {
	for _, c := range codes {
		if errors.Is(err, c.err) {
			return c.code
		}
	}
	return codeFailed
}

// remoteError is an error the daemon reported: its sentence, matching the
// error of its code.
type remoteError struct {
	code, msg string
}

func (e *remoteError) Error() string { return e.msg }

func (e *remoteError) Unwrap() error {
	for _, c := range codes {
		if c.code == e.code {
			return c.err
		}
	}
	return nil
}
