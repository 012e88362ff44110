package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/url"
	"path"
	"slices"
	"strconv"
	"strings"

	"lwr/analyzer/lazyre"
	"lwr/index"
)

// A deep research report (SPEC §14) is Markdown with YAML front matter
// (kind: deep, status, topic, slug), a title, a section "## N. <subtopic>"
// per subtopic whose every line is a claim ending with the labels of the
// sources it rests on ([L1], [W2]) — or the line SentenceInsufficient —
// then "## 出典" with a block per source: "### [L1] <file name>", the
// local citation and the quoted lines, or "### [W1] <title>", the link
// [title](https://…) and the quoted snippet. The file ends with its
// <!-- JSON: … --> comment (deep-output-schema.json), which lwr finalize
// computes when it is missing.

// The statuses of a deep report: status: confirmed is the sentinel, the
// one durable sign that the report was verified.
const (
	DeepDraft     = "draft"
	DeepConfirmed = "confirmed"
)

// Fixed text of deep reports.
const (
	// SentenceInsufficient stands in a subtopic's section when nothing
	// was found for it.
	SentenceInsufficient = "(insufficient sources for this subtopic)"
	// DeepSourcesTitle is the title of the sources section.
	DeepSourcesTitle = "出典"
	// DeepSchemaVersion is the version of a deep report's JSON comment.
	DeepSchemaVersion = "1.0"
)

// The problem codes of deep reports (besides the citation codes).
const (
	ProblemFrontMatter  = "front_matter"
	ProblemClaimUncited = "claim_uncited"
	ProblemClaimRef     = "claim_ref_unknown"
	ProblemClaimNumber  = "claim_number_unsupported"
	ProblemSourceFormat = "source_format"
	// ProblemNoEvidence is a report with no source at all: every
	// subtopic's section says SentenceInsufficient.
	ProblemNoEvidence = "no_evidence"
	// ProblemWebCitation is a web citation that is not what lwr fetched
	// for the topic (its URL, title or quoted snippet).
	ProblemWebCitation = "web_citation_mismatch"
)

// DeepReport is a deep research report as its text says it.
type DeepReport struct {
	Status, Topic, Slug string
	Sections            []DeepSection
	Sources             []DeepSource
	// SourcesLine is the line of "## 出典" (0 when there is none).
	SourcesLine int
}

// NoEvidenceSentence is the problem of a deep report without a source.
const NoEvidenceSentence = "the report: no subtopic found a source (every section says " + SentenceInsufficient + "), and a report without evidence is no research; check that the source root holds the documents (lwr index status), then research the topic anew in the documents' own words (lwr deep start --refresh with --subtopic) or with the web"

// DeepSection is the section of one subtopic.
type DeepSection struct {
	N     int
	Title string
	Line  int
	// Claims are the section's lines, each with the sources it cites.
	Claims []Claim
	// Insufficient: the section says SentenceInsufficient.
	Insufficient bool
}

// Claim is one line of a subtopic's section.
type Claim struct {
	// Text is the line without its list marker and source labels.
	Text string
	Refs []string
	Line int
}

// DeepSource is one block of the sources section.
type DeepSource struct {
	Ref  string // L1, W2
	Name string // the heading's text after the label
	Line int    // of the heading
	End  int    // the block's last line
	// Local is the citation of a local source.
	Local *DeepLocal
	// Web is the link of a web source.
	Web *DeepWeb
}

// DeepLocal is a local source's citation.
type DeepLocal struct {
	Path       string // absolute, forward slashes, percent-decoded
	Start, End int
	Line       int // of the citation
}

// DeepWeb is a web source's link and quoted snippet.
type DeepWeb struct {
	Title, URL string
	Quote      []string // the lines of the > blockquote after the link
	Line       int      // of the link
}

var (
	deepSectionRe = lazyre.New(`^## ([0-9]+)\. (.+)$`)
	deepSourceRe  = lazyre.New(`^### \[([LW][0-9]+)\] ?(.*)$`)
	refRe         = lazyre.New(`\[([LW][0-9]+(?:\s*[,、，]\s*[LW][0-9]+)*)\]`)
	refSplitRe    = lazyre.New(`\s*[,、，]\s*`)
	listMarkRe    = lazyre.New(`^\s*(?:[-*+]|[0-9]{1,9}[.)])\s+`)
	webLinkRe     = lazyre.New(`\[([^\[\]\n]+)\]\((https://[^\s()<>]+)\)`)
	linkTargetRe  = lazyre.New(`\]\([^)\n]*\)`)
)

