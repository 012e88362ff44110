package edition

import (
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"lwr/analyzer"
	"lwr/analyzer/lazyre"
)

// The expressions below run on folded text: ASCII digits, lower case,
// half-width punctuation (：→:, （→(, full-width space → space).
const (
	kanjiNum = `[〇零一二三四五六七八九十百千]+`
	num      = `(?:[0-9]+|` + kanjiNum + `)`
	sp       = `[ \t]*`
	// monthDay is an optional " N月 N日" after 年.
	monthDay = `(?:` + sp + `(` + num + `)` + sp + `月(?:` + sp + `(` + num + `)` + sp + `日)?)?`
)

var (
	// 令和6年度, 令和6年4月1日, 平成31年, 令和元年.
	eraRe = lazyre.New(`(令和|平成|昭和|大正)` + sp + `(元|` + num + `)` + sp + `年(?:` + sp + `(度)|` + monthDay + `)`)
	// R6年度, R6年4月1日, R6.4.1, H31/4/1.
	eraAbbrRe = lazyre.New(`(?:^|[^a-z0-9])([rhs])([0-9]{1,2})(?:(年度)|年` + monthDay + `|[./]([0-9]{1,2})[./]([0-9]{1,2}))`)
	// 2024年度, 2024年4月1日, 二〇二四年.
	gregRe = lazyre.New(`([0-9]{4}|[〇零一二三四五六七八九]{4})` + sp + `年(?:` + sp + `(度)|` + monthDay + `)`)
	// 2024/4/1, 2024-04-01, 2024.4.1, 2024/04.
	numDateRe = lazyre.New(`(?:^|[^0-9.])([0-9]{4})([/.-])([0-9]{1,2})(?:([/.-])([0-9]{1,2}))?`)
	// FY2024, FY24.
	fyRe = lazyre.New(`(?:^|[^a-z])fy` + sp + `([0-9]{4}|[0-9]{2})(?:[^0-9]|$)`)
	// 第3版, 初版, 改訂3版, 2nd edition, edition 2.
	editionRe = lazyre.New(`第` + sp + `(` + num + `)` + sp + `版|(初)版|改訂` + sp + `([0-9]+)` + sp + `版|([0-9]+)(?:st|nd|rd|th)` + sp + `edition|edition` + sp + `([0-9]+)`)
	// v1.2 (not inside a word such as ipv4).
	versionRe = lazyre.New(`(?:^|[^a-z0-9_])v([0-9]+(?:\.[0-9]+){0,3})`)
	// Ver.1.2, version 3, バージョン2.0.
	verWordRe = lazyre.New(`(?:ver\.?|version|バージョン|ヴァージョン)[ \t:]*([0-9]+(?:\.[0-9]+){0,3})`)
	// 2024 on its own, for TitleKey.
	bareYearRe = lazyre.New(`(?:^|[^0-9])(19[0-9]{2}|20[0-9]{2}|21[0-9]{2})(?:[^0-9]|$)`)
)

// kanjiDigits are the kanji numerals 0–9; 零 also reads as 0.
var kanjiDigits = [...]rune{'〇', '一', '二', '三', '四', '五', '六', '七', '八', '九'}

var eraBase = map[string]int{"令和": 2018, "平成": 1988, "昭和": 1925, "大正": 1911, "r": 2018, "h": 1988, "s": 1925}

// markers are the words that say what a date is, longest first.
var markers = []struct {
	word string
	kind Kind
}{
	{"最終更新日", Revised}, {"最終更新", Revised}, {"更新日", Revised}, {"更新", Revised},
	{"last updated", Revised}, {"updated", Revised}, {"revised", Revised}, {"modified", Revised},
	{"effective", Effective}, {"published", Issued}, {"issued", Issued}, {"created", Created},
	{"改訂日", Revised}, {"改定日", Revised}, {"改正日", Revised},
	{"改訂", Revised}, {"改定", Revised}, {"改正", Revised},
	{"適用開始日", Effective}, {"適用開始", Effective}, {"適用日", Effective},
	{"施行日", Effective}, {"施行", Effective}, {"発効日", Effective}, {"発効", Effective},
	{"制定日", Enacted}, {"制定", Enacted},
	{"発行日", Issued}, {"発行", Issued}, {"公表日", Issued}, {"公表", Issued},
	{"作成日", Created}, {"作成", Created},
	{"廃止日", Abolished}, {"廃止", Abolished}, {"abolished", Abolished},
}

