package extract

import (
	"encoding/xml"
	"errors"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Word's automatic numbering (word/numbering.xml): a paragraph's numPr
// (or its style's) names a list (w:num) and a level; the list's abstract
// definition gives each level its start, its format (decimal, ①, 一, ア …)
// and its text (第%1条, （%1）, %1.%2.). The numbers are counted as Word
// counts them, paragraph by paragraph, and put before the paragraph's text
// as Word shows them: 第1条（労働時間）….

// numLevel is one level of a list.
type numLevel struct {
	start   int
	format  string // numFmt: decimal, japaneseCounting, bullet …
	width   int    // a custom format's digits (001: 3)
	text    string // lvlText: 第%1条
	suffix  string // suff: tab (Word's default), space, nothing
	restart int    // lvlRestart: -1 unset (after any higher level), 0 never, n after level n
	legal   bool   // isLgl: every level's number in decimal
	style   string // pStyle: the paragraph style bound to the level
}

func newLevel() *numLevel { return &numLevel{start: 1, format: "decimal", suffix: "tab", restart: -1} }

// numList is a list (w:num): its abstract definition and the levels it
// restarts (startOverride) or redefines (lvlOverride's lvl).
type numList struct {
	abstract string
	starts   map[int]int
	levels   map[int]*numLevel
}

type numAbstract struct {
	levels    [9]*numLevel
	styleLink string // numStyleLink: the numbering style whose list this is
}

// numbering is a document's lists and the counters of what was numbered
// so far (by abstract definition: lists that share one count on).
type numbering struct {
	abstracts map[string]*numAbstract
	lists     map[string]*numList
	counters  map[string]*[9]int // 0: not counted yet
	begun     map[string]bool    // lists whose overrides were applied
	styleList func(style string) (numID string, ilvl int)
}

// readNumbering reads numbering.xml; nil when there is none or it cannot
// be read (the paragraphs are then read without their numbers). A part
// too complex to read is an error.
func readNumbering(b []byte) (*numbering, error) {
	n := &numbering{abstracts: map[string]*numAbstract{}, lists: map[string]*numList{}, counters: map[string]*[9]int{}, begun: map[string]bool{}}
	dec := newDecoder(b, "word/numbering.xml")
	var (
		abs  *numAbstract
		list *numList
		lvl  *numLevel
		over = -1 // the lvlOverride's level
	)
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			return n, nil
		}
		if errors.Is(err, ErrTooComplex) {
			return nil, err
		}
		if err != nil {
			return n, nil
		}
		switch e := tok.(type) {
		case xml.StartElement:
			val := attr(e, "val")
			switch e.Name.Local {
			case "abstractNum":
				abs = &numAbstract{}
				n.abstracts[attr(e, "abstractNumId")] = abs
			case "num":
				list = &numList{starts: map[int]int{}, levels: map[int]*numLevel{}}
				n.lists[attr(e, "numId")] = list
			case "abstractNumId":
				if list != nil {
					list.abstract = val
				}
			case "numStyleLink":
				if abs != nil {
					abs.styleLink = val
				}
			case "lvlOverride":
				over = -1
				if l, err := strconv.Atoi(attr(e, "ilvl")); err == nil && l >= 0 && l < 9 {
					over = l
				}
			case "startOverride":
				if s, err := strconv.Atoi(val); err == nil && list != nil && over >= 0 {
					list.starts[over] = s
				}
			case "lvl":
				l, err := strconv.Atoi(attr(e, "ilvl"))
				if err != nil || l < 0 || l >= 9 {
					lvl = nil
					break
				}
				lvl = newLevel()
				switch {
				case list != nil && over >= 0:
					list.levels[over] = lvl
				case abs != nil:
					abs.levels[l] = lvl
				}
			}
			if lvl == nil {
				break
			}
			switch e.Name.Local {
			case "start":
				if s, err := strconv.Atoi(val); err == nil {
					lvl.start = s
				}
			case "numFmt":
				switch {
				case val != "custom":
					lvl.format, lvl.width = val, 0
				default:
					// 001, 002, 003, ... (Word 2010's choice; its
					// fallback is decimal).
					if f := attr(e, "format"); f != "" && f[0] >= '0' && f[0] <= '9' {
						first, _, _ := strings.Cut(f, ",")
						lvl.format, lvl.width = "decimalZero", len(strings.TrimSpace(first))
					}
				}
			case "lvlText":
				lvl.text = val
			case "suff":
				lvl.suffix = val
			case "lvlRestart":
				if r, err := strconv.Atoi(val); err == nil {
					lvl.restart = r
				}
			case "isLgl":
				lvl.legal = val == "" || val == "1" || val == "true" || val == "on"
			case "pStyle":
				lvl.style = val
			}
		case xml.EndElement:
			switch e.Name.Local {
			case "abstractNum":
				abs = nil
			case "num":
				list = nil
			case "lvlOverride":
				over = -1
			case "lvl":
				lvl = nil
			}
		}
	}
}

