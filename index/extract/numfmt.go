package extract

import (
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// builtinFormats are Excel's built-in number formats, as Excel in Japan
// shows them (ids 5–8 and 42, 44 in yen; 27–36 and 50–58 the Japanese
// date formats).
var builtinFormats = map[int]string{
	0: "General", 1: "0", 2: "0.00", 3: "#,##0", 4: "#,##0.00",
	5: `"¥"#,##0;"¥"\-#,##0`, 6: `"¥"#,##0;[Red]"¥"\-#,##0`,
	7: `"¥"#,##0.00;"¥"\-#,##0.00`, 8: `"¥"#,##0.00;[Red]"¥"\-#,##0.00`,
	9: "0%", 10: "0.00%", 11: "0.00E+00", 12: "# ?/?", 13: "# ??/??",
	14: "yyyy/m/d", 15: "d-mmm-yy", 16: "d-mmm", 17: "mmm-yy",
	18: "h:mm AM/PM", 19: "h:mm:ss AM/PM", 20: "h:mm", 21: "h:mm:ss", 22: "yyyy/m/d h:mm",
	27: `[$-411]ge.m.d`, 28: `[$-411]ggge"年"m"月"d"日"`, 29: `[$-411]ggge"年"m"月"d"日"`,
	30: "m/d/yy", 31: `yyyy"年"m"月"d"日"`, 32: `h"時"mm"分"`, 33: `h"時"mm"分"ss"秒"`,
	34: `yyyy"年"m"月"`, 35: `m"月"d"日"`, 36: `[$-411]ge.m.d`,
	37: "#,##0 ;(#,##0)", 38: "#,##0 ;[Red](#,##0)", 39: "#,##0.00 ;(#,##0.00)", 40: "#,##0.00 ;[Red](#,##0.00)",
	41: `_ * #,##0_ ;_ * \-#,##0_ ;_ * "-"_ ;_ @_ `, 42: `_ "¥"* #,##0_ ;_ "¥"* \-#,##0_ ;_ "¥"* "-"_ ;_ @_ `,
	43: `_ * #,##0.00_ ;_ * \-#,##0.00_ ;_ * "-"??_ ;_ @_ `, 44: `_ "¥"* #,##0.00_ ;_ "¥"* \-#,##0.00_ ;_ "¥"* "-"??_ ;_ @_ `,
	45: "mm:ss", 46: "[h]:mm:ss", 47: "mm:ss.0", 48: "##0.0E+0", 49: "@",
	50: `[$-411]ge.m.d`, 51: `[$-411]ggge"年"m"月"d"日"`, 52: `yyyy"年"m"月"`, 53: `m"月"d"日"`,
	54: `[$-411]ggge"年"m"月"d"日"`, 55: `yyyy"年"m"月"`, 56: `m"月"d"日"`,
	57: `[$-411]ge.m.d`, 58: `[$-411]ggge"年"m"月"d"日"`,
}

// fmtToken is one element of a number format section.
type fmtToken struct {
	kind byte   // 'G' General, 'l' literal, '0' '#' '?' digits, '.', ',', '%', 'E', '/', '@', 'D' a date or time part
	text string // the literal, or the date part (yyyy, m, hh, [h], AM/PM, ggg, aaa …)
}

// fmtSection is one section of a format (positive;negative;zero;text).
type fmtSection struct {
	tokens   []fmtToken
	date     bool
	cond     string // [>=100]: the comparison and its number
	condNum  float64
	japanese bool // [$-411] and the like: Japanese month and weekday names
	kanji    bool // [DBNum1]: General in kanji numerals (二千二十六)
}

// isDateCode reports whether a format code shows dates or times: date
// parts outside quotes and brackets.
func isDateCode(code string) bool {
	for _, s := range parseFormat(code) {
		if s.date {
			return true
		}
	}
	return false
}

// formatNumber is a number as the format code shows it in Excel: General,
// thousands, decimals, percent, currency and literal text, scientific,
// fractions, dates and times (a serial day count from 1900, or 1904).
// A date out of Excel's range is shown as a number.
func formatNumber(v float64, code string, date1904 bool) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return strconv.FormatFloat(v, 'g', -1, 64)
	}
	if code == "" || strings.EqualFold(code, "General") || code == "@" {
		return general(v)
	}
	secs := parseFormat(code)
	if len(secs) == 0 {
		return general(v)
	}
	s, neg := pickSection(secs, v)
	if s.date {
		if out, ok := formatDate(v, s, date1904); ok {
			return strings.TrimSpace(out)
		}
		return general(v)
	}
	out := formatDigits(math.Abs(v), s)
	if v < 0 && !neg {
		// One section for all numbers, or one chosen by a condition:
		// the minus sign is the number's, before all of the section
		// ("¥"#,##0 of -5000: -¥5,000).
		out = "-" + strings.TrimLeft(out, " ")
	}
	return strings.TrimSpace(out)
}

