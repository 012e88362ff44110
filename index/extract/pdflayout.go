package extract

import (
	"cmp"
	"math"
	"slices"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/width"
)

// The reading order of a PDF page, from the words pdftotext -bbox-layout
// gives with their boxes. pdftotext's own order breaks what Japanese
// documents do: a heading justified across the page (「第１章　総　　則」,
// each character placed on its own) comes out a character per line, and
// its -layout mode keeps such headings but reads two columns across, line
// by line. Here words are grouped into the page's visual lines; a run of
// lines with a gutter (a band no word crosses, wider than the space a
// line holds, with prose on both sides) is read column by column; every
// other line is read across, its words joined by a space where they stand
// apart.

// pdfWord is a word of a page and its box (points, y downwards).
type pdfWord struct {
	x0, y0, x1, y1 float64
	text           string
	line           int // the line pdftotext put it on, in its order
}

func (w pdfWord) h() float64    { return w.y1 - w.y0 }
func (w pdfWord) ymid() float64 { return (w.y0 + w.y1) / 2 }

// pdfLine is a visual line: its words left to right.
type pdfLine struct {
	words  []pdfWord
	y0, y1 float64
}

func (l *pdfLine) x0() float64 { return l.words[0].x0 }
func (l *pdfLine) x1() float64 { return l.words[len(l.words)-1].x1 }

// span is a band of x.
type span struct{ a, b float64 }

// pageLines is the text of a page's words in reading order, a line each;
// an empty line stands where a gap of more than a line parts two lines of
// a column (a paragraph ends).
func pageLines(words []pdfWord) []string {
	if len(words) == 0 {
		return nil
	}
	if vertical(words) {
		return popplerLines(words)
	}
	em := medianHeight(words)
	fem := fontEm(words)
	page := textSpan(words)
	lines := visualLines(words)
	var out []string
	last := math.Inf(1) // the bottom of the line before
	emit := func(in []pdfWord, y0, y1 float64) {
		if y0-last > em && len(out) > 0 && out[len(out)-1] != "" {
			out = append(out, "")
		}
		out = append(out, joinWords(in, em))
		last = y1
	}
	blank := func() {
		if len(out) > 0 && out[len(out)-1] != "" {
			out = append(out, "")
		}
	}
	for i := 0; i < len(lines); {
		j, cols := columnRun(lines, i, em, page)
		if cols == nil {
			if b, ok := findBox(lines, i, em, fem, page); ok {
				// The paragraph beside the box, to its end, then the box.
				full := false
				for _, l := range lines[i:b.end] {
					if in := b.side(l, false); len(in) > 0 {
						emit(in, in[0].y0, in[0].y1)
						full = b.full(in, fem)
					}
				}
				k := b.end
				for ; full && k < len(lines) && lines[k].y0-last <= em; k++ {
					if c, _ := columnRun(lines, k, em, page); c != k+1 {
						break
					}
					emit(lines[k].words, lines[k].y0, lines[k].y1)
					full = b.full(lines[k].words, fem)
				}
				foot := last
				blank()
				last = math.Inf(1)
				for _, l := range lines[i:b.end] {
					if in := b.side(l, true); len(in) > 0 {
						emit(in, in[0].y0, in[0].y1)
					}
				}
				blank()
				last = foot
				i = k
				continue
			}
			emit(lines[i].words, lines[i].y0, lines[i].y1)
			i++
			continue
		}
		for c := range len(cols) + 1 {
			if c > 0 {
				last = math.Inf(1) // a column goes on from the foot of the one before
			}
			for _, l := range lines[i:j] {
				var in []pdfWord
				y0, y1 := math.Inf(1), math.Inf(-1)
				for _, w := range l.words {
					if column(w, cols) == c {
						in = append(in, w)
						y0, y1 = min(y0, w.y0), max(y1, w.y1)
					}
				}
				if len(in) > 0 {
					emit(in, y0, y1)
				}
			}
		}
		i = j
	}
	return out
}

// A text box that floats beside a paragraph (a Word or LibreOffice frame
// with the text wrapped around it) stands on the paragraph's lines with
// only the wrap's distance between them, narrower than a column gutter:
// pdftotext gives a line of the body and the box's line beside it as one.
// What tells the box from the cells of a table or a heading spaced across
// the page is that its lines keep their own line pitch: the foot of a
// box's line does not stand where the foot of the body's line beside it
// does, where a table's cells share their row's. Only pages with Japanese
// text are looked at for boxes (fontEm measures their ems).

