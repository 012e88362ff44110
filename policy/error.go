package policy

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// The fixed codes that start the message of an invalid policy file's error.
const (
	CodeCurrentnessInvalid = "currentness_policy_invalid"
	CodePreferencesInvalid = "source_preferences_invalid"
)

// Callers branch on these with errors.Is. An invalid or unreadable
// currentness.json must fail the search and the research with no results
// (never a fallback); an invalid source-preferences.json is a user error
// that --ignore-source-preference bypasses deliberately.
var (
	ErrCurrentnessInvalid = errors.New(CodeCurrentnessInvalid)
	ErrPreferencesInvalid = errors.New(CodePreferencesInvalid)
)

// Error is an invalid or unreadable policy file. Its message is one line:
//
//	<code>: <file>: <where>: <problem>; fix: <fix>
//
// where <where> is the JSON pointer of the offending value ("/records/0/action"),
// "(top level)" for the document itself, or "line L, column C" for a JSON
// syntax error; it is left out when the file cannot be read at all.
type Error struct {
	Code    string // CodeCurrentnessInvalid or CodePreferencesInvalid
	File    string // the policy file
	Field   string // JSON pointer of the offending value; "" for the top level
	Line    int    // 1-based line of a JSON syntax error, else 0
	Column  int    // 1-based column (in characters) of a JSON syntax error
	Problem string // what is wrong
	Fix     string // how to fix it
	Err     error  // the underlying error (reading the file), if any
	noPlace bool   // the file could not be read: no field to name
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.Code)
	b.WriteString(": ")
	b.WriteString(e.File)
	b.WriteString(": ")
	switch {
	case e.noPlace:
	case e.Line > 0:
		fmt.Fprintf(&b, "line %d, column %d: ", e.Line, e.Column)
	case e.Field == "":
		b.WriteString("(top level): ")
	default:
		b.WriteString(e.Field)
		b.WriteString(": ")
	}
	b.WriteString(e.Problem)
	if e.Fix != "" {
		b.WriteString("; fix: ")
		b.WriteString(e.Fix)
	}
	return b.String()
}

// Is matches ErrCurrentnessInvalid or ErrPreferencesInvalid by code.
func (e *Error) Is(target error) bool {
	return (target == ErrCurrentnessInvalid && e.Code == CodeCurrentnessInvalid) ||
		(target == ErrPreferencesInvalid && e.Code == CodePreferencesInvalid)
}

func (e *Error) Unwrap() error { return e.Err }

// quote shows a value from a policy file inside an error message, cut
// short and quoted as Go quotes strings: control and invisible characters
// escaped, so that the message stays one line of visible text.
func quote(s string) string {
	const max = 60
	if r := []rune(s); len(r) > max {
		s = string(r[:max]) + "…"
	}
	return strconv.Quote(s)
}
