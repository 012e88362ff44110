package report

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"lwr/analyzer/lazyre"
	"lwr/index"
	"net/url"
	"path"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/google/jsonschema-go/jsonschema"
)

//go:embed schema/output-schema.json
var outputSchemaJSON []byte

// OutputSchema returns the JSON Schema of the report's JSON comment
// (the research skill's output-schema.json, schema versions 1.0 and 1.1).
func OutputSchema() []byte { return bytes.Clone(outputSchemaJSON) }

// sectionList names the five headings.
func sectionList() string {
	hs := make([]string, len(Sections))
	for i, s := range Sections {
		hs[i] = s.Heading()
	}
	return strings.Join(hs, ", ")
}

var outputSchema = sync.OnceValues(func() (*jsonschema.Resolved, error) {
	return compileSchema("research-output", outputSchemaJSON)
})

//go:embed schema/deep-output-schema.json
var deepSchemaJSON []byte

// DeepOutputSchema returns the JSON Schema of a deep report's JSON
// comment (deep-output-schema.json).
func DeepOutputSchema() []byte { return bytes.Clone(deepSchemaJSON) }

var deepSchema = sync.OnceValues(func() (*jsonschema.Resolved, error) {
	return compileSchema("deep-output", deepSchemaJSON)
})

// compileSchema compiles an embedded JSON Schema (draft 2020-12).
func compileSchema(name string, data []byte) (*jsonschema.Resolved, error) {
	var sch jsonschema.Schema
	if err := json.Unmarshal(data, &sch); err != nil {
		return nil, fmt.Errorf("embedded schema %s: %w", name, err)
	}
	r, err := sch.Resolve(nil)
	if err != nil {
		return nil, fmt.Errorf("embedded schema %s: %w", name, err)
	}
	return r, nil
}

// Problem is one reason a report is invalid; lwr validate prints each as
// a JSON line.
type Problem struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	Line    int    `json:"line,omitempty"`
}

func (p Problem) String() string {
	if p.Line > 0 {
		return fmt.Sprintf("line %d: %s: %s", p.Line, p.Code, p.Message)
	}
	return p.Code + ": " + p.Message
}

// The problem codes of Validate.
const (
	ProblemEncoding        = "encoding"
	ProblemJSONMissing     = "json_comment_missing"
	ProblemJSONNotAtEnd    = "json_comment_not_at_end"
	ProblemJSONInvalid     = "json_invalid"
	ProblemSchema          = "schema"
	ProblemSectionMissing  = "section_missing"
	ProblemSectionOrder    = "section_order"
	ProblemCitationMissing = "citation_missing"
	ProblemCitationFormat  = "citation_format"
	ProblemCitationLines   = "citation_lines"
	ProblemCitationPath    = "citation_path"
	ProblemVSCodeLink      = "vscode_link"
)

const jsonMarker = "<!-- JSON: "

var commentRe = lazyre.New(`(?s)^<!-- JSON: (\{.*\}) -->\s*$`)

// ExtractComment returns the JSON of the report's last <!-- JSON: {...} -->
// comment, which must end the file.
func ExtractComment(md []byte) ([]byte, *Problem) {
	i := bytes.LastIndex(md, []byte(jsonMarker))
	if i < 0 {
		return nil, &Problem{Code: ProblemJSONMissing, Message: "the JSON comment: end the report with <!-- JSON: {...} --> on one line, or finalize it with lwr finalize (or the MCP finalize tool), which writes the comment from the text"}
	}
	m := commentRe.FindSubmatch(md[i:])
	if m == nil {
		return nil, &Problem{Code: ProblemJSONNotAtEnd, Line: lineAt(md, i), Message: "the JSON comment: move <!-- JSON: {...} --> to the end of the file, on one line with nothing after it"}
	}
	return m[1], nil
}

func lineAt(md []byte, off int) int { return bytes.Count(md[:off], []byte{'\n'}) + 1 }

