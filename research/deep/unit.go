package deep

import (
	"strings"
	"unicode/utf8"

	"lwr/analyzer/lazyre"
	"lwr/index"
	"lwr/index/extract"
)

// A piece of evidence is a unit of meaning of its document (SPEC §13): an
// article with its title, run on to the article's end across its tables
// and paragraphs; a list with its lead-in or heading; a table row with
// its column headers; otherwise the lines of a rule up to a blank line.
// It never runs past a boundary of its document: an article, chapter or
// heading, and in a PDF or Office file a page, sheet, slide, part
// (a shape, a comment, the notes), a Word heading or a gap of rows in a
// sheet (index.File.Locators say where each line stands).

// Bounds of a unit.
const (
	maxUnitLines = 30 // an article, or a list with its lead-in
)

var (
	// articleTitle is a rule's article heading, whatever its spacing (a
	// PDF writes 第 4 条): 第4条（日当）, ### 第6条（日当）.
	articleTitle = lazyre.New(`^(?:#{1,6}\s*)?第\s*[0-9０-９一二三四五六七八九十百千]+\s*条(?:\s*の\s*[0-9０-９一二三四五六七八九十]+)?\s*[（(][^）)]*[）)]\s*$`)
	// articleStart is an article whose number begins its first sentence
	// (第１条 この規則は、…), under a caption line (（目的）).
	articleStart = lazyre.New(`^第\s*[0-9０-９一二三四五六七八九十百千]+\s*条(?:\s*の\s*[0-9０-９一二三四五六七八九十]+)?(?:[\s　]|$)`)
	// caption is a line that is only a caption in parentheses: （目的）.
	caption = lazyre.New(`^[（(][^（）()]{1,30}[）)]$`)
	// chapterTitle is a chapter, section or part of a rule: 第３章 雑 則.
	chapterTitle = lazyre.New(`^(?:#{1,6}\s*)?第\s*[0-9０-９一二三四五六七八九十百千]+\s*[章節款編部](?:\s|$)`)
	// paragraphMark starts a paragraph (項) of an article: 2　…, ３ ….
	paragraphMark = lazyre.New(`^[0-9０-９]{1,2}[　 ]+`)
	// listItem is a line of a list: - item, 1. item, (1) item, ・item.
	listItem = lazyre.New(`^\s*(?:[-*+]\s+|[0-9０-９]{1,3}[.．)）]\s*|[（(][0-9０-９]{1,3}[）)]\s*|[・●○■□◆◇※]\s*)`)
	// bullet is a list item's marker, left out of a claim.
	bullet = lazyre.New(`^(?:[-*+]\s+|[・●○■□◆◇]\s*)`)
	// headingNumber is the number of a heading: 10. よくある差戻しの理由.
	headingNumber = lazyre.New(`^(?:[0-9０-９]{1,3}(?:[.．][0-9０-９]{1,3})*[.．、)）]?\s+|[0-9０-９]{1,3}[.．、)）])`)
	// tableRule is a Markdown table's border row.
	tableRule = lazyre.New(`^\|?[\s:\-|]+\|?$`)
)

// unitKey is where a line stands in a PDF or Office document, its row
// left out: lines of one unit share it.
func unitKey(f *index.File, i int) extract.Locator {
	if i < 0 || i >= len(f.Locators) {
		return extract.Locator{}
	}
	l := f.Locators[i]
	l.Row = 0
	return l
}

// sameUnit reports whether line j (0-based) stands in the unit of line i:
// the same page, sheet, slide, part and Word heading, and in a sheet the
// next row.
func sameUnit(f *index.File, i, j int) bool {
	if len(f.Locators) == 0 {
		return true
	}
	if unitKey(f, i) != unitKey(f, j) {
		return false
	}
	if i > j {
		i, j = j, i
	}
	if i >= 0 && j < len(f.Locators) {
		// Rows of a sheet: a row left empty ends a table.
		for k := i + 1; k <= j; k++ {
			a, b := f.Locators[k-1], f.Locators[k]
			if a.Sheet != "" && a.Row > 0 && b.Row > a.Row+1 {
				return false
			}
		}
	}
	return true
}

