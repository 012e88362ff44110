package report

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"path"
	"slices"
	"strings"

	"lwr/analyzer/lazyre"
)

// The JSON comment is checked field by field here, each problem one
// sentence that names the field and says what to write there
// (metadata.step_number: write 4 …); output-schema.json and
// deep-output-schema.json say the same, and a test holds the two to
// agreement.

// checker collects the problems of a comment.
type checker struct{ out []Problem }

func newChecker() *checker { return &checker{} }

func (c *checker) bad(field, format string, args ...any) {
	c.out = append(c.out, Problem{Code: ProblemSchema, Message: field + ": " + fmt.Sprintf(format, args...)})
}

// fieldsOf checks that v is an object, reports every key it may not
// have, and returns it (nil when it is no object).
func (c *checker) object(field string, v any, allowed []string, what string) map[string]any {
	m, ok := v.(map[string]any)
	if !ok {
		c.bad(field, "write %s", what)
		return nil
	}
	var extra []string
	for k := range m {
		if !slices.Contains(allowed, k) {
			extra = append(extra, k)
		}
	}
	slices.Sort(extra)
	for _, k := range extra {
		c.bad(join(field, k), "remove it; %s holds only %s", nameOf(field), strings.Join(allowed, ", "))
	}
	return m
}

func join(field, key string) string {
	if field == "" || field == "the JSON comment" {
		return key
	}
	return field + "." + key
}

func nameOf(field string) string {
	if field == "" {
		return "the JSON comment"
	}
	return field
}

// integer reports whether v is a JSON number without a fraction.
func integer(v any) (float64, bool) {
	f, ok := v.(float64)
	return f, ok && f == math.Trunc(f) && !math.IsInf(f, 0)
}

var commentExample = `{"sections": [...], "sources": [...], "metadata": {"step_number": 4, "step_number_legacy": "D", "schema_version": "1.0"}}`

// researchComment checks the comment of a research report
// (output-schema.json, schema 1.0 and 1.1).
func (c *checker) researchComment(v any) {
	root := c.object("the JSON comment", v, []string{"sections", "sources", "conflict_resolution", "metadata"}, "an object "+commentExample+" (or remove the comment: lwr finalize computes it from the text)")
	if root == nil {
		return
	}
	var want []string
	for _, s := range Sections {
		b, _ := json.Marshal(s)
		want = append(want, string(b))
	}
	five := "[" + strings.Join(want, ", ") + "]"
	switch secs, ok := root["sections"].([]any); {
	case !ok:
		c.bad("sections", "write the five sections in order: %s", five)
	default:
		if len(secs) != len(Sections) {
			c.bad("sections", "write exactly the five sections in order (it has %d): %s", len(secs), five)
		}
		for i, s := range secs {
			f := fmt.Sprintf("sections[%d]", i)
			if i >= len(Sections) {
				break
			}
			m := c.object(f, s, []string{"id", "title"}, want[i])
			if m == nil {
				continue
			}
			if id, _ := m["id"].(string); id != Sections[i].ID {
				c.bad(f+".id", "write %q (the sections are local_info, web_info, deep_local_info, conclusion and sources, in that order)", Sections[i].ID)
			}
			if _, ok := m["title"].(string); !ok {
				c.bad(f+".title", "write the section's title as text, e.g. %q", Sections[i].Title)
			}
		}
	}
	c.sources(root["sources"], false)
	if v, ok := root["conflict_resolution"]; ok {
		c.conflictResolution(v)
	}
	c.researchMetadata(root["metadata"])
}