// Validate checks a report as the research skill's validate-output did:
// the JSON comment against output-schema.json (1.0 and 1.1), the five
// section headings in order, and in section 1 the local citations and
// VS Code links, for files of any type — unless there is no local source
// or section 1 says ローカル資料に該当情報なし. A deep report (front
// matter kind: deep) is checked as one (ParseDeep, deep-output-schema.json).
// Every problem is one sentence that names the field and what to write.
// It returns nil for a valid report.
func Validate(md []byte) []Problem {
	var out []Problem
	if !utf8.Valid(md) {
		return []Problem{{Code: ProblemEncoding, Message: "the file: save the report as UTF-8 (it holds bytes that are not)"}}
	}
	if KindOf(md) == KindDeep {
		return validateDeep(md)
	}
	hasLocal := true
	raw, p := ExtractComment(md)
	if p != nil {
		out = append(out, *p)
	} else {
		out = append(out, validateComment(raw)...)
		var c struct {
			Sources []struct {
				SourceType string `json:"source_type"`
			} `json:"sources"`
		}
		if json.Unmarshal(raw, &c) == nil {
			hasLocal = false
			for _, s := range c.Sources {
				if s.SourceType == "local" {
					hasLocal = true
				}
			}
		}
	}
	lines := strings.Split(string(md), "\n")
	heads := headings(lines)
	out = append(out, checkSections(heads)...)
	out = append(out, checkConclusionLabels(lines)...)
	if hasLocal {
		out = append(out, checkSection1(lines, heads)...)
	}
	return out
}

// validateComment checks the comment's JSON field by field (checker);
// output-schema.json stands behind it.
func validateComment(raw []byte) []Problem {
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return []Problem{jsonProblem(err)}
	}
	c := newChecker()
	c.researchComment(v)
	if len(c.out) > 0 {
		return c.out
	}
	sch, err := outputSchema()
	if err != nil {
		return []Problem{{Code: ProblemSchema, Message: "the JSON comment: it cannot be checked (" + err.Error() + "); report this to lwr's authors"}}
	}
	if err := sch.Validate(v); err != nil {
		return []Problem{{Code: ProblemSchema, Message: "the JSON comment: write it as output-schema.json says, or remove it and let lwr finalize compute it from the text"}}
	}
	return nil
}

// heading is a level-2 heading outside code blocks.
type heading struct {
	text string
	line int // 1-based
}

// fenceOf returns the fence a line opens or closes, or "".
func fenceOf(line string) string {
	t := strings.TrimLeft(line, " ")
	if len(line)-len(t) > 3 {
		return ""
	}
	for _, c := range []byte{'`', '~'} {
		n := 0
		for n < len(t) && t[n] == c {
			n++
		}
		if n >= 3 {
			return t[:n]
		}
	}
	return ""
}

// codeLines marks the lines inside fenced code blocks (fences included).
func codeLines(lines []string) []bool {
	in := make([]bool, len(lines))
	open := ""
	for i, l := range lines {
		f := fenceOf(l)
		switch {
		case open == "" && f != "":
			open = f
			in[i] = true
		case open != "":
			in[i] = true
			if f != "" && f[0] == open[0] && len(f) >= len(open) && strings.TrimSpace(strings.TrimLeft(l, " ")[len(f):]) == "" {
				open = ""
			}
		}
	}
	return in
}

func headings(lines []string) []heading {
	code := codeLines(lines)
	var out []heading
	for i, l := range lines {
		if !code[i] && strings.HasPrefix(l, "## ") {
			out = append(out, heading{text: strings.TrimRight(l, " \t\r"), line: i + 1})
		}
	}
	return out
}

