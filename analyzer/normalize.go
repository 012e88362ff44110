package analyzer

import (
	"strings"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Fold is the normalization every comparison in lwr uses: Unicode NFKC
// (full-width ASCII to half-width, half-width katakana to full-width),
// lower case, and the wave dash 〜 folded to "~" (NFKC already maps ～ to it).
// It keeps every space, so that a folded query still splits into its words.
func Fold(s string) string {
	if isPlainASCII(s) {
		if !hasUpper(s) {
			return s
		}
		return strings.ToLower(s)
	}
	if isStable(s) {
		return s
	}
	s = norm.NFKC.String(s)
	s = strings.ToLower(s)
	if strings.Contains(s, "〜") {
		s = strings.ReplaceAll(s, "〜", "~")
	}
	return s
}

// FoldText is Fold with the spaces between two Japanese characters, or a
// Japanese character and a digit, dropped (a heading justified as 「総　則」
// or 「雑 則」 reads 総則, 令和 7 年 reads 令和7年; see cjkRune): what the analyzer, the bigram view and literal (full-text)
// search compare, FoldText(query word) with FoldText(text).
func FoldText(s string) string {
	if !isPlainASCII(s) && hasCJKSpace(s) {
		s = dropCJKSpaces(s)
	}
	return Fold(s)
}

// folded is a line after folding with, for every byte of it, the byte range
// of the original text it came from.
type folded struct {
	text string
	// start[i], end[i] are the original offsets of the segment that produced
	// byte i of text; nil when text and the original have the same bytes
	// but for ASCII case.
	start, end []int
}

// orig maps a half-open byte range of the folded text to the original.
func (f *folded) orig(a, b int) (int, int) {
	if f.start == nil {
		return a, b
	}
	if b <= a {
		return f.start[a], f.start[a]
	}
	return f.start[a], f.end[b-1]
}

// foldMapped folds s cluster by cluster (a starter and the marks that
// combine with it), so that every folded byte can be traced back to the
// original bytes exactly; without offsets, the same text is made without
// the maps (start and end are nil, orig is not to be called).
func foldMapped(s string, offsets bool) folded {
	if isPlainASCII(s) {
		if hasUpper(s) {
			return folded{text: strings.ToLower(s)}
		}
		return folded{text: s}
	}
	drop := hasCJKSpace(s)
	if !drop && isStable(s) {
		return folded{text: s}
	}
	var b strings.Builder
	b.Grow(len(s))
	var start, end []int
	if offsets {
		start = make([]int, 0, len(s))
		end = make([]int, 0, len(s))
	}
	for i := 0; i < len(s); {
		if drop {
			if j := cjkSpaceEnd(s, i); j > i {
				i = j // no folded byte comes of these
				continue
			}
		}
		if r, n := utf8.DecodeRuneInString(s[i:]); r >= utf8.RuneSelf && stableRune(r) {
			if nr, _ := utf8.DecodeRuneInString(s[i+n:]); i+n == len(s) || stableRune(nr) {
				for k := 0; offsets && k < n; k++ {
					start = append(start, i+k)
					end = append(end, i+k+1)
				}
				b.WriteString(s[i : i+n])
				i += n
				continue
			}
		}
		j := clusterEnd(s, i)
		c := s[i:j]
		out := c
		if !(len(c) == 1 && c[0] < utf8.RuneSelf) || hasUpper(c) {
			out = foldCluster(c)
		}
		switch {
		case !offsets:
		case out == c:
			for k := 0; k < len(c); k++ {
				start = append(start, i+k)
				end = append(end, i+k+1)
			}
		default:
			for k := 0; k < len(out); k++ {
				start = append(start, i)
				end = append(end, j)
			}
		}
		b.WriteString(out)
		i = j
	}
	return folded{text: b.String(), start: start, end: end}
}

// foldCluster folds one cluster; a result equal to c keeps byte identity.
func foldCluster(c string) string {
	if len(c) == 1 {
		if 'A' <= c[0] && c[0] <= 'Z' {
			return string(c[0] + 'a' - 'A')
		}
		return c
	}
	out := c
	if !norm.NFKC.IsNormalString(out) {
		out = norm.NFKC.String(out)
	}
	out = strings.ToLower(out)
	if out == "〜" {
		out = "~"
	}
	return out
}

// clusterEnd returns the end of the cluster starting at i: the rune at i
// and every following rune that has no normalization boundary before it.
func clusterEnd(s string, i int) int {
	_, n := utf8.DecodeRuneInString(s[i:])
	j := i + n
	for j < len(s) {
		if s[j] < utf8.RuneSelf {
			break
		}
		p := norm.NFKC.PropertiesString(s[j:])
		if p.BoundaryBefore() {
			break
		}
		j += p.Size()
		if p.Size() == 0 {
			_, n := utf8.DecodeRuneInString(s[j:])
			j += n
		}
	}
	return j
}

// stableRune reports whether a rune is unchanged by folding whatever
// follows it: ASCII other than upper case, hiragana, full-width katakana,
// CJK ideographs and the common Japanese punctuation. Such runes are
// starters that never compose with their neighbours.
func stableRune(r rune) bool {
	switch {
	case r < utf8.RuneSelf:
		return r < 'A' || r > 'Z'
	case r >= 0x3041 && r <= 0x3096, // hiragana
		r >= 0x30A1 && r <= 0x30FA, r == 0x30FC, // katakana, ー
		r >= 0x4E00 && r <= 0x9FFF,                           // CJK unified ideographs
		r == 0x3001, r == 0x3002, r >= 0x300C && r <= 0x3011: // 、。「」『』【】
		return true
	}
	return false
}

// isStable reports whether folding leaves s as it is, by its runes alone.
func isStable(s string) bool {
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if 'A' <= c && c <= 'Z' {
				return false
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if !stableRune(r) {
			return false
		}
		i += n
	}
	return true
}

func isPlainASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

func hasUpper(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; 'A' <= c && c <= 'Z' {
			return true
		}
		if s[i] >= utf8.RuneSelf {
			return strings.ToLower(s) != s
		}
	}
	return false
}

