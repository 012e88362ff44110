package policy

import (
	"fmt"
	"strings"

	"golang.org/x/text/unicode/norm"

	"lwr/config/glob"
)

// Preferences is a parsed source-preferences.json: the documents the user
// prefers, each with the documents it supersedes. The zero value (no
// file) prefers nothing. It is not changed after loading and is safe for
// concurrent use.
type Preferences struct {
	File      string // the file read; "" when there is none
	Preferred []Preferred
	byPath    map[string]int
}

// Preferred is one preferred document.
type Preferred struct {
	// Path of the preferred document relative to the source root.
	Path string `json:"path"`
	// Label names the preferred edition to users, e.g. "2026年度版".
	Label string `json:"label,omitempty"`
	// Supersedes lists paths or patterns of the documents it supersedes.
	Supersedes []string `json:"supersedes,omitempty"`
	Note       string   `json:"note,omitempty"`
	supersedes []*glob.Pattern
}

// Empty reports whether there is no preference.
func (p *Preferences) Empty() bool { return p == nil || len(p.Preferred) == 0 }

// Lookup returns the preference naming path as the preferred document.
func (p *Preferences) Lookup(path string) (*Preferred, bool) {
	if p.Empty() {
		return nil, false
	}
	i, ok := p.byPath[pathKey(path)]
	if !ok {
		return nil, false
	}
	return &p.Preferred[i], true
}

// SupersededBy returns the preferred documents that supersede path, in the
// file's order. A preferred document never supersedes itself.
func (p *Preferences) SupersededBy(path string) []*Preferred {
	if p.Empty() {
		return nil
	}
	path = pathKey(path)
	var out []*Preferred
	for i := range p.Preferred {
		if p.Preferred[i].covers(path) {
			out = append(out, &p.Preferred[i])
		}
	}
	return out
}

// Covers reports whether this preferred document supersedes path (a
// pattern of Supersedes matches it); it never supersedes itself.
func (pr *Preferred) Covers(path string) bool { return pr.covers(pathKey(path)) }

// covers is Covers for a path already a pathKey.
func (pr *Preferred) covers(key string) bool {
	return key != pathKey(pr.Path) && glob.Any(pr.supersedes, key)
}

// ParsePreferences parses and validates the contents of a
// source-preferences.json; file names it in errors.
func ParsePreferences(file string, data []byte) (*Preferences, error) {
	const code = CodePreferencesInvalid
	var raw struct {
		Preferred []Preferred `json:"preferred"`
	}
	if err := decodeValid(code, file, preferencesSchema(), data, &raw); err != nil {
		return nil, err
	}
	p := &Preferences{File: file, Preferred: raw.Preferred, byPath: map[string]int{}}
	fail := func(ptr, problem, fix string) error {
		return &Error{Code: code, File: file, Field: ptr, Problem: problem, Fix: fix}
	}
	for i := range p.Preferred {
		pr := &p.Preferred[i]
		ptr := fmt.Sprintf("/preferred/%d", i)
		if _, err := compileGlob(pr.Path); err != nil {
			return nil, fail(ptr+"/path", err.problem, err.fix)
		}
		if strings.ContainsAny(pr.Path, "*?[") {
			return nil, fail(ptr+"/path", "wildcard in the preferred path "+quote(pr.Path),
				`name one document, e.g. "研修/2026/契約事務.md"; put patterns in "supersedes"`)
		}
		pr.Path = documentPath(pr.Path)
		if j, dup := p.byPath[pathKey(pr.Path)]; dup {
			return nil, fail(ptr+"/path", fmt.Sprintf("%s is already preferred in /preferred/%d", quote(pr.Path), j),
				"merge the two entries into one (one entry per preferred document)")
		}
		p.byPath[pathKey(pr.Path)] = i
		for k, pat := range pr.Supersedes {
			g, err := compileGlob(pat)
			if err != nil {
				return nil, fail(fmt.Sprintf("%s/supersedes/%d", ptr, k), err.problem, err.fix)
			}
			pr.supersedes = append(pr.supersedes, g)
		}
	}
	for i := range p.Preferred {
		for j := i + 1; j < len(p.Preferred); j++ {
			a, b := &p.Preferred[i], &p.Preferred[j]
			if a.Covers(b.Path) && b.Covers(a.Path) {
				return nil, fail(fmt.Sprintf("/preferred/%d/supersedes", j),
					fmt.Sprintf("%s and %s supersede each other", quote(a.Path), quote(b.Path)),
					"keep only the newer document's entry, or narrow one of the \"supersedes\" patterns")
			}
		}
	}
	return p, nil
}

// nfc returns a path in Unicode NFC, as patterns are kept.
func nfc(p string) string {
	if norm.NFC.IsNormalString(p) {
		return p
	}
	return norm.NFC.String(p)
}

// pathKey is how two document paths or a path and a pattern compare: in
// NFC, and without case where the file system ignores it (Windows).
func pathKey(p string) string { return foldPath(nfc(p)) }
