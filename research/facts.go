package research

import (
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"lwr/analyzer"
	"lwr/analyzer/edition"
	"lwr/analyzer/lazyre"
	"lwr/index"
)

// Fact kinds of Layer 1.
const (
	FactAmount  = "amount"
	FactDate    = "date"
	FactEdition = "edition"
	FactVersion = "version"
	FactValue   = "value" // a value a currentness record is about
	// FactQuantity is a number with a unit other than yen: 12文字, 3営業日,
	// 45時間, 93日.
	FactQuantity = "quantity"
)

var factKindLabels = map[string]string{FactAmount: "金額", FactDate: "日付", FactEdition: "版", FactVersion: "バージョン", FactValue: "値", FactQuantity: "数量"}

// factKindLabel is the Japanese name of a fact kind.
func factKindLabel(kind string) string { return factKindLabels[kind] }

// fact is one Layer 1 statement: a kind, a normalized value, the text it
// stands in and the point it is about.
type fact struct {
	kind  string
	value string // normalized
	raw   string
	unit  string // of a quantity: 文字, 日, 時間
	label string // the line without its facts, folded
	text  string
	line  int
}

var amountRe = lazyre.New(`(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d+))?\s*(億|万|千)?\s*円`)

// amounts finds the yen amounts of folded text: value in yen, raw text and
// byte span.
func amounts(f string) (vals, raws []string, spans [][2]int) {
	for _, m := range amountRe.FindAllStringSubmatchIndex(f, -1) {
		num := strings.ReplaceAll(f[m[2]:m[3]], ",", "")
		v, err := strconv.ParseFloat(num, 64)
		if err != nil {
			continue
		}
		if m[4] >= 0 {
			frac, _ := strconv.ParseFloat("0."+f[m[4]:m[5]], 64)
			v += frac
		}
		if m[6] >= 0 {
			switch f[m[6]:m[7]] {
			case "億":
				v *= 1e8
			case "万":
				v *= 1e4
			case "千":
				v *= 1e3
			}
		}
		vals = append(vals, strconv.FormatInt(int64(math.Round(v)), 10)+"円")
		raws = append(raws, strings.TrimSpace(f[m[0]:m[1]]))
		spans = append(spans, [2]int{m[0], m[1]})
	}
	return vals, raws, spans
}

// dateLike are the spans of folded text that are dates or eras, not
// quantities: 2026年4月1日, 4月1日, 2025/4/1, 令和6年, 平成元年.
var dateLike = lazyre.New(`\d{4}\s*年(?:\s*\d{1,2}\s*月(?:\s*\d{1,2}\s*日)?)?|\d{1,2}\s*月\s*\d{1,2}\s*日|\d{4}[-/.]\d{1,2}(?:[-/.]\d{1,2})?|(?:令和|平成|昭和)\s*(?:\d+|元)\s*年度?`)

// quantityRe is a number and its unit.
var quantityRe = lazyre.New(`(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)\s*(` + index.QuantityUnits + `)`)

// quantities finds the quantities of folded text other than amounts and
// dates: value (number and unit), raw text, and the unit.
func quantities(f string) (vals, raws, units []string) {
	masked := dateLike.ReplaceAllStringFunc(f, func(m string) string { return strings.Repeat("#", len(m)) })
	for _, m := range quantityRe.FindAllStringSubmatchIndex(masked, -1) {
		unit := masked[m[4]:m[5]]
		if unit == "分" && strings.HasPrefix(masked[m[5]:], "の") {
			continue // 3分の1 is a fraction, not minutes
		}
		unit = index.UnitName(unit)
		vals = append(vals, strings.ReplaceAll(masked[m[2]:m[3]], ",", "")+unit)
		raws = append(raws, strings.TrimSpace(f[m[0]:m[1]]))
		units = append(units, unit)
	}
	return vals, raws, units
}

// normalizeValue makes a value comparable: an amount in yen, else the
// folded text without spaces.
func normalizeValue(s string) string {
	f := analyzer.Fold(s)
	if vals, _, _ := amounts(f); len(vals) == 1 {
		return vals[0]
	}
	return strings.Join(strings.Fields(f), "")
}

