package index

import (
	"cmp"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"lwr/analyzer"
	"lwr/analyzer/lazyre"
)

// A question that states an amount of its own (家から会社まで6km, 勤続3年,
// 10万円のPC) is answered by the row or item whose range holds it
// (5km以上8km未満, 3年以上5年未満, 5万円以上): the range is the condition
// the answer depends on.

// quantity is a number of the question with its unit. beyond is +1 when
// the question asks about more than it (60時間を超える), -1 less than it
// (1年未満), 0 the amount itself.
type quantity struct {
	v      float64
	unit   string
	beyond int
}

// at is the amount a range must hold: a hair past v when the question
// asks beyond it, so that 60時間を超える falls in 60時間超 and out of
// 60時間以下.
func (q quantity) at() float64 {
	return q.v + float64(q.beyond)*1e-6*max(1, math.Abs(q.v))
}

// rangeUnits folds the spellings of the units ranges are written in.
var rangeUnits = map[string]string{"キロ": "km", "キロメートル": "km", "km": "km", "メートル": "m", "m": "m", "年": "年", "年間": "年", "か月": "か月", "ヶ月": "か月", "カ月": "か月", "箇月": "か月", "日": "日", "日間": "日", "時間": "時間", "分": "分", "歳": "歳", "円": "円", "万円": "万円", "人": "人", "名": "人", "回": "回", "%": "%", "パーセント": "%"}

// unitAlt is the spellings of rangeUnits as a regexp alternation, the
// longest first (キロメートル before キロ, 万円 before 円).
var unitAlt = func() string {
	us := slices.Collect(maps.Keys(rangeUnits))
	slices.SortFunc(us, func(a, b string) int { return cmp.Or(len(b)-len(a), strings.Compare(a, b)) })
	return strings.Join(us, "|")
}()

var (
	// askedAmountRe is a number the question states, with its unit (not
	// 何日: that one asks).
	askedAmountRe = lazyre.New(`([0-9]+(?:\.[0-9]+)?)\s*(` + unitAlt + `)`)
	// rangeRe is a range as rules write it: 5km以上8km未満, 2〜5年, 3年から
	// 5年まで (the unit may be left off the first number), or one bound
	// (12km以上, 1年未満).
	// aboveRe and belowRe follow an amount the question asks beyond:
	// 60時間を超える, 1年に満たない; notAboveRe asks up to it: 45時間を超えない.
	aboveRe    = lazyre.New(`^\s*(?:を超|超|より(?:多|長|上))`)
	notAboveRe = lazyre.New(`^\s*を?超え(?:ない|なけ|ず)`)
	belowRe    = lazyre.New(`^\s*(?:未満|に満たな|より(?:少な|短|下))`)
	rangeRe    = lazyre.New(`([0-9]+(?:\.[0-9]+)?)\s*(` + unitAlt + `)?\s*(以上|超|を超え|から|〜|~|-|－|以下|未満|まで)\s*(?:([0-9]+(?:\.[0-9]+)?)\s*(` + unitAlt + `)\s*(未満|以下|まで|以内)?)?`)
)

// eraBefore ends with the name of a Japanese era (令和6年).
var eraBefore = lazyre.New(`(令和|平成|昭和)\s*$`)

// inYearsAndMonths is a length of time in years and months (1年6か月) or
// in half years (半年, 1年半), which amounts and ranges count in months.
var inYearsAndMonths = lazyre.New(`([0-9]+)\s*年\s*([0-9]+)\s*(?:か月|ヶ月|カ月|箇月|ケ月)|([0-9]+)?\s*年半|半年`)

// inMonths writes the lengths of folded text f in years and months, or
// in half years, in months: 1年6か月 and 1年半 → 18か月, 半年 → 6か月.
func inMonths(f string) string {
	if !strings.Contains(f, "年") {
		return f
	}
	return inYearsAndMonths.ReplaceAllStringFunc(f, func(m string) string {
		sm := inYearsAndMonths.FindStringSubmatch(m)
		years, months := 0, 6
		switch {
		case sm[1] != "":
			years, _ = strconv.Atoi(sm[1])
			months, _ = strconv.Atoi(sm[2])
		case sm[3] != "":
			years, _ = strconv.Atoi(sm[3])
		case !strings.HasPrefix(strings.TrimSpace(m), "半"):
			return m // 年半ば: no number of years
		}
		return strconv.Itoa(12*years+months) + "か月"
	})
}

// inMonthsOf counts a number of years in months, so that 勤続1年 and
// 6か月以上 compare; other units are as they are.
func inMonthsOf(v float64, unit string) (float64, string) {
	if unit == "年" {
		return 12 * v, "か月"
	}
	return v, unit
}

