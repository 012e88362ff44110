package extract

import (
	"archive/zip"
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"math"
	"path"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// xlsx reads an Excel workbook: every sheet in the workbook's order (a
// hidden one too, located as hidden), a line per row that holds anything,
// its cells from the sheet's first used column to the row's last value,
// tab-separated, an empty cell as an empty field (so that a row's fields
// line up with its header row's), each value as its number format shows
// it (¥60,000, 12.5%, 2026/4/1, 令和8年4月1日), a formula without a kept
// value as its formula (=SUM(B2:B9)); located by sheet and row. Then
// the sheet's shapes and text boxes (図形), charts (グラフ) and comments
// and notes (B3のコメント). Phonetic guides (furigana) of Japanese cells are
// left out.
func xlsx(ctx context.Context, data []byte, opts Options) (*Text, error) {
	z, err := openZip(data, opts.MaxUnpacked, ".xlsx")
	if err != nil {
		return nil, err
	}
	sheets, date1904, err := workbookSheets(z, opts.MaxUnpacked)
	if err != nil {
		return nil, err
	}
	var shared sharedTable
	if b, err := part(z, "xl/sharedStrings.xml", opts.MaxUnpacked); err == nil {
		if shared, err = sharedStrings(b); err != nil {
			return nil, broken("xl/sharedStrings.xml", err)
		}
	}
	var formats []string
	if b, err := part(z, "xl/styles.xml", opts.MaxUnpacked); err == nil {
		formats = cellFormats(b)
	}
	t := newText("xlsx", opts)
	cells := cellReader{shared: shared, formats: formats, date1904: date1904}
	for _, sh := range sheets {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		b, err := part(z, sh.part, opts.MaxUnpacked)
		if err != nil {
			return nil, fmt.Errorf("%w: sheet %s (%s): %v", ErrBroken, sh.name, sh.part, err)
		}
		rows, err := cells.rows(ctx, b, sh.part, t.room)
		if err != nil {
			return nil, broken("sheet "+sh.name, err)
		}
		first := 0
		for _, r := range rows {
			if first == 0 || r.first < first {
				first = r.first
			}
		}
		for _, r := range rows {
			line := r.line
			if r.first > first {
				line = strings.Repeat("\t", r.first-first) + line
			}
			t.add(line, Locator{Sheet: sh.name, Row: r.n, Hidden: sh.hidden})
			if err := t.full(); err != nil {
				return nil, err
			}
		}
		if err := sheetParts(z, sh, t, opts.MaxUnpacked); err != nil {
			return nil, err
		}
	}
	return t, nil
}

// rowLine is a row's cells from column first on, tab-separated, an empty
// cell an empty field.
func rowLine(cells []xlCell, first int) string {
	var b strings.Builder
	col := first
	for _, c := range cells {
		for ; col < c.col; col++ {
			b.WriteByte('\t')
		}
		b.WriteString(c.text)
	}
	return b.String()
}

type sheet struct {
	name, part string
	hidden     bool
}

// workbookSheets reads the sheets' names and parts in the workbook's
// order, whether each is hidden, and whether dates count from 1904.
func workbookSheets(z *zip.Reader, max int64) ([]sheet, bool, error) {
	wb, err := part(z, "xl/workbook.xml", max)
	if err != nil {
		return nil, false, fmt.Errorf("%w: no xl/workbook.xml (%v)", ErrBroken, err)
	}
	rels, _ := part(z, "xl/_rels/workbook.xml.rels", max)
	targets := relationships(rels)
	var out []sheet
	date1904 := false
	dec := newDecoder(wb, "xl/workbook.xml")
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			return out, date1904, nil
		}
		if err != nil {
			return nil, false, broken("xl/workbook.xml", err)
		}
		e, ok := tok.(xml.StartElement)
		if !ok {
			continue
		}
		switch e.Name.Local {
		case "workbookPr":
			v := attr(e, "date1904")
			date1904 = v == "1" || v == "true"
		case "sheet":
			for _, a := range e.Attr {
				if a.Name.Local == "id" && a.Name.Space != "" {
					if tg := targets[a.Value]; tg != "" {
						p := strings.TrimPrefix(tg, "/")
						if !strings.HasPrefix(p, "xl/") {
							p = path.Join("xl", p)
						}
						state := attr(e, "state")
						out = append(out, sheet{name: attr(e, "name"), part: path.Clean(p), hidden: state == "hidden" || state == "veryHidden"})
					}
				}
			}
		}
	}
}

// relationships reads an Office relationships part: target by id.
func relationships(rels []byte) map[string]string {
	targets := map[string]string{}
	dec := newDecoder(rels, "relationships")
	for {
		tok, err := dec.Token()
		if err != nil {
			return targets
		}
		if e, ok := tok.(xml.StartElement); ok && e.Name.Local == "Relationship" {
			targets[attr(e, "Id")] = attr(e, "Target")
		}
	}
}