// pickSection chooses the section of a number; neg says the section is
// the negative numbers' (which shows the number without its sign).
func pickSection(secs []fmtSection, v float64) (fmtSection, bool) {
	if secs[0].cond != "" {
		for i, s := range secs {
			if s.cond == "" || compare(v, s.cond, s.condNum) {
				return s, s.cond == "" && i == 1 && v < 0
			}
		}
		return secs[len(secs)-1], false
	}
	switch {
	case v < 0 && len(secs) >= 2:
		return secs[1], true
	case v == 0 && len(secs) >= 3:
		return secs[2], false
	}
	return secs[0], false
}

func compare(v float64, op string, n float64) bool {
	switch op {
	case ">":
		return v > n
	case ">=":
		return v >= n
	case "<":
		return v < n
	case "<=":
		return v <= n
	case "=":
		return v == n
	case "<>":
		return v != n
	}
	return false
}

// parseFormat splits a format code into its sections and tokens.
func parseFormat(code string) []fmtSection {
	var out []fmtSection
	cur := fmtSection{}
	lit := func(s string) {
		if n := len(cur.tokens); n > 0 && cur.tokens[n-1].kind == 'l' {
			cur.tokens[n-1].text += s
			return
		}
		cur.tokens = append(cur.tokens, fmtToken{kind: 'l', text: s})
	}
	lower := strings.ToLower(code)
	for i := 0; i < len(code); {
		c := code[i]
		switch {
		case c == ';':
			out = append(out, cur)
			cur = fmtSection{}
			i++
		case c == '"':
			j := strings.IndexByte(code[i+1:], '"')
			if j < 0 {
				j = len(code) - i - 1
			}
			lit(code[i+1 : i+1+j])
			i += j + 2
		case c == '\\' || c == '!':
			if i+1 < len(code) {
				_, n := utf8.DecodeRuneInString(code[i+1:])
				lit(code[i+1 : i+1+n])
				i += 1 + n
			} else {
				i++
			}
		case c == '_':
			// The width of the next character: a space.
			lit(" ")
			i++
			if i < len(code) {
				_, n := utf8.DecodeRuneInString(code[i:])
				i += n
			}
		case c == '*':
			// Repeat the next character to fill the cell: nothing here.
			i++
			if i < len(code) {
				_, n := utf8.DecodeRuneInString(code[i:])
				i += n
			}
		case c == '[':
			j := strings.IndexByte(code[i:], ']')
			if j < 0 {
				i = len(code)
				break
			}
			in := code[i+1 : i+j]
			li := strings.ToLower(in)
			switch {
			case li == "h" || li == "hh" || li == "m" || li == "mm" || li == "s" || li == "ss":
				cur.tokens = append(cur.tokens, fmtToken{kind: 'D', text: "[" + li + "]"})
				cur.date = true
			case strings.HasPrefix(in, "$"):
				sym, loc, _ := strings.Cut(in[1:], "-")
				if sym != "" {
					lit(sym)
				}
				if l := strings.ToLower(loc); strings.HasSuffix(l, "411") || strings.HasSuffix(l, "0411") {
					cur.japanese = true
				}
			case li == "dbnum1":
				cur.kanji = true
			case strings.HasPrefix(in, ">") || strings.HasPrefix(in, "<") || strings.HasPrefix(in, "="):
				op := strings.TrimRight(in, "0123456789.-+ ")
				if n, err := strconv.ParseFloat(strings.TrimSpace(in[len(op):]), 64); err == nil {
					cur.cond, cur.condNum = op, n
				}
			}
			// Colours ([Red], [Color10]) and others show nothing.
			i += j + 1
		case c == '0' || c == '#' || c == '?' || c == '.' || c == ',' || c == '%' || c == '/' || c == '@':
			if c == '.' && cur.date {
				// mm:ss.0: tenths of a second.
				j := i + 1
				for j < len(code) && code[j] == '0' {
					j++
				}
				cur.tokens = append(cur.tokens, fmtToken{kind: 'D', text: code[i:j]})
				i = j
				break
			}
			cur.tokens = append(cur.tokens, fmtToken{kind: c})
			i++
		case (c == 'E' || c == 'e') && i+1 < len(code) && (code[i+1] == '+' || code[i+1] == '-') && !cur.date:
			cur.tokens = append(cur.tokens, fmtToken{kind: 'E', text: code[i+1 : i+2]})
			i += 2
		case strings.HasPrefix(lower[i:], "general"):
			cur.tokens = append(cur.tokens, fmtToken{kind: 'G'})
			i += 7
		case strings.HasPrefix(lower[i:], "g/標準"):
			// G/標準: General as Japanese Excel names it.
			cur.tokens = append(cur.tokens, fmtToken{kind: 'G'})
			i += len("g/標準")
		case strings.HasPrefix(lower[i:], `g/"標準"`):
			// As LibreOffice writes it.
			cur.tokens = append(cur.tokens, fmtToken{kind: 'G'})
			i += len(`g/"標準"`)
		case strings.HasPrefix(lower[i:], "am/pm"):
			cur.tokens = append(cur.tokens, fmtToken{kind: 'D', text: "AM/PM"})
			cur.date = true
			i += 5
		case strings.HasPrefix(lower[i:], "a/p"):
			cur.tokens = append(cur.tokens, fmtToken{kind: 'D', text: "A/P"})
			cur.date = true
			i += 3
		case strings.ContainsRune("ymdhsegab", rune(lower[i])):
			j := i + 1
			for j < len(code) && lower[j] == lower[i] {
				j++
			}
			if lower[i] == 'b' || lower[i] == 'a' && j-i < 3 {
				// b (Buddhist years) and a lone a: read as they stand.
				lit(code[i:j])
				i = j
				break
			}
			cur.tokens = append(cur.tokens, fmtToken{kind: 'D', text: lower[i:j]})
			cur.date = true
			i = j
		default:
			_, n := utf8.DecodeRuneInString(code[i:])
			lit(code[i : i+n])
			i += n
		}
	}
	return append(out, cur)
}

