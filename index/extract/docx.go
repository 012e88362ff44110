package extract

import (
	"archive/zip"
	"bytes"
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
// one starts another line), tabs as tabs, table cells paragraph by
// paragraph, a text box's paragraphs once, where the box stands (the
// text of its paragraph before it on a line of its own); each line is
// located under the heading it follows: a heading style's paragraph, or,
// in a document that has none, a paragraph that reads as a heading
// (第3章 総則, 第5条（休日）, 1.2 目的). Then the headers and footers, the
// footnotes, the endnotes and the comments, each line located by its
// part (ヘッダー, 脚注3, コメント1).
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
	body, err := w.paragraphs(doc, "word/document.xml")
	if err != nil {
		return nil, err
	}
	w.locateHeadings(body)
	for _, p := range body {
		for _, l := range p.lines {
			t.add(l, Locator{Heading: p.heading})
		}
	}
	if t.over() {
		return nil, ErrTooMuchText
	}
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
			ps, err := w.paragraphs(b, r.target("word"))
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
		ps, err := w.paragraphs(b, "word/comments.xml")
		if err != nil {
			return nil, err
		}
		if err := w.addPart(ps, func(i int) string { return "コメント" + strconv.Itoa(i) }); err != nil {
			return nil, err
		}
	}
	return t, nil
}

// wordParagraph is one paragraph of a Word part: its lines, whether its
// style (or outline level) makes it a heading, the heading it is under,
// and the note or comment it belongs to (its id, "" in the body).
type wordParagraph struct {
	lines   []string
	styled  bool
	inTable bool
	heading string
	note    string
}

type wordReader struct {
	ctx       context.Context
	t         *Text
	z         *zip.Reader
	max       int64
	headings  map[string]bool // heading styles by id (styles.xml), read when needed
	footnotes map[string]int  // footnote id → number, in the order the body refers to them
	endnotes  map[string]int
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
	if w.headings == nil {
		w.headings = map[string]bool{}
		if styles, err := part(w.z, "word/styles.xml", w.max); err == nil {
			w.headings = headingStyles(styles)
		}
	}
	return w.headings[id]
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
}