func trimmed(l string) string { return strings.TrimSpace(l) }

func isHeading(t string) bool { return strings.HasPrefix(t, "#") }

func isTableRow(t string) bool { return strings.HasPrefix(t, "|") }

// isBoundary reports whether a line starts a new part of its document:
// a heading, an article or a chapter.
func isBoundary(t string) bool {
	return isHeading(t) || articleTitle.MatchString(t) || articleStart.MatchString(t) || caption.MatchString(t) || chapterTitle.MatchString(t)
}

// span is the lines a piece of evidence cites (1-based, inclusive), the
// first line its claims state, and the claims: one per paragraph, its
// lines joined with " / ".
type span struct {
	start, claimStart, end int
	claims                 []string
}

// unitOf is the unit of meaning that holds lines first–last (1-based) of
// a document.
func unitOf(f *index.File, first, last int) span {
	lines := f.Lines
	n := len(lines)
	first, last = max(1, first), min(max(first, last), n)
	t := func(i int) string { return trimmed(lines[i-1]) } // 1-based
	// The article the lines stand in: its title above them (第4条（日当）,
	// or a caption （目的） over 第１条 …), in the same unit, with no other
	// boundary between.
	article, body := 0, 0
	for i := first; i >= 1 && first-i < maxUnitLines; i-- {
		if !sameUnit(f, i-1, first-1) {
			break
		}
		s := t(i)
		if articleTitle.MatchString(s) || caption.MatchString(s) {
			article, body = i, i+1
			break
		}
		if articleStart.MatchString(s) {
			article, body = i, i
			if i > 1 && sameUnit(f, i-2, i-1) && caption.MatchString(t(i-1)) {
				article = i - 1
			}
			break
		}
		if i < first && isBoundary(s) {
			break
		}
	}
	if article > 0 {
		end := body - 1
		for i := body; i <= n && i-article < maxUnitLines && sameUnit(f, article-1, i-1) && (i == body || !isBoundary(t(i))); i++ {
			end = i
		}
		for end >= body && t(end) == "" {
			end--
		}
		if end < last || end < body {
			// The article is longer than a unit: from the lines found.
			return lineSpan(f, first, last)
		}
		return span{start: article, claimStart: body, end: end, claims: claimsOf(f, body, end)}
	}
	return lineSpan(f, first, last)
}