// sharedTable is the shared strings of a workbook, in one string: a
// table of millions of empty strings (<si/>) takes 4 bytes for each.
type sharedTable struct {
	text string
	ends []uint32 // where each string ends in text
}

func (s sharedTable) len() int { return len(s.ends) }

// at is the i-th string.
func (s sharedTable) at(i int) string {
	start := uint32(0)
	if i > 0 {
		start = s.ends[i-1]
	}
	return s.text[start:s.ends[i]]
}

// sharedStrings reads the shared string table: each <si>'s text runs,
// without its phonetic runs (<rPh>).
func sharedStrings(b []byte) (sharedTable, error) {
	dec := newDecoder(b, "xl/sharedStrings.xml")
	var (
		all  strings.Builder
		ends []uint32
	)
	inT, phonetic := false, 0
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			return sharedTable{text: all.String(), ends: ends}, nil
		}
		if err != nil {
			return sharedTable{}, err
		}
		switch e := tok.(type) {
		case xml.StartElement:
			switch e.Name.Local {
			case "t":
				inT = true
			case "rPh":
				phonetic++
			}
		case xml.EndElement:
			switch e.Name.Local {
			case "si":
				// The part is at most Options.MaxUnpacked bytes, and
				// its text no more.
				ends = append(ends, uint32(min(all.Len(), math.MaxUint32)))
			case "t":
				inT = false
			case "rPh":
				phonetic--
			}
		case xml.CharData:
			if inT && phonetic == 0 && all.Len()+len(e) <= math.MaxUint32 {
				all.Write(e)
			}
		}
	}
}

// cellFormats reads the number format code of each cell style (the
// indexes of <cellXfs>): the workbook's own codes and Excel's built-in
// ones.
func cellFormats(b []byte) []string {
	custom := map[int]string{}
	var out []string
	dec := newDecoder(b, "xl/styles.xml")
	inXfs := false
	for {
		tok, err := dec.Token()
		if err != nil {
			return out
		}
		switch e := tok.(type) {
		case xml.StartElement:
			switch e.Name.Local {
			case "numFmt":
				id, _ := strconv.Atoi(attr(e, "numFmtId"))
				custom[id] = attr(e, "formatCode")
			case "cellXfs":
				inXfs = true
			case "xf":
				if inXfs {
					id, _ := strconv.Atoi(attr(e, "numFmtId"))
					code, ok := custom[id]
					if !ok {
						code = builtinFormats[id]
					}
					out = append(out, code)
				}
			}
		case xml.EndElement:
			if e.Name.Local == "cellXfs" {
				inXfs = false
			}
		}
	}
}

// xlCell is a cell's column (A is 1) and what it shows.
type xlCell struct {
	col  int
	text string
}

// xlRow is a row's number and its line: its cells from its first that
// shows anything (column first), tab-separated.
type xlRow struct {
	n, first int
	line     string
}

// cellReader reads a workbook's cells.
type cellReader struct {
	shared   sharedTable
	formats  []string // by cell style
	date1904 bool
}

// Excel's bounds: rows and columns.
const (
	maxRows = 1 << 20
	maxCols = 1 << 14
)

// cellRef splits a cell reference (B12) into its column and row; 0 for
// what it does not say or is out of Excel's bounds.
func cellRef(ref string) (col, row int) {
	i := 0
	for i < len(ref) && ref[i] >= 'A' && ref[i] <= 'Z' {
		col = col*26 + int(ref[i]-'A'+1)
		if col > maxCols {
			return 0, 0
		}
		i++
	}
	if i == 0 {
		col = 0
	}
	if r, err := strconv.Atoi(ref[i:]); err == nil && r >= 1 && r <= maxRows {
		row = r
	}
	return col, row
}