// commentStart is the index of the line where the JSON comment starts
// (len(lines) when there is none).
func commentStart(lines []string) int {
	for i := len(lines) - 1; i >= 0; i-- {
		if strings.HasPrefix(lines[i], jsonMarker) {
			return i
		}
		if strings.TrimSpace(lines[i]) != "" {
			break
		}
	}
	return len(lines)
}

// ParseDeep reads a deep report: its front matter, subtopic sections
// with their claims, and the sources section's blocks. The problems are
// those of its form; the citations' files and the numbers of the claims
// are checked by VerifySources.
func ParseDeep(md []byte) (*DeepReport, []Problem) {
	var out []Problem
	bad := func(line int, code, format string, args ...any) {
		out = append(out, Problem{Code: code, Line: line, Message: fmt.Sprintf(format, args...)})
	}
	d := &DeepReport{}
	fm, fmLines, p := FrontMatter(md)
	if p != nil {
		out = append(out, *p)
	}
	switch {
	case fm == nil && p == nil:
		bad(1, ProblemFrontMatter, "front matter: start the report with --- lines holding kind: deep, status: draft, topic and slug")
	case fm != nil:
		d.Status, d.Topic, d.Slug = fmString(fm, "status"), fmString(fm, "topic"), fmString(fm, "slug")
		if d.Status != DeepDraft && d.Status != DeepConfirmed {
			bad(1, ProblemFrontMatter, "front matter status: write draft (lwr writes confirmed once the report is verified), not %q", Cut(d.Status, 40))
		}
		if strings.TrimSpace(d.Topic) == "" {
			bad(1, ProblemFrontMatter, "front matter topic: write the topic researched, as lwr deep start was given it")
		}
		if strings.TrimSpace(d.Slug) == "" {
			bad(1, ProblemFrontMatter, "front matter slug: write the topic's slug, as lwr deep start printed it")
		}
	}
	text := strings.ReplaceAll(string(md), "\r\n", "\n")
	lines := strings.Split(text, "\n")
	stop := commentStart(lines)
	code := codeLines(lines[:stop])
	// The level-2 headings outside code blocks and the front matter.
	var heads []int
	for i := fmLines; i < stop; i++ {
		if !code[i] && strings.HasPrefix(lines[i], "## ") {
			heads = append(heads, i)
		}
	}
	sourcesAt := -1
	for k, i := range heads {
		h := strings.TrimRight(lines[i], " \t")
		end := stop
		if k+1 < len(heads) {
			end = heads[k+1]
		}
		if h == "## "+DeepSourcesTitle {
			if sourcesAt >= 0 {
				bad(i+1, ProblemSectionOrder, "heading %q: write it once, as the last section", h)
				continue
			}
			sourcesAt = i
			d.SourcesLine = i + 1
			d.Sources = append(d.Sources, parseSources(lines[i+1:end], code[i+1:end], i+1, bad)...)
			continue
		}
		m := deepSectionRe.FindStringSubmatch(h)
		if m == nil {
			bad(i+1, ProblemSectionOrder, "heading %q: write the subtopic sections as \"## <n>. <subtopic>\" and end with \"## %s\"", Cut(h, 60), DeepSourcesTitle)
			continue
		}
		if sourcesAt >= 0 {
			bad(i+1, ProblemSectionOrder, "heading %q: move it before \"## %s\", which is the last section", Cut(h, 60), DeepSourcesTitle)
		}
		n, _ := strconv.Atoi(m[1])
		if want := len(d.Sections) + 1; n != want {
			bad(i+1, ProblemSectionOrder, "heading %q: number it %d; the subtopic sections go 1, 2, 3 … in order", Cut(h, 60), want)
		}
		sec := DeepSection{N: n, Title: m[2], Line: i + 1}
		for j := i + 1; j < end; j++ {
			t := strings.TrimSpace(lines[j])
			switch {
			case t == "", strings.HasPrefix(t, "#"), strings.HasPrefix(t, "<!--") && strings.HasSuffix(t, "-->"):
				continue
			case strings.TrimSpace(listMarkRe.ReplaceAllString(t, "")) == SentenceInsufficient:
				sec.Insufficient = true
				continue
			}
			c := Claim{Text: t, Line: j + 1}
			if loc := listMarkRe.FindStringIndex(t); loc != nil {
				c.Text = t[loc[1]:]
			}
			for _, r := range refMatches(c.Text) {
				for _, ref := range refSplitRe.Split(c.Text[r[2]:r[3]], -1) {
					if !contains(c.Refs, ref) {
						c.Refs = append(c.Refs, ref)
					}
				}
			}
			c.Text = strings.TrimSpace(stripRefs(c.Text))
			if len(c.Refs) == 0 {
				bad(j+1, ProblemClaimUncited, "the claim %q: end it with the label of the source it rests on, e.g. [L1] or [W1] (every line of a subtopic section is a claim; put quotes in \"## %s\")", Cut(t, 60), DeepSourcesTitle)
			}
			sec.Claims = append(sec.Claims, c)
		}
		if len(sec.Claims) == 0 && !sec.Insufficient {
			bad(i+1, ProblemClaimUncited, "section %q: write its claims with their sources, or the line %s when nothing was found", Cut(sec.Title, 60), SentenceInsufficient)
		}
		d.Sections = append(d.Sections, sec)
	}
	if len(d.Sections) == 0 {
		bad(0, ProblemSectionMissing, "subtopic sections: write a section \"## 1. <subtopic>\" per subtopic before \"## %s\"", DeepSourcesTitle)
	}
	if len(d.Sections) > 0 && len(d.Sources) == 0 && !slices.ContainsFunc(d.Sections, func(s DeepSection) bool { return len(s.Claims) > 0 }) {
		bad(d.Sections[0].Line, ProblemNoEvidence, "%s", NoEvidenceSentence)
	}
	defined := map[string]bool{}
	for _, s := range d.Sources {
		defined[s.Ref] = true
	}
	cited := false
	for _, sec := range d.Sections {
		for _, c := range sec.Claims {
			for _, r := range c.Refs {
				cited = true
				if !defined[r] {
					bad(c.Line, ProblemClaimRef, "the claim's label [%s]: add a block \"### [%s] …\" to \"## %s\" with its citation, or cite a source that is there", r, r, DeepSourcesTitle)
				}
			}
		}
	}
	if sourcesAt < 0 && cited {
		bad(0, ProblemSectionMissing, "heading \"## %s\": add it as the last section, with a block per source the claims cite", DeepSourcesTitle)
	}
	return d, out
}