// quantitiesOf are the amounts a folded question states.
func quantitiesOf(f string) []quantity {
	var out []quantity
	f = inMonths(f)
	for _, m := range askedAmountRe.FindAllStringSubmatchIndex(f, -1) {
		if m[0] > 0 && strings.HasSuffix(f[:m[0]], "何") {
			continue
		}
		v, err := strconv.ParseFloat(f[m[2]:m[3]], 64)
		if err != nil {
			continue
		}
		unit := rangeUnits[f[m[4]:m[5]]]
		if unit == "年" && (v >= 1900 || eraBefore.MatchString(f[:m[0]])) {
			continue // a year (2022年, 令和6年), not a length of time
		}
		v, unit = inMonthsOf(v, unit)
		q := quantity{v: v, unit: unit}
		switch after := f[m[1]:]; {
		case notAboveRe.MatchString(after): // up to it, not beyond
		case aboveRe.MatchString(after):
			q.beyond = 1
		case belowRe.MatchString(after):
			q.beyond = -1
		}
		out = append(out, q)
	}
	return out
}

// rangeMatch says whether a folded unit text writes a range of one of
// the question's units: +1 when a range holds the question's amount, -1
// when the unit's ranges of that unit all leave it out, 0 when it writes
// none. With +1 it returns the text (lengths in months) with the ranges
// that hold the amount blanked: what else the unit states (勤続1年以上3年未満
// ・・・ 3か月以内 → 3か月以内), for the range is the question's own condition,
// not its answer.
func rangeMatch(f string, qs []quantity) (int, string) {
	if len(qs) == 0 {
		return 0, f
	}
	g := inMonths(f)
	var holding [][]int
	seen := false
	for _, mi := range rangeRe.FindAllStringSubmatchIndex(g, -1) {
		m := make([]string, len(mi)/2)
		for i := range m {
			if mi[2*i] >= 0 {
				m[i] = g[mi[2*i]:mi[2*i+1]]
			}
		}
		lo, err := strconv.ParseFloat(m[1], 64)
		if err != nil {
			continue
		}
		u1, op1, u2, op2 := rangeUnits[m[2]], m[3], rangeUnits[m[5]], m[6]
		lo, u1 = inMonthsOf(lo, u1)
		hi := 0.0
		if m[4] != "" {
			hi, _ = strconv.ParseFloat(m[4], 64)
			hi, u2 = inMonthsOf(hi, u2)
		}
		if u1 == "" && u2 == "か月" && rangeUnits[m[5]] == "年" {
			lo *= 12 // 2〜5年: the first number in the second's unit
		}
		unit := u2
		if unit == "" {
			unit = u1
		}
		if unit == "" || u1 != "" && u2 != "" && u1 != u2 {
			continue
		}
		for _, q := range qs {
			if q.unit != unit {
				continue
			}
			seen = true
			in := true
			v := q.at()
			switch {
			case m[4] != "": // a lower and an upper bound
				in = v >= lo && (v < hi || op2 != "未満" && v <= hi)
				if op1 == "超" || op1 == "を超え" {
					in = in && v > lo
				}
			case op1 == "以上":
				in = v >= lo
			case op1 == "超" || op1 == "を超え":
				in = v > lo
			case op1 == "未満":
				in = v < lo
			case op1 == "以下" || op1 == "まで":
				in = v <= lo
			default:
				seen = false
				continue
			}
			if in {
				holding = append(holding, mi[:2])
				break
			}
		}
	}
	if len(holding) > 0 {
		var b strings.Builder
		at := 0
		for _, h := range holding {
			b.WriteString(g[at:h[0]])
			b.WriteString(" ")
			at = h[1]
		}
		b.WriteString(g[at:])
		return 1, b.String()
	}
	if seen {
		return -1, f
	}
	return 0, f
}

// cellHolds reports whether a table row has a cell that is one of the
// question's amounts itself (週3日 → a cell ３日): the row is that case's,
// whatever ranges of the same unit its other cells write (121日～168日 a
// year).
func cellHolds(cells []string, qs []quantity) bool {
	if len(qs) == 0 {
		return false
	}
	for _, c := range cells {
		f := inMonths(analyzer.Fold(c))
		m := askedAmountRe.FindStringSubmatchIndex(f)
		if m == nil || strings.TrimSpace(f[:m[0]]) != "" || strings.TrimSpace(f[m[1]:]) != "" {
			continue
		}
		v, err := strconv.ParseFloat(f[m[2]:m[3]], 64)
		if err != nil {
			continue
		}
		v, unit := inMonthsOf(v, rangeUnits[f[m[4]:m[5]]])
		for _, q := range qs {
			if q.unit == unit && q.beyond == 0 && q.v == v {
				return true
			}
		}
	}
	return false
}