func checkSections(heads []heading) []Problem {
	var out []Problem
	last := 0
	for _, sec := range Sections {
		want := sec.Heading()
		found := -1
		for _, h := range heads {
			if strings.HasPrefix(h.text, want) {
				found = h.line
				break
			}
		}
		switch {
		case found < 0:
			out = append(out, Problem{Code: ProblemSectionMissing, Message: fmt.Sprintf("heading %q: add it; a report has the five sections %s, in that order", want, sectionList())})
		case found < last:
			out = append(out, Problem{Code: ProblemSectionOrder, Line: found, Message: fmt.Sprintf("heading %q: move it after the sections before it; the five sections go 1 to 5 (%s)", want, sectionList())})
		default:
			last = found
		}
	}
	return out
}

// citeRe is a local citation: [name](<abs path>#Ls-Le) (Ls-Le) [VS Codeで開く](vscode://file/…:s).
var citeRe = lazyre.New(`\[([^\[\]\n]+)\]\((<[^<>\n]+>|[^\s()<>]+)\) \(L(\d+)-L(\d+)\) \[VS Codeで開く\]\((vscode://file/[^\s()]*)\)`)

var (
	anchorRe   = lazyre.New(`^(.+)#L(\d+)-L(\d+)$`)
	vscodeRe   = lazyre.New(`^vscode://file/([A-Za-z0-9\-._~/%:]+):(\d+)$`)
	lineLinkRe = lazyre.New(`\]\([^)\n]*#L\d+(-L\d+)?[>]?\)`)
	absPathRe  = lazyre.New(`^(/|[A-Za-z]:/)`)
)

// checkSection1 checks the citations and VS Code links of section 1.
func checkSection1(lines []string, heads []heading) []Problem {
	start, end := -1, len(lines)
	want := Sections[0].Heading()
	for i, h := range heads {
		if strings.HasPrefix(h.text, want) {
			start = h.line // index of the line after the heading
			if i+1 < len(heads) {
				end = heads[i+1].line - 1
			}
			break
		}
	}
	if start < 0 {
		return nil // reported as a missing section
	}
	body := lines[start:end]
	code := codeLines(body)
	for i, l := range body {
		if !code[i] && strings.Contains(l, SentenceLocalEmpty) {
			return nil
		}
	}
	var out []Problem
	valid := 0
	for i, l := range body {
		if code[i] {
			continue
		}
		n := start + i + 1
		matches := citeRe.FindAllStringSubmatchIndex(l, -1)
		covered := make([]bool, len(l))
		for _, m := range matches {
			for k := m[0]; k < m[1]; k++ {
				covered[k] = true
			}
			ps := checkCitation(l, m, n)
			if len(ps) == 0 {
				valid++
			}
			out = append(out, ps...)
		}
		// Anything that looks like a line citation or a VS Code link
		// outside a whole citation is malformed.
		for _, m := range lineLinkRe.FindAllStringIndex(l, -1) {
			if !covered[m[0]] {
				out = append(out, Problem{Code: ProblemCitationFormat, Line: n, Message: "a line citation: write it whole, [file name](<absolute path>#L<start>-L<end>) (L<start>-L<end>) [VS Codeで開く](vscode://file/<encoded absolute path>:<start>)"})
			}
		}
		for off := 0; ; {
			k := strings.Index(l[off:], "vscode://")
			if k < 0 {
				break
			}
			if !covered[off+k] {
				out = append(out, Problem{Code: ProblemVSCodeLink, Line: n, Message: "a VS Code link: write it right after a citation, … (L<start>-L<end>) [VS Codeで開く](vscode://file/<encoded absolute path>:<start>)"})
			}
			off += k + len("vscode://")
		}
	}
	if valid == 0 && len(out) == 0 {
		out = append(out, Problem{Code: ProblemCitationMissing, Line: start, Message: "section 1: cite the local lines it reports, [file name](<absolute path>#L<start>-L<end>) (L<start>-L<end>) [VS Codeで開く](vscode://file/…:<start>), or write ローカル資料に該当情報なし when there are none"})
	}
	return out
}

// MaxLine is the largest line number a citation may give: more lines than
// any document lwr reads has (a bound, so that a number never overflows).
const MaxLine = 999_999_999

