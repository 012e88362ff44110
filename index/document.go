package index

import (
	"lwr/analyzer/edition"
	"lwr/index/extract"
	"path"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// Passage bounds: a passage is a run of whole lines, cut at headings and
// blank lines where it can be, of at most passageLines lines and about
// passageChars characters. Hits are scored per passage and cited by its lines.
const (
	passageLines    = 60
	passageMinLines = 8
	passageChars    = 4000
	leadChars       = 200
)

// Document is one source file as the index sees it.
type Document struct {
	Path     string // relative, forward slashes
	Title    string
	Summary  string
	Encoding string
	Lines    int
	Lead     string // the first characters of the body, after the title
	Passages []Passage
	Editions []edition.Edition
}

// Passage is a run of lines of a document (1-based, inclusive).
type Passage struct {
	Start, End int
	Text       string
}

// Head is the text of the document's boosted field: its file name, folder
// names, title, summary and lead.
func (d *Document) Head() string {
	name := path.Base(d.Path)
	dir := path.Dir(d.Path)
	var b strings.Builder
	b.WriteString(name)
	b.WriteByte('\n')
	if stem := strings.TrimSuffix(name, path.Ext(name)); stem != name {
		// "df.1.txt" → "df.1" too, so the stem is a word of its own.
		b.WriteString(stem)
		b.WriteByte('\n')
	}
	if dir != "." {
		b.WriteString(strings.ReplaceAll(dir, "/", " "))
		b.WriteByte('\n')
	}
	if d.Title != "" && d.Title != name {
		b.WriteString(d.Title)
		b.WriteByte('\n')
	}
	if d.Summary != "" {
		b.WriteString(d.Summary)
		b.WriteByte('\n')
	}
	b.WriteString(d.Lead)
	return b.String()
}

// isMarkdown reports whether a path is a Markdown file.
func isMarkdown(p string) bool {
	ext := strings.ToLower(path.Ext(p))
	return ext == ".md" || ext == ".markdown"
}

// Lines splits text into lines without their line ending ("\n" or "\r\n").
// A final newline does not start another line.
func Lines(text string) []string {
	if text == "" {
		return []string{""}
	}
	text = strings.TrimSuffix(text, "\n")
	ls := strings.Split(text, "\n")
	for i, l := range ls {
		ls[i] = strings.TrimSuffix(l, "\r")
	}
	return ls
}

// parseDocument builds the document of one file's text. sidecar is the
// content of its .meta.yaml, or nil; locs, for a PDF or Office document,
// say where each line stands: a new page, sheet, slide or Word heading
// starts a passage, and the first Word heading is the title.
func parseDocument(rel, text, enc string, sidecar []byte, locs []extract.Locator) *Document {
	d := &Document{Path: rel, Encoding: enc}
	lines := Lines(text)
	d.Lines = len(lines)
	body := 0 // first line of the body (0-based)
	if isMarkdown(rel) {
		fm, end := frontMatter(lines)
		body = end
		d.Title = fm.Title
		d.Summary = fm.Summary
		if t, at := markdownTitle(lines, end); t != "" {
			if d.Title == "" {
				d.Title = t
			}
			if at == end {
				body = at + 1
			}
		}
	}
	if d.Title == "" && len(locs) > 0 && locs[0].Heading != "" {
		d.Title = locs[0].Heading
	}
	if d.Title == "" {
		d.Title = path.Base(rel)
	}
	if sidecar != nil {
		var m struct {
			Summary string `yaml:"summary"`
			Title   string `yaml:"title"`
		}
		if yaml.Unmarshal(sidecar, &m) == nil {
			if s := strings.TrimSpace(m.Summary); s != "" {
				d.Summary = s
			}
			if t := strings.TrimSpace(m.Title); t != "" {
				d.Title = t
			}
		}
	}
	d.Lead = lead(lines[min(body, len(lines)):])
	d.Passages = cutPassages(lines, sectionStarts(locs, len(lines)))
	d.Editions = edition.Find(text)
	return d
}

// frontMatter reads a leading YAML block between "---" lines and returns
// it and the index of the first line after it.
func frontMatter(lines []string) (fm struct {
	Title   string `yaml:"title"`
	Summary string `yaml:"summary"`
}, end int) {
	if len(lines) == 0 || strings.TrimSpace(strings.TrimPrefix(lines[0], "\uFEFF")) != "---" {
		return fm, 0
	}
	for i := 1; i < len(lines) && i < 200; i++ {
		if t := strings.TrimSpace(lines[i]); t == "---" || t == "..." {
			_ = yaml.Unmarshal([]byte(strings.Join(lines[1:i], "\n")), &fm)
			fm.Title = strings.TrimSpace(fm.Title)
			fm.Summary = strings.TrimSpace(fm.Summary)
			return fm, i + 1
		}
	}
	return fm, 0
}

// markdownTitle returns the first ATX heading outside code fences and the
// index of its line, looking from line from.
func markdownTitle(lines []string, from int) (string, int) {
	fence := false
	for i := from; i < len(lines); i++ {
		t := strings.TrimSpace(lines[i])
		if strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
			fence = !fence
			continue
		}
		if fence || !strings.HasPrefix(t, "#") {
			continue
		}
		h := strings.TrimLeft(t, "#")
		if len(t)-len(h) > 6 || h != "" && h[0] != ' ' && h[0] != '\t' {
			continue
		}
		h = strings.TrimSpace(strings.TrimRight(strings.TrimSpace(h), "#"))
		if h != "" && !tocTitle[strings.ToLower(h)] {
			return h, i
		}
	}
	return "", -1
}

