package policy

import (
	"slices"
	"strconv"
	"strings"

	"lwr/analyzer/lazyre"
)

// Editions published in folders named by edition: the years, dates and
// version numbers of a path tell two editions of one document
// (cookpad/styleguide_2016-08/ruby.ja.md, cookpad/styleguide_2026-02/ruby.ja.md)
// or of one collection (owasp/asvs/4.0/…, owasp/asvs/5.0/…) apart.

// versionToken is a year, a date or a version number in a path.
var versionToken = lazyre.New(`[0-9]+(?:[.\-][0-9]+)*`)

// FamilyKey is a path without its years, dates and version numbers
// (cookpad/styleguide_2016-08/ruby.ja.md → cookpad/styleguide_#/ruby.ja.md):
// two editions of one document published in folders named by edition
// have the same key.
func FamilyKey(p string) string {
	return versionToken.ReplaceAllString(p, "#")
}

// pathVersion are the numbers of a path's years, dates and versions, in
// order.
func pathVersion(p string) [][]int {
	var out [][]int
	for _, t := range versionToken.FindAllString(p, -1) {
		var nums []int
		for _, n := range strings.FieldsFunc(t, func(r rune) bool { return r == '.' || r == '-' }) {
			v, _ := strconv.Atoi(n)
			nums = append(nums, v)
		}
		out = append(out, nums)
	}
	return out
}

// ComparePaths compares the years, dates and versions of two paths in
// order: +1 when a's are the later, -1 when b's are, 0 when they tie or
// the first numbers that differ count things rather than editions
// (別表1, 別表2; chapter1, chapter3).
func ComparePaths(a, b string) int {
	ta, tb := versionToken.FindAllString(a, -1), versionToken.FindAllString(b, -1)
	va, vb := pathVersion(a), pathVersion(b)
	for i := range min(len(va), len(vb)) {
		if c := slices.Compare(va[i], vb[i]); c != 0 {
			if !editionLike(ta[i]) || !editionLike(tb[i]) {
				return 0
			}
			if c > 0 {
				return 1
			}
			return -1
		}
	}
	return 0
}

// editionLike reports a number of a path that names an edition: a year or
// a date (2024, 202603, 2026-08) or a version with its parts (3.6, 4.0), not
// a number that counts (別表2, chapter3, v2).
func editionLike(t string) bool {
	return strings.ContainsAny(t, ".-") || len(t) >= 4
}

// NewerCollection compares the collections two paths stand in: at the
// first folder where the paths part, names that differ only in their
// years, dates or versions (freee/a11y-guidelines_202004.0/…,
// freee/a11y-guidelines_202603.0/…; asvs/4.0/…, asvs/5.0/…) are two editions
// of one collection. +1 when a's folder names the newer edition, -1 when
// b's does, 0 when they are not editions of one collection.
func NewerCollection(a, b string) int {
	sa, sb := strings.Split(a, "/"), strings.Split(b, "/")
	for i := 0; i < len(sa)-1 && i < len(sb)-1; i++ {
		if sa[i] == sb[i] {
			continue
		}
		if !versionToken.MatchString(sa[i]) || FamilyKey(sa[i]) != FamilyKey(sb[i]) {
			return 0
		}
		return ComparePaths(sa[i], sb[i])
	}
	return 0
}