// sources checks a comment's sources; deep allows a label (ref) per
// source and an empty list.
func (c *checker) sources(v any, deep bool) {
	list, ok := v.([]any)
	switch {
	case !ok:
		c.bad("sources", `write the list of sources: {"title", "source_type": "local", "path", "lines"} per cited file and {"title", "source_type": "web", "url"} per page`)
		return
	case len(list) == 0 && !deep:
		c.bad("sources", `write at least one source: {"title", "source_type": "local", "path", "lines": {"start", "end"}} per cited file, {"title", "source_type": "web", "url"} per page`)
		return
	}
	allowed := []string{"url", "path", "title", "source_type", "lines"}
	if deep {
		allowed = append(allowed, "ref")
	}
	for i, s := range list {
		f := fmt.Sprintf("sources[%d]", i)
		m := c.object(f, s, allowed, `{"title", "source_type", …} for the source`)
		if m == nil {
			continue
		}
		if _, ok := m["title"].(string); !ok {
			c.bad(f+".title", "write the source's title as text (the file name, or the page's title)")
		}
		st, _ := m["source_type"].(string)
		if st != "local" && st != "web" {
			c.bad(f+".source_type", `write "local" for a file of the source root or "web" for a page`)
		}
		if u, ok := m["url"]; ok && u != nil {
			if s, ok := u.(string); !ok || !strings.HasPrefix(s, "https://") {
				c.bad(f+".url", "write the page's full address starting with https://")
			}
		}
		if p, ok := m["path"]; ok && p != nil {
			if _, ok := p.(string); !ok {
				c.bad(f+".path", "write the file's absolute path as text, as in its citation")
			}
		}
		if l, ok := m["lines"]; ok {
			lm := c.object(f+".lines", l, []string{"start", "end"}, `{"start": <first line>, "end": <last line>} of the citation`)
			if lm != nil {
				for _, k := range []string{"start", "end"} {
					if n, ok := integer(lm[k]); !ok || n < 1 {
						c.bad(f+".lines."+k, "write the citation's %s line as a number of at least 1", map[string]string{"start": "first", "end": "last"}[k])
					}
				}
			}
		}
		_, hasURL := m["url"]
		_, hasPath := m["path"]
		_, hasLines := m["lines"]
		switch st {
		case "web":
			if !hasURL {
				c.bad(f+".url", "write the page's https:// address (a web source needs url)")
			}
		case "local":
			if !hasPath {
				c.bad(f+".path", "write the cited file's absolute path, as in its citation (a local source needs path)")
			}
			if !hasLines {
				c.bad(f+".lines", `write {"start": <first line>, "end": <last line>} of the citation (a local source needs lines)`)
			}
		}
		if deep {
			if r, ok := m["ref"]; ok {
				if s, ok := r.(string); !ok || !deepRefRe.MatchString(s) {
					c.bad(f+".ref", "write the source's label as the text gives it, L<n> or W<n>")
				}
			}
		}
	}
}

var deepRefRe = lazyre.New(`^[LW][0-9]+$`)

func (c *checker) conflictResolution(v any) {
	m := c.object("conflict_resolution", v, []string{"detected", "applied_rule", "reason"}, `{"detected": false}, or {"detected": true, "applied_rule": "…", "reason": "…"}`)
	if m == nil {
		return
	}
	d, ok := m["detected"].(bool)
	if !ok {
		c.bad("conflict_resolution.detected", "write true or false: whether the sources conflict")
	}
	for _, k := range []string{"applied_rule", "reason"} {
		x, has := m[k]
		if _, isText := x.(string); has && !isText {
			c.bad("conflict_resolution."+k, "write it as text")
		}
		if ok && d && !has {
			c.bad("conflict_resolution."+k, "write it: a detected conflict says which rule resolved it and why")
		}
	}
}

func (c *checker) researchMetadata(v any) {
	m := c.object("metadata", v, []string{"step_number", "step_number_legacy", "schema_version", "model"},
		`{"step_number": 4, "step_number_legacy": "D", "schema_version": "1.0"}`)
	if m == nil {
		return
	}
	ver, _ := m["schema_version"].(string)
	if ver != SchemaVersion10 && ver != SchemaVersion11 {
		c.bad("metadata.schema_version", `write "1.0", or "1.1" together with metadata.model`)
	}
	if n, ok := integer(m["step_number"]); !ok || n != 4 {
		c.bad("metadata.step_number", "write 4, as a number (the report is step 4 of the research)")
	}
	if _, ok := m["step_number_legacy"].(string); !ok {
		c.bad("metadata.step_number_legacy", `write the step as text, e.g. "D"`)
	}
	model, hasModel := m["model"]
	switch ver {
	case SchemaVersion10:
		if hasModel {
			c.bad("metadata.model", `remove it, or write "schema_version": "1.1" with it`)
		}
	case SchemaVersion11:
		if s, ok := model.(string); !ok || !slices.Contains(Models, s) {
			c.bad("metadata.model", "write one of %s (schema 1.1 names the model; use 1.0 without one)", strings.Join(Models, ", "))
		}
	}
}