// formatDigits shows a number (not negative) with a section of digit
// placeholders: percent, thousands and their scaling, decimals,
// scientific and fractions.
func formatDigits(v float64, s fmtSection) string {
	toks := s.tokens
	for i, t := range toks {
		if t.kind == 'G' {
			// General with text around it.
			g := general(v)
			if s.kanji && v == math.Trunc(v) && v < 1e16 {
				g = kanjiCount(int(v), kanjiDigits, "十百千")
			}
			var b strings.Builder
			for j, u := range toks {
				switch {
				case j == i:
					b.WriteString(g)
				case u.kind == 'l':
					b.WriteString(u.text)
				}
			}
			return b.String()
		}
	}
	var intPart, fracPart []fmtToken // placeholders and literals in between
	prefix, suffix := "", ""
	first, last := -1, -1
	for i, t := range toks {
		if t.kind == '0' || t.kind == '#' || t.kind == '?' {
			if first < 0 {
				first = i
			}
			last = i
		}
		if t.kind == '%' {
			v *= 100
		}
	}
	if first < 0 {
		// No digits: the literals alone (a number shown as text).
		var b strings.Builder
		for _, t := range toks {
			switch t.kind {
			case 'l':
				b.WriteString(t.text)
			case '%':
				b.WriteByte('%')
			}
		}
		return b.String()
	}
	for _, t := range toks[:first] {
		switch t.kind {
		case 'l':
			prefix += t.text
		case '%':
			prefix += "%"
		}
	}
	grouping, exp, frac := false, "", -1
	dot := -1
	for i := first; i <= last; i++ {
		switch toks[i].kind {
		case ',':
			grouping = true
		case 'E':
			exp = toks[i].text
		case '/':
			frac = i
		case '.':
			if dot < 0 {
				dot = i
			}
		}
	}
	// Commas after the last placeholder scale by a thousand each.
	j := last + 1
	for ; j < len(toks) && toks[j].kind == ','; j++ {
		v /= 1000
	}
	for _, t := range toks[j:] {
		switch t.kind {
		case 'l':
			suffix += t.text
		case '%':
			suffix += "%"
		}
	}
	if frac >= 0 {
		return prefix + fraction(v, toks[first:last+1], frac-first) + suffix
	}
	for i := first; i <= last; i++ {
		if toks[i].kind == 'E' {
			break // the exponent's digits
		}
		switch {
		case dot >= 0 && i > dot:
			fracPart = append(fracPart, toks[i])
		case i != dot:
			intPart = append(intPart, toks[i])
		}
	}
	if exp != "" {
		return prefix + scientific(v, intPart, fracPart, exp) + suffix
	}
	decimals, minDecimals := 0, 0
	for _, t := range fracPart {
		switch t.kind {
		case '0':
			decimals++
			minDecimals = decimals
		case '#', '?':
			decimals++
		}
	}
	str := roundDecimal(v, decimals)
	ip, fp, _ := strings.Cut(str, ".")
	fp = strings.TrimRight(fp, "0")
	for len(fp) < minDecimals {
		fp += "0"
	}
	minInt := 0
	for _, t := range intPart {
		if t.kind == '0' {
			minInt++
		}
	}
	if ip == "0" {
		ip = ""
	}
	for len(ip) < minInt {
		ip = "0" + ip
	}
	var b strings.Builder
	b.WriteString(prefix)
	if grouping {
		b.WriteString(group(ip))
	} else {
		b.WriteString(fillDigits(ip, intPart))
	}
	if dot >= 0 && (fp != "" || minDecimals > 0) {
		b.WriteByte('.')
		b.WriteString(fp)
	}
	for _, t := range fracPart {
		if t.kind == 'l' {
			b.WriteString(t.text)
		}
	}
	b.WriteString(suffix)
	return b.String()
}