// span is a match in the folded line.
type span struct {
	a, b int // byte range in the folded line
	kind Kind
	// for dates
	date     bool
	year     int
	month    int
	day      int
	fiscal   bool
	plainNum bool // 2024/04 without a day: only with a marker
	value    string
}

type markerAt struct {
	a, b int
	kind Kind
	used bool
}

// found is an edition with its byte range in the folded line.
type found struct {
	Edition
	a, b int
}

// lineEditions finds the editions on one line; head says whether unmarked
// dates and versions count.
func lineEditions(line string, head bool) []Edition {
	if !mayHoldNumber(line) {
		return nil // no date, edition or version without a numeral (or 初版)
	}
	f, start, end := analyzer.FoldMapped(line)
	fs := foldedEditions(f, head)
	out := make([]Edition, len(fs))
	for i, e := range fs {
		if start == nil {
			e.Raw = line[e.a:e.b]
		} else if e.b > e.a {
			e.Raw = line[start[e.a]:end[e.b-1]]
		}
		out[i] = e.Edition
	}
	return out
}

// mayHoldNumber reports whether a line, before folding, holds what every
// edition and date is written with: a numeral of any script (folding
// makes ５, ① and ² digits), a kanji numeral, 元 (元年) or 初版.
func mayHoldNumber(line string) bool {
	for _, r := range line {
		switch {
		case r < utf8.RuneSelf:
			if r >= '0' && r <= '9' {
				return true
			}
		case unicode.IsNumber(r), strings.ContainsRune("〇零一二三四五六七八九十百千元", r):
			return true
		}
	}
	return strings.Contains(line, "初版")
}

// foldedEditions finds the editions of a folded line.
func foldedEditions(f string, head bool) []found {
	spans := dateSpans(f)
	spans = append(spans, editionSpans(f, head)...)
	spans = dropOverlaps(spans)

	var ms []markerAt
	if len(spans) > 0 {
		for i := 0; i < len(f); {
			r, n := utf8.DecodeRuneInString(f[i:])
			if isMarkerStart(r) {
				for _, m := range markers {
					if strings.HasPrefix(f[i:], m.word) {
						ms = append(ms, markerAt{a: i, b: i + len(m.word), kind: m.kind})
						n = len(m.word)
						break
					}
				}
			}
			i += n
		}
	}
	// Bind dates to markers: "改訂：DATE" first, then "DATE 改訂" and
	// "DATEから施行", then "改訂 DATE".
	bound := make([]int, len(spans)) // index into ms + 1; 0 = none
	prevMarker := func(s span) int {
		for j := len(ms) - 1; j >= 0; j-- {
			if ms[j].b <= s.a {
				if gapBefore(f[ms[j].b:s.a]) {
					return j
				}
				return -1
			}
		}
		return -1
	}
	nextMarker := func(s span) int {
		for j := range ms {
			if ms[j].a >= s.b {
				if gapAfter(f[s.b:ms[j].a]) {
					return j
				}
				return -1
			}
		}
		return -1
	}
	for pass := 0; pass < 3; pass++ {
		for i, s := range spans {
			if !s.date || bound[i] != 0 {
				continue
			}
			j := -1
			switch pass {
			case 0:
				if p := prevMarker(s); p >= 0 && strings.ContainsAny(f[ms[p].b:s.a], ":=は") {
					j = p
				}
			case 1:
				j = nextMarker(s)
			case 2:
				j = prevMarker(s)
			}
			if j >= 0 && !ms[j].used {
				ms[j].used = true
				bound[i] = j + 1
			}
		}
	}

	var out []found
	for i, s := range spans {
		if !s.date {
			out = append(out, found{Edition{Kind: s.kind, Value: s.value, Year: s.year}, s.a, s.b})
			continue
		}
		dv := dateValue(s)
		a, b := s.a, s.b
		if bound[i] != 0 {
			m := ms[bound[i]-1]
			a, b = min(a, m.a), max(b, m.b)
			out = append(out, found{Edition{Kind: m.kind, Value: dv, Year: s.year}, a, b})
			continue
		}
		versioned := strings.HasPrefix(strings.TrimLeft(f[s.b:], " \t"), "版")
		if versioned {
			b = s.b + strings.Index(f[s.b:], "版") + len("版")
		}
		switch {
		case s.fiscal && (head || versioned):
			out = append(out, found{Edition{Kind: FiscalYear, Value: dv, Year: s.year}, a, b})
		case versioned && s.month == 0 && !s.plainNum:
			out = append(out, found{Edition{Kind: Year, Value: fmt.Sprintf("%d年版", s.year), Year: s.year}, a, b})
		case versioned && !s.plainNum:
			out = append(out, found{Edition{Kind: Issued, Value: dv, Year: s.year}, a, b})
		case head && !s.plainNum:
			out = append(out, found{Edition{Kind: Date, Value: dv, Year: s.year}, a, b})
		}
	}
	return out
}