// tocTitle are the headings of a table of contents, which name no
// document.
var tocTitle = map[string]bool{"目次": true, "もくじ": true, "contents": true, "table of contents": true, "toc": true, "index": true}

// lead returns about leadChars characters of the first non-empty lines.
func lead(lines []string) string {
	var b strings.Builder
	n := 0
	for _, l := range lines {
		l = strings.TrimSpace(l)
		if l == "" {
			continue
		}
		for _, r := range l {
			if n >= leadChars {
				return b.String()
			}
			b.WriteRune(r)
			n++
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// isHeading reports whether a line starts a section: a Markdown heading,
// or a line underlined by the next one (setext, reStructuredText).
func isHeading(lines []string, i int) bool {
	t := strings.TrimSpace(lines[i])
	if t == "" {
		return false
	}
	if strings.HasPrefix(t, "#") && (len(t) == 1 || strings.TrimLeft(t, "#") != "" && (strings.TrimLeft(t, "#")[0] == ' ')) {
		return true
	}
	if i+1 < len(lines) {
		u := strings.TrimSpace(lines[i+1])
		if len(u) >= 3 && strings.Trim(u, "=-~^*#") == "" {
			return true
		}
	}
	return false
}

// cutPassages cuts lines into passages: blocks of non-blank lines are
// packed together up to the bounds; a heading starts a new passage once the
// current one has a few lines; a block longer than the bounds is split.
func cutPassages(lines []string, starts []bool) []Passage {
	return cutPassagesOf(lines, starts, structureOf(lines))
}

// cutPassagesOf is cutPassages with the lines' structure already read.
func cutPassagesOf(lines []string, starts []bool, st *structure) []Passage {
	heading := func(i int) bool { return isHeading(lines, i) || i < len(starts) && starts[i] }
	type block struct{ start, end, chars int } // 0-based, inclusive
	var blocks []block
	for i := 0; i < len(lines); {
		if strings.TrimSpace(lines[i]) == "" {
			i++
			continue
		}
		b := block{start: i, end: i}
		b.chars = utf8.RuneCountInString(lines[i])
		i++
		for i < len(lines) && strings.TrimSpace(lines[i]) != "" && !heading(i) && i-b.start < passageLines && b.chars < passageChars {
			b.chars += utf8.RuneCountInString(lines[i]) + 1
			b.end = i
			i++
		}
		// A block cut for its length is cut where a unit ends, not inside
		// a table row or a list item that runs over several lines.
		if i < len(lines) && b.end > b.start && strings.TrimSpace(lines[i]) != "" && !heading(i) {
			if k := st.of[i]; k >= 0 && st.of[b.end] == k && st.units[k].start > b.start {
				for j := b.end; j >= st.units[k].start; j-- {
					b.chars -= utf8.RuneCountInString(lines[j]) + 1
				}
				b.end = st.units[k].start - 1
				i = st.units[k].start
			}
		}
		blocks = append(blocks, b)
	}
	var out []Passage
	emit := func(s, e int) {
		out = append(out, Passage{Start: s + 1, End: e + 1, Text: strings.Join(lines[s:e+1], "\n")})
	}
	cur := -1 // index into blocks of the current passage's first block
	var curChars int
	for k, b := range blocks {
		if cur >= 0 {
			span := b.end - blocks[cur].start + 1
			newSection := heading(b.start) && (blocks[k-1].end-blocks[cur].start+1 >= passageMinLines || b.start < len(starts) && starts[b.start])
			if span > passageLines || curChars+b.chars > passageChars || newSection {
				emit(blocks[cur].start, blocks[k-1].end)
				cur = -1
			}
		}
		if cur < 0 {
			cur, curChars = k, 0
		}
		curChars += b.chars
	}
	if cur >= 0 {
		emit(blocks[cur].start, blocks[len(blocks)-1].end)
	}
	if len(out) == 0 {
		out = append(out, Passage{Start: 1, End: 1, Text: ""})
	}
	return out
}

// sectionStarts marks the lines of an extracted document where its place
// changes: a new page, sheet, slide or heading (nil for text files).
func sectionStarts(locs []extract.Locator, n int) []bool {
	if len(locs) != n {
		return nil
	}
	out := make([]bool, n)
	for i := 1; i < n; i++ {
		a, b := locs[i-1], locs[i]
		out[i] = a.Page != b.Page || a.Sheet != b.Sheet || a.Slide != b.Slide || a.Heading != b.Heading
	}
	return out
}

// readSidecar returns the sidecar of a file of root (as readInRoot
// reads it, up to 64 KB), or nil.
func readSidecar(root, abs string) []byte {
	b, _, err := readInRoot(root, abs+sidecarSuffix, 64<<10)
	if err != nil {
		return nil
	}
	return b
}
