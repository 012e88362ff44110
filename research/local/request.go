package local

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"lwr/config"
	"lwr/config/glob"
	"lwr/index"
)

// The bounds of a request, the same for every front end.
const (
	// MaxFiles bounds Limit.
	MaxFiles = 1000
	// MinChars and MaxChars bound MaxChars (a snippet of fewer than 40
	// characters cuts most lines short of their meaning).
	MinChars = 40
	MaxChars = 20000
	// MaxPatterns bounds Only and Exclude together; MaxPatternChars each
	// pattern.
	MaxPatterns     = 100
	MaxPatternChars = 1024
)

// Check validates a request and fills its defaults from d (config's
// search section: max_files in ranked mode, max_chars); the command line,
// the MCP tools and the daemon all check a request with it. root, when
// given, is the source root: a pattern that is an absolute path inside
// it is made relative to it. Every error matches ErrInvalidInput, except
// a query over its bounds (index.ErrQueryTooLong) and an empty one
// (index.ErrEmptyQuery).
func (r *Request) Check(d config.Search, root string) error {
	if len(r.Query.Words) == 0 {
		return index.ErrEmptyQuery
	}
	if err := index.CheckQuery(r.Query, r.Synonyms); err != nil {
		return err
	}
	switch r.Mode {
	case index.Ranked, index.FullText:
	default:
		return Invalidf("the search mode %d is not one lwr has; use ranked or fulltext", r.Mode)
	}
	switch {
	case r.Limit < 0 || r.Limit > MaxFiles:
		return Invalidf("the number of files (max_files, --max-files) is %d; give 1 to %d, or leave it out for search.max_files", r.Limit, MaxFiles)
	case r.MaxChars != 0 && (r.MaxChars < MinChars || r.MaxChars > MaxChars):
		return Invalidf("the characters per snippet (max_chars, --max-chars) are %d; give %d to %d, or leave it out for search.max_chars", r.MaxChars, MinChars, MaxChars)
	case len(r.Only)+len(r.Exclude) > MaxPatterns:
		return Invalidf("%d path patterns given; give at most %d", len(r.Only)+len(r.Exclude), MaxPatterns)
	}
	for _, ps := range []struct {
		names    string // of the flag and the MCP argument
		patterns *[]string
	}{{"--path (paths)", &r.Only}, {"--exclude-path (exclude_paths)", &r.Exclude}} {
		for i, p := range *ps.patterns {
			if utf8.RuneCountInString(p) > MaxPatternChars {
				return Invalidf("%s: a pattern of %d characters; give patterns of at most %d", ps.names, utf8.RuneCountInString(p), MaxPatternChars)
			}
			p = relativePattern(p, root)
			if err := glob.Check(p); err != nil {
				return Invalidf("%s: %v", ps.names, err)
			}
			(*ps.patterns)[i] = p
		}
	}
	if r.Limit == 0 && r.Mode == index.Ranked {
		r.Limit = d.MaxFiles
		if r.Limit <= 0 {
			r.Limit = config.DefaultSearch().MaxFiles
		}
	}
	if r.MaxChars == 0 {
		r.MaxChars = d.MaxChars
		if r.MaxChars <= 0 {
			r.MaxChars = config.DefaultSearch().MaxChars
		}
	}
	return nil
}

// relativePattern makes an absolute path inside root (as an agent copies
// it from a report) relative to root; other patterns stay as they are.
func relativePattern(p, root string) string {
	if root == "" || !filepath.IsAbs(p) {
		return p
	}
	for _, r := range []string{root, canonical(root)} {
		if rel, err := filepath.Rel(r, p); err == nil && filepath.IsLocal(rel) {
			return filepath.ToSlash(rel)
		}
	}
	return p
}

func canonical(root string) string {
	if c, err := index.CanonicalRoot(root); err == nil {
		return c
	}
	return root
}

// ErrInvalidInput matches input the caller must change: a flag or
// argument of the command line, an argument of an MCP tool, a request.
var ErrInvalidInput = errors.New("invalid input")

// inputError is one; its text says what is wrong and how to fix it.
type inputError struct{ msg string }

func (e *inputError) Error() string        { return e.msg }
func (e *inputError) Is(target error) bool { return target == ErrInvalidInput }

// Invalidf is an error of input the caller must change (ErrInvalidInput).
func Invalidf(format string, args ...any) error {
	return &inputError{strings.TrimSpace(fmt.Sprintf(format, args...))}
}

// Invalid marks err as input the caller must change, keeping what it
// matches.
func Invalid(err error) error {
	if err == nil || errors.Is(err, ErrInvalidInput) {
		return err
	}
	return fmt.Errorf("%w%w", &inputError{}, err)
}
