package index

import (
	"strings"

	"lwr/analyzer"
	"lwr/index/extract"
)

// sectionOf is the run of lines (1-based, inclusive) that stand where
// the first line holding a word stands: its page, sheet, slide, Word
// heading or part. A snippet cut from the whole of an extracted document
// is cut within it, so that its one label says where all its lines
// stand. For a text file (no locators), or when no line holds a word, it
// is the whole file.
func sectionOf(lines []string, locs []extract.Locator, words []string) (from, to int) {
	from, to = 1, len(lines)
	if len(locs) != len(lines) {
		return from, to
	}
	at := -1
	for i, l := range lines {
		f := analyzer.Fold(l)
		for _, w := range words {
			if w != "" && strings.Contains(f, w) {
				at = i
				break
			}
		}
		if at >= 0 {
			break
		}
	}
	if at < 0 {
		return from, to
	}
	same := func(i int) bool {
		a, b := locs[i], locs[at]
		return a.Page == b.Page && a.Sheet == b.Sheet && a.Slide == b.Slide && a.Heading == b.Heading && a.Part == b.Part
	}
	a, b := at, at
	for a > 0 && same(a-1) {
		a--
	}
	for b < len(lines)-1 && same(b+1) {
		b++
	}
	return a + 1, b + 1
}