// pdfBox is a text box beside the lines [start, end) of a page, left or
// right of a band no word of them crosses.
type pdfBox struct {
	end   int
	band  span
	right bool    // the box is right of the band
	edge  float64 // where the body's lines beside the box end at most
}

// side is the words of a line on the box's side (box) or the body's.
func (b pdfBox) side(l *pdfLine, box bool) []pdfWord {
	var out []pdfWord
	for _, w := range l.words {
		if (w.x0 >= b.band.b) == (b.right == box) {
			out = append(out, w)
		}
	}
	return out
}

// full reports whether a line of the body runs (within 1.5 ems) to where
// the body's lines beside the box end at most: its paragraph goes on.
func (b *pdfBox) full(in []pdfWord, fem float64) bool {
	x1 := in[len(in)-1].x1
	b.edge = max(b.edge, x1)
	return x1 >= b.edge-1.5*fem
}

// maxBoxLines bounds the lines beside a text box looked at.
const maxBoxLines = 100

// findBox finds a text box that starts on line i: a band between two of
// its words (of at most 4 parted so), at least half an em wide, that no
// word of the lines from i
// on crosses (they follow one another by less than a line), with the box on
// its narrower side (at least 3 ems wide) and the body on the other (at
// least 30% as wide as the page's text), each of them prose (no gap of
// more than 2 ems between its words in a line); the feet of the box's first two
// lines and of the body's lines beside them are apart by 0.15 em or more,
// or by amounts that differ by 0.1 em or more. The box's lines follow one
// another by less than a line; it ends with its last.
func findBox(lines []*pdfLine, i int, em, fem float64, page span) (pdfBox, bool) {
	if fem <= 0 {
		return pdfBox{}, false
	}
	minW := 0.5 * fem
	l := lines[i]
	var cands []span
	for n := 1; n < len(l.words); n++ {
		if g := (span{l.words[n-1].x1, l.words[n].x0}); g.b-g.a >= minW {
			cands = append(cands, g)
		}
	}
	if len(cands) > 3 {
		return pdfBox{}, false // the cells of a table's row
	}
candidates:
	for _, g := range cands {
		// The band as far down as no word crosses it; the first two
		// lines with words on both sides say whether they keep one pitch.
		end := i
		lo, hi, both := math.Inf(1), math.Inf(-1), 0
		for ; end < min(len(lines), i+maxBoxLines); end++ {
			if end > i && lines[end].y0-lines[end-1].y1 > em {
				break
			}
			var ok bool
			if g, ok = narrow(g, lines[end], minW); !ok {
				break
			}
			if both == 2 {
				continue
			}
			var left, right []pdfWord
			for _, w := range lines[end].words {
				if w.x0 >= g.b {
					right = append(right, w)
				} else {
					left = append(left, w)
				}
			}
			if len(left) > 0 && len(right) > 0 {
				dy := foot(right) - foot(left)
				lo, hi, both = min(lo, dy), max(hi, dy), both+1
				if both == 2 && max(math.Abs(lo), math.Abs(hi)) < 0.15*fem && hi-lo < 0.1*fem {
					continue candidates // one line pitch: a table's cells, a spaced heading
				}
			}
		}
		if both == 0 || max(math.Abs(lo), math.Abs(hi)) < 0.15*fem && hi-lo < 0.1*fem {
			continue
		}
		left, right := math.Inf(1), math.Inf(-1)
		for _, l := range lines[i:end] {
			for _, w := range l.words {
				if w.x0 >= g.b {
					right = max(right, w.x1)
				} else {
					left = min(left, w.x0)
				}
			}
		}
		b := pdfBox{band: g, right: right-g.b < g.a-left}
		boxW, bodyW := right-g.b, g.a-left
		if !b.right {
			boxW, bodyW = bodyW, boxW
		}
		if boxW < 3*fem || bodyW < 0.3*(page.b-page.a) {
			continue
		}
		// The box's lines follow one another by less than a line.
		b.end = i
		boxFoot := 0.0
		for k := i; k < end; k++ {
			bx := b.side(lines[k], true)
			if len(bx) == 0 {
				continue
			}
			if k > i && bx[0].y0-boxFoot > em {
				break
			}
			if gappy(bx, 2*fem) || gappy(b.side(lines[k], false), 2*fem) {
				b.end = i // cells of a table
				break
			}
			boxFoot, b.end = bx[0].y1, k+1
		}
		if b.end > i {
			return b, true
		}
	}
	return pdfBox{}, false
}