// lineNumber reads a line number of a citation: digits, at most MaxLine.
func lineNumber(d string) (int, bool) {
	if len(d) > len(strconv.Itoa(MaxLine)) {
		return 0, false
	}
	n, err := strconv.Atoi(d)
	return n, err == nil && n <= MaxLine
}

// checkCitation checks one citation match on a line.
func checkCitation(l string, m []int, n int) []Problem {
	var out []Problem
	bad := func(code, format string, args ...any) {
		out = append(out, Problem{Code: code, Line: n, Message: fmt.Sprintf(format, args...)})
	}
	name := l[m[2]:m[3]]
	target := strings.TrimSuffix(strings.TrimPrefix(l[m[4]:m[5]], "<"), ">")
	vs := l[m[10]:m[11]]
	a := anchorRe.FindStringSubmatch(target)
	if a == nil {
		bad(ProblemCitationFormat, "the citation's link %q: end it with #L<start>-L<end>", Cut(target, 80))
		return out
	}
	nums := [4]int{}
	for i, d := range []string{l[m[6]:m[7]], l[m[8]:m[9]], a[2], a[3]} {
		n, ok := lineNumber(d)
		if !ok {
			bad(ProblemCitationLines, "the line number %s is not one a document has; lines count from 1 to %d", Cut(d, 20), MaxLine)
			return out
		}
		nums[i] = n
	}
	ls, le, as, ae := nums[0], nums[1], nums[2], nums[3]
	p := a[1]
	if !absPathRe.MatchString(p) {
		bad(ProblemCitationPath, "the citation's path %q: write the absolute path with forward slashes, the source root joined with the path lwr search gives", Cut(p, 80))
	}
	if as != ls || ae != le {
		bad(ProblemCitationLines, "the citation's (L%d-L%d): write (L%d-L%d), the lines its link's #L%d-L%d names", ls, le, as, ae, as, ae)
	}
	if ls < 1 || le < ls {
		bad(ProblemCitationLines, "the citation's lines L%d-L%d: write a range with 1 ≤ start ≤ end", ls, le)
	}
	base := path.Base(p)
	if dp, err := url.PathUnescape(base); err == nil && name != base && name != dp && name != Text(base) && name != Text(dp) && name != Text(index.ShownName(dp)) {
		bad(ProblemCitationFormat, "the citation's link text %q: write the file name %q", Cut(name, 60), Cut(base, 60))
	}
	v := vscodeRe.FindStringSubmatch(vs)
	if v == nil {
		bad(ProblemVSCodeLink, "the VS Code link %q: write vscode://file/<absolute path, percent-encoded except '/'>:<start>", Cut(vs, 80))
		return out
	}
	vp, err := url.PathUnescape(v[1])
	if err != nil {
		bad(ProblemVSCodeLink, "the VS Code link's path: write it percent-encoded, %%XX for every byte but letters, digits, - . _ ~ and / (%s)", Cut(v[1], 60))
		return out
	}
	if vl, ok := lineNumber(v[2]); !ok || vl != ls {
		bad(ProblemVSCodeLink, "the VS Code link's line :%s: write :%d, the citation's first line", Cut(v[2], 20), ls)
	}
	cp := p
	if dp, err := url.PathUnescape(p); err == nil && strings.Contains(p, "%") {
		cp = dp
	}
	if strings.TrimLeft(vp, "/") != strings.TrimLeft(cp, "/") {
		if absPathRe.MatchString(cp) {
			bad(ProblemVSCodeLink, "%s %q: write the citation's absolute path %q, percent-encoded except '/'", vscodePathProblem, Cut(vp, 80), Cut(cp, 80))
		} else {
			bad(ProblemVSCodeLink, "%s %q: write the cited file's absolute path, percent-encoded except '/', the same as the citation's link once it is absolute", vscodePathProblem, Cut(vp, 80))
		}
	}
	return out
}