// labelDrop are the characters a point's label leaves out: digits, date
// and edition words, units, punctuation and Markdown.
const labelDrop = "0123456789年月日度版第号円万億千,.:：;/-~()（）[]［］|｜*#>`'\"「」『』、。・ 　\t令和平成昭和vV"

// pointLabel is the folded text of a line without its numbers, dates,
// editions and punctuation: what the line is about.
func pointLabel(f string) string {
	var b strings.Builder
	for _, r := range f {
		if strings.ContainsRune(labelDrop, r) || unicode.IsSpace(r) {
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// factsOf reads the facts of one line or sentence.
func factsOf(text string, line int) []fact {
	t := strings.TrimSpace(text)
	if t == "" {
		return nil
	}
	f := analyzer.Fold(t)
	var out []fact
	label := pointLabel(f)
	vals, raws, _ := amounts(f)
	for i := range vals {
		out = append(out, fact{kind: FactAmount, value: vals[i], raw: raws[i], label: label, text: t, line: line})
	}
	qvals, qraws, units := quantities(f)
	for i := range qvals {
		out = append(out, fact{kind: FactQuantity, value: qvals[i], raw: qraws[i], unit: units[i], label: label, text: t, line: line})
	}
	for _, e := range edition.Find(t) {
		k := ""
		switch e.Kind {
		case edition.Number, edition.FiscalYear, edition.Year:
			k = FactEdition
		case edition.Version:
			k = FactVersion
		case edition.Revised, edition.Effective, edition.Enacted, edition.Issued, edition.Created, edition.Date:
			k = FactDate
		}
		if k == "" {
			continue
		}
		out = append(out, fact{kind: k, value: e.Kind.String() + ":" + e.Value, raw: strings.TrimSpace(e.Raw), label: label, text: t, line: line})
	}
	return out
}

// factsOfSource reads the facts of a source: the snippet's lines of a
// local hit (with their line numbers), the sentences of a web snippet.
func factsOfSource(s source) []fact {
	var out []fact
	if s.local() {
		for i, l := range strings.Split(s.hit.Match.Snippet, "\n") {
			out = append(out, factsOf(l, s.hit.Match.StartLine+i)...)
		}
		return out
	}
	for _, sent := range sentences(s.web.Entry.Title + "。" + s.web.Entry.Snippet) {
		out = append(out, factsOf(sent, 0)...)
	}
	return out
}

// sentences cuts text at 。 ！ ？ and line ends.
func sentences(text string) []string {
	return strings.FieldsFunc(text, func(r rune) bool {
		return r == '。' || r == '\n' || r == '！' || r == '？' || r == '!' || r == '?'
	})
}

// bigrams of a label, for similarity.
func labelBigrams(s string) map[string]bool {
	rs := []rune(s)
	out := map[string]bool{}
	for i := 0; i+1 < len(rs); i++ {
		out[string(rs[i:i+2])] = true
	}
	return out
}

// samePoint reports whether two facts are about the same point: labels
// equal, one holding the other, or most of their character bigrams in
// common. Short labels (under 6 characters) count only between related
// documents, so that 施行 in two unrelated rules is not a conflict.
func samePoint(a, b fact, related bool) bool {
	la, lb := utf8.RuneCountInString(a.label), utf8.RuneCountInString(b.label)
	if la < 2 || lb < 2 {
		return false
	}
	short := min(la, lb) < 6
	if short && !related {
		return false
	}
	if a.label == b.label {
		return true
	}
	if min(la, lb) >= 4 && (strings.Contains(a.label, b.label) || strings.Contains(b.label, a.label)) {
		return true
	}
	ga, gb := labelBigrams(a.label), labelBigrams(b.label)
	inter := 0
	for g := range ga {
		if gb[g] {
			inter++
		}
	}
	union := len(ga) + len(gb) - inter
	return union > 0 && float64(inter)/float64(union) >= 0.5
}
