package index

import (
	"strings"
	"unicode/utf8"

	"lwr/analyzer"
	"lwr/analyzer/lazyre"
)

// unitKind is what a unit of a document is.
type unitKind uint8

// The kinds of unit.
const (
	unitText    unitKind = iota // a paragraph's lines
	unitHeading                 // a heading: Markdown, setext or reStructuredText, HTML, an article or chapter title
	unitItem                    // a list item and its continuation lines
	unitRow                     // a table row: Markdown, HTML <tr>, reStructuredText list-table
	unitCode                    // a fenced code block, a reStructuredText literal block
	unitLinks                   // an item of a table of contents: nothing but a link to a part of the document
)

var unitKindNames = [...]string{unitText: "text", unitHeading: "heading", unitItem: "item", unitRow: "row", unitCode: "code", unitLinks: "links"}

func (k unitKind) String() string { return unitKindNames[k] }

// unit is a unit of meaning of a document: a run of whole lines that a
// snippet shows whole or not at all, with what it stands under.
type unit struct {
	start, end int // 0-based lines, inclusive
	kind       unitKind
	level      int  // a heading's level (1 is the top); an item's indentation
	heading    int  // the heading it stands under (a unit index), -1 for none
	lead       int  // an item's lead-in: its parent item or the sentence before its list; -1 for none
	header     int  // a row's header row (a unit index), -1 for none or when it is one
	head       bool // a row that is the header of its table
	meta       bool // a document's front matter (title: …, time: …)
	cells      []string
}

// structure is a document cut into units.
type structure struct {
	lines []string
	units []unit
	of    []int // line → its unit, -1 for blank lines and markup alone
}

// maxParagraphLines bounds a paragraph unit: a longer paragraph (a man
// page's wrapped text) is cut into units of this many lines.
const maxParagraphLines = 6

var (
	atxHeading   = lazyre.New(`^ {0,3}(#{1,6})(?:[ \t]+|$)`)
	htmlHeading  = lazyre.New(`(?i)^\s*<h([1-6])[\s>]`)
	articleHead  = lazyre.New(`^\s*第\s*[0-9０-９一二三四五六七八九十百千]+\s*(条|章|節|款)(?:の[0-9０-９一二三四五六七八九十]+)?(?:\s*[（(][^）)]{1,40}[）)])?\s*$`)
	articleStart = lazyre.New(`^\s*第\s*[0-9０-９一二三四五六七八九十百千]+\s*条(?:の[0-9０-９一二三四五六七八九十]+)?\s*[（(][^）)]{1,40}[）)]`)
	// An item of a list: - * + ・ ● 1. 1) （1） ① a. and a clause of
	// an article (2　貸与機器は…).
	itemMark   = lazyre.New(`^(\s*)(?:[-*+]\s+|[・●○■□◆◇▪•※]\s*|[0-9０-９]{1,3}[.)．）]\s*|[（(][0-9０-９a-zA-Zア-ン一二三四五六七八九十]{1,3}[)）]\s*|[①-⑳]\s*|[a-zA-Z][.)]\s+|[0-9０-９]{1,2}　)`)
	mdRule     = lazyre.New(`^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$`)
	anchorOnly = lazyre.New(`(?i)^\s*<a\s+(name|id)=["'][^"']*["']\s*/?>\s*(</a>)?\s*$`)
	htmlTag    = lazyre.New(`<[^>]*>`)
	// itemHeading is a list item's marker followed by a heading's marks,
	// as a converter writes a numbered article (1.  #### 育児休業の期間は…).
	itemHeading  = lazyre.New(`^((?:[0-9]+[.)]|[-*+])\s+)#{1,6}\s+`)
	mdLink       = lazyre.New(`!?\[([^\]]*)\]\(([^)]*)\)`)
	tocLink      = lazyre.New(`^\s*(?:[-*+]\s+|[0-9]{1,3}[.)]\s*)?\[[^\]]*\]\(#[^)]*\)\s*$`)
	rstListTable = lazyre.New(`^(\s*)\.\.\s+list-table::`)
	rstHeaderRow = lazyre.New(`^\s*:header-rows:\s*([0-9]+)`)
	rstRowStart  = lazyre.New(`^(\s*)\*\s+-\s*`)
	rstDirective = lazyre.New(`^\s*\.\.\s+[a-zA-Z-]+::`)
)