// lineSpan is the unit of lines first–last outside an article: a list
// with its lead-in, a table row with its header, or the rule they start
// up to a blank line or the next part (maxEvidenceLines at most).
func lineSpan(f *index.File, first, last int) span {
	lines := f.Lines
	n := len(lines)
	t := func(i int) string { return trimmed(lines[i-1]) }
	ok := func(i int) bool { return i >= 1 && i <= n && sameUnit(f, first-1, i-1) }
	start, claimStart := first, first
	switch {
	case isTableRow(t(first)) && !tableRule.MatchString(t(first)):
		// A row with its column headers: the table's first row.
		h := first
		for h-1 >= 1 && ok(h-1) && isTableRow(t(h-1)) && first-h < maxEvidenceLines {
			h--
		}
		end := first
		if h < first && isTableRow(t(h)) {
			return span{start: h, claimStart: h, end: end, claims: []string{joinClaim(f, []int{h, first})}}
		}
		return span{start: first, claimStart: first, end: end, claims: []string{joinClaim(f, []int{first})}}
	case len(f.Locators) > 0 && strings.Contains(lines[first-1], "\t"):
		// A row of a sheet: its table, from its first row (the header) to
		// a row left empty.
		h := first
		for h-1 >= 1 && ok(h-1) && strings.Contains(lines[h-2], "\t") && first-h < maxEvidenceLines {
			h--
		}
		end := max(first, last)
		for end+1 <= n && ok(end+1) && strings.Contains(lines[end], "\t") && end+1-h < maxEvidenceLines {
			end++
		}
		return span{start: h, claimStart: h, end: end, claims: claimsOf(f, h, end)}
	case listItem.MatchString(lines[first-1]):
		// A list item with the lead-in or heading of its list (right
		// above it, or a heading above a blank line): the list from
		// there, to its end.
		i := first - 1
		for i >= 1 && ok(i) && listItem.MatchString(lines[i-1]) && first-i < maxUnitLines {
			i--
		}
		switch {
		case i >= 1 && ok(i) && t(i) != "" && !articleTitle.MatchString(t(i)) && !chapterTitle.MatchString(t(i)):
			start = i
		case i >= 2 && ok(i-1) && t(i) == "" && isHeading(t(i-1)):
			start = i - 1
		}
		claimStart = start
		end := max(first, last)
		for end+1 <= n && ok(end+1) && listItem.MatchString(lines[end]) && end+1-start < maxUnitLines {
			end++
		}
		return span{start: start, claimStart: claimStart, end: end, claims: []string{joinClaim(f, rangeOf(claimStart, end))}}
	}
	end := max(first, last)
	for end+1 <= n && ok(end+1) && end+1-first < maxEvidenceLines {
		s := t(end + 1)
		if s == "" || isBoundary(s) {
			break
		}
		end++
	}
	if first > 1 && ok(first-1) {
		if s := t(first - 1); articleTitle.MatchString(s) || strings.HasPrefix(s, "##") {
			start = first - 1
		}
	}
	return span{start: start, claimStart: first, end: end, claims: []string{joinClaim(f, rangeOf(first, end))}}
}

func rangeOf(a, b int) []int {
	var out []int
	for i := a; i <= b; i++ {
		out = append(out, i)
	}
	return out
}

// claimsOf are the claims of lines a–b of an article: a claim per
// paragraph — the first (with the tables that follow it), then one per
// 項 (2　…, 3　…), its number left out.
func claimsOf(f *index.File, a, b int) []string {
	var out []string
	var cur []int
	flush := func() {
		if c := joinClaim(f, cur); c != "" {
			out = append(out, c)
		}
		cur = nil
	}
	for i := a; i <= b; i++ {
		if len(cur) > 0 && paragraphMark.MatchString(trimmed(f.Lines[i-1])) {
			flush()
		}
		cur = append(cur, i)
	}
	flush()
	return out
}

// joinClaim is the claim of some lines: each as people read it (a list
// item without its marker, a heading without its #, a paragraph without
// its number, a sheet's cells with " | " between them), joined with " / "
// and cut between two lines when it is long.
func joinClaim(f *index.File, idx []int) string {
	// The columns of a sheet no row of the claim fills are left out.
	var rows [][]string
	for _, i := range idx {
		if i >= 1 && i <= len(f.Lines) && strings.Contains(f.Lines[i-1], "\t") {
			rows = append(rows, strings.Split(f.Lines[i-1], "\t"))
		}
	}
	filled := map[int]bool{}
	for _, r := range rows {
		for c, v := range r {
			filled[c] = filled[c] || strings.TrimSpace(v) != ""
		}
	}
	var parts []string
	for _, i := range idx {
		if i < 1 || i > len(f.Lines) {
			continue
		}
		l := f.Lines[i-1]
		s := trimmed(l)
		if s == "" || tableRule.MatchString(s) {
			continue
		}
		switch {
		case strings.Contains(l, "\t"):
			s = cells(l, filled)
		case isHeading(s):
			s = strings.TrimSpace(headingNumber.ReplaceAllString(strings.TrimSpace(strings.TrimLeft(s, "#")), ""))
		}
		s = strings.TrimSpace(paragraphMark.ReplaceAllString(bullet.ReplaceAllString(s, ""), ""))
		if s != "" {
			parts = append(parts, s)
		}
	}
	claim := strings.Join(parts, " / ")
	if utf8.RuneCountInString(claim) > maxClaimChars {
		// Cut between two lines, never inside one (a number cut in two
		// would be a number no line states).
		for k := len(parts) - 1; k >= 1; k-- {
			if c := strings.Join(parts[:k], " / "); utf8.RuneCountInString(c) <= maxClaimChars {
				return c + " / …"
			}
		}
	}
	return claim
}