// roundDecimal shows a number (not negative) with decimals digits after
// the point, rounded as Excel rounds: its 15 significant digits, halves
// away from zero (0.125 at 2 places is 0.13, 1.005 is 1.01).
func roundDecimal(v float64, decimals int) string {
	s := strconv.FormatFloat(roundSignificant(v, 15), 'f', -1, 64)
	ip, fp, _ := strings.Cut(s, ".")
	if len(fp) <= decimals {
		return strings.TrimSuffix(ip+"."+fp+strings.Repeat("0", decimals-len(fp)), ".")
	}
	up := fp[decimals] >= '5'
	digits := []byte(ip + fp[:decimals])
	for i := len(digits) - 1; up && i >= 0; i-- {
		if digits[i] == '9' {
			digits[i] = '0'
			continue
		}
		digits[i]++
		up = false
	}
	out := string(digits)
	if up {
		out = "1" + out
	}
	if decimals == 0 {
		return out
	}
	return out[:len(out)-decimals] + "." + out[len(out)-decimals:]
}

// fillDigits places an integer's digits in placeholders with literals
// between them (000-0000: a postal code), right to left, as Excel does: a
// placeholder without a digit left shows 0 for 0, a space for ?, nothing
// for # (0##-####-#### of 312345678: 03-1234-5678); literals always
// show; digits beyond the placeholders go before the first.
func fillDigits(digits string, tmpl []fmtToken) string {
	var parts []string
	d := len(digits)
	for i := len(tmpl) - 1; i >= 0; i-- {
		t := tmpl[i]
		switch t.kind {
		case 'l':
			parts = append(parts, t.text)
		case '0', '#', '?':
			switch {
			case d > 0:
				d--
				parts = append(parts, digits[d:d+1])
			case t.kind == '0':
				parts = append(parts, "0")
			case t.kind == '?':
				parts = append(parts, " ")
			}
		}
	}
	if d > 0 {
		parts = append(parts, digits[:d])
	}
	slices := make([]string, 0, len(parts))
	for i := len(parts) - 1; i >= 0; i-- {
		slices = append(slices, parts[i])
	}
	return strings.Join(slices, "")
}