// adornment reports a line that underlines (or overlines) a heading:
// three or more of one of = - ~ ^ * # + ` ' " : . _.
func adornment(t string) bool {
	if utf8.RuneCountInString(t) < 3 {
		return false
	}
	c := t[0]
	if !strings.ContainsRune("=-~^*#+`'\":._", rune(c)) {
		return false
	}
	return strings.Trim(t, string(c)) == ""
}

// structureOf cuts lines into units.
func structureOf(lines []string) *structure {
	s := &structure{lines: lines, of: make([]int, len(lines))}
	for i := range s.of {
		s.of[i] = -1
	}
	p := parser{s: s, heading: -1, adorn: map[string]int{}, cls: make([]uint16, len(lines))}
	p.run()
	return s
}

// Classes of a line, computed once (lineClass): what it may start.
const (
	lcDone uint16 = 1 << iota
	lcBlank
	lcItem
	lcATX
	lcHTMLHeading
	lcArticle
	lcAnchor
	lcTableStart // <table
	lcListTable  // .. list-table::
	lcFence      // ``` or ~~~
	lcComment    // <!--
	lcPipe       // a Markdown table row: | or ｜
	lcAdornment
	lcMDRule // |---|---|
)

// lineClass classifies line i, cheap tests before the patterns.
func (p *parser) lineClass(i int) uint16 {
	if c := p.cls[i]; c&lcDone != 0 {
		return c
	}
	l := p.s.lines[i]
	t := strings.TrimSpace(l)
	c := lcDone
	if t == "" {
		c |= lcBlank
		p.cls[i] = c
		return c
	}
	r, _ := utf8.DecodeRuneInString(t)
	switch {
	case r == '#':
		if atxHeading.MatchString(l) && strings.TrimLeft(t, "#") != "" {
			c |= lcATX
		}
	case r == '<':
		switch {
		case strings.HasPrefix(t, "<!--"):
			c |= lcComment
		case len(t) >= 6 && strings.EqualFold(t[:6], "<table"):
			c |= lcTableStart
		case anchorOnly.MatchString(l):
			c |= lcAnchor
		case htmlHeading.MatchString(l):
			c |= lcHTMLHeading
		}
	case r == '`' || r == '~':
		if codeFence(t) {
			c |= lcFence
		}
	case r == '第':
		if articleHead.MatchString(l) {
			c |= lcArticle
		}
	case r == '.':
		if rstListTable.MatchString(l) {
			c |= lcListTable
		}
	case r == '|' || r == '｜':
		c |= lcPipe
		if mdRule.MatchString(l) {
			c |= lcMDRule
		}
	}
	if adornment(t) {
		c |= lcAdornment
	}
	if c&(lcATX|lcPipe|lcComment|lcTableStart|lcAnchor|lcHTMLHeading|lcFence) == 0 && mayStartItem(t) && itemMark.MatchString(l) && !mdRule.MatchString(l) {
		c |= lcItem
	}
	p.cls[i] = c
	return c
}

