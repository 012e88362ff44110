package report

import (
	"math/big"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/width"

	"lwr/analyzer/lazyre"
)

// A number is read as people write it in Japanese: digits after width
// folding (2,000 = 2000 = ２，０００), kanji numerals (三千, 五千,
// 一万二千, 十五, 二〇二五) and digits with kanji units (1万2千 = 12000,
// 200万 = 2000000). A kanji numeral of one character is a number only
// before a counter (三日, 一泊, 五千円) or after 第 (第三条): 一般, 統一
// and 十分 are words, not numbers.

// numeralRe is a run of digits and kanji numerals (after width folding).
var numeralRe = lazyre.New(`(?:[0-9]+(?:[,.][0-9]+)*|[〇零一二三四五六七八九十百千万億兆])+`)

// asciiNumberRe is a number in digits: thousands separators (a first
// group of 1–3 digits, then groups of 3), a decimal part.
var asciiNumberRe = lazyre.New(`[0-9]{1,3}(?:,[0-9]{3})+(?:\.[0-9]+)?|[0-9]+(?:\.[0-9]+)?`)

// asciiNumbers splits a run of digits, commas and points into its
// numbers: 2,000 is one, and so is 1.5; 0104,2026 (two values of a CSV
// line) and 1,2026 are two.
func asciiNumbers(run string) []string {
	var out []string
	for len(run) > 0 {
		m := asciiNumberRe.FindStringIndex(run)
		if m == nil {
			break
		}
		n := run[m[0]:m[1]]
		if m[1] < len(run) && isDigit(run[m[1]]) && strings.Contains(n, ",") {
			// 1,2026: the groups are not thousands.
			n = n[:strings.IndexByte(n, ',')]
			m[1] = m[0] + len(n)
		}
		out = append(out, n)
		run = run[m[1]:]
	}
	return out
}

// counters may follow a one-character kanji numeral that is a number.
var counters = []string{
	"円", "日", "泊", "人", "名", "回", "件", "年", "週", "時間", "秒", "歳", "割", "倍", "条", "項", "号", "章", "節",
	"台", "枚", "通", "点", "社", "個", "つ", "か月", "ヶ月", "ケ月", "カ月", "ヵ月", "箇月", "か所", "カ所", "箇所", "親等", "月",
}

// idioms are runs of kanji numerals that are words: 万一 (in case), 一一
// (one by one), 二三 (a few).
var idioms = map[string]bool{"万一": true, "一一": true, "二三": true, "三四": true, "四五": true, "五六": true, "六七": true, "七八": true, "八九": true}

var kanjiDigit = map[rune]int64{'〇': 0, '零': 0, '一': 1, '二': 2, '三': 3, '四': 4, '五': 5, '六': 6, '七': 7, '八': 8, '九': 9}

var kanjiSmall = map[rune]int64{'十': 10, '百': 100, '千': 1000}

var kanjiBig = map[rune]int64{'万': 1e4, '億': 1e8, '兆': 1e12}

// number is one number of a text: as it is written, and the values it
// may be read as (digits only, the first its value): 200万 is 2000000,
// or 200 read as a text that counts in 万 does.
type number struct {
	text   string
	values []string
}

// numbers are the numbers a text states, in order.
func numbers(s string) []number {
	s = width.Fold.String(s)
	var out []number
	for _, loc := range numeralRe.FindAllStringIndex(s, -1) {
		run := s[loc[0]:loc[1]]
		if !strings.ContainsFunc(run, isKanjiNumeral) {
			for _, n := range asciiNumbers(run) {
				out = append(out, number{text: n, values: []string{canonical(nil, n)}})
			}
			continue
		}
		if n, ok := readNumeral(run, s[:loc[0]], s[loc[1]:]); ok {
			out = append(out, n)
		}
	}
	return out
}

// readNumeral reads one run that holds kanji numerals, before and after
// being the text around it.
func readNumeral(run, before, after string) (number, bool) {
	ascii := asciiNumberRe.MatchString(run)
	if !ascii {
		switch n := utf8.RuneCountInString(run); {
		case idioms[run]:
			return number{}, false
		case n == 1:
			if !strings.HasSuffix(before, "第") && !hasCounter(after) {
				return number{}, false
			}
		}
	}
	v, ok := kanjiValue(run)
	if !ok {
		return number{}, false
	}
	n := number{text: run, values: []string{v}}
	// Digits before a kanji unit are also read as written (200 of 200万).
	for _, d := range asciiNumberRe.FindAllString(run, -1) {
		if c := canonical(nil, d); !contains(n.values, c) {
			n.values = append(n.values, c)
		}
	}
	return n, true
}

