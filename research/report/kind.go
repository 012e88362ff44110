package report

import (
	"bytes"
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Kind is the kind of a report: lwr research's five sections, or a deep
// research with a section per subtopic.
type Kind string

// The report kinds.
const (
	KindResearch Kind = "research"
	KindDeep     Kind = "deep"
)

// maxFrontMatter bounds the front matter read at the top of a report.
const maxFrontMatter = 64 << 10

// FrontMatter is the YAML front matter at the top of a Markdown file
// (between a first line "---" and the next "---"): its keys with their
// values as text, the number of lines it takes (0 when there is none), and
// a problem when it is there but not YAML.
func FrontMatter(md []byte) (map[string]any, int, *Problem) {
	md = bytes.TrimPrefix(md, []byte("\uFEFF"))
	if !bytes.HasPrefix(md, []byte("---\n")) && !bytes.HasPrefix(md, []byte("---\r\n")) {
		return nil, 0, nil
	}
	rest := md[bytes.IndexByte(md, '\n')+1:]
	end, n := -1, 1
	for off := 0; off < len(rest) && off < maxFrontMatter; {
		nl := bytes.IndexByte(rest[off:], '\n')
		line := rest[off:]
		if nl >= 0 {
			line = rest[off : off+nl]
		}
		n++
		if t := strings.TrimRight(string(line), "\r \t"); t == "---" || t == "..." {
			end = off
			break
		}
		if nl < 0 {
			break
		}
		off += nl + 1
	}
	if end < 0 {
		return nil, 0, &Problem{Code: ProblemFrontMatter, Line: 1, Message: "front matter: end it with a line --- (it opens with --- on the first line and is not closed)"}
	}
	var m map[string]any
	if err := yaml.Unmarshal(rest[:end], &m); err != nil {
		return nil, n, &Problem{Code: ProblemFrontMatter, Line: 1, Message: "front matter: write it as YAML key: value lines (" + yamlWhy(err) + ")"}
	}
	if m == nil {
		m = map[string]any{}
	}
	return m, n, nil
}

// yamlWhy is the line of a YAML error, without the library's prefix.
func yamlWhy(err error) string {
	s := strings.TrimPrefix(err.Error(), "yaml: ")
	return Cut(strings.ReplaceAll(s, "\n", " "), 120)
}

// KindOf says which kind a report is: deep when its front matter says
// kind: deep, else research.
func KindOf(md []byte) Kind {
	m, _, p := FrontMatter(md)
	if fmString(m, "kind") == string(KindDeep) {
		return KindDeep
	}
	if p != nil {
		// Front matter that is not YAML (or not closed) still names the
		// kind on a line of its own: it is checked as that kind.
		head := md[:min(len(md), 4096)]
		for _, l := range strings.Split(string(head), "\n")[1:] {
			if k, v, ok := strings.Cut(strings.TrimRight(l, "\r"), ":"); ok && strings.TrimSpace(k) == "kind" && strings.Trim(strings.TrimSpace(v), `"'`) == string(KindDeep) {
				return KindDeep
			}
		}
	}
	return KindResearch
}

// fmString is a front matter value as text ("" when it is not there).
func fmString(m map[string]any, key string) string {
	v, ok := m[key]
	if !ok || v == nil {
		return ""
	}
	if s, ok := v.(string); ok {
		return s
	}
	return fmt.Sprint(v)
}

// YAMLString is s as a YAML scalar that reads back as s: double-quoted,
// with JSON's escapes (YAML's double-quoted form accepts them).
func YAMLString(s string) string { return jsonString(s) }
