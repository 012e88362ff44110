package glob

import (
	"fmt"
	"path"
	"runtime"
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// Pattern is a compiled pattern.
type Pattern struct {
	raw     string
	segs    []string // the names to match, "**" for any folders; unanchored patterns start with "**"
	dirOnly bool     // a trailing slash: folders only
	literal bool     // no wildcard: segs are names
}

// Error says what is wrong with a pattern and how to write it.
type Error struct {
	Pattern string
	Problem string
	Fix     string
}

func (e *Error) Error() string { return fmt.Sprintf("%q %s; %s", e.Pattern, e.Problem, e.Fix) }

const fix = `write it relative to the source root with forward slashes, e.g. "規程/**/*.md", "drafts" (a folder at any depth) or "/drafts" (the top folder)`

// Check says what is wrong with a pattern (an *Error), nil when it
// compiles.
func Check(p string) error {
	_, err := Compile(p)
	return err
}

// Compile checks and compiles a pattern.
func Compile(p string) (*Pattern, error) {
	bad := func(problem, how string) (*Pattern, error) {
		return nil, &Error{Pattern: p, Problem: problem, Fix: how}
	}
	if strings.TrimSpace(p) == "" {
		return bad("is empty", fix)
	}
	for _, r := range p {
		if unicode.IsControl(r) || r == '\u2028' || r == '\u2029' {
			return bad("holds a control character", "remove it; "+fix)
		}
	}
	if runtime.GOOS == "windows" {
		// A separator on Windows, as its paths are written.
		p = strings.ReplaceAll(p, `\`, "/")
	}
	switch {
	case strings.Contains(p, `\`):
		return bad("holds a backslash", `use forward slashes ("規程/2024/契約事務.md")`)
	case len(p) >= 2 && p[1] == ':' && (p[0]|0x20 >= 'a' && p[0]|0x20 <= 'z'):
		return bad("is an absolute path with a drive letter", fix)
	case strings.HasPrefix(p, "~"):
		return bad("starts with ~ (a home folder)", fix)
	case strings.HasPrefix(p, "!"):
		return bad("starts with ! (.gitignore's re-include, which lwr does not read)", "list only what to match")
	}
	s := nfc(p)
	if strings.HasPrefix(s, "/") && strings.Contains(strings.Trim(s, "/"), "/") {
		return bad("is an absolute path", `write it relative to the source root: a pattern with a slash in it is anchored there already ("/" at its start is for one name only, as in "/drafts")`)
	}
	anchored := false
	if t, ok := strings.CutPrefix(s, "./"); ok {
		s, anchored = t, true
	}
	if t, ok := strings.CutPrefix(s, "/"); ok {
		s, anchored = t, true
	}
	dirOnly := false
	if t, ok := strings.CutSuffix(s, "/"); ok {
		s, dirOnly = t, true
	}
	if s == "" {
		return bad("names no file or folder", fix)
	}
	segs := strings.Split(s, "/")
	if len(segs) > 1 {
		anchored = true // a slash at the start or in the middle
	}
	literal := true
	for _, g := range segs {
		switch {
		case g == "":
			return bad("has an empty name (a doubled slash)", "remove the doubled slash")
		case g == "." || g == "..":
			return bad(`has a "." or ".." name`, "name the folders from the source root down")
		case g != "**" && strings.Contains(g, "**"):
			return bad(`has "**" inside a name`, `use "**" as a whole name ("規程/**/旧*.md"); "*" matches within a name`)
		}
		if _, err := path.Match(g, ""); err != nil {
			return bad(`has a "[" class that is not closed`, `close it, or use "?" for one character`)
		}
		if strings.ContainsAny(g, "*?[") {
			literal = false
		}
	}
	if n := len(segs); n > 1 && segs[n-1] == "**" {
		// A trailing "**" is what the folder holds, never the folder
		// itself: at least one name.
		segs = append(segs[:n-1], "*", "**")
	}
	if !anchored {
		segs = append([]string{"**"}, segs...)
		literal = false
	}
	for i, g := range segs {
		segs[i] = fold(g)
	}
	return &Pattern{raw: p, segs: segs, dirOnly: dirOnly, literal: literal}, nil
}

// String is the pattern as written.
func (p *Pattern) String() string { return p.raw }

// Literal reports a pattern without a wildcard, anchored: it names one
// path (a file, or a folder and what it holds).
func (p *Pattern) Literal() bool { return p.literal }

// Match reports whether the pattern matches the file rel (relative to
// the source root, forward slashes): the file itself, or a folder it is
// in.
func (p *Pattern) Match(rel string) bool {
	names := strings.Split(fold(nfc(strings.TrimPrefix(rel, "./"))), "/")
	if !p.dirOnly && match(p.segs, names) {
		return true
	}
	// A folder above it: the pattern matches names[:k] for some k < n.
	return matchPrefix(p.segs, names[:len(names)-1])
}

// Any reports whether one of the patterns matches rel.
func Any(ps []*Pattern, rel string) bool {
	for _, p := range ps {
		if p.Match(rel) {
			return true
		}
	}
	return false
}

// match reports whether the pattern's names match all of names. A "**"
// matches any number of names: the match is computed over (pattern name,
// path name) pairs, each once, so that many "**" cost the product of the
// lengths, not an exponent of it.
func match(pat, names []string) bool {
	ok := make([]bool, len(names)+1) // ok[j]: pat[i:] matches names[j:]
	next := make([]bool, len(names)+1)
	ok[len(names)] = true
	for i := len(pat) - 1; i >= 0; i-- {
		ok, next = next, ok
		if pat[i] == "**" {
			ok[len(names)] = next[len(names)]
			for j := len(names) - 1; j >= 0; j-- {
				ok[j] = next[j] || ok[j+1]
			}
			continue
		}
		ok[len(names)] = false
		for j := len(names) - 1; j >= 0; j-- {
			m, _ := path.Match(pat[i], names[j])
			ok[j] = m && next[j+1]
		}
	}
	return ok[0]
}

// matchPrefix reports whether the pattern matches names[:k] for some
// k ≥ 1 (a folder): the pattern followed by "**" matches all of names,
// with at least the first k names matched by the pattern itself.
func matchPrefix(pat, names []string) bool {
	for k := len(names); k >= 1; k-- {
		if match(pat, names[:k]) {
			return true
		}
	}
	return false
}

// nfc returns s in Unicode NFC, as names compare.
func nfc(s string) string {
	if norm.NFC.IsNormalString(s) {
		return s
	}
	return norm.NFC.String(s)
}

// fold is how names compare: without case on Windows, whose file names
// ignore it; as they are elsewhere.
func fold(s string) string {
	if runtime.GOOS == "windows" {
		return strings.ToLower(s)
	}
	return s
}
