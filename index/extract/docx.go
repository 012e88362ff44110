package extract

import (
	"archive/zip"
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// docx reads a Word document: a line per paragraph (a line break inside
// one starts another line), tabs as tabs, a table's row a line of its
// cells, tab-separated, a text box's paragraphs once, where the box
// stands (the text of its paragraph before it on a line of its own),
// automatic numbers as Word shows them (第1条, （１）, ①); each line is
// located under the heading it follows: a heading style's paragraph or
// an article in the body style, or, in a document that has no heading
// style, a paragraph that reads as a heading (第3章 総則, 第5条（休日）,
// 1.2 目的). Then the headers and footers, the footnotes, the endnotes and
// the comments, each line located by its part (ヘッダー, 脚注3, コメント1).
func docx(ctx context.Context, data []byte, opts Options) (*Text, error) {
	z, err := openZip(data, opts.MaxUnpacked, ".docx")
	if err != nil {
		return nil, err
	}
	doc, err := part(z, "word/document.xml", opts.MaxUnpacked)
	if err != nil {
		return nil, fmt.Errorf("%w: no word/document.xml (%v)", ErrBroken, err)
	}
	t := newText("docx", opts)
	w := &wordReader{ctx: ctx, t: t, z: z, max: opts.MaxUnpacked, footnotes: map[string]int{}}
	// The body's paragraphs go to the text as they are read; what
	// locates them under their headings is kept of the few that read
	// as headings.
	var marks []headingMark
	para := 0
	err = w.paragraphs(doc, "word/document.xml", true, func(p wordParagraph) error {
		para++
		if m, ok := markOf(p, para, len(t.Lines)); ok {
			marks = append(marks, m)
		}
		for _, l := range p.lines {
			t.add(l, Locator{})
		}
		return t.full()
	})
	if err != nil {
		return nil, err
	}
	// The body is the text's first lines, all at Locator{} so far.
	t.runs = headingRuns(marks, t.runs)
	rels := partRelationships(z, "word/_rels/document.xml.rels", opts.MaxUnpacked)
	seen := map[string]bool{}
	for _, kind := range []struct{ typ, label string }{{"/header", "ヘッダー"}, {"/footer", "フッター"}} {
		for _, r := range rels {
			if !strings.HasSuffix(r.typ, kind.typ) {
				continue
			}
			b, err := part(z, r.target("word"), opts.MaxUnpacked)
			if err != nil {
				continue
			}
			ps, err := w.collect(b, r.target("word"))
			if err != nil {
				return nil, err
			}
			// The first page's, the even pages' and the others' are
			// often the same text: it is read once.
			text := joinParagraphs(ps)
			if strings.TrimSpace(text) == "" || seen[kind.label+text] {
				continue
			}
			seen[kind.label+text] = true
			if err := w.addPart(ps, func(int) string { return kind.label }); err != nil {
				return nil, err
			}
		}
	}
	for _, n := range []struct{ part, elem, label string }{
		{"word/footnotes.xml", "footnote", "脚注"}, {"word/endnotes.xml", "endnote", "文末脚注"},
	} {
		if err := w.notes(n.part, n.elem, n.label); err != nil {
			return nil, err
		}
	}
	if b, err := part(z, "word/comments.xml", opts.MaxUnpacked); err == nil {
		ps, err := w.collect(b, "word/comments.xml")
		if err != nil {
			return nil, err
		}
		if err := w.addPart(ps, func(i int) string { return "コメント" + strconv.Itoa(i) }); err != nil {
			return nil, err
		}
	}
	return t, nil
}

// wordParagraph is one paragraph of a Word part, or one row of a table:
// its lines, whether its style (or outline level) makes it a heading,
// whether it stands in a table or a table of contents (never a heading),
// and the note or comment it belongs to (its id, "" in the body).
type wordParagraph struct {
	lines   []string
	styled  bool
	inTable bool
	toc     bool
	note    string
}

type wordReader struct {
	ctx       context.Context
	t         *Text
	z         *zip.Reader
	max       int64
	styles    *wordStyles    // styles.xml, read when needed
	numbers   *numbering     // numbering.xml, read when a paragraph is numbered
	numRead   bool           // numbering.xml was looked for
	footnotes map[string]int // footnote id → number, in the order the body refers to them
	endnotes  map[string]int
}

// wordStyles is what styles.xml says of the paragraph styles: the
// headings', the tables of contents', and the lists they number.
type wordStyles struct {
	heading map[string]bool
	toc     map[string]bool
	numID   map[string]string
	ilvl    map[string]int
	basedOn map[string]string
}

// style reads styles.xml once.
func (w *wordReader) style() *wordStyles {
	if w.styles == nil {
		w.styles = &wordStyles{}
		if b, err := part(w.z, "word/styles.xml", w.max); err == nil {
			w.styles = readStyles(b)
		}
	}
	return w.styles
}

// isHeadingStyle reports whether a paragraph style id is a heading's.
// styles.xml is read only for an id that does not say itself what it is
// (Word's 見出し 1 may be id "1"); it is most of a small document's bytes.
func (w *wordReader) isHeadingStyle(id string) bool {
	if id == "" {
		return false
	}
	if l := strings.ToLower(id); strings.HasPrefix(l, "heading") || l == "title" {
		return true
	}
	if l := strings.ToLower(id); strings.HasPrefix(l, "toc") {
		return false
	}
	return w.style().heading[id]
}

// isTOCStyle reports whether a paragraph style is a table of contents'
// (toc 1…, 目次 1…).
func (w *wordReader) isTOCStyle(id string) bool {
	if id == "" {
		return false
	}
	if l := strings.ToLower(id); strings.HasPrefix(l, "toc") || strings.HasPrefix(l, "目次") {
		return true
	}
	return w.style().toc[id]
}

// styleList is the list a paragraph style numbers (its numPr, or its
// base style's), "" when it numbers none; ilvl is -1 when it does not say
// the level.
func (w *wordReader) styleList(id string) (string, int) {
	st := w.style()
	for range 16 { // basedOn may loop
		if id == "" {
			return "", -1
		}
		if n, ok := st.numID[id]; ok {
			l, ok := st.ilvl[id]
			if !ok {
				l = -1
			}
			return n, l
		}
		id = st.basedOn[id]
	}
	return "", -1
}

// number counts a paragraph in its list and is its number as Word shows
// it ("" when it is not numbered): its own numPr (numId, ilvl), else its
// style's.
func (w *wordReader) number(f *paragraphFrame) (string, error) {
	if f.numID == "" && f.style == "" {
		return "", nil
	}
	if !w.numRead {
		w.numRead = true
		if b, err := part(w.z, "word/numbering.xml", w.max); err == nil {
			n, err := readNumbering(b)
			if err != nil {
				return "", err
			}
			n.styleList = w.styleList
			w.numbers = n
		}
	}
	if w.numbers == nil {
		return "", nil
	}
	numID, ilvl := f.numID, f.ilvl
	if numID == "" {
		numID, ilvl = w.styleList(f.style)
		if f.ilvl >= 0 {
			ilvl = f.ilvl
		}
	}
	if numID == "" {
		return "", nil
	}
	if ilvl < 0 {
		if _, sl := w.styleList(f.style); sl >= 0 {
			ilvl = sl
		} else if l := w.numbers.styleLevel(numID, f.style); l >= 0 {
			ilvl = l
		} else {
			ilvl = 0
		}
	}
	return w.numbers.next(numID, ilvl), nil
}

// paragraphFrame is a paragraph being read; a text box's paragraphs are
// read on frames above the paragraph the box stands in.
type paragraphFrame struct {
	cur     strings.Builder
	lines   []string
	style   string
	outline bool
	note    string
	split   bool // a text box's lines came before the rest
	inTable bool
	toc     bool
	numID   string
	ilvl    int    // -1: not given
	num     string // its number, until it starts the paragraph's first line of text
}

// tableFrame is a table being read: its row so far (cells and the tabs
// between them) and the cell's text so far.
type tableFrame struct {
	row    strings.Builder
	cells  int
	cell   strings.Builder
	span   int
	inCell bool
}

// addToCell adds a paragraph's text (or a nested row's) to the cell.
func (tb *tableFrame) addToCell(s string) {
	s = strings.TrimSpace(strings.ReplaceAll(s, "\t", " "))
	if s == "" {
		return
	}
	if tb.cell.Len() > 0 {
		tb.cell.WriteByte(' ')
	}
	tb.cell.WriteString(s)
}

// field is a field (fldChar begin … end) being read: its instruction.
type field struct {
	instr strings.Builder
	toc   bool
}

// paragraphs reads the paragraphs of a Word part (the body, a header, the
// footnotes): a stack of paragraphs, so that a text box's paragraphs do
// not end the one it stands in, and one rendering of each
// mc:AlternateContent (its first Choice; a Fallback only without one).
// A table's row is one line of its cells, tab-separated (a cell's
// paragraphs joined by spaces, a merged cell as empty fields after it; a
// nested table's rows in the cell it stands in). Numbered paragraphs
// start with their numbers; hidden text (w:vanish), text moved away
// (w:moveFrom) and the formatting a revision replaced are left out; the
// lines of a table of contents (its field, its styles, its content
// control) are marked as such.
//
// Each paragraph (and row) goes to sink, in order; adds says that sink
// adds it to the text, where its characters are counted from then on.
func (w *wordReader) paragraphs(b []byte, name string, adds bool, sink func(wordParagraph) error) error {
	dec := newDecoder(b, name)
	var (
		stack   []*paragraphFrame
		tables  []*tableFrame
		fields  []*field
		sdts    []bool   // per open content control: a table of contents
		path    []string // the open elements' local names
		alt     []bool   // per open mc:AlternateContent: a rendering was read
		hidden  []bool   // per open run: its text is hidden
		inText  bool
		note    string // the note or comment being read
		pending int64  // characters read and not yet added to the text
		lines   int64  // lines read and not yet added
		n       int
	)
	inTOC := func() bool {
		for _, f := range fields {
			if f.toc {
				return true
			}
		}
		return slices.Contains(sdts, true)
	}
	parent := func(k int) string { // the k-th open element above the one just opened
		if len(path) > k {
			return path[len(path)-1-k]
		}
		return ""
	}
	room := func() error { return w.t.room(pending, lines) }
	send := func(p wordParagraph) error {
		lines += int64(len(p.lines))
		if err := room(); err != nil {
			return err
		}
		if err := sink(p); err != nil {
			return err
		}
		if adds {
			pending, lines = 0, 0
		}
		return nil
	}
	hiddenRun := func() bool { return len(hidden) > 0 && hidden[len(hidden)-1] }
	emit := func(f *paragraphFrame, last bool) error {
		ls := append(f.lines, f.cur.String())
		f.cur.Reset()
		f.lines = nil
		blank := strings.TrimSpace(strings.Join(ls, "")) == ""
		if blank && (!last || f.split) {
			return nil
		}
		f.split = f.split || !last
		if f.num != "" {
			// The number starts the first line of text (after a page
			// break, or a text box anchored before it), or, in an
			// empty paragraph, is its text.
			i := slices.IndexFunc(ls, func(l string) bool { return strings.TrimSpace(l) != "" })
			if i < 0 {
				i = len(ls) - 1
			}
			ls[i] = f.num + ls[i]
			f.num = ""
		}
		if len(tables) > 0 && tables[len(tables)-1].inCell {
			tables[len(tables)-1].addToCell(strings.Join(ls, " "))
			return nil
		}
		p := wordParagraph{lines: ls, note: f.note, inTable: f.inTable, toc: f.toc || inTOC() || w.isTOCStyle(f.style)}
		if text := strings.TrimSpace(strings.Join(ls, " ")); text != "" && !p.toc {
			p.styled = f.outline || w.isHeadingStyle(f.style)
		}
		return send(p)
	}
	for {
		if n++; n%4096 == 0 && w.ctx.Err() != nil {
			return w.ctx.Err()
		}
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return broken(name, err)
		}
		var top *paragraphFrame
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		switch e := tok.(type) {
		case xml.StartElement:
			path = append(path, e.Name.Local)
			switch e.Name.Local {
			case "AlternateContent":
				alt = append(alt, false)
			case "Choice", "Fallback":
				if len(alt) == 0 {
					break
				}
				if alt[len(alt)-1] {
					if err := dec.Skip(); err != nil {
						return broken(name, err)
					}
					path = path[:len(path)-1]
					break
				}
				alt[len(alt)-1] = true
			case "pPrChange", "rPrChange", "numberingChange", "moveFrom", "tblPrChange", "trPrChange", "tcPrChange":
				// What a revision replaced, and text moved away (it
				// is read where it went).
				if err := dec.Skip(); err != nil {
					return broken(name, err)
				}
				path = path[:len(path)-1]
			case "footnote", "endnote", "comment":
				note = attr(e, "id")
			case "p":
				if top != nil {
					// A text box in the paragraph: its text so far is
					// a line before the box's.
					if err := emit(top, false); err != nil {
						return err
					}
				}
				stack = append(stack, &paragraphFrame{note: note, inTable: len(tables) > 0, ilvl: -1})
			case "tbl":
				tables = append(tables, &tableFrame{})
			case "tr":
				if len(tables) > 0 {
					tb := tables[len(tables)-1]
					tb.row.Reset()
					tb.cells = 0
				}
			case "tc":
				if len(tables) > 0 {
					tb := tables[len(tables)-1]
					tb.inCell, tb.span = true, 1
					tb.cell.Reset()
				}
			case "gridSpan":
				if s, err := strconv.Atoi(attr(e, "val")); err == nil && s > 1 && s <= 64 && len(tables) > 0 {
					tables[len(tables)-1].span = s
				}
			case "r":
				hidden = append(hidden, false)
			case "vanish":
				if parent(1) == "rPr" && parent(2) == "r" && len(hidden) > 0 {
					v := attr(e, "val")
					hidden[len(hidden)-1] = v != "0" && v != "false" && v != "off"
				}
			case "t":
				inText = true
			case "tab", "ptab":
				if top != nil && parent(1) == "r" && !hiddenRun() {
					top.cur.WriteByte('\t')
					pending++
				}
			case "br", "cr":
				if top != nil && parent(1) == "r" && !hiddenRun() {
					top.lines = append(top.lines, top.cur.String())
					top.cur.Reset()
					lines++
					if err := room(); err != nil {
						return err
					}
				}
			case "pStyle":
				if top != nil && parent(1) == "pPr" {
					top.style = attr(e, "val")
				}
			case "numId":
				if top != nil && parent(1) == "numPr" && parent(2) == "pPr" {
					top.numID = attr(e, "val")
				}
			case "ilvl":
				if l, err := strconv.Atoi(attr(e, "val")); err == nil && l >= 0 && l < 9 && top != nil && parent(1) == "numPr" && parent(2) == "pPr" {
					top.ilvl = l
				}
			case "outlineLvl":
				if l, err := strconv.Atoi(attr(e, "val")); err == nil && l >= 0 && l < 9 && top != nil {
					top.outline = true
				}
			case "fldChar":
				switch attr(e, "fldCharType") {
				case "begin":
					fields = append(fields, &field{})
				case "separate":
					if len(fields) > 0 {
						f := fields[len(fields)-1]
						f.toc = strings.HasPrefix(strings.ToUpper(strings.TrimSpace(f.instr.String())), "TOC")
					}
				case "end":
					if len(fields) > 0 {
						if fields[len(fields)-1].toc && top != nil {
							top.toc = true
						}
						fields = fields[:len(fields)-1]
					}
				}
			case "sdt":
				sdts = append(sdts, false)
			case "docPartGallery":
				if len(sdts) > 0 && strings.EqualFold(attr(e, "val"), "Table of Contents") {
					sdts[len(sdts)-1] = true
				}
			case "footnoteReference", "endnoteReference":
				m := w.footnotes
				if e.Name.Local == "endnoteReference" {
					if w.endnotes == nil {
						w.endnotes = map[string]int{}
					}
					m = w.endnotes
				}
				if id := attr(e, "id"); id != "" && m[id] == 0 {
					m[id] = len(m) + 1
				}
			}
		case xml.EndElement:
			if len(path) > 0 {
				path = path[:len(path)-1]
			}
			switch e.Name.Local {
			case "AlternateContent":
				if len(alt) > 0 {
					alt = alt[:len(alt)-1]
				}
			case "pPr":
				if top != nil && parent(0) == "p" {
					num, err := w.number(top)
					if err != nil {
						return err
					}
					top.num = num
					pending += int64(utf8.RuneCountInString(num))
				}
			case "tc":
				if len(tables) > 0 {
					tb := tables[len(tables)-1]
					if tb.cells > 0 {
						tb.row.WriteByte('\t')
					}
					tb.row.WriteString(tb.cell.String())
					for range tb.span - 1 {
						tb.row.WriteByte('\t')
					}
					tb.cells += tb.span
					tb.inCell = false
					tb.cell.Reset()
					pending += int64(tb.span)
					if err := room(); err != nil {
						return err
					}
				}
			case "tr":
				if len(tables) == 0 {
					break
				}
				tb := tables[len(tables)-1]
				row := tb.row.String()
				tb.row.Reset()
				tb.cells = 0
				if strings.TrimSpace(row) == "" {
					break
				}
				if len(tables) > 1 && tables[len(tables)-2].inCell {
					tables[len(tables)-2].addToCell(row)
					break
				}
				if err := send(wordParagraph{lines: []string{row}, note: note, inTable: true, toc: inTOC()}); err != nil {
					return err
				}
			case "tbl":
				if len(tables) > 0 {
					tables = tables[:len(tables)-1]
				}
			case "r":
				if len(hidden) > 0 {
					hidden = hidden[:len(hidden)-1]
				}
			case "t":
				inText = false
			case "p":
				if top != nil {
					if err := emit(top, true); err != nil {
						return err
					}
					stack = stack[:len(stack)-1]
				}
			case "sdt":
				if len(sdts) > 0 {
					sdts = sdts[:len(sdts)-1]
				}
			case "footnote", "endnote", "comment":
				note = ""
			}
		case xml.CharData:
			switch {
			case parent(0) == "instrText" && len(fields) > 0:
				fields[len(fields)-1].instr.Write(e)
			case inText && top != nil && !hiddenRun():
				top.cur.Write(e)
				if inTOC() {
					top.toc = true
				}
				pending += int64(utf8.RuneCount(e))
				if err := room(); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// collect is the paragraphs of a part besides the body, in order.
func (w *wordReader) collect(b []byte, name string) ([]wordParagraph, error) {
	var out []wordParagraph
	err := w.paragraphs(b, name, false, func(p wordParagraph) error {
		out = append(out, p)
		return nil
	})
	return out, err
}

// addPart adds the paragraphs of a part besides the body, each line
// located by label(the paragraph's number among the part's notes, from
// 1).
func (w *wordReader) addPart(ps []wordParagraph, label func(int) string) error {
	n, prev := 0, "\x00"
	for _, p := range ps {
		if p.note != prev {
			n++
			prev = p.note
		}
		for _, l := range p.lines {
			if strings.TrimSpace(l) != "" {
				w.t.add(l, Locator{Part: label(n)})
			}
		}
	}
	if err := w.t.full(); err != nil {
		return err
	}
	return nil
}

// notes adds the footnotes (or endnotes) of a part, numbered as the body
// refers to them (the separators Word keeps there are not notes).
func (w *wordReader) notes(name, elem, label string) error {
	b, err := part(w.z, name, w.max)
	if err != nil {
		return nil
	}
	// The separators: notes with a w:type.
	skip := map[string]bool{}
	dec := newDecoder(b, name)
	for {
		tok, err := dec.Token()
		if errors.Is(err, ErrTooComplex) {
			return err
		}
		if err != nil {
			break
		}
		if e, ok := tok.(xml.StartElement); ok && e.Name.Local == elem {
			if typ := attr(e, "type"); typ != "" && typ != "normal" {
				skip[attr(e, "id")] = true
			}
		}
	}
	ps, err := w.collect(b, name)
	if err != nil {
		return err
	}
	numbers := w.footnotes
	if elem == "endnote" {
		numbers = w.endnotes
	}
	next := len(numbers) + 1
	number := map[string]int{}
	for _, p := range ps {
		if skip[p.note] || number[p.note] > 0 {
			continue
		}
		if n := numbers[p.note]; n > 0 {
			number[p.note] = n
		} else {
			number[p.note] = next
			next++
		}
	}
	var kept []wordParagraph
	for _, p := range ps {
		if !skip[p.note] {
			kept = append(kept, p)
		}
	}
	// In the order of their numbers.
	slices.SortStableFunc(kept, func(a, b wordParagraph) int { return number[a.note] - number[b.note] })
	for _, p := range kept {
		for _, l := range p.lines {
			if strings.TrimSpace(l) != "" {
				w.t.add(l, Locator{Part: label + strconv.Itoa(number[p.note])})
			}
		}
	}
	if err := w.t.full(); err != nil {
		return err
	}
	return nil
}

// headingMark is what locates the body's lines under their headings, of
// a paragraph that is or may be a heading: its number in the body, its
// first line in the text, and what it reads as.
type headingMark struct {
	para, line int
	styled     bool   // a heading style's (or outline level's) paragraph
	text       string // a styled heading's text
	head       string // the heading its text reads as (textHeading)
	article    bool   // its text starts as an article does (第N条, 第N章)
	caption    string // its text, when it is a caption alone: （目的）
}

// markOf is the mark of a body paragraph (number para, first line line);
// ok is false for one that cannot be a heading: a table's row, a line of
// a table of contents, a paragraph that does not read as a heading.
func markOf(p wordParagraph, para, line int) (headingMark, bool) {
	if p.inTable || p.toc {
		return headingMark{}, false
	}
	text := strings.TrimSpace(strings.Join(p.lines, " "))
	m := headingMark{para: para, line: line, styled: p.styled}
	if p.styled {
		m.text = text
		return m, true
	}
	m.head = textHeading(text)
	m.article = m.head != "" && articleHeading.MatchString(text)
	if c := caption.FindString(text); c == text && c != "" {
		m.caption = text
	}
	return m, m.head != "" || m.caption != ""
}

// headingRuns is where the body's lines stand (runs: the body's, each
// line at Locator{}), under their headings, from the marks of its
// paragraphs: the styled headings', and in a styled document the
// articles typed in the body style (第1条（労働時間）); in a document
// without heading styles, the paragraphs that read as headings. A
// caption on a line of its own before an article (（目的）, then 第1条 こ
// の規則は…) is the article's: 第1条（目的）, for both lines.
func headingRuns(marks []headingMark, runs []locRun) []locRun {
	if len(runs) == 0 {
		return runs
	}
	styled := slices.ContainsFunc(marks, func(m headingMark) bool { return m.styled })
	out := []locRun{{start: runs[0].start}}
	set := func(line int, heading string) {
		if last := &out[len(out)-1]; last.start >= line {
			last.at.Heading = heading
			return
		}
		out = append(out, locRun{start: line, at: Locator{Heading: heading}})
	}
	for i := 0; i < len(marks); i++ {
		m := marks[i]
		switch {
		case styled && m.styled:
			set(m.line, m.text)
		case styled:
			if m.article {
				set(m.line, m.head)
			}
		case m.caption != "" && i+1 < len(marks) && marks[i+1].para == m.para+1 &&
			(strings.HasSuffix(marks[i+1].head, "条") || strings.Contains(marks[i+1].head, "条の")):
			set(m.line, marks[i+1].head+strings.TrimSpace(m.caption))
			i++
		case m.head != "":
			set(m.line, m.head)
		}
	}
	return out
}

var (
	// 第3章 総則, 第2節, 第5条（休日）…: the heading is the number and
	// the caption in brackets that follows it (an article's text may
	// follow on the same line).
	articleHeading = regexp.MustCompile(`^第[0-9０-９一二三四五六七八九十百千〇]+[編章節款条](の[0-9０-９一二三四五六七八九十]+)?`)
	caption        = regexp.MustCompile(`^[ 　]*[（(][^（()）]{1,30}[)）]`)
	// 1. 目的, 1.2 適用範囲, ２　総則, １．総則: a number and a short title
	// (of two characters or more).
	numberedHeading = regexp.MustCompile(`^[0-9０-９]{1,2}(([.．][0-9０-９]{1,2})*[.．][ 　]*|([.．][0-9０-９]{1,2})*[ 　]+)[^ 　.．0-9０-９]{2}`)
	// 第1章　総則\t1, 総則……3, 第2条 定義 ・・・・ 5: a line of a table of
	// contents typed as text (a tab or a dot leader, then a page number).
	tocLine = regexp.MustCompile(`(\t|[.．・…‥･]{2,}|…)[ 　\t]*([0-9０-９]{1,4}|[ivxlcIVXLC]{1,6})$`)
)

// textHeading is the heading a paragraph's text reads as, "" when it
// does not read as one: 第N章 and the like with their title, 第N条 with
// its caption in brackets, and short numbered titles (1.2 目的) that end
// without a full stop.
func textHeading(text string) string {
	if tocLine.MatchString(text) {
		return ""
	}
	n := utf8.RuneCountInString(text)
	if loc := articleHeading.FindStringIndex(text); loc != nil {
		head, rest := text[:loc[1]], text[loc[1]:]
		kind, _ := utf8.DecodeLastRuneInString(strings.TrimRight(head, "0123456789０１２３４５６７８９一二三四五六七八九十の"))
		if c := caption.FindString(rest); c != "" {
			return head + strings.TrimSpace(c)
		}
		switch {
		case rest != "" && !strings.HasPrefix(rest, " ") && !strings.HasPrefix(rest, "　"):
			// 第5条の規定により…: a sentence that names an article.
			return ""
		case kind == '条':
			return head
		case n <= 40 && !strings.HasSuffix(text, "。"):
			return text
		}
		return head
	}
	if n <= 30 && numberedHeading.MatchString(text) && !strings.ContainsAny(text, "。、") {
		return text
	}
	return ""
}

// joinParagraphs is the text of paragraphs, lines joined by newlines.
func joinParagraphs(ps []wordParagraph) string {
	var b strings.Builder
	for _, p := range ps {
		for _, l := range p.lines {
			b.WriteString(l)
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// readStyles reads styles.xml: the ids of the paragraph styles named as
// headings (heading 1…, 見出し 1…, Title) and as a table of contents'
// (toc 1…, 目次 1…), and the list each style numbers and its base.
func readStyles(styles []byte) *wordStyles {
	out := &wordStyles{heading: map[string]bool{}, toc: map[string]bool{}, numID: map[string]string{}, ilvl: map[string]int{}, basedOn: map[string]string{}}
	dec := newDecoder(styles, "word/styles.xml")
	id := ""
	var path []string
	for {
		tok, err := dec.Token()
		if err != nil {
			return out
		}
		switch e := tok.(type) {
		case xml.StartElement:
			path = append(path, e.Name.Local)
			val := attr(e, "val")
			in := func(names ...string) bool { // the open elements end with names
				return len(path) > len(names) && slices.Equal(path[len(path)-1-len(names):len(path)-1], names)
			}
			switch e.Name.Local {
			case "style":
				id = attr(e, "styleId")
			case "name":
				name := strings.ToLower(val)
				switch {
				case id == "":
				case strings.HasPrefix(name, "heading") || strings.HasPrefix(name, "見出し") || name == "title" || name == "表題":
					out.heading[id] = true
				case strings.HasPrefix(name, "toc ") || strings.HasPrefix(name, "目次 "):
					out.toc[id] = true
				}
			case "basedOn":
				if id != "" && in("style") {
					out.basedOn[id] = val
				}
			case "numId":
				if id != "" && in("style", "pPr", "numPr") {
					out.numID[id] = val
				}
			case "ilvl":
				if l, err := strconv.Atoi(val); err == nil && id != "" && l >= 0 && l < 9 && in("style", "pPr", "numPr") {
					out.ilvl[id] = l
				}
			}
		case xml.EndElement:
			if len(path) > 0 {
				path = path[:len(path)-1]
			}
			if e.Name.Local == "style" {
				id = ""
			}
		}
	}
}

// relationship is one relationship of an Office part.
type relationship struct{ id, typ, to string }

// target is the part a relationship points to, from the folder of the
// part it belongs to (dir: "word", "xl/worksheets").
func (r relationship) target(dir string) string {
	if strings.HasPrefix(r.to, "/") {
		return path.Clean(strings.TrimPrefix(r.to, "/"))
	}
	return path.Clean(path.Join(dir, r.to))
}

// partRelationships reads a relationships part (nil when there is none),
// in its order; external targets (links) are left out.
func partRelationships(z *zip.Reader, name string, max int64) []relationship {
	b, err := part(z, name, max)
	if err != nil {
		return nil
	}
	var out []relationship
	dec := newDecoder(b, name)
	for {
		tok, err := dec.Token()
		if err != nil {
			return out
		}
		if e, ok := tok.(xml.StartElement); ok && e.Name.Local == "Relationship" && attr(e, "TargetMode") != "External" {
			out = append(out, relationship{id: attr(e, "Id"), typ: attr(e, "Type"), to: attr(e, "Target")})
		}
	}
}

// relsOf is the relationships part of a part: xl/worksheets/sheet1.xml →
// xl/worksheets/_rels/sheet1.xml.rels.
func relsOf(name string) string {
	return path.Join(path.Dir(name), "_rels", path.Base(name)+".rels")
}

// attr is an attribute's value by its local name.
func attr(e xml.StartElement, local string) string {
	for _, a := range e.Attr {
		if a.Name.Local == local {
			return a.Value
		}
	}
	return ""
}
