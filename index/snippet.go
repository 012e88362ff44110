package index

import (
	"math/bits"
	"sort"
	"strings"
	"unicode/utf8"

	"lwr/analyzer"
)

// contextLines is how many lines a snippet shows before and after the
// lines that hold its words, at most.
const contextLines = 2

// windowLines bounds the lines a snippet's words may spread over: words
// scattered over a whole file make a citation of none of them.
const windowLines = 8

// tableHeaderLines bounds how far a snippet that starts inside a table
// reaches back for its header row.
const tableHeaderLines = 6

// snippetOf cuts a snippet from lines from..to (1-based, inclusive): the
// window of whole lines that holds the most distinct words (folded) within
// maxChars characters, widened with up to contextLines neighbouring lines
// each way while it fits, with blank lines dropped at its edges. The
// snippet is exactly the text of its lines, indentation kept; a single
// line longer than maxChars is shown whole. found says whether the lines
// hold a word; highlight asks for the byte ranges of the words in the
// snippet.
func snippetOf(lines []string, from, to int, words []string, maxChars int, highlight bool) (Match, bool) {
	if len(words) > 64 {
		words = words[:64]
	}
	from = max(from, 1)
	to = min(to, len(lines))
	n := to - from + 1
	if n <= 0 {
		return Match{StartLine: 1, EndLine: 1}, false
	}
	masks := make([]uint64, n)
	chars := make([]int, n)
	var hitLines []int
	for i := range n {
		l := lines[from-1+i]
		chars[i] = utf8.RuneCountInString(l)
		if strings.TrimSpace(l) == "" {
			continue
		}
		fl := analyzer.FoldText(l)
		for j, w := range words {
			if strings.Contains(fl, w) {
				masks[i] |= 1 << j
			}
		}
	}
	// A word wrapped over the break after line i counts only in a window
	// that holds both lines.
	cross := make([]uint64, n)
	for i := 0; i+1 < n; i++ {
		cross[i] = crossWords(lines[from-1+i], lines[from+i], words, masks[i]|masks[i+1])
	}
	for i := range n {
		if masks[i]|cross[i] != 0 {
			hitLines = append(hitLines, i)
		}
	}
	// Best window: most distinct words, then fewest characters.
	a, b := -1, -1
	bestWords, bestChars := -1, 0
	for _, s := range hitLines {
		var m uint64
		c := -1
		for e := s; e < n && e-s < windowLines; e++ {
			c += chars[e] + 1
			if c > maxChars && e > s {
				break
			}
			m |= masks[e]
			if e > s {
				m |= cross[e-1]
			}
			if masks[e] == 0 && (e == s || cross[e-1] == 0) {
				continue
			}
			k := bits.OnesCount64(m)
			if k > bestWords || k == bestWords && c < bestChars {
				a, b, bestWords, bestChars = s, e, k, c
			}
		}
	}
	if a < 0 {
		// No word in these lines: the first lines that have text.
		a = 0
		for a < n-1 && strings.TrimSpace(lines[from-1+a]) == "" {
			a++
		}
		b, bestChars = a, chars[a]
	}
	// Widen with context while it fits, one line before, one after, at
	// most contextLines lines of text each way (blank lines come along
	// free): a citation names the lines of the hit.
	c := bestChars
	blank := func(i int) bool { return strings.TrimSpace(lines[from-1+i]) == "" }
	before, after := 0, 0
	for grew := true; grew; {
		grew = false
		if a > 0 && before < contextLines && c+chars[a-1]+1 <= maxChars {
			a--
			c += chars[a] + 1
			if !blank(a) {
				before++
			}
			grew = true
		}
		if b < n-1 && after < contextLines && c+chars[b+1]+1 <= maxChars {
			b++
			c += chars[b] + 1
			if !blank(b) {
				after++
			}
			grew = true
		}
	}
	for a < b && strings.TrimSpace(lines[from-1+a]) == "" {
		a++
	}
	for b > a && strings.TrimSpace(lines[from-1+b]) == "" {
		b--
	}
	// A snippet that starts inside a table starts at its header row, when
	// that is near and fits the snippet's characters: 2,000円 means little
	// without the row that names the columns.
	if row := func(i int) bool { return strings.HasPrefix(strings.TrimSpace(lines[from-1+i]), "|") }; row(a) {
		h, hc := a, c
		for h > 0 && row(h-1) && a-h < tableHeaderLines {
			h--
			hc += chars[h] + 1
		}
		if h < a && (h == 0 || !row(h-1)) && hc <= maxChars {
			a, c = h, hc
		}
	}
	// The snippet is its lines exactly, indentation kept: a single line
	// longer than maxChars is shown whole, never cut inside.
	m := Match{StartLine: from + a, EndLine: from + b}
	m.Snippet = strings.Join(lines[from-1+a:from+b], "\n")
	if highlight {
		m.Highlights = highlights(m.Snippet, words)
	}
	return m, bestWords > 0
}