// mayStartItem reports whether a trimmed line starts with what a list
// item starts with: a bullet, a digit, an opening parenthesis, a circled
// number or a letter and a dot.
func mayStartItem(t string) bool {
	r, n := utf8.DecodeRuneInString(t)
	switch {
	case strings.ContainsRune("-*+・●○■□◆◇▪•※（(", r), r >= '0' && r <= '9', r >= '０' && r <= '９', r >= '①' && r <= '⑳':
		return true
	case (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') && len(t) > n:
		return t[n] == '.' || t[n] == ')'
	}
	return false
}

func (p *parser) is(i int, c uint16) bool { return p.lineClass(i)&c != 0 }

type parser struct {
	cls     []uint16 // line classes (lineClass)
	s       *structure
	heading int            // the current heading (unit index)
	levels  []int          // the heading units open, outermost first
	adorn   map[string]int // reStructuredText adornments in order of first use → level
	// lastText is the last paragraph unit (a possible lead-in of a
	// list) and whether only blank lines stand between it and here.
	lastText int
	list     []int // the items open, outermost first
}

func (p *parser) add(u unit) int {
	u.heading = p.heading
	if u.kind != unitRow {
		u.header = -1
	}
	k := len(p.s.units)
	p.s.units = append(p.s.units, u)
	for i := u.start; i <= u.end; i++ {
		p.s.of[i] = k
	}
	return k
}

func (p *parser) addHeading(start, end, level int) {
	for len(p.levels) > 0 && p.s.units[p.levels[len(p.levels)-1]].level >= level {
		p.levels = p.levels[:len(p.levels)-1]
	}
	p.heading = -1
	if len(p.levels) > 0 {
		p.heading = p.levels[len(p.levels)-1]
	}
	k := p.add(unit{start: start, end: end, kind: unitHeading, level: level, lead: -1})
	p.levels = append(p.levels, k)
	p.heading = k
	p.list = p.list[:0]
	p.lastText = -1
}

func (p *parser) run() {
	lines := p.s.lines
	p.lastText = -1
	i := 0
	if len(lines) > 0 && strings.TrimSpace(strings.TrimPrefix(lines[0], "\uFEFF")) == "---" {
		// Front matter: one unit of its fields (title: …, time: 1.5時間).
		for j := 1; j < len(lines) && j < 200; j++ {
			if t := strings.TrimSpace(lines[j]); t == "---" || t == "..." {
				if j > 1 {
					p.add(unit{start: 1, end: j - 1, kind: unitText, lead: -1, meta: true})
				}
				i = j + 1
				break
			}
		}
	}
	for i < len(lines) {
		l := lines[i]
		t := strings.TrimSpace(l)
		switch {
		case p.is(i, lcBlank):
			i++
			continue
		case p.is(i, lcComment):
			j := i
			for j < len(lines) && !strings.Contains(lines[j], "-->") {
				j++
			}
			i = min(j, len(lines)-1) + 1
			continue
		case p.is(i, lcAnchor):
			i++
			continue
		case p.is(i, lcFence):
			fence := t[:3]
			j := i + 1
			for j < len(lines) && !strings.HasPrefix(strings.TrimSpace(lines[j]), fence) {
				j++
			}
			end := min(j, len(lines)-1)
			p.add(unit{start: i, end: end, kind: unitCode, lead: p.itemLead(IndentWidth(l))})
			i = end + 1
			continue
		}
		if k := p.headingAt(i); k > 0 {
			i += k
			continue
		}
		if p.is(i, lcAdornment) {
			i++ // a rule between sections
			continue
		}
		if n := p.tableAt(i); n > 0 {
			i += n
			continue
		}
		if p.is(i, lcItem) {
			i = p.item(i, IndentWidth(l))
			continue
		}
		if strings.HasSuffix(t, "::") && !rstDirective.MatchString(t) {
			// A reStructuredText paragraph that ends in :: and the
			// literal block indented under it.
			k := p.paragraph(i)
			i = p.literal(k+1, IndentWidth(l))
			continue
		}
		i = p.paragraph(i) + 1
	}
}

// headingAt adds the heading at line i and returns its lines, or 0.
func (p *parser) headingAt(i int) int {
	lines := p.s.lines
	l := lines[i]
	t := strings.TrimSpace(l)
	if p.is(i, lcATX) {
		m := atxHeading.FindStringSubmatch(l)
		p.addHeading(i, i, len(m[1]))
		return 1
	}
	if p.is(i, lcHTMLHeading) {
		m := htmlHeading.FindStringSubmatch(l)
		p.addHeading(i, i, int(m[1][0]-'0'))
		return 1
	}
	// reStructuredText: an overline, the title, an underline.
	if p.is(i, lcAdornment) && i+2 < len(lines) && strings.TrimSpace(lines[i+2]) == t && strings.TrimSpace(lines[i+1]) != "" {
		p.addHeading(i, i+2, p.adornLevel("over"+t[:1]))
		return 3
	}
	// Setext and reStructuredText: the title, an underline.
	if i+1 < len(lines) && !p.is(i, lcAdornment|lcItem|lcPipe) && p.is(i+1, lcAdornment) {
		u := strings.TrimSpace(lines[i+1])
		if u[0] != '*' && utf8.RuneCountInString(u) >= min(3, utf8.RuneCountInString(t)) {
			level := p.adornLevel(u[:1])
			p.addHeading(i, i+1, level)
			return 2
		}
	}
	if p.is(i, lcArticle) {
		level := 7
		switch {
		case strings.Contains(t, "章"):
			level = 4
		case strings.Contains(t, "節"):
			level = 5
		case strings.Contains(t, "款"):
			level = 6
		}
		p.addHeading(i, i, level)
		return 1
	}
	return 0
}

// adornLevel is the level of a reStructuredText adornment: the order of
// its first use (Markdown documents underline with = for 1, - for 2).
func (p *parser) adornLevel(a string) int {
	if l, ok := p.adorn[a]; ok {
		return l
	}
	l := len(p.adorn) + 1
	p.adorn[a] = l
	return l
}

// IndentWidth is the width of a line's leading white space, a tab as
// four columns and an ideographic space as two.
func IndentWidth(l string) int {
	n := 0
	for _, r := range l {
		switch r {
		case ' ':
			n++
		case '\t':
			n += 4
		case '　':
			n += 2
		default:
			return n
		}
	}
	return n
}

// paragraph adds the paragraph that starts at line i (up to
// maxParagraphLines lines of it) and returns its last line.
func (p *parser) paragraph(i int) int {
	lines := p.s.lines
	end := i
	for j := i + 1; j < len(lines) && j-i < maxParagraphLines; j++ {
		l := lines[j]
		t := strings.TrimSpace(l)
		if p.is(j, lcBlank|lcAnchor|lcFence|lcComment|lcATX|lcHTMLHeading|lcArticle|lcAdornment|lcItem|lcPipe|lcTableStart|lcListTable) ||
			j+1 < len(lines) && p.is(j+1, lcAdornment) {
			break
		}
		end = j
		if strings.HasSuffix(t, "::") {
			break
		}
	}
	lead := -1
	if len(p.list) > 0 {
		// A paragraph indented under an item belongs to it.
		if top := p.list[len(p.list)-1]; IndentWidth(lines[i]) > p.s.units[top].level {
			lead = top
		} else {
			p.list = p.list[:0]
		}
	}
	k := p.add(unit{start: i, end: end, kind: unitText, lead: lead})
	if lead < 0 {
		p.lastText = k
	}
	return end
}

// literal adds the literal block indented under a line of indent ind,
// from line i on, and returns the line after it.
func (p *parser) literal(i, ind int) int {
	lines := p.s.lines
	start := i
	for start < len(lines) && strings.TrimSpace(lines[start]) == "" {
		start++
	}
	end := start - 1
	for j := start; j < len(lines); j++ {
		if t := strings.TrimSpace(lines[j]); t != "" {
			if IndentWidth(lines[j]) <= ind {
				break
			}
			end = j
		}
	}
	if end >= start {
		p.add(unit{start: start, end: end, kind: unitCode, lead: -1})
		return end + 1
	}
	return start
}

// itemLead is the item a block indented by ind stands in, -1 for none.
func (p *parser) itemLead(ind int) int {
	for k := len(p.list) - 1; k >= 0; k-- {
		if ind > p.s.units[p.list[k]].level {
			return p.list[k]
		}
	}
	return -1
}

// leadPhrase ends a sentence or item that leads into the list below it:
// 次のとおり, 以下の通り, ：.
var leadPhrase = lazyre.New(`(次の|以下の|下記の|次に掲げる|とおり|通り).{0,30}[。：:]?$|[：:]$`)

// item adds the list item at line i (indented by ind) and its
// continuation lines and returns the line after them.
func (p *parser) item(i, ind int) int {
	lines := p.s.lines
	end := i
	for j := i + 1; j < len(lines); j++ {
		if p.is(j, lcBlank|lcItem|lcFence|lcPipe|lcATX|lcArticle|lcAnchor|lcAdornment|lcComment) || j+1 < len(lines) && p.is(j+1, lcAdornment) {
			break
		}
		end = j
	}
	// The open items: those less indented than this one stay (its
	// parents); a sibling or a deeper item closes.
	sibling := -1 // the item before this one at its indentation
	for len(p.list) > 0 && p.s.units[p.list[len(p.list)-1]].level >= ind {
		last := p.list[len(p.list)-1]
		p.list = p.list[:len(p.list)-1]
		if p.s.units[last].level == ind {
			sibling = last
			if leadPhrase.MatchString(strings.TrimSpace(lines[p.s.units[last].end])) {
				// 1. …次のとおり then 1. 本人が… at the same indentation:
				// the first leads into the items after it.
				p.list = append(p.list, last)
				break
			}
		}
	}
	lead := -1
	switch {
	case len(p.list) > 0:
		lead = p.list[len(p.list)-1]
	case sibling >= 0:
		lead = p.s.units[sibling].lead // the list's lead-in
	case p.lastText >= 0 && p.s.units[p.lastText].end < i && p.onlyBlankBetween(p.s.units[p.lastText].end, i):
		lead = p.lastText
	case p.lastText >= 0 && p.s.units[p.lastText].end < i:
		// Items after blank lines keep the lead of the list's items.
		if prev := p.prevItem(i); prev >= 0 && p.s.units[prev].lead == p.lastText {
			lead = p.lastText
		}
	}
	kind := unitItem
	if tocLink.MatchString(lines[i]) && end == i {
		kind = unitLinks
	}
	k := p.add(unit{start: i, end: end, kind: kind, level: ind, lead: lead})
	p.list = append(p.list, k)
	return end + 1
}

// prevItem is the last unit before line i when it is an item, else -1.
func (p *parser) prevItem(i int) int {
	for j := i - 1; j >= 0; j-- {
		if k := p.s.of[j]; k >= 0 {
			if u := p.s.units[k]; u.kind == unitItem || u.kind == unitLinks {
				return k
			}
			return -1
		}
	}
	return -1
}

func (p *parser) onlyBlankBetween(a, b int) bool {
	for j := a + 1; j < b; j++ {
		if strings.TrimSpace(p.s.lines[j]) != "" {
			return false
		}
	}
	return true
}

// tableAt adds the table that starts at line i (its rows) and returns
// its lines, or 0 when no table starts there.
func (p *parser) tableAt(i int) int {
	switch {
	case p.is(i, lcPipe):
		return p.markdownTable(i)
	case p.is(i, lcTableStart):
		return p.htmlTable(i)
	case p.is(i, lcListTable):
		return p.listTable(i)
	}
	return 0
}

// markdownTable adds the rows of the table at line i: the rows above its
// |---| rule are its header.
func (p *parser) markdownTable(i int) int {
	lines := p.s.lines
	end := i
	for end+1 < len(lines) && p.is(end+1, lcPipe) {
		end++
	}
	header := -1
	var rows []int
	for j := i; j <= end; j++ {
		if p.is(j, lcMDRule) {
			if len(rows) > 0 && header < 0 {
				header = rows[len(rows)-1]
			}
			continue
		}
		k := p.add(unit{start: j, end: j, kind: unitRow, header: -1, lead: p.lastText, cells: markdownCells(lines[j])})
		rows = append(rows, k)
	}
	p.endTable(header, rows)
	return end - i + 1
}

// markdownCells are the cells of a Markdown table row, markup removed.
func markdownCells(l string) []string {
	t := strings.TrimSpace(l)
	t = strings.TrimPrefix(strings.TrimPrefix(t, "|"), "｜")
	t = strings.TrimSuffix(strings.TrimSuffix(t, "|"), "｜")
	t = strings.ReplaceAll(t, `\|`, "\x00")
	var cells []string
	for _, c := range strings.FieldsFunc(t, func(r rune) bool { return r == '|' || r == '｜' }) {
		cells = append(cells, plainText(strings.ReplaceAll(c, "\x00", "|")))
	}
	return cells
}

// plainText is text without its markup: tags, link targets, emphasis.
func plainText(s string) string {
	s = mdLink.ReplaceAllString(s, "$1")
	s = strings.NewReplacer("<br>", " ", "<br/>", " ", "<br />", " ").Replace(s)
	s = htmlTag.ReplaceAllString(s, "")
	s = strings.NewReplacer("**", "", "__", "", "`", "", "&nbsp;", " ", "&lt;", "<", "&gt;", ">", "&amp;", "&", "&quot;", `"`).Replace(s)
	return strings.Join(strings.Fields(s), " ")
}

var (
	htmlRowOpen  = lazyre.New(`(?i)<tr[\s>]`)
	htmlRowClose = lazyre.New(`(?i)</tr\s*>`)
	htmlCell     = lazyre.New(`(?is)<(t[hd])([^>]*)>(.*?)(?:</t[hd]\s*>|$)`)
	htmlTHead    = lazyre.New(`(?i)<thead[\s>]`)
	htmlTBody    = lazyre.New(`(?i)</thead\s*>|<tbody[\s>]`)
)

// htmlTable adds the rows (<tr>…</tr>, over one line or several) of the
// HTML table at line i: the rows of <thead>, or the first row when its
// cells are all <th>, are its header.
func (p *parser) htmlTable(i int) int {
	lines := p.s.lines
	end := i
	for end < len(lines) && !strings.Contains(strings.ToLower(lines[end]), "</table") {
		end++
	}
	end = min(end, len(lines)-1)
	header, inHead := -1, false
	var rows []int
	for j := i; j <= end; {
		l := lines[j]
		if htmlTHead.MatchString(l) {
			inHead = true
		}
		if htmlTBody.MatchString(l) {
			inHead = false
		}
		if loc := htmlRowOpen.FindStringIndex(l); loc != nil {
			k := j
			for k <= end && !htmlRowClose.MatchString(lines[k]) && (k == j || !htmlRowOpen.MatchString(lines[k])) {
				k++
			}
			if k > end || k > j && htmlRowOpen.MatchString(lines[k]) && !htmlRowClose.MatchString(lines[k]) {
				k--
			}
			text := strings.Join(lines[j:k+1], "\n")
			var cells []string
			allTH := true
			for _, c := range htmlCell.FindAllStringSubmatch(text, -1) {
				cells = append(cells, plainText(c[3]))
				if !strings.EqualFold(c[1], "th") {
					allTH = false
				}
			}
			u := p.add(unit{start: j, end: k, kind: unitRow, header: -1, lead: p.lastText, cells: cells})
			rows = append(rows, u)
			if header < 0 && len(cells) > 0 && (inHead || allTH && len(rows) == 1) {
				header = u
			}
			j = k + 1
			continue
		}
		j++
	}
	if header < 0 {
		header = p.labelRows(rows)
	}
	p.endTable(header, rows)
	return end - i + 1
}

// maxLabel is the most runes a cell of a header row written with <td>
// holds: a column's name, not a sentence.
const maxLabel = 24

// labelRows finds the header of an HTML table written with <td> cells
// only, as a word processor exports one, and returns it (-1: none). The
// first row is the header when its cells are short labels, most of them
// with no number, while a later row holds numbers in more of its cells
// (週所定労働日数 | １年間の所定労働日数 | 勤続年数 over ３日 | 121日～168日 |
// 5日), or when the table is two rows across three columns or more (勤続
// 期間 | 1年6ヶ月 | … over 日数 | 11日 | …). Rows under it whose first
// cell is empty and that fill the columns a name spans go on naming them
// (６か月 | １年６か月 under 勤続年数):
// the header's cells become each column's names joined, a name spanning
// the empty cells to its right when a row below names them.
func (p *parser) labelRows(rows []int) int {
	if len(rows) < 2 {
		return -1
	}
	cells := func(j int) []string { return p.s.units[rows[j]].cells }
	filled := func(cs []string) int {
		n := 0
		for _, c := range cs {
			if c != "" {
				n++
			}
		}
		return n
	}
	first := cells(0)
	if filled(first) < 2 {
		return -1
	}
	// numeric is the share of a row's filled cells that hold a number.
	numeric := func(cs []string) float64 {
		n := 0
		for _, c := range cs {
			if strings.ContainsAny(c, "0123456789０１２３４５６７８９") {
				n++
			}
		}
		return float64(n) / float64(max(filled(cs), 1))
	}
	short := true
	for _, c := range first {
		if strings.Contains(c, "。") || utf8.RuneCountInString(c) > maxLabel {
			short = false
		}
	}
	if !short {
		return -1
	}
	across := len(rows) == 2 && len(first) >= 3 && len(cells(1)) >= 3
	numbers := false
	for j := 1; j < len(rows) && !numbers; j++ {
		numbers = numeric(cells(j)) > numeric(first)
	}
	if !across && !(numeric(first) < 0.5 && numbers) {
		return -1
	}
	// A row under it goes on naming the columns when its first cell is
	// empty and it fills a column the first row leaves empty (under a name
	// that spans it); a row that fills only named columns is data.
	continues := func(cs []string) bool {
		if len(cs) == 0 || cs[0] != "" {
			return false
		}
		for i, c := range cs {
			if c != "" && (i >= len(first) || first[i] == "") {
				return true
			}
		}
		return false
	}
	n := 1
	for n < len(rows)-1 && n < 3 && continues(cells(n)) {
		n++
	}
	if n == 1 {
		return rows[0]
	}
	names := make([]string, 0, len(first))
	for j := 0; j < n; j++ {
		last := ""
		for i, c := range cells(j) {
			below := false
			for b := j + 1; b < n; b++ {
				below = below || i < len(cells(b)) && cells(b)[i] != ""
			}
			if c == "" && below {
				c = last // a name spans the columns a row below goes on naming
			}
			if c != "" {
				last = c
			}
			for len(names) <= i {
				names = append(names, "")
			}
			if c != "" && names[i] != "" {
				names[i] += " " + c
			} else if c != "" {
				names[i] = c
			}
		}
	}
	for j := 0; j < n-1; j++ {
		p.s.units[rows[j]].head = true
	}
	p.s.units[rows[n-1]].cells = names
	return rows[n-1]
}

// listTable adds the rows of a reStructuredText list-table at line i (*
// - starts a row, - each further cell): the first :header-rows: rows are
// its header.
func (p *parser) listTable(i int) int {
	lines := p.s.lines
	ind := IndentWidth(lines[i])
	caption := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(lines[i]), ".. list-table::"))
	headerRows := 0
	end := i
	for j := i + 1; j < len(lines); j++ {
		if t := strings.TrimSpace(lines[j]); t != "" {
			if IndentWidth(lines[j]) <= ind {
				break
			}
			end = j
		}
	}
	captionUnit := -1
	if caption != "" {
		captionUnit = p.add(unit{start: i, end: i, kind: unitText, lead: -1})
	}
	var rows []int
	for j := i + 1; j <= end; {
		l := lines[j]
		if m := rstHeaderRow.FindStringSubmatch(l); m != nil {
			headerRows = int(m[1][0] - '0')
			j++
			continue
		}
		if !rstRowStart.MatchString(l) {
			j++
			continue
		}
		k := j
		for k+1 <= end && !rstRowStart.MatchString(lines[k+1]) {
			k++
		}
		for k > j && strings.TrimSpace(lines[k]) == "" {
			k--
		}
		var cells []string
		for _, c := range lines[j : k+1] {
			t := strings.TrimSpace(c)
			t = strings.TrimPrefix(t, "*")
			t = strings.TrimSpace(t)
			if strings.HasPrefix(t, "-") {
				cells = append(cells, plainText(strings.TrimSpace(t[1:])))
			} else if len(cells) > 0 && t != "" {
				cells[len(cells)-1] += " " + plainText(t)
			}
		}
		lead := captionUnit
		if lead < 0 {
			lead = p.lastText
		}
		rows = append(rows, p.add(unit{start: j, end: k, kind: unitRow, header: -1, lead: lead, cells: cells}))
		j = k + 1
	}
	if headerRows > 0 && len(rows) > headerRows {
		for _, k := range rows[:headerRows] {
			p.s.units[k].head = true
		}
		for _, k := range rows[headerRows:] {
			p.s.units[k].header = rows[headerRows-1]
		}
	}
	p.list = p.list[:0]
	return end - i + 1
}

