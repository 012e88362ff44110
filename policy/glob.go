package policy

import (
	"path"
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// glob is a compiled path pattern over document paths (relative to the
// source root, forward slashes): "*" and "?" and "[…]" match within one
// path segment as path.Match does, and a "**" segment matches any number
// of segments, none included. A pattern without wildcards is an exact path.
type glob struct {
	raw     string   // as written (in NFC)
	key     string   // as compared: a pathKey
	segs    []string // of key
	prefix  string   // literal text every match's key starts with
	literal bool
}

// patternError says what is wrong with a pattern and how to fix it.
type patternError struct{ problem, fix string }

func (e *patternError) Error() string { return e.problem }

const pathFix = `give it relative to the source root with forward slashes, e.g. "研修/2024/*.md"`

// compileGlob checks and compiles a pattern. Patterns are compared in
// Unicode NFC, as paths are.
func compileGlob(p string) (glob, error) {
	if strings.TrimSpace(p) == "" {
		return glob{}, &patternError{"empty path", pathFix}
	}
	for _, r := range p {
		if unicode.IsControl(r) || r == '\u2028' || r == '\u2029' {
			return glob{}, &patternError{"control character in path " + quote(p), "remove it; " + pathFix}
		}
	}
	if strings.Contains(p, `\`) {
		return glob{}, &patternError{"backslash in path " + quote(p), `use forward slashes ("研修/2024/契約事務.md"), also on Windows`}
	}
	if strings.HasPrefix(p, "/") || (len(p) >= 2 && p[1] == ':') || strings.HasPrefix(p, "~") {
		return glob{}, &patternError{"absolute path " + quote(p), "write the path relative to the source root, e.g. \"研修/2024/*.md\" for <source root>/研修/2024/*.md"}
	}
	p = strings.TrimPrefix(p, "./")
	if !norm.NFC.IsNormalString(p) {
		p = norm.NFC.String(p)
	}
	segs := strings.Split(p, "/")
	for _, s := range segs {
		switch {
		case s == "":
			return glob{}, &patternError{"empty path segment in " + quote(p), "remove the doubled or trailing \"/\""}
		case s == "." || s == "..":
			return glob{}, &patternError{"\".\" or \"..\" segment in " + quote(p), "name the folders from the source root down, without \".\" or \"..\""}
		case s != "**" && strings.Contains(s, "**"):
			return glob{}, &patternError{"\"**\" inside a segment of " + quote(p), "use \"**\" only as a whole segment (\"規程/**/旧*.md\"); \"*\" matches within a segment"}
		}
		if _, err := path.Match(s, ""); err != nil {
			return glob{}, &patternError{"bad pattern: a \"[\" character class is not closed", "close the character class, or use \"?\" to match a literal bracket"}
		}
	}
	key := foldPath(p)
	g := glob{raw: p, key: key, segs: strings.Split(key, "/")}
	if i := strings.IndexAny(key, "*?["); i >= 0 {
		g.prefix = key[:i]
	} else {
		g.literal, g.prefix = true, key
	}
	return g, nil
}

// match reports whether a document path matches; the path must be a
// pathKey (NFC, and folded where the file system ignores case).
func (g glob) match(p string) bool {
	if !strings.HasPrefix(p, g.prefix) {
		return false
	}
	if g.literal {
		return p == g.key
	}
	return matchPath(g.segs, p)
}

// matchPath reports whether the pattern segments match the path p,
// segment by segment. A "**" matches any number of segments: the match is
// computed over (pattern segment, path segment) pairs, each once, so that
// patterns with many "**" cost the product of the two lengths, not an
// exponent of it.
func matchPath(pat []string, p string) bool {
	segs := strings.Split(p, "/")
	// ok[j] says whether pat[i:] matches segs[j:], for the i of the loop,
	// from the last pattern segment back to the first.
	ok := make([]bool, len(segs)+1)
	ok[len(segs)] = true // the empty pattern matches only the empty rest
	next := make([]bool, len(segs)+1)
	for i := len(pat) - 1; i >= 0; i-- {
		next, ok = ok, next
		if pat[i] == "**" {
			// ** matches segs[j:k] for any k ≥ j.
			ok[len(segs)] = next[len(segs)]
			for j := len(segs) - 1; j >= 0; j-- {
				ok[j] = next[j] || ok[j+1]
			}
			continue
		}
		ok[len(segs)] = false
		for j := len(segs) - 1; j >= 0; j-- {
			m, _ := path.Match(pat[i], segs[j])
			ok[j] = m && next[j+1]
		}
	}
	return ok[0]
}

// anyMatch reports whether one of the globs matches p.
func anyMatch(gs []glob, p string) bool {
	for _, g := range gs {
		if g.match(p) {
			return true
		}
	}
	return false
}