// paragraphs reads the paragraphs of a Word part (the body, a header, the
// footnotes): a stack of paragraphs, so that a text box's paragraphs do
// not end the one it stands in, and one rendering of each
// mc:AlternateContent (its first Choice; a Fallback only without one).
func (w *wordReader) paragraphs(b []byte, name string) ([]wordParagraph, error) {
	dec := xml.NewDecoder(bytes.NewReader(b))
	var (
		out     []wordParagraph
		stack   []*paragraphFrame
		alt     []bool // per open mc:AlternateContent: a rendering was read
		inText  bool
		run     int
		tables  int
		note    string // the note or comment being read
		pending int64  // characters read and not yet added to the text
		n       int
	)
	emit := func(f *paragraphFrame, last bool) {
		lines := append(f.lines, f.cur.String())
		f.cur.Reset()
		f.lines = nil
		blank := strings.TrimSpace(strings.Join(lines, "")) == ""
		if blank && (!last || f.split) {
			return
		}
		f.split = f.split || !last
		p := wordParagraph{lines: lines, note: f.note, inTable: f.inTable}
		if text := strings.TrimSpace(strings.Join(lines, " ")); text != "" {
			p.styled = f.outline || w.isHeadingStyle(f.style)
		}
		out = append(out, p)
	}
	for {
		if n++; n%4096 == 0 && w.ctx.Err() != nil {
			return nil, w.ctx.Err()
		}
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%w: %s: %v", ErrBroken, name, err)
		}
		var top *paragraphFrame
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		switch e := tok.(type) {
		case xml.StartElement:
			switch e.Name.Local {
			case "AlternateContent":
				alt = append(alt, false)
			case "Choice", "Fallback":
				if len(alt) == 0 {
					break
				}
				if alt[len(alt)-1] {
					if err := dec.Skip(); err != nil {
						return nil, fmt.Errorf("%w: %s: %v", ErrBroken, name, err)
					}
					break
				}
				alt[len(alt)-1] = true
			case "footnote", "endnote", "comment":
				note = attr(e, "id")
			case "p":
				if top != nil {
					// A text box in the paragraph: its text so far is
					// a line before the box's.
					emit(top, false)
				}
				stack = append(stack, &paragraphFrame{note: note, inTable: tables > 0})
			case "tbl":
				tables++
			case "r":
				run++
			case "t":
				inText = true
			case "tab", "ptab":
				if top != nil && run > 0 {
					top.cur.WriteByte('\t')
					pending++
				}
			case "br", "cr":
				if top != nil {
					top.lines = append(top.lines, top.cur.String())
					top.cur.Reset()
				}
			case "pStyle":
				if top != nil {
					top.style = attr(e, "val")
				}
			case "outlineLvl":
				if l, err := strconv.Atoi(attr(e, "val")); err == nil && l >= 0 && l < 9 && top != nil {
					top.outline = true
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
			switch e.Name.Local {
			case "AlternateContent":
				if len(alt) > 0 {
					alt = alt[:len(alt)-1]
				}
			case "tbl":
				tables--
			case "r":
				run--
			case "t":
				inText = false
			case "p":
				if top != nil {
					emit(top, true)
					stack = stack[:len(stack)-1]
				}
			case "footnote", "endnote", "comment":
				note = ""
			}
		case xml.CharData:
			if inText && top != nil {
				top.cur.Write(e)
				if pending += int64(utf8.RuneCount(e)); !w.t.room(pending) {
					return nil, ErrTooMuchText
				}
			}
		}
	}
	return out, nil
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
	if w.t.over() {
		return ErrTooMuchText
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
	dec := xml.NewDecoder(bytes.NewReader(b))
	for {
		tok, err := dec.Token()
		if err != nil {
			break
		}
		if e, ok := tok.(xml.StartElement); ok && e.Name.Local == elem {
			if typ := attr(e, "type"); typ != "" && typ != "normal" {
				skip[attr(e, "id")] = true
			}
		}
	}
	ps, err := w.paragraphs(b, name)
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
	if w.t.over() {
		return ErrTooMuchText
	}
	return nil
}

// locateHeadings sets the heading each body paragraph is under: the
// styled headings', or, when the body has none, the paragraphs that read
// as headings. A caption on a line of its own before an article
// (（目的）, then 第1条 この規則は…) is the article's: 第1条（目的）, for
// both lines.
func (w *wordReader) locateHeadings(ps []wordParagraph) {
	styled := slices.ContainsFunc(ps, func(p wordParagraph) bool { return p.styled })
	text := func(i int) string { return strings.TrimSpace(strings.Join(ps[i].lines, " ")) }
	heading := ""
	for i := range ps {
		switch {
		case styled && ps[i].styled:
			heading = text(i)
		case !styled && !ps[i].inTable:
			// A table's cell (1 式, 第2条 欄) is no heading.
			if c := text(i); caption.FindString(c) == c && c != "" && i+1 < len(ps) && !ps[i+1].inTable {
				if h := textHeading(text(i + 1)); strings.HasSuffix(h, "条") || strings.Contains(h, "条の") {
					heading = h + strings.TrimSpace(c)
					ps[i].heading, ps[i+1].heading = heading, heading
					continue
				}
			}
			if ps[i].heading != "" {
				heading = ps[i].heading // set with its caption
			} else if h := textHeading(text(i)); h != "" {
				heading = h
			}
		}
		ps[i].heading = heading
	}
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
)

// textHeading is the heading a paragraph's text reads as, "" when it
// does not read as one: 第N章 and the like with their title, 第N条 with
// its caption in brackets, and short numbered titles (1.2 目的) that end
// without a full stop.
func textHeading(text string) string {
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

// headingStyles reads styles.xml: the ids of the styles named as
// headings (heading 1…, 見出し 1…, Title).
func headingStyles(styles []byte) map[string]bool {
	out := map[string]bool{}
	dec := xml.NewDecoder(bytes.NewReader(styles))
	id := ""
	for {
		tok, err := dec.Token()
		if err != nil {
			return out
		}
		if e, ok := tok.(xml.StartElement); ok {
			switch e.Name.Local {
			case "style":
				id = attr(e, "styleId")
			case "name":
				name := strings.ToLower(attr(e, "val"))
				if id != "" && (strings.HasPrefix(name, "heading") || strings.HasPrefix(name, "見出し") || name == "title" || name == "表題") {
					out[id] = true
				}
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
	dec := xml.NewDecoder(bytes.NewReader(b))
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
