package research

import (
	"strings"

	"lwr/analyzer"
	"lwr/analyzer/lazyre"
)

// asked is what a question asks for: the kinds of value that answer it
// and, for a count, its unit (何文字 → quantity in 文字).
type asked struct {
	kinds map[string]bool
	unit  string
}

var (
	askedUnit   = lazyre.New(`何(文字|桁|営業日|日|時間|分|回|か月|ヶ月|カ月|年|歳|人|名|社|件|泊|週間|割|%)|(文字|日|時間|回|人|件|年)数`)
	askedAmount = lazyre.New(`いくら|幾ら|金額|料金|費用|値段|価格|予算|額|円|手当`)
	// A cost word at the end of a noun: ホテル代は, 交通費の, 宿泊料って; not
	// 資料, 材料, 時代, 世代 (the rune before tells).
	askedCost = lazyre.New(`(.)([代費料])(?:は|の|って|$)`)
	notCost   = map[string]bool{"資料": true, "材料": true, "原料": true, "燃料": true, "飲料": true, "食料": true, "無料": true, "時代": true, "世代": true, "年代": true, "交代": true, "現代": true, "近代": true, "古代": true, "消費": true, "浪費": true}
	askedDate = lazyre.New(`いつ(?:まで|から|頃|ごろ|です|でしょう|に|の|$|[？?。、])|期限|締め?切り?|日付|施行日|期日`)
	// 何 alone asks for a number (最大何?), 何を, 何が, 何か for a thing.
	askedLimit = lazyre.New(`上限|下限|限度|最大|最長|最低|以上|以下|まで|何(?:[^をがにでのはともかな]|$)`)
)

// askedOf reads what the question asks for from its words.
func askedOf(q string) asked {
	f := analyzer.Fold(q)
	a := asked{kinds: map[string]bool{}}
	if m := askedUnit.FindStringSubmatch(f); m != nil {
		a.kinds[FactQuantity] = true
		a.unit = m[1] + m[2]
		if u, ok := unitNames[a.unit]; ok {
			a.unit = u
		}
	}
	if askedAmount.MatchString(f) {
		a.kinds[FactAmount] = true
	}
	for _, m := range askedCost.FindAllStringSubmatch(f, -1) {
		if !notCost[m[1]+m[2]] {
			a.kinds[FactAmount] = true
		}
	}
	if askedDate.MatchString(f) {
		a.kinds[FactDate] = true
		a.kinds[FactQuantity] = true
	}
	if len(a.kinds) == 0 && askedLimit.MatchString(f) {
		a.kinds[FactAmount] = true
		a.kinds[FactQuantity] = true
	}
	return a
}

// answers reports whether a fact is of the kind the question asks for.
func (a asked) answers(f fact) bool {
	if !a.kinds[f.kind] {
		return false
	}
	return f.kind != FactQuantity || a.unit == "" || f.unit == a.unit
}

// about reports whether a conflict is about what the question asks for.
func (a asked) about(c Conflict) bool {
	if !a.kinds[c.Kind] {
		return false
	}
	if c.Kind != FactQuantity || a.unit == "" {
		return true
	}
	for _, s := range c.Sides {
		if strings.HasSuffix(s.Value, a.unit) {
			return true
		}
	}
	return false
}

// any reports whether the question asks for a value at all.
func (a asked) any() bool { return len(a.kinds) > 0 }

// holding counts the content words a folded text holds; each word is
// its forms (the search's analyzed terms: folded, base form).
func holding(f string, words [][]string) int {
	n := 0
	for _, forms := range words {
		for _, w := range forms {
			if strings.Contains(f, w) {
				n++
				break
			}
		}
	}
	return n
}