// narrow is the band g where no word of line l stands, when it is still
// at least minW wide and no word crosses it.
func narrow(g span, l *pdfLine, minW float64) (span, bool) {
	for _, w := range l.words {
		switch {
		case w.x1 <= g.a || w.x0 >= g.b:
			continue
		case w.x0 <= g.a && w.x1 >= g.b:
			return g, false
		case w.x0 <= g.a:
			g.a = w.x1
		case w.x1 >= g.b:
			g.b = w.x0
		case w.x0-g.a >= g.b-w.x1: // a word within the band
			g.b = w.x0
		default:
			g.a = w.x1
		}
	}
	return g, g.b-g.a >= minW
}

// gappy reports whether words of a line stand more than gap apart.
func gappy(words []pdfWord, gap float64) bool {
	for k := 1; k < len(words); k++ {
		if words[k].x0-words[k-1].x1 > gap {
			return true
		}
	}
	return false
}

// foot is the median foot of words: where their line stands (a word
// with a glyph that reaches lower does not move it).
func foot(words []pdfWord) float64 {
	ys := make([]float64, len(words))
	for i, w := range words {
		ys[i] = w.y1
	}
	slices.Sort(ys)
	return ys[len(ys)/2]
}

// vertical reports a page set mostly in vertical writing: its words of
// several characters are taller than wide. Such a page is read in
// pdftotext's order, which follows the columns of vertical text.
func vertical(words []pdfWord) bool {
	tall, all := 0, 0
	for _, w := range words {
		if len([]rune(w.text)) < 2 {
			continue
		}
		all++
		if w.h() > 1.5*(w.x1-w.x0) {
			tall++
		}
	}
	return all > 0 && tall*2 > all
}

// popplerLines is the page as pdftotext orders it, a line each.
func popplerLines(words []pdfWord) []string {
	var out []string
	for i := 0; i < len(words); {
		j := i + 1
		for j < len(words) && words[j].line == words[i].line {
			j++
		}
		out = append(out, joinWords(words[i:j], medianHeight(words[i:j])))
		i = j
	}
	return out
}

// medianHeight is the median height of the words' boxes: the size of the
// page's type, what gaps are measured in.
func medianHeight(words []pdfWord) float64 {
	hs := make([]float64, len(words))
	for i, w := range words {
		hs[i] = w.h()
	}
	slices.Sort(hs)
	if h := hs[len(hs)/2]; h > 0 {
		return h
	}
	return 10
}

// textSpan is the band of x the words cover.
func textSpan(words []pdfWord) span {
	s := span{math.Inf(1), math.Inf(-1)}
	for _, w := range words {
		s.a, s.b = min(s.a, w.x0), max(s.b, w.x1)
	}
	return s
}

// visualLines groups words into lines: a word belongs to a line when its
// middle lies within the line's band and the line's within its own.
func visualLines(words []pdfWord) []*pdfLine {
	ws := slices.Clone(words)
	slices.SortStableFunc(ws, func(a, b pdfWord) int {
		return cmp.Or(cmp.Compare(a.ymid(), b.ymid()), cmp.Compare(a.x0, b.x0))
	})
	var lines []*pdfLine
	for _, w := range ws {
		var into *pdfLine
		// The last few lines: a word sorted after a line below it (a
		// smaller word, or a column set a little lower) still joins it.
		for k := len(lines) - 1; k >= max(0, len(lines)-3); k-- {
			l := lines[k]
			if m := (l.y0 + l.y1) / 2; w.ymid() >= l.y0 && w.ymid() <= l.y1 && m >= w.y0 && m <= w.y1 {
				into = l
				break
			}
		}
		if into == nil {
			lines = append(lines, &pdfLine{y0: w.y0, y1: w.y1})
			into = lines[len(lines)-1]
		}
		into.words = append(into.words, w)
	}
	for _, l := range lines {
		slices.SortStableFunc(l.words, func(a, b pdfWord) int { return cmp.Compare(a.x0, b.x0) })
	}
	slices.SortStableFunc(lines, func(a, b *pdfLine) int { return cmp.Compare(a.y0+a.y1, b.y0+b.y1) })
	return lines
}