// gapBefore reports whether the text between a marker and the date after
// it joins them: "改訂：", "施行日は ", "改訂 (".
func gapBefore(g string) bool {
	if len(g) > 12 {
		return false
	}
	g = strings.TrimPrefix(g, "年月日")
	g = strings.TrimPrefix(g, "日")
	return onlyRunes(strings.ReplaceAll(g, "は", ""), " \t:=(【[「")
}

// gapAfter reports whether the text between a date and the marker after it
// joins them: "2025年4月1日改訂", "令和6年4月1日から施行", "2024/4/1 改訂".
func gapAfter(g string) bool {
	if len(g) > 15 {
		return false
	}
	for _, w := range []string{"から", "より", "付け", "付", "にて", "に", "で", "以降"} {
		g = strings.Replace(g, w, "", 1)
	}
	return onlyRunes(g, " \t:)】]」")
}

func onlyRunes(s, set string) bool {
	for _, r := range s {
		if !strings.ContainsRune(set, r) {
			return false
		}
	}
	return true
}

func dateValue(s span) string {
	switch {
	case s.fiscal:
		return fmt.Sprintf("%d年度", s.year)
	case s.day > 0:
		return fmt.Sprintf("%04d-%02d-%02d", s.year, s.month, s.day)
	case s.month > 0:
		return fmt.Sprintf("%04d-%02d", s.year, s.month)
	}
	return fmt.Sprintf("%04d", s.year)
}

// dateSpans finds the dates of a folded line.
func dateSpans(f string) []span {
	var out []span
	add := func(s span) {
		if validDate(s.year, s.month, s.day) {
			s.date = true
			out = append(out, s)
		}
	}
	hasYear := strings.Contains(f, "年")
	digits := strings.IndexAny(f, "0123456789") >= 0
	for _, m := range findAll(eraRe, f, hasYear) {
		y := 1
		if g := f[m[4]:m[5]]; g != "元" {
			y = parseNum(g)
		}
		if y < 1 || y > 99 {
			continue
		}
		s := span{a: m[0], b: m[1], year: eraBase[f[m[2]:m[3]]] + y, fiscal: m[6] >= 0}
		s.month, s.day = group(f, m, 4), group(f, m, 5)
		add(s)
	}
	for _, m := range findAll(eraAbbrRe, f, digits && strings.ContainsAny(f, "rhs")) {
		y := parseNum(f[m[4]:m[5]])
		if y < 1 {
			continue
		}
		s := span{a: m[2], b: m[1], year: eraBase[f[m[2]:m[3]]] + y, fiscal: m[6] >= 0}
		s.month, s.day = group(f, m, 4), group(f, m, 5)
		if m[12] >= 0 {
			s.month, s.day = group(f, m, 6), group(f, m, 7)
			if followsNumber(f, m[1]) {
				continue
			}
		}
		add(s)
	}
	for _, m := range findAll(gregRe, f, hasYear) {
		if m[0] > 0 && isDigitByte(f[m[0]-1]) {
			continue
		}
		s := span{a: m[0], b: m[1], year: parseNum(f[m[2]:m[3]]), fiscal: m[4] >= 0}
		s.month, s.day = group(f, m, 3), group(f, m, 4)
		add(s)
	}
	for _, m := range findAll(numDateRe, f, digits && strings.ContainsAny(f, "/.-")) {
		if followsNumber(f, m[1]) {
			continue
		}
		s := span{a: m[2], b: m[1], year: parseNum(f[m[2]:m[3]]), month: parseNum(f[m[6]:m[7]])}
		if m[8] >= 0 {
			if f[m[8]:m[9]] != f[m[4]:m[5]] {
				continue // 2024/04-01: mixed separators are not a date
			}
			s.day = parseNum(f[m[10]:m[11]])
		} else {
			if f[m[4]:m[5]] == "." {
				continue // 2024.4 reads as a number
			}
			s.plainNum = true
		}
		add(s)
	}
	for _, m := range findAll(fyRe, f, digits && strings.Contains(f, "fy")) {
		y := parseNum(f[m[2]:m[3]])
		if y < 100 {
			y += 2000
		}
		a := m[0] + strings.Index(f[m[0]:m[1]], "fy")
		add(span{a: a, b: m[3], year: y, fiscal: true})
	}
	return out
}