// group puts thousands separators in an integer's digits.
func group(digits string) string {
	if len(digits) <= 3 {
		return digits
	}
	var b strings.Builder
	pre := len(digits) % 3
	b.WriteString(digits[:pre])
	for i := pre; i < len(digits); i += 3 {
		if b.Len() > 0 {
			b.WriteByte(',')
		}
		b.WriteString(digits[i : i+3])
	}
	return b.String()
}

// scientific shows a number as 1.23E+05 (0.00E+00).
func scientific(v float64, intPart, fracPart []fmtToken, sign string) string {
	decimals := 0
	for _, t := range fracPart {
		if t.kind != 'l' {
			decimals++
		}
	}
	s := strconv.FormatFloat(v, 'E', decimals, 64)
	m, e, _ := strings.Cut(s, "E")
	n, _ := strconv.Atoi(e)
	es := "+"
	if n < 0 {
		es, n = "-", -n
	} else if sign == "-" {
		es = ""
	}
	return m + "E" + es + pad2(n)
}

func pad2(n int) string {
	if n < 10 {
		return "0" + strconv.Itoa(n)
	}
	return strconv.Itoa(n)
}

// fraction shows a number as a whole part and a fraction (# ?/?) whose
// denominator has at most as many digits as the placeholders after the
// slash.
func fraction(v float64, toks []fmtToken, slash int) string {
	digits := 0
	for _, t := range toks[slash+1:] {
		if t.kind != 'l' {
			digits++
		}
	}
	maxDen := int(math.Pow(10, float64(max(digits, 1)))) - 1
	whole := math.Floor(v)
	wholePart := slices0(toks[:slash])
	rest := v - whole
	if !wholePart {
		whole, rest = 0, v
	}
	num, den := bestFraction(rest, maxDen)
	if num == den {
		whole++
		num = 0
	}
	var b strings.Builder
	if whole > 0 || num == 0 {
		b.WriteString(strconv.FormatFloat(whole, 'f', 0, 64))
	}
	if num > 0 {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(strconv.Itoa(num) + "/" + strconv.Itoa(den))
	}
	return b.String()
}

// slices0 reports whether a fraction's format has a whole part: a
// placeholder, then a literal, before the numerator.
func slices0(toks []fmtToken) bool {
	seenDigit := false
	for _, t := range toks {
		switch t.kind {
		case '0', '#', '?':
			if seenDigit {
				continue
			}
			seenDigit = true
		case 'l':
			if seenDigit {
				return true
			}
		}
	}
	return false
}

// bestFraction is the fraction nearest to x (0 ≤ x < 1 or more) with a
// denominator up to maxDen.
func bestFraction(x float64, maxDen int) (int, int) {
	bestN, bestD, bestErr := 0, 1, math.Abs(x)
	for d := 1; d <= maxDen; d++ {
		n := int(math.Round(x * float64(d)))
		if e := math.Abs(x - float64(n)/float64(d)); e < bestErr-1e-12 {
			bestN, bestD, bestErr = n, d, e
		}
	}
	return bestN, bestD
}

// general is a number as Excel's General format shows it where there is
// room: up to 15 significant digits, in full between 1e-9 and 1e15,
// otherwise as 1.5E+20 (so that 1e308 is not 309 digits).
func general(v float64) string {
	if v == 0 {
		return "0"
	}
	a := math.Abs(v)
	if a >= 1e-9 && a < 1e15 {
		return strconv.FormatFloat(roundSignificant(v, 15), 'f', -1, 64)
	}
	s := strconv.FormatFloat(v, 'E', 14, 64)
	m, e, _ := strings.Cut(s, "E")
	if strings.Contains(m, ".") {
		m = strings.TrimRight(strings.TrimRight(m, "0"), ".")
	}
	n, _ := strconv.Atoi(e)
	sign := "+"
	if n < 0 {
		sign, n = "-", -n
	}
	return m + "E" + sign + pad2(n)
}