// free is where a line has no word: the gaps between its words at least
// gutter wide, and the bands beyond its ends.
func free(l *pdfLine, gutter float64) []span {
	out := []span{{math.Inf(-1), l.x0()}}
	for k := 1; k < len(l.words); k++ {
		if a, b := l.words[k-1].x1, l.words[k].x0; b-a >= gutter {
			out = append(out, span{a, b})
		}
	}
	return append(out, span{l.x1(), math.Inf(1)})
}

// intersect keeps the parts of a that b also has, at least width wide.
func intersect(a, b []span, width float64) []span {
	var out []span
	for _, x := range a {
		for _, y := range b {
			if s := (span{max(x.a, y.a), min(x.b, y.b)}); s.b-s.a >= width {
				out = append(out, s)
			}
		}
	}
	return out
}

// columnRun finds the lines from i on that are set in columns: it returns
// the end of the run and its gutters (nil when line i is read across).
// A gutter is 1.5 ems wide or more (a line holds gaps of about an em, the
// ideographic space) and no word of the run crosses it; the lines follow
// one another without a gap of more than 1.5 ems; on each side of every
// gutter stands prose: a line at least 30% as wide as the page's text; and
// its lines start their columns (see anchored), so that the cells of a
// table next to it are not read as a column.
func columnRun(lines []*pdfLine, i int, em float64, page span) (int, []span) {
	gutter := 1.5 * em
	g := free(lines[i], gutter)
	best, bestEnd := []span(nil), i
	for j := i + 1; j < len(lines); j++ {
		if lines[j].y0-lines[j-1].y1 > gutter {
			break
		}
		next := intersect(g, free(lines[j], gutter), gutter)
		if len(next) == 0 {
			break
		}
		g = next
		if cols := gutters(lines[i:j+1], g, page); cols != nil && anchored(lines[i:j+1], cols, em) {
			best, bestEnd = cols, j+1
		}
	}
	if best == nil || bestEnd-i < 3 {
		return i + 1, nil
	}
	return bestEnd, best
}

