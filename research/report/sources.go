package report

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/text/width"

	"lwr/index"
)

// The problem codes of VerifySources.
const (
	ProblemCitationFileMissing = "citation_file_missing"
	ProblemCitationOutOfRange  = "citation_lines_out_of_range"
	ProblemCitationQuote       = "citation_quote_mismatch"
	ProblemCitationJSON        = "citation_json_mismatch"
)

// Sources says where the files a report cites are: the source root and
// the rules of what the index reads there (its zero value reads what
// the index reads by default).
type Sources struct {
	Root  string
	Rules index.Rules
}

// cited is one local citation found in a report.
type cited struct {
	path       string // absolute, forward slashes, percent-decoded
	start, end int
	line       int      // of the report
	quote      []string // the quoted lines that follow it, if any
	fenced     bool     // the quote is a fenced block (lwr's form): it must be the lines exactly
}

// VerifySources checks a report's local citations against the files they
// cite: every cited file is a document of the source root, every line
// range lies inside it, every quote that follows a citation is true (a
// fenced block is exactly the cited lines, trimmed at the edges; the
// lines of a > blockquote each stand in the cited lines, "…" marking what
// was left out, and at least one holds some text; both compare full- and
// half-width characters as equal), and the local sources of the JSON
// comment are the citations of the text; in a deep report, every number
// of a claim stands in a line it cites. A quote belongs to the last
// citation of the line before it: each quote is read and checked once,
// so that the work grows with the report, not with its citations times
// its quotes. It returns nil when all of it holds.
func VerifySources(md []byte, src Sources) []Problem {
	lines := strings.Split(string(md), "\n")
	cites := citations(lines)
	var out []Problem
	bad := func(c cited, code, format string, args ...any) {
		out = append(out, Problem{Code: code, Line: c.line, Message: fmt.Sprintf(format, args...)})
	}
	files := map[string]*index.File{}
	nearest := nearestNames(src)
	for _, c := range cites {
		f, ok := files[c.path]
		if !ok {
			var err error
			f, err = readCited(src, c.path)
			switch {
			case errors.Is(err, fs.ErrNotExist):
				bad(c, ProblemCitationFileMissing, "%s", missingFile(src, c.path, nearest))
			case err != nil:
				bad(c, ProblemCitationFileMissing, "the citation of %s: cite a document of the source root, as lwr search finds it (this one cannot be read as one: %v)", Cut(index.ShownName(c.path), 120), err)
			}
			files[c.path] = f
		}
		if f == nil {
			continue
		}
		if c.end > len(f.Lines) {
			bad(c, ProblemCitationOutOfRange, "the citation of %s L%d-L%d: cite lines inside the file, which has %d lines", f.Rel, c.start, c.end, len(f.Lines))
			continue
		}
		if len(c.quote) > 0 && !quoteHolds(c, f.Lines[c.start-1:c.end]) {
			bad(c, ProblemCitationQuote, "the quote after the citation of %s L%d-L%d: quote those lines as they are (lwr read shows them), \"…\" marking what is left out", f.Rel, c.start, c.end)
		}
	}
	out = append(out, jsonAgrees(md, cites)...)
	if KindOf(md) == KindDeep {
		out = append(out, verifyClaims(md, src)...)
	} else {
		out = append(out, verifyConclusion(md, src, cites, files)...)
	}
	return out
}

// readCited reads a cited absolute path as a document of the source root.
func readCited(src Sources, p string) (*index.File, error) {
	if src.Root == "" {
		return nil, errors.New("no source root to read it from")
	}
	rel, ok := relOf(src, p)
	if !ok {
		if _, err := index.CanonicalRoot(src.Root); err != nil {
			return nil, err
		}
		return nil, fmt.Errorf("it is not inside the source root %s", src.Root)
	}
	return index.ReadFile(src.Root, src.Rules, rel)
}

// relOf is a cited absolute path relative to the source root.
func relOf(src Sources, p string) (string, bool) {
	if src.Root == "" {
		return "", false
	}
	root := filepath.ToSlash(src.Root)
	if rel, ok := strings.CutPrefix(p, strings.TrimSuffix(root, "/")+"/"); ok {
		return rel, true
	}
	// The same folder spelled otherwise (case on Windows, a link): let
	// the index decide after making the root canonical.
	croot, err := index.CanonicalRoot(src.Root)
	if err != nil {
		return "", false
	}
	return cutFold(p, filepath.ToSlash(croot)+"/")
}

// cutFold cuts prefix from s ignoring ASCII case (drive letters and
// Windows paths).
func cutFold(s, prefix string) (string, bool) {
	if len(s) < len(prefix) || !strings.EqualFold(s[:len(prefix)], prefix) {
		return s, false
	}
	return s[len(prefix):], true
}