// refMatches finds the source labels of a claim: [L1], [W2], [L1, W2];
// not the text of a link ([L1](…)).
func refMatches(s string) [][]int {
	var out [][]int
	for _, m := range refRe.FindAllStringSubmatchIndex(s, -1) {
		if m[1] < len(s) && s[m[1]] == '(' {
			continue
		}
		out = append(out, m)
	}
	return out
}

// stripRefs removes a claim's source labels.
func stripRefs(s string) string {
	ms := refMatches(s)
	for i := len(ms) - 1; i >= 0; i-- {
		s = s[:ms[i][0]] + s[ms[i][1]:]
	}
	return s
}

// parseSources reads the blocks of the sources section; first is the
// index of its first line.
func parseSources(lines []string, code []bool, first int, bad func(int, string, string, ...any)) []DeepSource {
	var out []DeepSource
	seen := map[string]bool{}
	var cur *DeepSource
	flush := func() {
		if cur == nil {
			return
		}
		switch {
		case cur.Local == nil && cur.Web == nil && cur.Ref[0] == 'L':
			bad(cur.Line, ProblemSourceFormat, "source [%s]: write its citation [file name](<absolute path>#L<s>-L<e>) (L<s>-L<e>) [VS Codeで開く](vscode://file/…:<s>) under the heading, then the quoted lines", cur.Ref)
		case cur.Local == nil && cur.Web == nil:
			bad(cur.Line, ProblemSourceFormat, "source [%s]: write its link [title](https://…) under the heading, then the quoted snippet as > lines", cur.Ref)
		}
		out = append(out, *cur)
		cur = nil
	}
	for i, l := range lines {
		n := first + i + 1
		if code[i] {
			continue
		}
		if m := deepSourceRe.FindStringSubmatch(strings.TrimRight(l, " \t")); m != nil {
			flush()
			if seen[m[1]] {
				bad(n, ProblemSourceFormat, "source [%s]: give each source its own label; [%s] is used twice", m[1], m[1])
			}
			seen[m[1]] = true
			cur = &DeepSource{Ref: m[1], Name: m[2], Line: n, End: n}
			continue
		}
		if cur == nil {
			continue
		}
		cur.End = n
		if ms := citeRe.FindAllStringSubmatchIndex(l, -1); len(ms) > 0 {
			for _, m := range ms {
				for _, p := range checkCitation(l, m, n) {
					bad(p.Line, p.Code, "%s", p.Message)
				}
			}
			if cur.Local != nil || cur.Web != nil {
				continue
			}
			if cur.Ref[0] != 'L' {
				bad(n, ProblemSourceFormat, "source [%s]: label a local file's citation [L<n>] (W is for web pages)", cur.Ref)
			}
			m := ms[0]
			target := strings.TrimSuffix(strings.TrimPrefix(l[m[4]:m[5]], "<"), ">")
			if a := anchorRe.FindStringSubmatch(target); a != nil {
				p := a[1]
				if dp, err := url.PathUnescape(p); err == nil && strings.Contains(p, "%") {
					p = dp
				}
				s, _ := strconv.Atoi(a[2])
				e, _ := strconv.Atoi(a[3])
				cur.Local = &DeepLocal{Path: strings.ReplaceAll(p, `\`, "/"), Start: s, End: e, Line: n}
			}
			continue
		}
		if cur.Local == nil && cur.Web == nil {
			if m := webLinkRe.FindStringSubmatch(l); m != nil {
				if cur.Ref[0] != 'W' {
					bad(n, ProblemSourceFormat, "source [%s]: label a web page [W<n>] (L is for local files)", cur.Ref)
				}
				cur.Web = &DeepWeb{Title: m[1], URL: m[2], Line: n}
				continue
			}
		}
		if cur.Web != nil {
			if t := strings.TrimLeft(l, " "); strings.HasPrefix(t, ">") {
				cur.Web.Quote = append(cur.Web.Quote, strings.TrimPrefix(strings.TrimPrefix(t, ">"), " "))
			}
		}
	}
	flush()
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// validateDeep checks a deep report's form: front matter, sections,
// claims and their labels, source blocks and citations, and the JSON
// comment against deep-output-schema.json and the text.
func validateDeep(md []byte) []Problem {
	d, out := ParseDeep(md)
	raw, p := ExtractComment(md)
	if p != nil {
		return append(out, *p)
	}
	fmBad := slices.ContainsFunc(out, func(p Problem) bool { return p.Code == ProblemFrontMatter })
	for _, p := range checkDeepComment(raw, d) {
		// The topic and slug the comment lacks are the front matter's,
		// reported once, there.
		if fmBad && (strings.HasPrefix(p.Message, "metadata.topic") || strings.HasPrefix(p.Message, "metadata.slug")) {
			continue
		}
		out = append(out, p)
	}
	return out
}

// claimNumbers are the numbers a claim states, besides those of its
// links and line references.
func claimNumbers(text string) []number {
	text = citeRe.ReplaceAllString(text, "")
	text = linkTargetRe.ReplaceAllString(text, "]")
	return numbers(stripRefs(text))
}

// unsupported are the numbers of a claim that no value of have reads as,
// as the claim writes them.
func unsupported(nums []number, have map[string]bool) []string {
	var missing []string
	for _, n := range nums {
		ok := false
		for _, v := range n.values {
			ok = ok || have[v]
		}
		if !ok && !contains(missing, n.text) {
			missing = append(missing, n.text)
		}
	}
	return missing
}

// verifyClaims checks that every number of a claim stands in a line it
// cites: the cited lines of a local source as the file says them now,
// the title and quoted snippet of a web source.
func verifyClaims(md []byte, src Sources) []Problem {
	d, _ := ParseDeep(md)
	defs := map[string]DeepSource{}
	for _, s := range d.Sources {
		if _, ok := defs[s.Ref]; !ok {
			defs[s.Ref] = s
		}
	}
	files := map[string]*index.File{}
	// numbersOf returns the numbers of a source's cited lines, false when
	// they cannot be read (VerifySources reports the citation).
	numbersOf := func(s DeepSource) ([]string, bool) {
		switch {
		case s.Local != nil:
			f, ok := files[s.Local.Path]
			if !ok {
				f, _ = readCited(src, s.Local.Path)
				files[s.Local.Path] = f
			}
			if f == nil || s.Local.Start < 1 || s.Local.End > len(f.Lines) || s.Local.End < s.Local.Start {
				return nil, false
			}
			return Numbers(strings.Join(f.Lines[s.Local.Start-1:s.Local.End], "\n")), true
		case s.Web != nil:
			return Numbers(s.Web.Title + "\n" + strings.Join(s.Web.Quote, "\n")), true
		}
		return nil, false
	}
	var out []Problem
	for _, sec := range d.Sections {
		for _, c := range sec.Claims {
			nums := claimNumbers(c.Text)
			if len(nums) == 0 || len(c.Refs) == 0 {
				continue
			}
			have := map[string]bool{}
			known := true
			for _, r := range c.Refs {
				s, ok := defs[r]
				if !ok {
					known = false // ParseDeep reports the label
					break
				}
				ns, ok := numbersOf(s)
				if !ok {
					known = false
					break
				}
				for _, n := range ns {
					have[n] = true
				}
			}
			if !known {
				continue
			}
			if missing := unsupported(nums, have); len(missing) > 0 {
				out = append(out, Problem{Code: ProblemClaimNumber, Line: c.Line, Message: fmt.Sprintf(
					"the claim %q: no line it cites (%s) states %s; write the number as a cited line states it, or cite the line that states it",
					Cut(c.Text, 60), "["+strings.Join(c.Refs, "], [")+"]", strings.Join(missing, ", "))})
			}
		}
	}
	return out
}

// DeepComment is a deep report's <!-- JSON: … --> comment
// (deep-output-schema.json).
type DeepComment struct {
	Sections []Section    `json:"sections"`
	Sources  []Source     `json:"sources"`
	Metadata DeepMetadata `json:"metadata"`
}

// DeepMetadata is a deep report comment's metadata.
type DeepMetadata struct {
	Kind          string `json:"kind"`
	SchemaVersion string `json:"schema_version"`
	Topic         string `json:"topic"`
	Slug          string `json:"slug"`
}

// deepComment is the JSON comment a deep report's text implies.
func deepComment(md []byte, d *DeepReport) DeepComment {
	c := DeepComment{Sections: []Section{}, Sources: []Source{}, Metadata: DeepMetadata{Kind: string(KindDeep), SchemaVersion: DeepSchemaVersion, Topic: d.Topic, Slug: d.Slug}}
	for _, s := range d.Sections {
		c.Sections = append(c.Sections, Section{ID: fmt.Sprintf("subtopic_%d", s.N), Title: fmt.Sprintf("%d. %s", s.N, s.Title)})
	}
	c.Sections = append(c.Sections, Section{ID: "sources", Title: DeepSourcesTitle})
	lines := strings.Split(strings.ReplaceAll(string(md), "\r\n", "\n"), "\n")
	cites := citations(lines[:commentStart(lines)])
	seen := map[string]bool{}
	used := make([]bool, len(cites))
	addLocal := func(ct cited, ref string) {
		k := fmt.Sprintf("%s#%d-%d", ct.path, ct.start, ct.end)
		if seen[k] {
			return
		}
		seen[k] = true
		c.Sources = append(c.Sources, Source{Ref: ref, Title: path.Base(ct.path), SourceType: "local", Path: LinkPath(ct.path), Lines: &Lines{Start: ct.start, End: ct.end}})
	}
	for _, s := range d.Sources {
		if s.Web != nil && !seen[s.Web.URL] {
			seen[s.Web.URL] = true
			c.Sources = append(c.Sources, Source{Ref: s.Ref, Title: s.Web.Title, SourceType: "web", URL: s.Web.URL})
		}
		for i, ct := range cites {
			if !used[i] && ct.line >= s.Line && ct.line <= s.End {
				used[i] = true
				addLocal(ct, s.Ref)
			}
		}
	}
	for i, ct := range cites {
		if !used[i] {
			addLocal(ct, "")
		}
	}
	return c
}

// checkDeepComment checks a deep report's JSON comment field by field
// and against the text: its sections are the text's headings, its web
// sources the text's links.
func checkDeepComment(raw []byte, d *DeepReport) []Problem {
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return []Problem{jsonProblem(err)}
	}
	c := newChecker()
	c.deepComment(v)
	out := c.out
	if len(out) > 0 {
		return out
	}
	if sch, err := deepSchema(); err == nil && sch.Validate(v) != nil {
		return []Problem{{Code: ProblemSchema, Message: "the JSON comment: write it as deep-output-schema.json says, or remove it and let lwr finalize compute it from the text"}}
	}
	var dc DeepComment
	if err := json.Unmarshal(raw, &dc); err != nil {
		return []Problem{jsonProblem(err)}
	}
	want := deepComment(nil, d).Sections
	for i, s := range dc.Sections {
		switch {
		case i >= len(want):
			out = append(out, Problem{Code: ProblemSchema, Message: fmt.Sprintf("sections[%d]: remove it; the text has %d sections (%d subtopics and %s)", i, len(want), len(want)-1, DeepSourcesTitle)})
		case s != want[i]:
			out = append(out, Problem{Code: ProblemSchema, Message: fmt.Sprintf("sections[%d]: write {\"id\": %q, \"title\": %q}, as the text's heading says", i, want[i].ID, want[i].Title)})
		}
	}
	if len(dc.Sections) < len(want) {
		out = append(out, Problem{Code: ProblemSchema, Message: fmt.Sprintf("sections: write all %d sections of the text; the comment has %d", len(want), len(dc.Sections))})
	}
	if dc.Metadata.Topic != d.Topic || dc.Metadata.Slug != d.Slug {
		out = append(out, Problem{Code: ProblemSchema, Message: fmt.Sprintf("metadata.topic and metadata.slug: write the front matter's topic %q and slug %q", Cut(d.Topic, 60), Cut(d.Slug, 60))})
	}
	inText := map[string]bool{}
	for _, s := range d.Sources {
		if s.Web != nil {
			inText[s.Web.URL] = true
		}
	}
	inJSON := map[string]bool{}
	for i, s := range dc.Sources {
		if s.SourceType != "web" {
			continue
		}
		inJSON[s.URL] = true
		if !inText[s.URL] {
			out = append(out, Problem{Code: ProblemCitationJSON, Message: fmt.Sprintf("sources[%d].url: cite %s in \"## %s\" or remove it from the comment", i, Cut(URL(s.URL), 100), DeepSourcesTitle)})
		}
	}
	for _, s := range d.Sources {
		if s.Web != nil && !inJSON[s.Web.URL] {
			out = append(out, Problem{Code: ProblemCitationJSON, Line: s.Web.Line, Message: fmt.Sprintf("source [%s]: add %s to the JSON comment's sources, or remove the comment and let lwr finalize write it", s.Ref, Cut(URL(s.Web.URL), 100))})
		}
	}
	return out
}

// deepCommentJSON is the comment of a deep report's text, on one line.
func deepCommentJSON(md []byte) ([]byte, error) {
	d, _ := ParseDeep(md)
	return encodeComment(deepComment(md, d))
}

// encodeComment encodes a comment on one line, with <, > and & escaped so
// that no text can end the comment.
func encodeComment(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(true)
	if err := enc.Encode(v); err != nil {
		return nil, fmt.Errorf("encode the report's JSON comment: %w", err)
	}
	return bytes.TrimRight(buf.Bytes(), "\n"), nil
}

// WebMismatch is the problem of a web source that is not what lwr
// fetched for the topic: what names the difference (its address, its
// title, its quoted snippet).
func WebMismatch(ref string, line int, what string) Problem {
	return Problem{Code: ProblemWebCitation, Line: line, Message: fmt.Sprintf("source [%s]: %s; cite the page as lwr fetched it for this topic (the findings files list each page with its title and snippet), quoting its snippet as it is", ref, what)}
}