// FoldMapped folds s like FoldText and also returns, for every byte of the
// result, the start and end offsets in s of the characters it came from;
// both are nil when the result has the same bytes as s but for ASCII case.
func FoldMapped(s string) (folded string, start, end []int) {
	f := foldMapped(s, true)
	return f.text, f.start, f.end
}

// Spaces between Japanese characters are set in justified headings
// (「第１章　総　　則」, 「雑 則」) and come of PDFs that space each
// character: they are dropped, so that 総則 is one word for the analyzer
// and full-text search alike. Only a run of spaces (U+0020, the
// ideographic space U+3000, the no-break space) with a Japanese character
// on both sides is dropped: kanji, hiragana, katakana (also half-width), ー,
// 々, and the full-width digits of 「第１章」. So is a run between a
// Japanese character and an ASCII digit, the space Word and LibreOffice
// set there and a PDF keeps as a word break (令和 7 年, 3,000 円, 月額 /
// 5,000円 wrapped over two lines): 令和7年, 3,000円. Never a space between
// two ASCII digits or next to a Latin letter or punctuation (PATH を, 1 2),
// nor a tab or a line break.

// cjkRune reports a character on either side of a dropped space.
func cjkRune(r rune) bool {
	switch {
	case r >= 0x4E00 && r <= 0x9FFF, r >= 0x3400 && r <= 0x4DBF, r >= 0xF900 && r <= 0xFAFF, r >= 0x20000 && r <= 0x3FFFF: // kanji
		return true
	case r >= 0x3041 && r <= 0x309F, r >= 0x30A1 && r <= 0x30FA, r == 0x30FC, r == 0x30FD, r == 0x30FE: // kana, ー, ゝ
		return true
	case r == 0x3005 || r == 0x3006 || r == 0x30F6: // 々 〆 ヶ
		return true
	case r >= 0xFF10 && r <= 0xFF19: // full-width digits
		return true
	case r >= 0xFF66 && r <= 0xFF9D: // half-width katakana (not the sound marks, which join the character before)
		return true
	}
	return false
}