func roundSignificant(f float64, n int) float64 {
	if f == 0 || math.IsInf(f, 0) || math.IsNaN(f) {
		return f
	}
	p := math.Pow(10, float64(n)-math.Ceil(math.Log10(math.Abs(f))))
	return math.Round(f*p) / p
}

// maxSerial is the first serial day Excel cannot show (10000-01-01).
const maxSerial = 2958466

// serialTime is the time of an Excel serial day number; ok is false out
// of Excel's range (before 1900 or 1904, from the year 10000). Serial 60
// is Excel's 1900-02-29, which never was: leap1900 says so.
func serialTime(f float64, date1904 bool) (t time.Time, leap1900 bool, ok bool) {
	if math.IsNaN(f) || f < 0 || f >= maxSerial {
		return time.Time{}, false, false
	}
	days := math.Floor(f)
	secs := math.Round((f - days) * 86400 * 1000)
	base := time.Date(1899, 12, 30, 0, 0, 0, 0, time.UTC)
	switch {
	case date1904:
		base = time.Date(1904, 1, 1, 0, 0, 0, 0, time.UTC)
	case days == 60:
		leap1900 = true
	case days < 60 && days > 0:
		// Excel counts 1900 as a leap year: its serials before March
		// 1900 are a day later than the calendar's.
		base = base.AddDate(0, 0, 1)
	}
	return base.AddDate(0, 0, int(days)).Add(time.Duration(secs) * time.Millisecond), leap1900, true
}

// serialDate turns an Excel serial date into 2026-04-01 (and its time,
// when it has one), or the number when it is out of range.
func serialDate(f float64, date1904 bool) string {
	t, leap, ok := serialTime(f, date1904)
	if !ok {
		return general(f)
	}
	d := t.Format("2006-01-02")
	if leap {
		d = "1900-02-29"
	}
	switch {
	case t.Hour() == 0 && t.Minute() == 0 && t.Second() == 0:
		return d
	case math.Floor(f) == 0:
		return t.Format("15:04")
	}
	return d + t.Format(" 15:04")
}

// eras are Japan's eras since 明治, newest first: when each began.
var eras = []struct {
	start            time.Time
	letter, one, all string
}{
	{time.Date(2019, 5, 1, 0, 0, 0, 0, time.UTC), "R", "令", "令和"},
	{time.Date(1989, 1, 8, 0, 0, 0, 0, time.UTC), "H", "平", "平成"},
	{time.Date(1926, 12, 25, 0, 0, 0, 0, time.UTC), "S", "昭", "昭和"},
	{time.Date(1912, 7, 30, 0, 0, 0, 0, time.UTC), "T", "大", "大正"},
	{time.Date(1868, 10, 23, 0, 0, 0, 0, time.UTC), "M", "明", "明治"},
}

var (
	jaWeekdays = []string{"日", "月", "火", "水", "木", "金", "土"}
	months     = []string{"January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"}
)

