package local

import (
	"crypto/subtle"
	"errors"

	"lwr/index"
	"lwr/policy"
)

// ProtocolVersion is the version of the daemon's requests and responses.
// A daemon answers only its own version; the client says how to fix a
// mismatch.
const ProtocolVersion = 2

// maxRequest bounds a request line.
const maxRequest = 1 << 20

// op is what a request asks of the daemon.
type op string

const (
	opSearch   op = "search"
	opPolicies op = "policies"
	opStatus   op = "status"
	opSkipped  op = "skipped"
	opStop     op = "stop"
	opSync     op = "sync"
)

// wireRequest is one call to the daemon, sent as one JSON line.
type wireRequest struct {
	V  int `json:"v"`
	Op op  `json:"op"`
	// Token proves the client may use the daemon where the transport
	// alone does not (loopback TCP on Windows).
	Token  string   `json:"token,omitempty"`
	Search *Request `json:"search,omitempty"`
	// Format asks the daemon to render the result, so that the client
	// only prints it; TTY says the client's output is a terminal.
	Format *Format `json:"format,omitempty"`
	TTY    bool    `json:"tty,omitempty"`
	// IgnorePreference is the policies request's.
	IgnorePreference bool `json:"ignore_preference,omitempty"`
	// Sync is the sync request's: sync now, as lwr index build would.
	Sync *SyncParams `json:"sync,omitempty"`
	// Schema is the index schema of the client (index.Schema: the version
	// and the user dictionary it analyzes with). A daemon of another one
	// refuses searches and syncs, which it would cut with other words.
	Schema string `json:"schema,omitempty"`
}

// SyncParams are the build options a sync request may ask for.
type SyncParams struct {
	Force bool `json:"force,omitempty"`
	Audit bool `json:"audit,omitempty"`
}

// wireResponse is the daemon's answer, one JSON line.
type wireResponse struct {
	V        int               `json:"v"`
	OK       bool              `json:"ok"`
	Error    string            `json:"error,omitempty"`
	Code     string            `json:"code,omitempty"`
	Result   *Result           `json:"result,omitempty"`
	Output   string            `json:"output,omitempty"`
	Status   *DaemonStatus     `json:"status,omitempty"`
	Policies *policy.Policies  `json:"policies,omitempty"`
	Skipped  []index.Skip      `json:"skipped,omitempty"`
	Build    *index.BuildStats `json:"build,omitempty"`
}

// The error codes of a failed request.
const (
	codeCurrentness = policy.CodeCurrentnessInvalid
	codePreferences = policy.CodePreferencesInvalid
	codeEmptyQuery  = "empty_query"
	codeSyncing     = "syncing"
	codeBadRequest  = "bad_request"
	codeStale       = "stale"
	codeDenied      = "denied"
	codeFailed      = "failed"
)

func errorCode(err error) string {
	switch {
	case errors.Is(err, policy.ErrCurrentnessInvalid):
		return codeCurrentness
	case errors.Is(err, policy.ErrPreferencesInvalid):
		return codePreferences
	case errors.Is(err, index.ErrEmptyQuery):
		return codeEmptyQuery
	case errors.Is(err, ErrSyncing):
		return codeSyncing
	}
	return codeFailed
}

// remoteError is an error the daemon reported; it matches the sentinel
// of its code with errors.Is.
type remoteError struct {
	code, msg string
}

func (e *remoteError) Error() string { return e.msg }

func (e *remoteError) Unwrap() error {
	switch e.code {
	case codeCurrentness:
		return policy.ErrCurrentnessInvalid
	case codePreferences:
		return policy.ErrPreferencesInvalid
	case codeEmptyQuery:
		return index.ErrEmptyQuery
	case codeSyncing:
		return ErrSyncing
	case codeStale:
		return ErrStaleDaemon
	}
	return nil
}

// tokenOK compares a request's token with the daemon's in constant time.
func tokenOK(got, want string) bool {
	return subtle.ConstantTimeCompare([]byte(got), []byte(want)) == 1
}