func isKanjiNumeral(r rune) bool {
	_, d := kanjiDigit[r]
	_, s := kanjiSmall[r]
	_, b := kanjiBig[r]
	return d || s || b
}

func hasCounter(after string) bool {
	for _, c := range counters {
		if strings.HasPrefix(after, c) {
			return true
		}
	}
	return false
}

// kanjiValue is the value of a run that holds kanji numerals, as
// digits: 一万二千 → 12000, 1万2千 → 12000, 二〇二五 → 2025, 1.5万 →
// 15000. A run of kanji digits without a unit is positional only when it
// holds 〇 or three digits or more (二〇二五, 七五三): 一二 is no number.
func kanjiValue(run string) (string, bool) {
	total, section := new(big.Rat), new(big.Rat)
	var cur *big.Rat // the digits read since the last unit
	digits, units := 0, 0
	zero := false
	for i := 0; i < len(run); {
		if m := asciiNumberRe.FindStringIndex(run[i:]); m != nil && m[0] == 0 {
			if cur != nil {
				return "", false
			}
			cur, _ = new(big.Rat).SetString(strings.ReplaceAll(run[i:i+m[1]], ",", ""))
			i += m[1]
			continue
		}
		r, size := utf8.DecodeRuneInString(run[i:])
		i += size
		switch {
		case isDigitRune(r):
			d := kanjiDigit[r]
			digits++
			zero = zero || d == 0
			if cur == nil {
				cur = new(big.Rat)
			}
			cur.Mul(cur, big.NewRat(10, 1))
			cur.Add(cur, big.NewRat(d, 1))
		case kanjiSmall[r] > 0:
			units++
			m := big.NewRat(1, 1)
			if cur != nil {
				m = cur
			}
			section.Add(section, new(big.Rat).Mul(m, big.NewRat(kanjiSmall[r], 1)))
			cur = nil
		case kanjiBig[r] > 0:
			units++
			if cur != nil {
				section.Add(section, cur)
			}
			if section.Sign() == 0 {
				section.SetInt64(1)
			}
			total.Add(total, new(big.Rat).Mul(section, big.NewRat(kanjiBig[r], 1)))
			section, cur = new(big.Rat), nil
		default:
			return "", false
		}
	}
	if units == 0 && digits == 2 && !zero && !asciiNumberRe.MatchString(run) {
		return "", false
	}
	if cur != nil {
		section.Add(section, cur)
	}
	total.Add(total, section)
	return canonical(total, ""), true
}

func isDigitRune(r rune) bool {
	_, ok := kanjiDigit[r]
	return ok
}

// canonical writes a number as digits: from its written form when text
// is given (2,000 → 2000; 04 → 4; 1.50 → 1.5), else from r.
func canonical(r *big.Rat, text string) string {
	if text != "" {
		n := strings.ReplaceAll(text, ",", "")
		if i := strings.IndexByte(n, '.'); i >= 0 {
			n = strings.TrimRight(n, "0")
			n = strings.TrimSuffix(n, ".")
		}
		if t := strings.TrimLeft(n, "0"); t != "" && t[0] != '.' {
			return t
		}
		return "0" + strings.TrimLeft(n, "0")
	}
	if r.IsInt() {
		return r.Num().String()
	}
	s := r.FloatString(12)
	s = strings.TrimRight(s, "0")
	return strings.TrimSuffix(s, ".")
}

// Numbers are the numbers a text states, each as digits only (2,000 →
// 2000; ２０００ → 2000; 04 → 4; 三千 → 3000; 200万 → 2000000 and
// 200), in order, without repeats: every value each number may be read
// as.
func Numbers(s string) []string {
	var out []string
	for _, n := range numbers(s) {
		for _, v := range n.values {
			if !contains(out, v) {
				out = append(out, v)
			}
		}
	}
	return out
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }
