package report

import (
	"fmt"
	"strconv"
	"strings"

	"lwr/analyzer/lazyre"
	"lwr/index"
)

// The conclusion of a research report (## 4. 結論) is checked as a deep
// report's claims are: a line that cites a source label ([L1], [W2],
// [DL1], [L1, W2]) cites a source of the report — a label defined in
// sections 1–3 (### [L1] …, lwr's form) or in 5. 出典 (- [L1] <citation>,
// or - [L1] <path> L<s>-L<e>) — and every number it states stands in the
// lines those labels cite (a local label: its cited lines as the file
// says them now; a web label: what the report says of the page, its title
// and snippet). Not read as numbers of the line: the labels themselves,
// links and addresses, file names and paths, line references (L22,
// L20-L25, 20行目), lwr's annotations in 【…】 (the edition and
// preference labels, read from the whole document and the policy folder),
// the names of currentness records, counts of sources (3件) and a
// number a cut text ends with (2,0…: lwr cuts long lines). A date
// or an edition (2025年7月1日, 2025-07-01, 令和7年度, 第3版, v1.2) is the
// document's, which lwr reads from anywhere in its text: it must stand in
// the cited document, not necessarily in the cited lines. The
// subsections 現行性確認, 優先資料・版 and 確認状況 restate the policy
// folder's records and preferences, data of .research-policy rather than
// of the cited lines: their numbers are not checked (their labels are).

// conclusionLabelRe is a source label of a research report: [L1],
// [DL2], [W3], [L1, W2]; not a link's text ([L1](…)).
var conclusionLabelRe = lazyre.New(`\[((?:DL|L|W)[0-9]+(?:\s*[,、，]\s*(?:DL|L|W)[0-9]+)*)\]`)

// labelDefRe is a line that defines a label: the label first, after a
// heading's #, a list marker or nothing.
var labelDefRe = lazyre.New(`^\s*(?:#{1,6}\s+|[-*+]\s+|[0-9]{1,9}[.)]\s+)?\[((?:DL|L|W)[0-9]+)\]`)

// plainRefRe is a source named by its path and lines in plain text:
// 規程/旅費規程.md L20-L22, 旅費規程.md（L20-L22）, /abs/a.md#L3-L4.
var plainRefRe = lazyre.New(`([^\s\[\]()（）<>「」【】]+\.[A-Za-z0-9]{1,5})\s*(?:#L|[（(]?\s*L)([0-9]{1,9})(?:\s*[-–〜~]\s*L?([0-9]{1,9}))?`)

// What a conclusion line holds that is not a number it states.
var (
	anyLinkRe    = lazyre.New(`\[[^\[\]\n]*\]\([^)\n]*\)`)
	urlRe        = lazyre.New(`https?://[^\s)）>」]+`)
	hostRe       = lazyre.New(`\b[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}\b`)
	lineRefRe    = lazyre.New(`\bL[0-9]+(?:\s*[-–]\s*L?[0-9]+)?|[0-9]+(?:\s*[-–〜~]\s*[0-9]+)?\s*行目?`)
	pathTokenRe  = lazyre.New(`[^\s「」『』（）()【】\[\]、。，,:：;；]*(?:/[^\s「」『』（）()【】\[\]、。，,:：;；]*|\.(?i:md|txt|csv|json|ya?ml|pdf|docx|xlsx|pptx|html?))`)
	annotationRe = lazyre.New(`【[^】\n]*】`)
	recordRe     = lazyre.New(`\[記録:[^\]\n]*\]|現行性\[[^\]\n]*\]`)
	countRe      = lazyre.New(`[0-9]+\s*(?:件|ファイル)|矛盾[0-9]+`)
	// cutNumberRe is a number a cut text ends with (12,0…): not a number
	// of the text.
	cutNumberRe = lazyre.New(`[0-9０-９,，.．〇一二三四五六七八九十百千万億兆]+…`)
	// dateRe is a date or an edition: the document's, read from its text.
	dateRe = lazyre.New(`(?:令和|平成|昭和)\s*(?:[0-9]+|元)\s*年(?:度)?(?:\s*[0-9]+\s*月(?:\s*[0-9]+\s*日)?)?|[0-9]{4}\s*年(?:度)?(?:\s*[0-9]{1,2}\s*月(?:\s*[0-9]{1,2}\s*日)?)?|[0-9]{4}[-/.][0-9]{1,2}(?:[-/.][0-9]{1,2})?|第\s*[0-9]+\s*版|\bv[0-9]+(?:\.[0-9]+)+`)
)

// policySubsections are the subsections of lwr's conclusion that restate
// the policy folder (their numbers are not the cited lines').
var policySubsections = []string{"現行性確認", "優先資料・版", "確認状況"}

// sectionBounds are the lines (0-based, the heading excluded) of the five
// sections; -1 for a section that is not there.
func sectionBounds(lines []string) [][2]int {
	heads := headings(lines)
	out := make([][2]int, len(Sections))
	for k, sec := range Sections {
		out[k] = [2]int{-1, -1}
		for i, h := range heads {
			if strings.HasPrefix(h.text, sec.Heading()) {
				end := len(lines)
				if i+1 < len(heads) {
					end = heads[i+1].line - 1
				}
				out[k] = [2]int{h.line, end}
				break
			}
		}
	}
	return out
}

// labelDef is what a report says of one of its labels.
type labelDef struct {
	lines []int    // 0-based lines that define it
	text  []string // what they and their blocks say (for a web label)
}

// labelDefs are the labels a research report defines, in sections 1–3
// and 5: a heading ### [L1] … (with the block under it) or a line that
// starts with the label.
func labelDefs(lines []string, bounds [][2]int) map[string]*labelDef {
	code := codeLines(lines)
	defs := map[string]*labelDef{}
	for _, k := range []int{0, 1, 2, 4} {
		b := bounds[k]
		if b[0] < 0 {
			continue
		}
		for i := b[0]; i < b[1] && i < len(lines); i++ {
			if code[i] {
				continue
			}
			m := labelDefRe.FindStringSubmatch(lines[i])
			if m == nil {
				continue
			}
			d := defs[m[1]]
			if d == nil {
				d = &labelDef{}
				defs[m[1]] = d
			}
			d.lines = append(d.lines, i)
			d.text = append(d.text, lines[i])
			if strings.HasPrefix(strings.TrimSpace(lines[i]), "#") {
				// The block under a heading, to the next heading.
				for j := i + 1; j < b[1] && j < len(lines); j++ {
					if !code[j] && strings.HasPrefix(strings.TrimSpace(lines[j]), "#") {
						break
					}
					d.lines = append(d.lines, j)
					d.text = append(d.text, lines[j])
				}
			}
		}
	}
	return defs
}

// conclusionLine is one line of the conclusion that cites labels.
type conclusionLine struct {
	n      int // 0-based
	text   string
	refs   []string
	policy bool // in a subsection that restates the policy folder
}

func conclusionLines(lines []string, bounds [][2]int) []conclusionLine {
	b := bounds[3]
	if b[0] < 0 {
		return nil
	}
	code := codeLines(lines)
	var out []conclusionLine
	policy := false
	for i := b[0]; i < b[1] && i < len(lines); i++ {
		t := strings.TrimSpace(lines[i])
		if code[i] || t == "" {
			continue
		}
		if strings.HasPrefix(t, "#") {
			title := strings.TrimSpace(strings.TrimLeft(t, "#"))
			policy = false
			for _, p := range policySubsections {
				policy = policy || strings.HasPrefix(title, p)
			}
			continue
		}
		c := conclusionLine{n: i, text: lines[i], policy: policy}
		for _, m := range conclusionLabelRe.FindAllStringSubmatchIndex(lines[i], -1) {
			if m[1] < len(lines[i]) && lines[i][m[1]] == '(' {
				continue // a link's text
			}
			for _, r := range refSplitRe.Split(lines[i][m[2]:m[3]], -1) {
				if !contains(c.refs, r) {
					c.refs = append(c.refs, r)
				}
			}
		}
		if len(c.refs) > 0 {
			out = append(out, c)
		}
	}
	return out
}

// checkConclusionLabels is the form check of a research report's
// conclusion: every label its lines cite is defined.
func checkConclusionLabels(lines []string) []Problem {
	bounds := sectionBounds(lines)
	defs := labelDefs(lines, bounds)
	var out []Problem
	for _, c := range conclusionLines(lines, bounds) {
		for _, r := range c.refs {
			if defs[r] == nil {
				out = append(out, Problem{Code: ProblemClaimRef, Line: c.n + 1, Message: fmt.Sprintf(
					"the conclusion's label [%s]: name the source it stands for in \"%s\" (- [%s] <citation>, or - [%s] <path> L<s>-L<e>), or cite a label the report defines", r, Sections[4].Heading(), r, r)})
			}
		}
	}
	return out
}

// citedRange is a range of lines of a document a label cites.
type citedRange struct {
	path       string // absolute, forward slashes (or relative to the source root)
	start, end int
	line       int // of the report, 0-based
}

// verifyConclusion checks the numbers of a research report's conclusion
// against the lines its labels cite (see the comment at the top of this
// file). files holds the documents VerifySources read already.
func verifyConclusion(md []byte, src Sources, cites []cited, files map[string]*index.File) []Problem {
	lines := strings.Split(strings.ReplaceAll(string(md), "\r\n", "\n"), "\n")
	lines = lines[:commentStart(lines)]
	bounds := sectionBounds(lines)
	defs := labelDefs(lines, bounds)
	concl := conclusionLines(lines, bounds)
	if len(concl) == 0 {
		return nil
	}
	var out []Problem
	read := func(p string) *index.File {
		f, ok := files[p]
		if !ok {
			if absPathRe.MatchString(p) {
				f, _ = readCited(src, p)
			} else if src.Root != "" {
				f, _ = index.ReadFile(src.Root, src.Rules, p)
			}
			files[p] = f
		}
		return f
	}
	// ranges are the lines each label cites; unknown: labels whose lines
	// cannot be told (a definition that names no lines), whose numbers
	// are then not checked.
	ranges := map[string][]citedRange{}
	unknown := map[string]bool{}
	for ref, d := range defs {
		if ref[0] == 'W' {
			continue
		}
		for _, i := range d.lines {
			found := false
			for _, c := range cites {
				if c.line == i+1 {
					ranges[ref] = append(ranges[ref], citedRange{path: c.path, start: c.start, end: c.end, line: i})
					found = true
				}
			}
			if found || !labelDefRe.MatchString(lines[i]) {
				continue // plain references only on the label's own line
			}
			rest := labelDefRe.ReplaceAllString(lines[i], "")
			for _, m := range plainRefRe.FindAllStringSubmatch(rest, -1) {
				s, _ := strconv.Atoi(m[2])
				e := s
				if m[3] != "" {
					e, _ = strconv.Atoi(m[3])
				}
				p := strings.ReplaceAll(m[1], `\`, "/")
				// A path the text cites in full is that citation's file.
				for _, c := range cites {
					if c.path == p || strings.HasSuffix(c.path, "/"+strings.TrimPrefix(p, "./")) {
						p = c.path
						break
					}
				}
				ranges[ref] = append(ranges[ref], citedRange{path: p, start: s, end: e, line: i})
			}
		}
		if len(ranges[ref]) == 0 {
			unknown[ref] = true
		}
	}
	// The plain references: the file and its lines must be there.
	for ref, rs := range ranges {
		for _, r := range rs {
			if hasCite(cites, r) {
				continue
			}
			f := read(r.path)
			switch {
			case f == nil:
				out = append(out, Problem{Code: ProblemCitationFileMissing, Line: r.line + 1, Message: fmt.Sprintf(
					"source [%s]: %s is not a document of the source root; name the file by its path as lwr search gives it", ref, Cut(index.ShownName(r.path), 120))})
				unknown[ref] = true
			case r.start < 1 || r.end < r.start || r.end > len(f.Lines):
				out = append(out, Problem{Code: ProblemCitationOutOfRange, Line: r.line + 1, Message: fmt.Sprintf(
					"source [%s]: name lines inside %s, which has %d lines (L%d-L%d is not)", ref, f.Rel, len(f.Lines), r.start, r.end)})
				unknown[ref] = true
			}
		}
	}
	for _, c := range concl {
		if c.policy {
			continue
		}
		var have, doc, text []string
		checkable := true
		for _, r := range c.refs {
			d := defs[r]
			if d == nil || unknown[r] {
				checkable = false // the form check reports an undefined label
				break
			}
			if r[0] == 'W' {
				text = append(text, d.text...)
				continue
			}
			for _, cr := range ranges[r] {
				f := read(cr.path)
				if f == nil || cr.start < 1 || cr.end < cr.start || cr.end > len(f.Lines) {
					checkable = false // VerifySources reports the citation
					break
				}
				have = append(have, f.Lines[cr.start-1:cr.end]...)
				doc = append(doc, f.Lines...)
			}
		}
		if !checkable {
			continue
		}
		have = append(have, text...)
		doc = append(doc, text...)
		stated, dates := conclusionNumbers(c.text)
		in := map[string]bool{}
		for _, v := range Numbers(strings.Join(have, "\n")) {
			in[v] = true
		}
		missing := unsupported(stated, in)
		if len(dates) > 0 {
			indoc := map[string]bool{}
			for _, v := range Numbers(strings.Join(doc, "\n")) {
				indoc[v] = true
			}
			missing = append(missing, unsupported(dates, indoc)...)
		}
		if len(missing) > 0 {
			out = append(out, Problem{Code: ProblemClaimNumber, Line: c.n + 1, Message: fmt.Sprintf(
				"the conclusion's line %q: no line it cites (%s) states %s; write the number as a cited line states it, or cite the line that states it",
				Cut(strings.TrimSpace(c.text), 60), "["+strings.Join(c.refs, "], [")+"]", strings.Join(missing, ", "))})
		}
	}
	return out
}

func hasCite(cites []cited, r citedRange) bool {
	for _, c := range cites {
		if c.line == r.line+1 && c.path == r.path && c.start == r.start && c.end == r.end {
			return true
		}
	}
	return false
}

// conclusionNumbers are the numbers a conclusion line states, besides
// what is not a statement (see the top of this file), and apart from
// them those of its dates and editions.
func conclusionNumbers(s string) (stated, dates []number) {
	for _, re := range []*lazyre.Regexp{citeRe, anyLinkRe, urlRe, recordRe, annotationRe, conclusionLabelRe, pathTokenRe, hostRe, lineRefRe, countRe, cutNumberRe} {
		s = re.ReplaceAllString(s, " ")
	}
	// A date is a whole run of digits: 0000-12 of 050-0000-1234 is none.
	var rest strings.Builder
	at := 0
	for _, m := range dateRe.FindAllStringIndex(s, -1) {
		if m[0] > 0 && isDigit(s[m[0]-1]) || m[1] < len(s) && (isDigit(s[m[1]]) || s[m[1]] == '-' || s[m[1]] == '/') {
			continue
		}
		dates = append(dates, numbers(s[m[0]:m[1]])...)
		rest.WriteString(s[at:m[0]])
		rest.WriteString(" ")
		at = m[1]
	}
	rest.WriteString(s[at:])
	return numbers(rest.String()), dates
}