func isFoldSpace(r rune) bool { return r == ' ' || r == 0x3000 || r == 0xA0 }

// cjkSpaceEnd returns the end of the run of spaces at i when it stands
// between two Japanese characters, else i.
func cjkSpaceEnd(s string, i int) int {
	if i == 0 || i >= len(s) {
		return i
	}
	r, _ := utf8.DecodeRuneInString(s[i:])
	if !isFoldSpace(r) {
		return i
	}
	p, _ := utf8.DecodeLastRuneInString(s[:i])
	if !cjkRune(p) && !asciiDigit(p) {
		return i
	}
	j := i
	for j < len(s) {
		r, n := utf8.DecodeRuneInString(s[j:])
		if !isFoldSpace(r) {
			if cjkRune(r) && (cjkRune(p) || asciiDigit(p)) || asciiDigit(r) && cjkRune(p) {
				return j
			}
			return i
		}
		j += n
	}
	return i
}

func asciiDigit(r rune) bool { return '0' <= r && r <= '9' }

// hasCJKSpace reports whether s has a space that Fold drops.
func hasCJKSpace(s string) bool {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case ' ', 0xE3, 0xC2: // ' ', the first byte of U+3000, of U+00A0
			if cjkSpaceEnd(s, i) > i {
				return true
			}
		}
	}
	return false
}

// dropCJKSpaces drops the spaces that Fold drops.
func dropCJKSpaces(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		if j := cjkSpaceEnd(s, i); j > i {
			i = j
			continue
		}
		_, n := utf8.DecodeRuneInString(s[i:])
		b.WriteString(s[i : i+n])
		i += n
	}
	return b.String()
}

// JoinLines is text with every line break within a paragraph (between two
// lines that hold text) and the white space around it made one space, so
// that a phrase wrapped over two lines (a PDF's line, a hard-wrapped
// Markdown paragraph) reads as one: FoldText then drops the space between two
// Japanese characters (就業に関 / する → 就業に関する) and keeps it
// between words (quick / brown → quick brown). A blank line still parts
// paragraphs.
func JoinLines(s string) string {
	if !strings.Contains(s, "\n") {
		return s
	}
	lines := strings.Split(s, "\n")
	var b strings.Builder
	b.Grow(len(s))
	for k, l := range lines {
		if k > 0 {
			prev := strings.TrimSpace(lines[k-1])
			if prev != "" && strings.TrimSpace(l) != "" {
				b.WriteByte(' ')
				l = strings.TrimLeft(l, " \t\u3000")
			} else {
				b.WriteByte('\n')
			}
		}
		if k < len(lines)-1 && strings.TrimSpace(l) != "" && strings.TrimSpace(lines[k+1]) != "" {
			l = strings.TrimRight(l, " \t\r\u3000")
		}
		b.WriteString(l)
	}
	return b.String()
}

// JoinWrapped joins the lines of one paragraph as they read: each line's
// runs of white space made one space, and no space where a line break
// stood between two Japanese characters, or between one and a digit
// (在宅勤務手当は月額 / 5,000円とし → 在宅勤務手当は月額5,000円とし); a
// space between words (quick / brown).
func JoinWrapped(lines []string) string {
	var b strings.Builder
	for _, l := range lines {
		l = strings.Join(strings.Fields(l), " ")
		if l == "" {
			continue
		}
		if b.Len() > 0 {
			p, _ := utf8.DecodeLastRuneInString(b.String())
			r, _ := utf8.DecodeRuneInString(l)
			if !(japaneseOrMark(p) && (japaneseOrMark(r) || asciiDigit(r)) || asciiDigit(p) && japaneseOrMark(r)) {
				b.WriteByte(' ')
			}
		}
		b.WriteString(l)
	}
	return b.String()
}

// japaneseOrMark is a Japanese character or a Japanese punctuation mark
// (、。「」（）).
func japaneseOrMark(r rune) bool {
	return cjkRune(r) || r >= 0x3000 && r <= 0x303F || r >= 0xFF01 && r <= 0xFF0F || r >= 0xFF1A && r <= 0xFF20 || r == 0xFF08 || r == 0xFF09
}