// rows reads a sheet's rows that show anything. A row or cell without
// its number (or with one out of Excel's bounds, r="0") follows the one
// before it; a cell past Excel's last column is not read. Each cell's
// characters and each row are counted by room, every time a shared
// string is used.
func (c cellReader) rows(ctx context.Context, b []byte, name string, room roomFunc) ([]xlRow, error) {
	dec := newDecoder(b, name)
	var (
		out                  []xlRow
		cells                []xlCell
		rowN, col            int
		typ                  string
		style                int
		val, formula, inline strings.Builder
		inV, inF, inIs, inT  bool
		phonetic             int
		pending              int64
		n                    int
	)
	for {
		if n++; n%4096 == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		switch e := tok.(type) {
		case xml.StartElement:
			switch e.Name.Local {
			case "row":
				next := rowN + 1
				if r, err := strconv.Atoi(attr(e, "r")); err == nil && r >= 1 && r <= maxRows {
					next = r
				}
				rowN, col, cells = next, 0, cells[:0]
			case "c":
				typ = attr(e, "t")
				style, _ = strconv.Atoi(attr(e, "s"))
				if cc, _ := cellRef(attr(e, "r")); cc > 0 {
					col = cc
				} else {
					col++
				}
				val.Reset()
				formula.Reset()
				inline.Reset()
			case "v":
				inV = true
			case "f":
				inF = true
			case "is":
				inIs = true
			case "t":
				inT = inIs
			case "rPh":
				phonetic++
			}
		case xml.EndElement:
			switch e.Name.Local {
			case "v":
				inV = false
			case "f":
				inF = false
			case "is":
				inIs = false
			case "t":
				inT = false
			case "rPh":
				phonetic--
			case "c":
				if col > maxCols {
					break
				}
				s := c.value(typ, strings.TrimSpace(val.String()), inline.String(), strings.TrimSpace(formula.String()), style)
				if s == "" {
					break
				}
				s = strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ", "\t", " ").Replace(s)
				pending += int64(utf8.RuneCountInString(s)) + 1
				if err := room(pending, int64(len(out))); err != nil {
					return nil, err
				}
				cells = append(cells, xlCell{col: col, text: s})
				if len(cells) > maxCols {
					// The same cells again and again: a row holds
					// Excel's columns at most.
					cells = sortCells(cells)
				}
			case "row":
				if len(cells) > 0 {
					cells = sortCells(cells)
					// The tabs of the empty cells between (A1 and
					// XFD1: 16,383), counted before the line is made;
					// each cell paid for its own.
					first, last := cells[0].col, cells[len(cells)-1].col
					pending += int64(last - first + 1 - len(cells))
					if err := room(pending, int64(len(out)+1)); err != nil {
						return nil, err
					}
					out = append(out, xlRow{n: rowN, first: first, line: rowLine(cells, first)})
				}
			}
		case xml.CharData:
			switch {
			case inV:
				val.Write(e)
			case inF:
				formula.Write(e)
			case inT && phonetic == 0:
				inline.Write(e)
			}
		}
	}
}

// sortCells puts a row's cells in the order of their columns, the first
// of a column kept.
func sortCells(cells []xlCell) []xlCell {
	slices.SortStableFunc(cells, func(a, b xlCell) int { return a.col - b.col })
	return slices.CompactFunc(cells, func(a, b xlCell) bool { return a.col == b.col })
}

// value is what a cell shows: shared and inline strings, booleans,
// errors, dates and numbers in their format; a formula without a value
// kept shows as its formula.
func (c cellReader) value(typ, v, inline, formula string, style int) string {
	if v == "" && inline == "" {
		if formula != "" {
			return "=" + formula
		}
		return ""
	}
	switch typ {
	case "s":
		i, err := strconv.Atoi(v)
		if err != nil || i < 0 || i >= c.shared.len() {
			return ""
		}
		return c.shared.at(i)
	case "inlineStr":
		if inline != "" {
			return inline
		}
		return v
	case "str", "e", "d":
		return v
	case "b":
		if v == "1" {
			return "TRUE"
		}
		return "FALSE"
	}
	f, err := strconv.ParseFloat(v, 64)
	if err != nil {
		return v
	}
	code := ""
	if style >= 0 && style < len(c.formats) {
		code = c.formats[style]
	}
	return formatNumber(f, code, c.date1904)
}

// sheetParts adds a sheet's shapes and charts, then its comments and
// notes in the order of their cells, from its relationships.
func sheetParts(z *zip.Reader, sh sheet, t *Text, max int64) error {
	rels := partRelationships(z, relsOf(sh.part), max)
	dir := path.Dir(sh.part)
	for _, r := range rels {
		if strings.HasSuffix(r.typ, "/drawing") {
			if err := drawingParts(z, r.target(dir), sh, t, max); err != nil {
				return err
			}
		}
	}
	var threaded, notes []xlComment
	for _, r := range rels {
		b, err := part(z, r.target(dir), max)
		switch {
		case err != nil:
		case strings.HasSuffix(r.typ, "/threadedComment"):
			threaded = append(threaded, comments(b, r.target(dir), "threadedComment")...)
		case strings.HasSuffix(r.typ, "/comments"):
			notes = append(notes, comments(b, r.target(dir), "comment")...)
		}
	}
	// Excel keeps a note of each threaded comment for its older
	// versions: the same text, read once.
	all := threaded
	for _, n := range notes {
		if !slices.ContainsFunc(threaded, func(c xlComment) bool { return c.ref == n.ref }) {
			all = append(all, n)
		}
	}
	slices.SortStableFunc(all, func(a, b xlComment) int {
		ac, ar := cellRef(a.ref)
		bc, br := cellRef(b.ref)
		if ar != br {
			return ar - br
		}
		return ac - bc
	})
	for _, c := range all {
		_, row := cellRef(c.ref)
		t.add(c.text, Locator{Sheet: sh.name, Row: row, Hidden: sh.hidden, Part: c.ref + "のコメント"})
		if err := t.full(); err != nil {
			return err
		}
	}
	return nil
}