// abstractOf is a list's abstract definition and its id, through a
// numbering style's link (bounded: a link may loop).
func (n *numbering) abstractOf(numID string) (string, *numAbstract) {
	for range 4 {
		l := n.lists[numID]
		if l == nil {
			return "", nil
		}
		a := n.abstracts[l.abstract]
		if a == nil {
			return "", nil
		}
		if a.styleLink == "" || n.styleList == nil {
			return l.abstract, a
		}
		linked, _ := n.styleList(a.styleLink)
		if linked == "" || linked == numID {
			return l.abstract, a
		}
		numID = linked
	}
	return "", nil
}

// level is a list's level ilvl: its own redefinition, else its abstract
// definition's.
func (n *numbering) level(numID string, ilvl int) *numLevel {
	if l := n.lists[numID]; l != nil && l.levels[ilvl] != nil {
		return l.levels[ilvl]
	}
	_, a := n.abstractOf(numID)
	if a == nil {
		return nil
	}
	return a.levels[ilvl]
}

// styleLevel is the level of a list that a paragraph style is bound to
// (the level's pStyle), -1 when none is.
func (n *numbering) styleLevel(numID, style string) int {
	if style == "" {
		return -1
	}
	_, a := n.abstractOf(numID)
	if a == nil {
		return -1
	}
	for i, l := range a.levels {
		if l != nil && l.style == style {
			return i
		}
	}
	return -1
}

// next counts a paragraph of list numID at level ilvl and is its number
// as Word shows it, with what follows it (a space for Word's tab); "" for
// a bullet, a level without text, or a list that is not there.
func (n *numbering) next(numID string, ilvl int) string {
	if numID == "" || numID == "0" || ilvl < 0 || ilvl >= 9 {
		return ""
	}
	absID, a := n.abstractOf(numID)
	lvl := n.level(numID, ilvl)
	if a == nil || lvl == nil {
		return ""
	}
	c := n.counters[absID]
	if c == nil {
		c = &[9]int{}
		n.counters[absID] = c
	}
	if l := n.lists[numID]; l != nil && !n.begun[numID] {
		n.begun[numID] = true
		for i, s := range l.starts {
			c[i] = s - 1
			if c[i] == 0 {
				c[i] = -1 // counted, at zero: the next is the start
			}
		}
	}
	if c[ilvl] == 0 {
		c[ilvl] = lvl.start
	} else {
		if c[ilvl] < 0 {
			c[ilvl] = 0
		}
		c[ilvl]++
	}
	for i := ilvl + 1; i < 9; i++ {
		r := -1
		if l := n.level(numID, i); l != nil {
			r = l.restart
		}
		if r < 0 || r > 0 && ilvl < r {
			c[i] = 0
		}
	}
	if lvl.format == "bullet" || lvl.text == "" {
		return ""
	}
	var b strings.Builder
	for s := lvl.text; s != ""; {
		i := strings.IndexByte(s, '%')
		if i < 0 || i+1 >= len(s) || s[i+1] < '1' || s[i+1] > '9' {
			if i < 0 {
				b.WriteString(s)
				break
			}
			b.WriteString(s[:i+1])
			s = s[i+1:]
			continue
		}
		b.WriteString(s[:i])
		k := int(s[i+1] - '1')
		v := c[k]
		l := n.level(numID, k)
		if l == nil {
			l = newLevel()
		}
		switch {
		case v == 0:
			v = l.start
		case v < 0:
			v = 0
		}
		format, width := l.format, l.width
		if lvl.legal && k < ilvl {
			format, width = "decimal", 0
		}
		b.WriteString(listNumber(v, format, width))
		s = s[i+2:]
	}
	out := b.String()
	if strings.TrimSpace(out) == "" {
		return ""
	}
	if lvl.suffix != "nothing" {
		out += " "
	}
	return out
}