// cells is a row of a sheet as people read it: its cells with " | "
// between them, the columns filled nowhere and the empty cells at its
// end left out.
func cells(l string, filled map[int]bool) string {
	var cs []string
	for c, v := range strings.Split(l, "\t") {
		if filled[c] {
			cs = append(cs, strings.TrimSpace(v))
		}
	}
	for len(cs) > 0 && cs[len(cs)-1] == "" {
		cs = cs[:len(cs)-1]
	}
	return strings.Join(cs, " | ")
}

// titledUnits are the units of a document whose title names a subtopic:
// 第5条（交通費） for 交通費, ## 交通費の精算. name is folded.
func titledUnits(f *index.File, name string) []span {
	var out []span
	for i, l := range f.Lines {
		s := trimmed(l)
		title := ""
		switch {
		case articleTitle.MatchString(s):
			if a := strings.IndexAny(s, "（("); a >= 0 {
				title = s[a:]
			}
		case strings.HasPrefix(s, "##"):
			// A section; a document's title (# …) names the whole of it.
			title = strings.TrimLeft(s, "#")
		default:
			continue
		}
		if !strings.Contains(fold(title), name) {
			continue
		}
		u := unitOf(f, i+1, i+1)
		if isHeading(s) && !articleTitle.MatchString(s) {
			u = sectionOf(f, i+1)
		}
		if u.start == i+1 && len(u.claims) > 0 && u.end > i+1 {
			out = append(out, u)
		}
	}
	return out
}

// sectionOf is the section under the heading on line h (1-based): its
// lines to the next heading, article or chapter (maxUnitLines at most),
// a claim per block of lines between blank lines.
func sectionOf(f *index.File, h int) span {
	n := len(f.Lines)
	end := h
	for i := h + 1; i <= n && i-h < maxUnitLines && sameUnit(f, h-1, i-1) && !isBoundary(trimmed(f.Lines[i-1])); i++ {
		end = i
	}
	for end > h && trimmed(f.Lines[end-1]) == "" {
		end--
	}
	var claims []string
	var cur []int
	flush := func() {
		if c := joinClaim(f, cur); c != "" {
			claims = append(claims, c)
		}
		cur = nil
	}
	for i := h + 1; i <= end; i++ {
		if trimmed(f.Lines[i-1]) == "" {
			// A table or a list after its lead-in stays with it.
			if i+1 <= end && (isTableRow(trimmed(f.Lines[i])) || listItem.MatchString(f.Lines[i])) {
				continue
			}
			flush()
			continue
		}
		cur = append(cur, i)
	}
	flush()
	return span{start: h, claimStart: h + 1, end: end, claims: claims}
}

// leadOf is the first line with text of the page, sheet or slide line
// start (1-based) stands in; of the document for a text file.
func leadOf(f *index.File, start int) string {
	var at extract.Locator
	if start-1 < len(f.Locators) {
		at = f.Locators[start-1]
	}
	for i, l := range f.Lines[:min(start, len(f.Lines))] {
		if i < len(f.Locators) {
			if b := f.Locators[i]; b.Page != at.Page || b.Sheet != at.Sheet || b.Slide != at.Slide || b.Part != "" {
				continue
			}
		}
		if s := strings.TrimSpace(strings.TrimLeft(trimmed(l), "#")); s != "" {
			return s
		}
	}
	return ""
}
