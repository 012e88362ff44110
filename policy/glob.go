package policy

import (
	"errors"
	"strings"

	"lwr/config/glob"
)

// The paths of the policy files are lwr's one path-pattern dialect
// (package config/glob, .gitignore's): "規程/就業規則.md" that document,
// "研修/2024/*.md" the Markdown files of that folder, "**/旧*.md" old
// editions at any depth, "drafts" every folder named drafts.

// patternError says what is wrong with a pattern and how to fix it.
type patternError struct{ problem, fix string }

// compileGlob checks and compiles a pattern of a policy file.
func compileGlob(p string) (*glob.Pattern, *patternError) {
	g, err := glob.Compile(p)
	var ge *glob.Error
	switch {
	case errors.As(err, &ge):
		return nil, &patternError{problem: "the path " + quote(p) + " " + ge.Problem, fix: ge.Fix}
	case err != nil:
		return nil, &patternError{problem: err.Error(), fix: "see docs/policies.md"}
	}
	return g, nil
}

// documentPath is a preferred document's path as it is kept: in NFC,
// without a leading "./" or "/".
func documentPath(p string) string {
	p = nfc(p)
	p = strings.TrimPrefix(p, "./")
	return strings.TrimPrefix(p, "/")
}