// deepComment checks the comment of a deep report
// (deep-output-schema.json).
func (c *checker) deepComment(v any) {
	root := c.object("the JSON comment", v, []string{"sections", "sources", "metadata"},
		`an object {"sections": [...], "sources": [...], "metadata": {"kind": "deep", …}} (or remove the comment: lwr finalize computes it from the text)`)
	if root == nil {
		return
	}
	secs, ok := root["sections"].([]any)
	if !ok || len(secs) < 2 {
		c.bad("sections", `write a section per subtopic, {"id": "subtopic_1", "title": "1. <subtopic>"}, and last {"id": "sources", "title": "%s"}`, DeepSourcesTitle)
	}
	for i, s := range secs {
		f := fmt.Sprintf("sections[%d]", i)
		m := c.object(f, s, []string{"id", "title"}, `{"id": "subtopic_<n>", "title": "<n>. <subtopic>"}`)
		if m == nil {
			continue
		}
		if id, _ := m["id"].(string); !deepSectionID.MatchString(id) {
			c.bad(f+".id", `write "subtopic_<n>" for the n-th subtopic's section, or "sources"`)
		}
		if _, ok := m["title"].(string); !ok {
			c.bad(f+".title", "write the section's heading as text, without ##")
		}
	}
	c.sources(root["sources"], true)
	m := c.object("metadata", root["metadata"], []string{"kind", "schema_version", "topic", "slug"},
		`{"kind": "deep", "schema_version": "1.0", "topic": "<topic>", "slug": "<slug>"}`)
	if m == nil {
		return
	}
	if k, _ := m["kind"].(string); k != string(KindDeep) {
		c.bad("metadata.kind", `write "deep"`)
	}
	if s, _ := m["schema_version"].(string); s != DeepSchemaVersion {
		c.bad("metadata.schema_version", "write %q", DeepSchemaVersion)
	}
	for _, k := range []string{"topic", "slug"} {
		if s, _ := m[k].(string); s == "" {
			c.bad("metadata."+k, "write the front matter's %s", k)
		}
	}
}

var deepSectionID = lazyre.New(`^(subtopic_[0-9]+|sources)$`)

// jsonProblem is a comment that is not JSON.
func jsonProblem(err error) Problem {
	var se *json.SyntaxError
	where := ""
	if errors.As(err, &se) {
		where = fmt.Sprintf(" at character %d of it", se.Offset)
	}
	return Problem{Code: ProblemJSONInvalid, Message: "the JSON comment: it is not JSON" + where + "; write it again, or remove it and let lwr finalize compute it from the text"}
}

// Complete returns a report with its JSON comment: the report as it is
// when it has one (a comment there but malformed is Validate's to
// report), else with the comment its text implies appended — sections,
// sources and metadata as lwr would write them (research: schema 1.0;
// deep: from the front matter and the source blocks). added says whether
// it was computed.
func Complete(md []byte) (out []byte, added bool) {
	if bytes.Contains(md, []byte(jsonMarker)) {
		return md, false
	}
	var raw []byte
	var err error
	if KindOf(md) == KindDeep {
		raw, err = deepCommentJSON(md)
	} else {
		raw, err = researchCommentJSON(md)
	}
	if err != nil {
		return md, false
	}
	out = bytes.TrimRight(md, " \t\r\n")
	out = append(out, "\n\n"+jsonMarker...)
	out = append(out, raw...)
	out = append(out, " -->\n"...)
	return out, true
}

// researchCommentJSON is the comment a research report's text implies:
// the five sections, its local citations and web links in the order of
// the text, schema 1.0.
func researchCommentJSON(md []byte) ([]byte, error) {
	lines := strings.Split(strings.ReplaceAll(string(md), "\r\n", "\n"), "\n")
	c := Comment{Sections: Sections, Sources: []Source{}, Metadata: Metadata{StepNumber: 4, StepNumberLegacy: "D", SchemaVersion: SchemaVersion10}}
	seen := map[string]bool{}
	code := codeLines(lines)
	byLine := map[int][]cited{}
	for _, ct := range citations(lines) {
		byLine[ct.line] = append(byLine[ct.line], ct)
	}
	for i, l := range lines {
		if code[i] {
			continue
		}
		for _, ct := range byLine[i+1] {
			k := fmt.Sprintf("%s#%d-%d", ct.path, ct.start, ct.end)
			if !seen[k] {
				seen[k] = true
				c.Sources = append(c.Sources, Source{Title: path.Base(ct.path), SourceType: "local", Path: LinkPath(ct.path), Lines: &Lines{Start: ct.start, End: ct.end}})
			}
		}
		for _, m := range webLinkRe.FindAllStringSubmatch(l, -1) {
			if !seen[m[2]] {
				seen[m[2]] = true
				c.Sources = append(c.Sources, Source{Title: m[1], SourceType: "web", URL: m[2]})
			}
		}
	}
	return encodeComment(c)
}

// Codes lists every problem code Validate, VerifySources and the deep
// research's verification report.
func Codes() []string {
	return []string{
		ProblemEncoding, ProblemJSONMissing, ProblemJSONNotAtEnd, ProblemJSONInvalid, ProblemSchema,
		ProblemSectionMissing, ProblemSectionOrder, ProblemCitationMissing, ProblemCitationFormat,
		ProblemCitationLines, ProblemCitationPath, ProblemVSCodeLink,
		ProblemCitationFileMissing, ProblemCitationOutOfRange, ProblemCitationQuote, ProblemCitationJSON,
		ProblemFrontMatter, ProblemClaimUncited, ProblemClaimRef, ProblemClaimNumber, ProblemSourceFormat, ProblemWebCitation, ProblemNoEvidence,
	}
}