// xlComment is one comment or note of a sheet.
type xlComment struct{ ref, text string }

// comments reads a comments part (elem "comment": notes, the older
// comments; "threadedComment": comments with replies).
func comments(b []byte, name, elem string) []xlComment {
	var out []xlComment
	var cur strings.Builder
	ref, inText, inT := "", false, false
	dec := newDecoder(b, name)
	for {
		tok, err := dec.Token()
		if err != nil {
			return out
		}
		switch e := tok.(type) {
		case xml.StartElement:
			switch e.Name.Local {
			case elem:
				ref = attr(e, "ref")
				cur.Reset()
			case "text":
				inText = true
			case "t":
				inT = true
			}
		case xml.EndElement:
			switch e.Name.Local {
			case elem:
				if s := strings.TrimSpace(cur.String()); s != "" {
					out = append(out, xlComment{ref: ref, text: s})
				}
			case "text":
				inText = false
			case "t":
				inT = false
			}
		case xml.CharData:
			// A threaded comment's <text> is its text; a note's text is
			// in runs (<t>).
			if inText && (inT || elem == "threadedComment") {
				cur.Write(e)
			}
		}
	}
}

// drawingParts adds the shapes (text boxes) and charts of a sheet's
// drawing, each located at the row it is anchored at.
func drawingParts(z *zip.Reader, name string, sh sheet, t *Text, max int64) error {
	b, err := part(z, name, max)
	if err != nil {
		return nil
	}
	rels := partRelationships(z, relsOf(name), max)
	charts := map[string]string{}
	for _, r := range rels {
		if strings.HasSuffix(r.typ, "/chart") {
			charts[r.id] = r.target(path.Dir(name))
		}
	}
	dec := newDecoder(b, name)
	for {
		start := dec.InputOffset()
		tok, err := dec.Token()
		if errors.Is(err, ErrTooComplex) {
			return err
		}
		if err != nil {
			return nil
		}
		e, ok := tok.(xml.StartElement)
		if !ok || e.Name.Local != "twoCellAnchor" && e.Name.Local != "oneCellAnchor" && e.Name.Local != "absoluteAnchor" {
			continue
		}
		if err := dec.Skip(); err != nil {
			if errors.Is(err, ErrTooComplex) {
				return err
			}
			return nil
		}
		anchor := b[start:dec.InputOffset()]
		row, chartIDs := anchorPlace(anchor)
		lines, err := drawingParagraphs(anchor, name, nil, t.room)
		if err != nil {
			return drawingError(name, err)
		}
		for _, l := range lines {
			t.add(l, Locator{Sheet: sh.name, Row: row, Hidden: sh.hidden, Part: "図形"})
		}
		for _, id := range chartIDs {
			cb, err := part(z, charts[id], max)
			if err != nil {
				continue
			}
			lines, err := chartText(cb, charts[id], t.room)
			if err != nil {
				return drawingError(charts[id], err)
			}
			for _, l := range lines {
				t.add(l, Locator{Sheet: sh.name, Row: row, Hidden: sh.hidden, Part: "グラフ"})
			}
		}
		if err := t.full(); err != nil {
			return err
		}
	}
}

func drawingError(name string, err error) error { return broken(name, err) }

// anchorPlace reads an anchor of a drawing: the row (from 1) its shape
// starts at, and the ids of the charts in it.
func anchorPlace(b []byte) (row int, charts []string) {
	dec := newDecoder(b, "")
	inFrom, inRow := false, false
	for {
		tok, err := dec.Token()
		if err != nil {
			return row, charts
		}
		switch e := tok.(type) {
		case xml.StartElement:
			switch e.Name.Local {
			case "from":
				inFrom = true
			case "row":
				inRow = inFrom
			case "chart":
				if id := attr(e, "id"); id != "" {
					charts = append(charts, id)
				}
			}
		case xml.EndElement:
			switch e.Name.Local {
			case "from":
				inFrom = false
			case "row":
				inRow = false
			}
		case xml.CharData:
			if inRow {
				if r, err := strconv.Atoi(strings.TrimSpace(string(e))); err == nil && r >= 0 && r < maxRows {
					row = r + 1
				}
			}
		}
	}
}