// trail is the headings a unit stands under, nearest first: the title
// items it stands under (titleItem), then its headings.
func (s *structure) trail(k int) []int {
	var out []int
	for l := s.units[k].lead; l >= 0 && len(out) < 6; l = s.units[l].lead {
		if s.titleItem(l) {
			out = append(out, l)
		}
	}
	for h := s.units[k].heading; h >= 0 && len(out) < 6; h = s.units[h].heading {
		out = append(out, h)
	}
	return out
}

// bracketTitle is an article's title alone in brackets: （育児休業の期間等）.
var bracketTitle = lazyre.New(`^#{0,6}\s*(?:[（(][^（(）)]{1,40}[）)]|第\s*[0-9０-９一二三四五六七八九十百]+\s*条\s*[（(][^（(）)]{1,40}[）)])\s*$`)

// titleItem reports whether unit k is an item that is an article's title
// (a converted document's list of articles: "3.  ### （育児休業の期間等）"
// above its clauses): its items stand under it as under a heading.
func (s *structure) titleItem(k int) bool {
	u := s.units[k]
	if u.kind != unitItem || u.end != u.start {
		return false
	}
	line := s.lines[u.start]
	m := itemMark.FindStringIndex(line)
	return m != nil && bracketTitle.MatchString(strings.TrimSpace(line[m[1]:]))
}