var (
	aiueo       = []rune("アイウエオカキクケコサシスセソタチツテトナニヌネノハヒフヘホマミムメモヤユヨラリルレロワヲン")
	aiueoHalf   = []rune("ｱｲｳｴｵｶｷｸｹｺｻｼｽｾｿﾀﾁﾂﾃﾄﾅﾆﾇﾈﾉﾊﾋﾌﾍﾎﾏﾐﾑﾒﾓﾔﾕﾖﾗﾘﾙﾚﾛﾜｦﾝ")
	iroha       = []rune("イロハニホヘトチリヌルヲワカヨタレソツネナラムウヰノオクヤマケフコエテアサキユメミシヱヒモセス")
	irohaHalf   = []rune("ｲﾛﾊﾆﾎﾍﾄﾁﾘﾇﾙｦﾜｶﾖﾀﾚｿﾂﾈﾅﾗﾑｳヰﾉｵｸﾔﾏｹﾌｺｴﾃｱｻｷﾕﾒﾐｼヱﾋﾓｾｽ")
	heavenly    = []rune("甲乙丙丁戊己庚辛壬癸")
	zodiac      = []rune("子丑寅卯辰巳午未申酉戌亥")
	kanjiDigits = []rune("〇一二三四五六七八九")
	legalDigits = []rune("〇壱弐参四伍六七八九")
)

// listNumber is the number v in a Word number format (numFmt).
func listNumber(v int, format string, width int) string {
	switch format {
	case "none":
		return ""
	case "decimalZero":
		s := strconv.Itoa(v)
		for len(s) < max(width, 2) {
			s = "0" + s
		}
		return s
	case "decimalFullWidth", "decimalFullWidth2":
		return fullWidth(strconv.Itoa(v))
	case "upperRoman", "lowerRoman":
		r := roman(v)
		if format == "lowerRoman" {
			r = strings.ToLower(r)
		}
		return r
	case "upperLetter", "lowerLetter":
		if v < 1 {
			return strconv.Itoa(v)
		}
		c := rune('A' + (v-1)%26)
		if format == "lowerLetter" {
			c += 'a' - 'A'
		}
		return strings.Repeat(string(c), (v-1)/26+1)
	case "ordinal":
		return strconv.Itoa(v) + ordinalSuffix(v)
	case "japaneseCounting", "chineseCounting", "chineseCountingThousand", "taiwaneseCounting", "taiwaneseCountingThousand", "ideographTraditional2":
		return kanjiCount(v, kanjiDigits, "十百千")
	case "japaneseLegal":
		return kanjiCount(v, legalDigits, "拾百阡")
	case "japaneseDigitalTenThousand", "ideographDigital", "chineseLegalSimplified", "taiwaneseDigital":
		var b strings.Builder
		for _, d := range strconv.Itoa(v) {
			if d >= '0' && d <= '9' {
				b.WriteRune(kanjiDigits[d-'0'])
			} else {
				b.WriteRune(d)
			}
		}
		return b.String()
	case "aiueoFullWidth", "aiueo":
		set := aiueo
		if format == "aiueo" {
			set = aiueoHalf
		}
		return cycle(v, set)
	case "irohaFullWidth", "iroha":
		set := iroha
		if format == "iroha" {
			set = irohaHalf
		}
		return cycle(v, set)
	case "ideographTraditional":
		return cycle(v, heavenly)
	case "ideographZodiac":
		return cycle(v, zodiac)
	case "decimalEnclosedCircle", "decimalEnclosedCircleChinese", "ideographEnclosedCircle":
		switch {
		case v >= 1 && v <= 20:
			return string(rune(0x2460 + v - 1))
		case v >= 21 && v <= 35:
			return string(rune(0x3251 + v - 21))
		case v >= 36 && v <= 50:
			return string(rune(0x32B1 + v - 36))
		}
	case "decimalEnclosedParen":
		if v >= 1 && v <= 20 {
			return string(rune(0x2474 + v - 1))
		}
		return "(" + strconv.Itoa(v) + ")"
	case "decimalEnclosedFullstop":
		if v >= 1 && v <= 20 {
			return string(rune(0x2488 + v - 1))
		}
		return strconv.Itoa(v) + "."
	}
	return strconv.Itoa(v)
}