// gutters keeps the bands of g that part the lines into columns of prose.
func gutters(lines []*pdfLine, g []span, page span) []span {
	var out []span
	for _, s := range g {
		if math.IsInf(s.a, 0) || math.IsInf(s.b, 0) {
			continue
		}
		var left, right float64 // the widest line on each side
		for _, l := range lines {
			for _, w := range l.words {
				if w.x1 <= s.a {
					left = max(left, w.x1-l.x0())
				} else if w.x0 >= s.b {
					right = max(right, l.x1()-w.x0)
				}
			}
		}
		if min(left, right) >= 0.3*(page.b-page.a) {
			out = append(out, s)
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// anchored reports whether the first and the last line of a run, and each
// of its lines that stands in more than one column, start each of their
// columns' parts within 2 ems of the column's left edge: the rows of a
// table do not, the lines of columns set side by side do.
func anchored(lines []*pdfLine, cols []span, em float64) bool {
	left := make([]float64, len(cols)+1)
	for c := range left {
		left[c] = math.Inf(1)
	}
	for _, l := range lines {
		for _, w := range l.words {
			c := column(w, cols)
			left[c] = min(left[c], w.x0)
		}
	}
	for k, l := range lines {
		if k > 0 && k < len(lines)-1 && column(l.words[0], cols) == column(l.words[len(l.words)-1], cols) {
			continue // a line within a column: it may be indented or centred
		}
		seen := make([]bool, len(cols)+1)
		for _, w := range l.words {
			if c := column(w, cols); !seen[c] {
				seen[c] = true
				if w.x0 > left[c]+2*em {
					return false
				}
			}
		}
	}
	return true
}

// column is the index of the column a word stands in.
func column(w pdfWord, cols []span) int {
	c := 0
	for _, s := range cols {
		if w.x0 >= s.b {
			c++
		}
	}
	return c
}

// joinWords joins a line's words, with a space where they stand apart
// but for the space an office sets between Japanese and Latin letters or
// digits (see autoSpace) and the spaces of a spaced article number (see
// articleNumber).
func joinWords(words []pdfWord, em float64) string {
	var b strings.Builder
	for k, w := range words {
		if k > 0 && w.x0-words[k-1].x1 > 0.1*em && !autoSpace(words[k-1], w) &&
			!articleNumber(words, k-1) && !articleNumber(words, k-2) {
			b.WriteByte(' ')
		}
		b.WriteString(w.text)
	}
	return b.String()
}

// articleNumber reports whether words k, k+1 and k+2 spell an article's
// (chapter's, section's …) number set apart by spaces of less than an em:
// 「第 4 条」 reads 第4条, the heading rules are numbered by.
func articleNumber(words []pdfWord, k int) bool {
	if k < 0 || k+2 >= len(words) {
		return false
	}
	a, n, c := words[k], words[k+1], words[k+2]
	if !strings.HasSuffix(a.text, "第") || strings.Trim(n.text, "0123456789０１２３４５６７８９") != "" {
		return false
	}
	unit, _ := utf8.DecodeRuneInString(c.text)
	e := a.em()
	return strings.ContainsRune("編章節款条項号", unit) && n.x0-a.x1 < e && c.x0-n.x1 < e
}

// autoSpace reports whether the gap between two words of a line is the
// space Word and LibreOffice add between a Japanese character and a Latin
// letter or digit (about a quarter of an em, a fifth in LibreOffice; no
// character stands there), which pdftotext makes a word break: 令和 7 年,
// 3,000 円, 第 1 条 are 令和7年, 3,000円, 第1条 in the document. A space
// typed in a font whose Latin letters are half an em wide (MS Mincho, IPA
// Mincho) is wider and stays; one typed in a font of narrower Latin is as
// wide as the office's and goes too, which Japanese text does not miss
// (第2章 USBメモリ reads 第2章USBメモリ).
func autoSpace(a, b pdfWord) bool {
	last, _ := utf8.DecodeLastRuneInString(a.text)
	first, _ := utf8.DecodeRuneInString(b.text)
	var e float64
	switch {
	case japaneseLetter(last) && latinAlnum(first):
		e = a.em()
	case latinAlnum(last) && japaneseLetter(first):
		e = b.em()
	default:
		return false
	}
	return b.x0-a.x1 < 0.35*e
}

// japaneseLetter reports a kanji, a kana, ー or 々: the characters an
// office sets apart from Latin text (not punctuation, which has its own
// space).
func japaneseLetter(r rune) bool {
	switch {
	case r >= 0x4E00 && r <= 0x9FFF, r >= 0x3400 && r <= 0x4DBF, r >= 0xF900 && r <= 0xFAFF, r >= 0x20000 && r <= 0x3FFFF:
		return true
	case r >= 0x3041 && r <= 0x309F, r >= 0x30A1 && r <= 0x30FA, r == 0x30FC, r == 0x3005, r == 0x3006, r == 0x30F6:
		return true
	}
	return false
}

func latinAlnum(r rune) bool {
	return '0' <= r && r <= '9' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || r == '%'
}

// em is the size of a word's type: its width over its characters, a
// full-width one (kanji, kana, full-width forms) an em wide and any other
// half of one, as in the fonts Japanese documents are set in. 0 for a word
// without a full-width character, whose width says little of its size.
func (w pdfWord) em() float64 {
	var full, half float64
	for _, r := range w.text {
		switch width.LookupRune(r).Kind() {
		case width.EastAsianWide, width.EastAsianFullwidth:
			full++
		default:
			half++
		}
	}
	if full == 0 {
		return 0
	}
	return (w.x1 - w.x0) / (full + half/2)
}

// fontEm is the size of the page's type: the median em of its words that
// have one (see pdfWord.em); 0 for a page without Japanese (or other
// full-width) text.
func fontEm(words []pdfWord) float64 {
	var es []float64
	for _, w := range words {
		if e := w.em(); e > 0 {
			es = append(es, e)
		}
	}
	if len(es) == 0 {
		return 0
	}
	slices.Sort(es)
	return es[len(es)/2]
}