// findAll runs re on f when the quick test may says it can match.
func findAll(re *lazyre.Regexp, f string, may bool) [][]int {
	if !may {
		return nil
	}
	return re.FindAllStringSubmatchIndex(f, -1)
}

// group returns the number in submatch i (1-based group), 0 when absent.
func group(f string, m []int, i int) int {
	if m[2*i] < 0 {
		return 0
	}
	return parseNum(f[m[2*i]:m[2*i+1]])
}

// followsNumber reports whether a match ending at i runs on into more
// digits or a dot and digits (a version or an address, not a date).
func followsNumber(f string, i int) bool {
	if i < len(f) && isDigitByte(f[i]) {
		return true
	}
	return i+1 < len(f) && f[i] == '.' && isDigitByte(f[i+1])
}

func isDigitByte(c byte) bool { return '0' <= c && c <= '9' }

func validDate(y, m, d int) bool {
	if y < 1868 || y > 2199 || m < 0 || m > 12 || d < 0 || (m == 0 && d > 0) {
		return false
	}
	if d == 0 {
		return true
	}
	t := time.Date(y, time.Month(m), d, 0, 0, 0, 0, time.UTC)
	return t.Day() == d && int(t.Month()) == m
}

// editionSpans finds edition numbers everywhere and versions in the head.
func editionSpans(f string, head bool) []span {
	var out []span
	for _, m := range findAll(editionRe, f, strings.Contains(f, "版") || strings.Contains(f, "edition")) {
		n := 0
		switch {
		case m[2] >= 0:
			n = parseNum(f[m[2]:m[3]])
		case m[4] >= 0:
			n = 1
		case m[6] >= 0:
			n = parseNum(f[m[6]:m[7]])
		case m[8] >= 0:
			n = parseNum(f[m[8]:m[9]])
		case m[10] >= 0:
			n = parseNum(f[m[10]:m[11]])
		}
		if n < 1 || n > 999 {
			continue
		}
		out = append(out, span{a: m[0], b: m[1], kind: Number, value: fmt.Sprintf("第%d版", n)})
	}
	if !head {
		return out
	}
	for _, re := range []*lazyre.Regexp{verWordRe, versionRe} {
		for _, m := range findAll(re, f, strings.IndexAny(f, "0123456789") >= 0 && (strings.Contains(f, "v") || strings.Contains(f, "ージョン"))) {
			a := m[0]
			if re == versionRe {
				a = m[2] - 1 // the "v"
			}
			if m[1] < len(f) && (isDigitByte(f[m[1]]) || ('a' <= f[m[1]] && f[m[1]] <= 'z')) {
				continue
			}
			v := f[m[2]:m[3]]
			if major := numbers(v)[0]; (re == versionRe && !strings.Contains(v, ".")) || major >= 1000 || (major == 0 && !strings.Contains(v, ".")) {
				continue // v86, V24, ver 15000: names and numbers, not versions
			}
			out = append(out, span{a: a, b: m[1], kind: Version, value: "v" + f[m[2]:m[3]]})
		}
	}
	return out
}

// dropOverlaps keeps, of spans that overlap, the one that starts first
// (the longer on a tie), in text order.
func dropOverlaps(s []span) []span {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && (s[j].a < s[j-1].a || (s[j].a == s[j-1].a && s[j].b > s[j-1].b)); j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
	out := s[:0]
	end := -1
	for _, x := range s {
		if x.a < end {
			continue
		}
		out = append(out, x)
		end = x.b
	}
	return out
}

// parseNum reads ASCII digits or kanji numerals: 31, 三十一, 二〇二四, 十二.
func parseNum(s string) int {
	if s == "" {
		return 0
	}
	if isDigitByte(s[0]) {
		n, err := strconv.Atoi(s)
		if err != nil {
			return 0
		}
		return n
	}
	digit := func(r rune) int {
		if r == '零' {
			return 0
		}
		for i, d := range kanjiDigits {
			if r == d {
				return i
			}
		}
		return -1
	}
	if !strings.ContainsAny(s, "十百千") {
		n := 0
		for _, r := range s {
			d := digit(r)
			if d < 0 {
				return 0
			}
			n = n*10 + d
		}
		return n
	}
	total, cur := 0, 0
	for _, r := range s {
		switch r {
		case '十', '百', '千':
			unit := 10
			if r == '百' {
				unit = 100
			} else if r == '千' {
				unit = 1000
			}
			if cur == 0 {
				cur = 1
			}
			total += cur * unit
			cur = 0
		default:
			d := digit(r)
			if d < 0 {
				return 0
			}
			cur = d
		}
	}
	return total + cur
}