// formatDate shows a serial date with a section of date and time parts;
// ok is false for a serial out of Excel's range.
func formatDate(v float64, s fmtSection, date1904 bool) (string, bool) {
	t, leap, ok := serialTime(v, date1904)
	if !ok {
		return "", false
	}
	y, mo, d := t.Year(), int(t.Month()), t.Day()
	if leap {
		y, mo, d = 1900, 2, 29
	}
	ampm := false
	hasEra := false
	for _, tk := range s.tokens {
		if tk.kind == 'D' && (tk.text == "AM/PM" || tk.text == "A/P") {
			ampm = true
		}
		if tk.kind == 'D' && tk.text[0] == 'g' {
			hasEra = true
		}
	}
	era := eras[len(eras)-1]
	for _, e := range eras {
		if !t.Before(e.start) {
			era = e
			break
		}
	}
	eraYear := y - era.start.Year() + 1
	var b strings.Builder
	for i, tk := range s.tokens {
		if tk.kind != 'D' {
			switch tk.kind {
			case 'l':
				b.WriteString(tk.text)
			case '0', '#', '?', '.', ',', '%', '/', '@':
				b.WriteByte(tk.kind)
			}
			continue
		}
		p := tk.text
		switch p[0] {
		case 'y':
			if len(p) <= 2 {
				b.WriteString(pad2(y % 100))
			} else {
				b.WriteString(strconv.Itoa(y))
			}
		case 'm':
			if minuteAt(s.tokens, i) {
				writeN(&b, t.Minute(), len(p))
				break
			}
			switch {
			case len(p) <= 2:
				writeN(&b, mo, len(p))
			case s.japanese:
				b.WriteString(strconv.Itoa(mo) + "月")
			case len(p) == 3:
				b.WriteString(months[mo-1][:3])
			case len(p) == 4:
				b.WriteString(months[mo-1])
			default:
				b.WriteString(months[mo-1][:1])
			}
		case 'd':
			switch {
			case len(p) <= 2:
				writeN(&b, d, len(p))
			case s.japanese && len(p) == 3:
				b.WriteString(jaWeekdays[t.Weekday()])
			case s.japanese:
				b.WriteString(jaWeekdays[t.Weekday()] + "曜日")
			case len(p) == 3:
				b.WriteString(t.Weekday().String()[:3])
			default:
				b.WriteString(t.Weekday().String())
			}
		case 'a':
			if len(p) == 3 {
				b.WriteString(jaWeekdays[t.Weekday()])
			} else {
				b.WriteString(jaWeekdays[t.Weekday()] + "曜日")
			}
		case 'h':
			h := t.Hour()
			if ampm {
				h = (h+11)%12 + 1
			}
			writeN(&b, h, len(p))
		case 's':
			writeN(&b, t.Second(), len(p))
		case 'g':
			switch len(p) {
			case 1:
				b.WriteString(era.letter)
			case 2:
				b.WriteString(era.one)
			default:
				b.WriteString(era.all)
			}
		case 'e':
			if hasEra || s.japanese {
				writeN(&b, eraYear, len(p))
			} else {
				b.WriteString(strconv.Itoa(y))
			}
		case '[':
			total := v * 86400
			switch p {
			case "[h]", "[hh]":
				b.WriteString(strconv.Itoa(int(total / 3600)))
			case "[m]", "[mm]":
				b.WriteString(strconv.Itoa(int(total / 60)))
			default:
				b.WriteString(strconv.Itoa(int(math.Round(total))))
			}
		case '.':
			ms := t.Nanosecond() / int(time.Millisecond)
			digits := len(p) - 1
			frac := pad3(ms)[:min(digits, 3)]
			b.WriteString("." + frac)
		case 'A':
			if p == "AM/PM" {
				if t.Hour() < 12 {
					b.WriteString("AM")
				} else {
					b.WriteString("PM")
				}
			} else if t.Hour() < 12 {
				b.WriteString("A")
			} else {
				b.WriteString("P")
			}
		}
	}
	return b.String(), true
}

func pad3(n int) string {
	s := strconv.Itoa(n)
	for len(s) < 3 {
		s = "0" + s
	}
	return s
}

func writeN(b *strings.Builder, n, width int) {
	if width >= 2 {
		b.WriteString(pad2(n))
		return
	}
	b.WriteString(strconv.Itoa(n))
}

// minuteAt reports whether the m part at i means minutes: after an hour
// or before a second (literals between do not count).
func minuteAt(toks []fmtToken, i int) bool {
	for j := i - 1; j >= 0; j-- {
		if toks[j].kind != 'D' {
			continue
		}
		c := toks[j].text[0]
		if c == 'h' || toks[j].text == "[h]" || toks[j].text == "[hh]" {
			return true
		}
		break
	}
	for j := i + 1; j < len(toks); j++ {
		if toks[j].kind != 'D' {
			continue
		}
		return toks[j].text[0] == 's' || strings.HasPrefix(toks[j].text, "[s")
	}
	return false
}
