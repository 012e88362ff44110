package index

import (
	"math/bits"
	"strings"

	"lwr/analyzer"
	"lwr/index/extract"
)

// sectionOf is the run of lines within from..to (1-based, inclusive)
// that stand in one place — a page, sheet, slide, Word heading or part —
// and hold the most distinct words (folded as snippets fold them, a word
// wrapped over a line break counted), the first such run of a tie. A
// snippet is cut within it, so that its one label, the place of its
// first line holding a word, says where all its lines stand. For a text
// file (no locators), or when no run holds a word, it is from..to.
func sectionOf(lines []string, locs []extract.Locator, words []string, from, to int) (int, int) {
	from, to = max(from, 1), min(to, len(lines))
	if len(locs) != len(lines) || from > to || len(words) == 0 {
		return from, to
	}
	if len(words) > 64 {
		words = words[:64]
	}
	masks := make([]uint64, to-from+1)
	for i := range masks {
		f := analyzer.FoldText(lines[from-1+i])
		for j, w := range words {
			if w != "" && strings.Contains(f, w) {
				masks[i] |= 1 << j
			}
		}
	}
	bestA, bestB, best := from, to, 0
	for a := from; a <= to; {
		b := a
		for b < to && samePlace(locs[b], locs[a-1]) {
			b++
		}
		var m uint64
		for i := a; i <= b; i++ {
			m |= masks[i-from]
			if i < b {
				m |= crossWords(lines[i-1], lines[i], words, masks[i-from]|masks[i+1-from])
			}
		}
		if k := bits.OnesCount64(m); k > best {
			bestA, bestB, best = a, b, k
		}
		a = b + 1
	}
	return bestA, bestB
}

// samePlace reports whether two lines stand in one place: page, sheet,
// slide, Word heading and part.
func samePlace(a, b extract.Locator) bool {
	return a.Page == b.Page && a.Sheet == b.Sheet && a.Slide == b.Slide && a.Heading == b.Heading && a.Part == b.Part
}

// placeAround narrows from..to (1-based, inclusive) to the lines around
// the answer's lines first..last that stand in the place of its first
// line, its own lines always kept. For a text file (no locators) it is
// from..to.
func placeAround(locs []extract.Locator, first, last, from, to int) (int, int) {
	if first < from || last > to || to > len(locs) || first < 1 {
		return from, to
	}
	at := locs[first-1]
	a, b := first, max(first, last)
	for a > from && samePlace(locs[a-2], at) {
		a--
	}
	for b < to && samePlace(locs[b], at) {
		b++
	}
	return a, b
}

// holdsAny reports whether one of the lines holds one of the words
// (folded as snippets fold them).
func holdsAny(lines, words []string) bool {
	for _, l := range lines {
		f := analyzer.FoldText(l)
		for _, w := range words {
			if w != "" && strings.Contains(f, w) {
				return true
			}
		}
	}
	return false
}