// crossWords is the set of words (bits of words) that run over the line
// break between a and b: found in the two lines joined (analyzer.JoinLines)
// and not among have, the words either line holds alone.
func crossWords(a, b string, words []string, have uint64) uint64 {
	ta, tb := strings.TrimSpace(a), strings.TrimSpace(b)
	if ta == "" || tb == "" {
		return 0
	}
	last, _ := utf8.DecodeLastRuneInString(analyzer.FoldText(ta))
	var joined string
	var m uint64
	for j, w := range words {
		if have&(1<<j) != 0 || !strings.ContainsRune(w, last) {
			continue
		}
		if joined == "" {
			joined = analyzer.FoldText(analyzer.JoinLines(ta + "\n" + tb))
		}
		if strings.Contains(joined, w) {
			m |= 1 << j
		}
	}
	return m
}

// highlights returns the byte ranges of text that hold words, merged where
// they touch or overlap.
func highlights(text string, words []string) [][2]int {
	if text == "" || len(words) == 0 {
		return nil
	}
	joined, at := joinMapped(text)
	f := foldForHighlight(joined)
	var hs [][2]int
	for _, w := range words {
		for off := 0; off < len(f.text); {
			i := strings.Index(f.text[off:], w)
			if i < 0 {
				break
			}
			i += off
			a, b := f.orig(i, i+len(w))
			hs = append(hs, [2]int{at[a], at[b-1] + 1})
			off = i + len(w)
		}
	}
	if len(hs) == 0 {
		return nil
	}
	sort.Slice(hs, func(i, j int) bool { return hs[i][0] < hs[j][0] || hs[i][0] == hs[j][0] && hs[i][1] > hs[j][1] })
	out := hs[:1]
	for _, h := range hs[1:] {
		last := &out[len(out)-1]
		if h[0] <= last[1] {
			last[1] = max(last[1], h[1])
			continue
		}
		out = append(out, h)
	}
	return out
}

// joinMapped is analyzer.JoinLines(s) and, for each of its bytes, the
// offset in s of the byte it came from (the space that joins two lines
// stands for the line break), so that a word wrapped over two lines is
// highlighted on both.
func joinMapped(s string) (string, []int) {
	j := analyzer.JoinLines(s)
	at := make([]int, len(j))
	for k, i := 0, 0; k < len(j); k++ {
		for i < len(s) && s[i] != j[k] && !(j[k] == ' ' && s[i] == '\n') {
			i++ // white space that JoinLines dropped
		}
		if i == len(s) {
			i = len(s) - 1
		}
		at[k] = i
		i++
	}
	return j, at
}

// foldForHighlight folds text keeping the map to original offsets.
func foldForHighlight(s string) mappedText {
	t, start, end := analyzer.FoldMapped(s)
	return mappedText{text: t, start: start, end: end}
}

type mappedText struct {
	text       string
	start, end []int
}

func (m mappedText) orig(a, b int) (int, int) {
	if m.start == nil {
		return a, b
	}
	if b <= a {
		return m.start[a], m.start[a]
	}
	return m.start[a], m.end[b-1]
}