// citations finds the local citations of a report outside code blocks,
// with the quote that follows each.
func citations(lines []string) []cited {
	code := codeLines(lines)
	var out []cited
	for i, l := range lines {
		if code[i] {
			continue
		}
		ms := citeRe.FindAllStringSubmatchIndex(l, -1)
		for k, m := range ms {
			target := strings.TrimSuffix(strings.TrimPrefix(l[m[4]:m[5]], "<"), ">")
			a := anchorRe.FindStringSubmatch(target)
			if a == nil {
				continue
			}
			p := a[1]
			if dp, err := url.PathUnescape(p); err == nil && strings.Contains(p, "%") {
				p = dp
			}
			s, err1 := strconv.Atoi(a[2])
			e, err2 := strconv.Atoi(a[3])
			if err1 != nil || err2 != nil || s < 1 || e < s || e > MaxLine {
				continue // Validate reports it
			}
			c := cited{path: strings.ReplaceAll(p, `\`, "/"), start: s, end: e, line: i + 1}
			if k == len(ms)-1 {
				c.quote, c.fenced = quoteAfter(lines, i)
			}
			out = append(out, c)
		}
	}
	return out
}

// quoteAfter returns the quote that follows the citation on line i: the
// next non-blank block if it is a fenced block or a blockquote.
func quoteAfter(lines []string, i int) ([]string, bool) {
	j := i + 1
	for j < len(lines) && strings.TrimSpace(lines[j]) == "" {
		j++
	}
	if j == len(lines) {
		return nil, false
	}
	if f := fenceOf(lines[j]); f != "" {
		var q []string
		for k := j + 1; k < len(lines); k++ {
			if g := fenceOf(lines[k]); g != "" && g[0] == f[0] && len(g) >= len(f) && strings.TrimSpace(strings.TrimLeft(lines[k], " ")[len(g):]) == "" {
				return q, true
			}
			q = append(q, lines[k])
		}
		return nil, false // not closed: not a quote
	}
	var q []string
	blank := true
	for k := j; k < len(lines); k++ {
		t := strings.TrimLeft(lines[k], " ")
		if !strings.HasPrefix(t, ">") {
			break
		}
		l := strings.TrimPrefix(strings.TrimPrefix(t, ">"), " ")
		blank = blank && strings.TrimSpace(l) == ""
		q = append(q, l)
	}
	if blank {
		return nil, false // an empty blockquote quotes nothing
	}
	return q, false
}

// comparable folds what a quote may change without changing what it says:
// character width, and the space at the edges.
func comparable(s string) string { return strings.TrimSpace(width.Fold.String(s)) }

// quoteHolds reports whether a citation's quote is true of the cited
// lines. A blockquote of nothing but "…" says nothing, and holds nothing.
func quoteHolds(c cited, cited []string) bool {
	text := comparable(strings.Join(cited, "\n"))
	if c.fenced {
		return comparable(strings.Join(c.quote, "\n")) == text
	}
	said := false
	for _, q := range c.quote {
		at := 0
		for _, part := range strings.FieldsFunc(q, func(r rune) bool { return r == '…' }) {
			part = strings.TrimSuffix(strings.TrimPrefix(comparable(part), "..."), "...")
			if part = strings.TrimSpace(part); part == "" {
				continue
			}
			k := strings.Index(text[at:], part)
			if k < 0 {
				return false
			}
			at += k + len(part)
			said = true
		}
	}
	return said
}

// jsonAgrees compares the local sources of the JSON comment with the
// citations of the text: each must be the other's.
func jsonAgrees(md []byte, cites []cited) []Problem {
	raw, p := ExtractComment(md)
	if p != nil {
		return nil // Validate reports it
	}
	var c Comment
	if json.Unmarshal(raw, &c) != nil {
		return nil
	}
	type key struct {
		path       string
		start, end int
	}
	inText := map[key]bool{}
	// bySuffix finds the citations a source given relative to the source
	// root names: every "/"-suffix of each cited path, with its lines.
	bySuffix := map[key]key{}
	for _, ct := range cites {
		k := key{ct.path, ct.start, ct.end}
		if inText[k] {
			continue
		}
		inText[k] = true
		for i := strings.IndexByte(ct.path, '/'); i >= 0; {
			sk := key{ct.path[i+1:], ct.start, ct.end}
			if _, ok := bySuffix[sk]; !ok {
				bySuffix[sk] = k
			}
			j := strings.IndexByte(ct.path[i+1:], '/')
			if j < 0 {
				break
			}
			i += 1 + j
		}
	}
	var out []Problem
	inJSON := map[key]bool{}
	for _, s := range c.Sources {
		if s.SourceType != "local" || s.Lines == nil {
			continue
		}
		// Compared as the text's links are: %XX are bytes.
		jp := strings.ReplaceAll(s.Path, `\`, "/")
		if dp, err := url.PathUnescape(jp); err == nil && strings.Contains(jp, "%") {
			jp = dp
		}
		k := key{jp, s.Lines.Start, s.Lines.End}
		inJSON[k] = true
		found := inText[k]
		if !found {
			// A source given relative to the source root (as older
			// reports did) names the citation that ends with it.
			if t, ok := bySuffix[key{strings.TrimPrefix(k.path, "./"), k.start, k.end}]; ok {
				found, inJSON[t] = true, true
			}
		}
		if !found {
			out = append(out, Problem{Code: ProblemCitationJSON, Message: fmt.Sprintf("the JSON comment's source %s L%d-L%d: cite it in the text or remove it from the comment (or remove the comment and let lwr finalize write it)", Cut(s.Path, 120), s.Lines.Start, s.Lines.End)})
		}
	}
	for _, ct := range cites {
		if !inJSON[key{ct.path, ct.start, ct.end}] {
			out = append(out, Problem{Code: ProblemCitationJSON, Line: ct.line, Message: fmt.Sprintf("the citation of %s L%d-L%d: add it to the JSON comment's sources, or remove the comment and let lwr finalize write it", Cut(index.ShownName(ct.path), 120), ct.start, ct.end)})
		}
	}
	return out
}