// text is the lines of a unit joined.
func (s *structure) text(k int) string {
	u := s.units[k]
	return strings.Join(s.lines[u.start:u.end+1], "\n")
}

// WithoutItemHeading drops the heading marks a converter writes after a
// list item's marker: 1.  #### 育児休業の期間は… → 1.  育児休業の期間は….
func WithoutItemHeading(t string) string {
	return itemHeading.ReplaceAllString(t, "$1")
}

// plain is a unit's text without markup, one line: a row as its cells
// with their column headers (本人が結婚したとき | 休暇日数: 5日), a heading
// without its marks.
func (s *structure) plain(k int) string {
	u := s.units[k]
	switch u.kind {
	case unitRow:
		if len(u.cells) == 0 {
			break
		}
		var hdr []string
		if u.header >= 0 {
			hdr = s.units[u.header].cells
		}
		parts := make([]string, 0, len(u.cells))
		for i, c := range u.cells {
			if c == "" {
				continue
			}
			if i > 0 && i < len(hdr) && hdr[i] != "" && hdr[i] != c {
				c = hdr[i] + ": " + c
			}
			parts = append(parts, c)
		}
		return strings.Join(parts, " | ")
	case unitHeading:
		var parts []string
		for _, l := range s.lines[u.start : u.end+1] {
			t := strings.TrimSpace(l)
			if adornment(t) {
				continue
			}
			parts = append(parts, plainText(strings.TrimSpace(strings.Trim(strings.TrimLeft(t, "#"), " #"))))
		}
		return strings.Join(parts, " ")
	}
	var parts []string
	for _, l := range s.lines[u.start : u.end+1] {
		if t := plainText(WithoutItemHeading(strings.TrimSpace(l))); t != "" {
			parts = append(parts, t)
		}
	}
	// The lines as they read: no space where a Japanese sentence or word
	// was wrapped.
	return analyzer.JoinWrapped(parts)
}

// endTable marks a table's header row (-1: none) and gives each of its
// other rows that header; a table ends any list.
func (p *parser) endTable(header int, rows []int) {
	if header >= 0 {
		p.s.units[header].head = true
		for _, k := range rows {
			if k != header && !p.s.units[k].head {
				p.s.units[k].header = header
			}
		}
	}
	p.list = p.list[:0]
}