// cycle is the v-th (from 1) of a sequence of signs, from the start again
// past its end.
func cycle(v int, set []rune) string {
	if v < 1 {
		return strconv.Itoa(v)
	}
	return string(set[(v-1)%len(set)])
}

// fullWidth turns ASCII digits into full-width ones (１２).
func fullWidth(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r >= '0' && r <= '9' {
			r += '０' - '0'
		}
		b.WriteRune(r)
	}
	return b.String()
}

func ordinalSuffix(v int) string {
	switch {
	case v%100 >= 11 && v%100 <= 13:
		return "th"
	case v%10 == 1:
		return "st"
	case v%10 == 2:
		return "nd"
	case v%10 == 3:
		return "rd"
	}
	return "th"
}

// roman is v in Roman numerals (up to 3999; the number beyond).
func roman(v int) string {
	if v < 1 || v > 3999 {
		return strconv.Itoa(v)
	}
	vals := []int{1000, 900, 500, 400, 100, 90, 50, 40, 10, 9, 5, 4, 1}
	syms := []string{"M", "CM", "D", "CD", "C", "XC", "L", "XL", "X", "IX", "V", "IV", "I"}
	var b strings.Builder
	for i, n := range vals {
		for v >= n {
			b.WriteString(syms[i])
			v -= n
		}
	}
	return b.String()
}

// kanjiCount is v counted in kanji (digits, then the units 十百千 and the
// myriads 万億兆): 1 一, 10 十, 21 二十一, 105 百五, 2026 二千二十六,
// 10000 一万. A one before 十, 百 or 千 is not written (十, not 一十).
func kanjiCount(v int, digits []rune, units string) string {
	if v == 0 {
		return string(digits[0])
	}
	if v < 0 {
		return "−" + kanjiCount(-v, digits, units)
	}
	u := []rune(units)
	myriads := []string{"", "万", "億", "兆", "京"}
	var groups []string
	for i := 0; v > 0 && i < len(myriads); i++ {
		g := v % 10000
		v /= 10000
		if g == 0 {
			groups = append(groups, "")
			continue
		}
		var b strings.Builder
		for p := 3; p >= 0; p-- {
			d := g / pow10(p) % 10
			if d == 0 {
				continue
			}
			if d != 1 || p == 0 {
				b.WriteRune(digits[d])
			}
			if p > 0 {
				b.WriteRune(u[p-1])
			}
		}
		groups = append(groups, b.String()+myriads[i])
	}
	var b strings.Builder
	for i := len(groups) - 1; i >= 0; i-- {
		b.WriteString(groups[i])
	}
	s := b.String()
	// 一千万: a thousand of myriads keeps its one before 千, as written.
	if r, _ := utf8.DecodeRuneInString(s); r == u[2] && len(groups) > 1 && groups[len(groups)-1] != "" && strings.HasPrefix(groups[len(groups)-1], string(u[2])) {
		s = string(digits[1]) + s
	}
	return s
}

func pow10(p int) int {
	n := 1
	for range p {
		n *= 10
	}
	return n
}
