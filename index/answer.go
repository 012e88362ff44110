package index

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"lwr/analyzer"
	"lwr/analyzer/lazyre"
)

// The passage chooser: which lines of a found file a ranked hit shows. The
// index finds the files and scores their passages; the chooser reads the
// file's units (structure.go) and shows the one that best states what the
// question asks, with what it stands under.
const (
	// wContext weighs a word found only in what a unit stands under
	// (its headings, its list's lead-in, its table's header row).
	wContext = 0.5
	// unitAlpha sharpens a unit's coverage of the query's words.
	unitAlpha = 1.5
	// wStated multiplies a unit that states a value of the asked kind
	// (1 + wStated × how well it does).
	wStated = 1.0
	// wPrior weighs the index's score of the passage a unit stands in:
	// a unit scores × (1 - wPrior + wPrior × passage/best passage).
	wPrior = 0.4
	// wValue adds to the stated factor of a unit that states the asked
	// value when the question asks for one (an amount, a quantity, a
	// date, a version): without it a unit is no answer at all.
	wValue = 3.0
	// wNamed multiplies a unit under headings that name the question's
	// words (1 + wNamed × their weighted share).
	wNamed = 1.0
	// Units that seldom state an answer themselves.
	wHeadingUnit = 0.5
	wLinksUnit   = 0.1
	wCodeUnit    = 0.6
	// alsoShare: a second passage of the file is shown when it states the
	// asked value and scores at least this share of the first.
	alsoShare = 0.5
	// contextUnits bounds the neighbouring units a snippet shows each way,
	// maxSnippetLines the lines a snippet widens to.
	contextUnits    = 2
	maxTableRows    = 12
	maxSnippetLines = windowLines + 2*contextLines
	// maxReach bounds how far above its unit a snippet reaches for the
	// header row, lead-in or heading that unit stands under, in lines.
	maxReach = 12
)

// scoredPassage is a passage of a file and its score in the index.
type scoredPassage struct {
	start, end int // 1-based lines
	score      float64
}

// Excerpt is a further passage of a file that also states what the
// question asks for, shown after the match's snippet.
type Excerpt struct {
	StartLine int    `json:"start_line"`
	EndLine   int    `json:"end_line"`
	Snippet   string `json:"snippet"`
}

// Answer is the unit of a ranked hit that best states what the question
// asks for: its lines (within the snippet's), its text without markup
// (a table row with its column headers: 本人が結婚したとき | 休暇日数: 5日)
// and how well it states the asked kind of answer (1 for the asked value
// itself, less for the signs of a rule or a procedure, 0 for none).
type Answer struct {
	StartLine int     `json:"start_line"`
	EndLine   int     `json:"end_line"`
	Text      string  `json:"text"`
	Kind      string  `json:"kind"` // text, item, row, heading, code
	Stated    float64 `json:"stated"`
	// Coverage is the weighted share of the question's words the unit
	// holds, counting those of what it stands under and of the file's
	// name and title.
	Coverage float64 `json:"coverage"`
	Asked    string  `json:"asked,omitempty"` // what the question asks for (数量(文字)+可否)
	// Leads: the unit is the sentence or clause that leads into rows or
	// items that each state the asked value (a case each, the question
	// naming none of them); they follow it.
	Leads bool `json:"leads,omitempty"`
	// Why is how the unit scored, with SearchOptions.Explain.
	Why string `json:"why,omitempty"`
}

// chosen is the chooser's answer for one file.
type chosen struct {
	start, end int // snippet lines, 1-based
	unit       int // the unit that won, -1 when none holds a word
	score      float64
	stated     float64
	why        string
	also       []Excerpt
	answer     *Answer
}

// unitScore is one unit's score and its parts.
type unitScore struct {
	score, words, coverage, stated, prior, kind, heading float64
	share                                                float64 // covered/total, before unitAlpha
	statedFactor                                         float64 // what stated multiplies the score by
	rangeFactor                                          float64 // what a range of the question's amount multiplies it by
	boundFactor                                          float64 // what a value stated as a limit multiplies it by
	held                                                 []bool
}

// chooser scores the units of one file for one plan.
type chooser struct {
	s      *structure
	p      *rankedPlan
	words  []cword
	folded []string // per unit: its folded text, links as their text
	// spaced are the units' texts folded as the index folds them
	// (analyzer.FoldText: no spaces between Japanese characters), which
	// quoted words are compared with; made when a quoted word is looked for.
	spaced []string
	// own[i*len(units)+k] is how well unit k's own text holds word i.
	own  []float32
	code bool // the question asks for a command or a way to write something
	// active says which units are scored, nil for all (bigFile).
	active []bool
	// example: the file is a form, template, example, FAQ or minutes the
	// question does not ask about: what it states is no rule's value.
	example bool
	// purposeAsked: the question asks what a rule is for (目的, 趣旨),
	// which its purpose article states.
	purposeAsked bool
	// narrow[i] are the headings that name word i only inside a longer
	// compound (narrowedHeadings); made on first use.
	narrow [][]bool
}

// cword is a word of the question as the chooser looks for it.
type cword struct {
	forms    []form
	syns     []alt // folded synonyms, with their weights
	compound string
	weight   float64
	idf      float64 // how rare it is among the file's units
	// inHead: the word is in the file's name, folders or title, which
	// every unit of the file stands under.
	inHead bool
	// topic: the word is in a good share of the file's units (出張 in
	// the travel rule), which counts toward every unit's coverage.
	topic bool
	// bonus: a compound of the question's words, which adds to a unit
	// that holds it but does not count toward coverage.
	bonus bool
}

// siblings is how many rows or items on each side of a unit lend it
// their words as context (at wSibling): a table's CC row completes its
// BCC row.
const (
	siblings = 2
	wSibling = 0.25
)

// wNumber scales a number of the question (3.3 of 3.3版, 1 of 1行): it
// names an edition or a count more often than a word of the answer.
const wNumber = 0.3

// isNumber reports digits with dots between (3, 3.6, 10.4.1).
func isNumber(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if (s[i] < '0' || s[i] > '9') && s[i] != '.' {
			return false
		}
	}
	return true
}

// topicShare is the share of a file's units a word must be in to be
// what the file is about.
const topicShare = 0.25

// wRange raises a unit whose range holds the question's own amount (× 1 +
// wRange); wRangeOut scales one whose ranges of that unit leave it out.
const (
	wRange    = 1.0
	wRangeOut = 0.5
)

// wBound raises a unit that states a value as a limit (3か月以内, 1歳に
// 達するまで) when the question asks for one (どのくらいまで): × 1 + wBound.
const wBound = 0.25

// exceptionLine opens a clause that makes an exception to the rule
// before it: 本条第1項にかかわらず, ２　前項の規定にかかわらず, 前2項にかかわらず,
// 前項によらず.
var exceptionLine = lazyre.New(`^[\s　0-9０-９.．、)）(（#*-]*(?:本条|同項|同条|前[0-9０-９一二三四五六七八九十]*[条項]|第[0-9０-９一二三四五六七八九十]+(?:条|項))[^、。]{0,12}?(?:(?:に|にも)かかわらず|によらず)`)

// wException weighs a clause that makes an exception to the rule before
// it (日雇従業員からの申出は拒むことができる after the rule of 6時間): the
// rule answers first.
const wException = 0.7

// wFarHeading weighs a word that only a heading above the unit's own
// names (a chapter's 採用、休職及び副業等 over 第5条 採用手続): the chapter
// holds other topics too. A word of the file's head (its title) counts
// whole under any heading.
const wFarHeading = 0.5

// wExampleDoc scales how well a unit of a form, an example or minutes
// states the asked value (KindOf).
const wExampleDoc = 0.3

// wPurpose scales a unit of a rule's purpose article (第1条（目的）, 趣旨)
// when the question does not ask what the rule is for: it names the
// rule's words and states no case of it.
const wPurpose = 0.25

// purposeTitle is the title of an article that states what a rule is
// for: 第1条　目的, （目的）, ## 趣旨.
var purposeTitle = lazyre.New(`^[#\s]*(?:第\s*[0-9０-９一二三四五六七八九十]+\s*条)?\s*[（(]?\s*(?:目的|趣旨|目的及び適用範囲)\s*[）)]?\s*$`)

// purposeWords ask what a rule is for.
var purposeWords = lazyre.New(`目的|趣旨|ねらい|狙い|何のため|なんのため`)

// inPurpose reports whether unit k stands in a purpose article: its
// nearest heading or title item names one (a chapter 総則 above it holds
// more than the purpose).
func (c *chooser) inPurpose(k int) bool {
	trail := c.s.trail(k)
	if len(trail) == 0 {
		return false
	}
	u := c.s.units[trail[0]]
	line := c.s.lines[u.start]
	if m := itemMark.FindStringIndex(line); u.kind == unitItem && m != nil {
		line = line[m[1]:]
	}
	return purposeTitle.MatchString(analyzer.Fold(strings.TrimSpace(line)))
}

// wHeadWord scales the words score of a word the file's head holds;
// wCondition weighs a condition as rules write it (子 for 子ども);
// wPhrase adds a compound of the question found as written (介護休業, not
// 介護 and 休暇 apart).
const (
	wHeadWord  = 0.3
	wCondition = 0.8
	wPhrase    = 0.5
)

// bracketed are the words of a question in brackets (「こちら」), which
// the question stresses, even when the analyzer drops them.
var bracketed = lazyre.New(`[「『“"]([^」』”"]{1,30})[」』”"]`)

// asciiWord is a word of Latin letters and digits, with the mark of a
// mention or a tag it is written with (@channel, #general).
var asciiWord = lazyre.New(`[@#]?(?:[a-z0-9][a-z0-9.+#-]*[a-z0-9+#]|[a-z0-9])`)

// chooserWords are the words the chooser looks for: the plan's, then the
// question's bracketed words and Latin words the analyzer dropped (and,
// or: stop words that a style guide's rule is about).
func chooserWords(p *rankedPlan) []cword {
	var ws []cword
	has := func(f string) bool {
		for _, w := range ws {
			if slices.ContainsFunc(w.forms, func(g form) bool { return g.text == f }) || slices.ContainsFunc(w.syns, func(a alt) bool { return a.text == f }) {
				return true
			}
		}
		return false
	}
	commaNumbers := commaNumber.FindAllString(analyzer.Fold(p.text), -1)
	for i := range p.terms {
		w := cword{forms: p.forms[i], weight: p.weights[i], compound: analyzer.Fold(p.compound[i])}
		if isNumber(p.terms[i]) {
			w.weight *= wNumber
			// 14 and 000 of 14,000円 are found as the question writes
			// them, not in 14 of 14日 nor 000 of 1,000.
			for _, n := range commaNumbers {
				if slices.Contains(strings.Split(n, ","), p.terms[i]) {
					w.forms = append(slices.Clone(w.forms), form{text: n})
				}
			}
		}
		for _, a := range append(slices.Clone(p.synOf[i]), p.phraseOf[i]...) {
			w.syns = append(w.syns, alt{text: analyzer.Fold(a.text), weight: a.weight})
		}
		ws = append(ws, w)
	}
	for _, sp := range p.compounds {
		if f := analyzer.Fold(sp); utf8.RuneCountInString(f) >= 3 && !has(f) {
			ws = append(ws, cword{forms: []form{{text: f}}, weight: wPhrase, bonus: true})
		}
	}
	q := analyzer.Fold(p.text)
	for _, m := range bracketed.FindAllStringSubmatch(q, -1) {
		if f := strings.TrimSpace(m[1]); f != "" && !has(f) {
			ws = append(ws, cword{forms: []form{{text: f}}, weight: 1})
		}
	}
	for _, f := range asciiWord.FindAllString(q, -1) {
		if !has(f) {
			ws = append(ws, cword{forms: []form{{text: f}}, weight: 0.5})
		}
	}
	return ws
}

// commaNumber is a number written with thousands commas (14,000).
var commaNumber = lazyre.New(`[0-9]{1,3}(?:,[0-9]{3})+`)

// bigFile is the lines of a file from which on the chooser reads only
// the units of the passages the index matched (and what they stand
// under): a long manual's other sections hold none of the query's words.
const bigFile = 0

// newChooser reads the units of a file for a plan; active, when not nil,
// says which units to score (the others are read only as what those
// stand under).
func newChooser(s *structure, p *rankedPlan, head string, active []bool) *chooser {
	n := len(s.units)
	c := &chooser{s: s, p: p, words: chooserWords(p), folded: make([]string, n), active: active, purposeAsked: purposeWords.MatchString(p.text)}
	needed := active
	if active != nil {
		needed = slices.Clone(active)
		for k, on := range active {
			if !on {
				continue
			}
			u := s.units[k]
			for _, h := range s.trail(k) {
				needed[h] = true
			}
			for _, j := range []int{u.lead, u.header} {
				if j >= 0 {
					needed[j] = true
				}
			}
			for d := -siblings; d <= siblings; d++ {
				if j := k + d; j >= 0 && j < n {
					needed[j] = true
				}
			}
		}
	}
	for k := range s.units {
		if needed == nil || needed[k] {
			c.folded[k] = analyzer.Fold(visible(s.text(k)))
		}
	}
	c.own = make([]float32, len(c.words)*n)
	c.ownMatches()
	for k, u := range s.units {
		// The first unit under a heading reads with it: the article's
		// title and its first sentence are one statement.
		if h := u.heading; h >= 0 && k == h+1 && u.kind != unitHeading {
			c.folded[k] = c.folded[h] + "\n" + c.folded[k]
			for i := range c.words {
				c.own[i*n+k] = max(c.own[i*n+k], c.own[i*n+h])
			}
		}
	}
	head = analyzer.Fold(head)
	scored := n
	if active != nil {
		scored = 0
		for _, on := range active {
			if on {
				scored++
			}
		}
	}
	for i := range c.words {
		w := &c.words[i]
		w.inHead = c.match(i, head) > 0
		// A word of every unit (ruby in the Ruby style guide) tells them
		// apart less.
		df, all := 0, 0
		for k := range s.units {
			if c.own[i*n+k] > 0 {
				all++
				if active == nil || active[k] {
					df++
				}
			}
		}
		w.idf = 1 + math.Log((float64(scored)+1)/(float64(df)+1))
		// What the file is about, among all its units: the passages the
		// index matched are those that hold the question's words.
		w.topic = float64(all) >= topicShare*float64(n) && all >= 3
	}
	q := analyzer.Fold(p.text)
	c.code = strings.Contains(q, "コマンド") || strings.Contains(q, "command") || strings.Contains(q, "書き方") || strings.Contains(q, "記述") || strings.Contains(q, "設定")
	return c
}

// ownMatches fills c.own: for every word and unit, how well the unit's
// own text holds the word (match), found in one pass over the file's
// folded text per form of the word.
func (c *chooser) ownMatches() {
	n := len(c.s.units)
	starts := make([]int, n)
	var b strings.Builder
	for k, f := range c.folded {
		starts[k] = b.Len()
		b.WriteString(f)
		b.WriteByte('\n')
	}
	text := b.String()
	unitOf := func(off int) int {
		k, found := slices.BinarySearch(starts, off)
		if !found {
			k--
		}
		return k
	}
	for i := range c.words {
		w := &c.words[i]
		mark := func(needle string, weight float64, ok func(f string, a, b int) bool) {
			if needle == "" {
				return
			}
			for off := 0; off < len(text); {
				j := strings.Index(text[off:], needle)
				if j < 0 {
					return
				}
				a := off + j
				k := unitOf(a)
				// Within its unit's text (not across the newline between
				// two units).
				f := c.folded[k]
				ua, ub := a-starts[k], a-starts[k]+len(needle)
				if ub <= len(f) && ok(f, ua, ub) && float32(weight) > c.own[i*n+k] {
					c.own[i*n+k] = float32(weight)
				}
				off = a + 1
			}
		}
		for _, fm := range w.forms {
			switch {
			case fm.stem:
				mark(fm.text, 1, func(f string, a, b int) bool { return stemAt(f, a, b) && !inCompoundVerb(f, a) })
			case fm.edge:
				mark(fm.text, wCondition, edgeAt)
			case verbForm(fm.text):
				mark(fm.text, 1, func(f string, a, b int) bool { return wordAt(f, a, b) && !inCompoundVerb(f, a) })
			default:
				mark(fm.text, 1, wordAt)
			}
		}
		for _, sy := range w.syns {
			mark(sy.text, sy.weight, wordAt)
		}
		mark(w.compound, wCompound, func(string, int, int) bool { return true })
	}
}

// text is unit k's text folded as the index folds it.
func (c *chooser) text(k int) string {
	if c.spaced == nil {
		c.spaced = make([]string, len(c.folded))
	}
	if c.spaced[k] == "" && c.folded[k] != "" {
		c.spaced[k] = analyzer.FoldText(c.folded[k])
	}
	return c.spaced[k]
}

// contextHolds reports whether what unit k stands under holds q, a
// quoted word folded as the index folds it.
func (c *chooser) contextHolds(k int, q string) bool {
	u := c.s.units[k]
	for _, h := range c.s.trail(k) {
		if strings.Contains(c.text(h), q) {
			return true
		}
	}
	return u.lead >= 0 && strings.Contains(c.text(u.lead), q) || u.header >= 0 && strings.Contains(c.text(u.header), q)
}

// matchUnit is how well unit k's own text holds word i.
func (c *chooser) matchUnit(i, k int) float64 { return float64(c.own[i*len(c.s.units)+k]) }

// matchContext is how well what unit k stands under holds word i: its
// headings, its lead-in, its table's header row.
func (c *chooser) matchContext(i, k int) float64 {
	u := c.s.units[k]
	best := 0.0
	for _, h := range c.s.trail(k) {
		best = max(best, c.matchUnit(i, h))
	}
	if u.lead >= 0 {
		best = max(best, c.matchUnit(i, u.lead))
	}
	if u.header >= 0 {
		best = max(best, c.matchUnit(i, u.header))
	}
	return best
}

// matchExample is how well the code block right after item k holds word
// i: the example a rule shows (- 頭字語や略語は単語として扱うこと, then
// getCustomerId as good and getCustomerID as bad) says what the rule is
// about. A paragraph before code (実装方法を以下に示します) leads into it:
// the code is the answer there.
func (c *chooser) matchExample(i, k int) float64 {
	u := c.s.units[k]
	if u.kind != unitItem || k+1 >= len(c.s.units) {
		return 0
	}
	if v := c.s.units[k+1]; v.kind == unitCode && v.heading == u.heading {
		return c.matchUnit(i, k+1)
	}
	return 0
}

// matchReferenced is how well the clause unit k refers to holds word i,
// with the items under that clause: ２　前項の申出は… and 第1項の規定により
// …を希望する従業員は、30日前までに申し出る say again what that clause
// names (家族の介護のため), and answer with it.
func (c *chooser) matchReferenced(i, k int) float64 {
	r := c.referenced(k)
	if r < 0 {
		return 0
	}
	best := c.matchUnit(i, r)
	for j := r + 1; j < len(c.s.units) && j < r+1+maxReferencedItems; j++ {
		if c.s.units[j].lead != r {
			break
		}
		best = max(best, c.matchUnit(i, j))
	}
	return best
}

// maxReferencedItems bounds the items under a referenced clause that
// lend it their words.
const maxReferencedItems = 12

// clauseRef is a clause's reference to another clause of its article:
// 前項, 第2項 (not 前条, 第3条, nor 前2項).
var clauseRef = lazyre.New(`(?:^|[^0-9０-９条])(?:(前)項|第([0-9０-９一二三四五六七八九十]{1,3})項)`)

// referenced is the unit of the clause unit k refers to, -1 for none: 前項
// is the clause before it in its list (or the article's unnumbered first
// sentence before the list), 第N項 the clause numbered N of the same
// list (or that first sentence for 第1項 when no clause is numbered 1).
func (c *chooser) referenced(k int) int {
	u := c.s.units[k]
	if u.kind != unitItem && u.kind != unitText || u.heading < 0 {
		return -1
	}
	m := clauseRef.FindStringSubmatch(c.s.lines[u.start])
	if m == nil {
		return -1
	}
	// The first sentence under the article's heading, when it is no item.
	first := -1
	if h := u.heading + 1; h < k && c.s.units[h].kind == unitText && c.s.units[h].heading == u.heading {
		first = h
	}
	if m[1] != "" {
		for j := k - 1; j > u.heading; j-- {
			v := c.s.units[j]
			if v.kind == u.kind && v.lead == u.lead && v.level == u.level {
				return j
			}
		}
		if u.kind == unitItem {
			return first
		}
		return -1
	}
	n := clauseNumber(m[2])
	for j := u.heading + 1; j < len(c.s.units) && c.s.units[j].heading == u.heading; j++ {
		if v := c.s.units[j]; j != k && v.kind == unitItem && v.lead == u.lead && v.level == u.level && itemNumber(c.s.lines[v.start]) == n {
			return j
		}
	}
	if n == 1 {
		return first
	}
	return -1
}

// itemNumber is the number of an item's marker (2 of "２　", of "2." and
// of "（2）"), 0 for a marker without one.
func itemNumber(line string) int {
	m := itemMark.FindString(line)
	return clauseNumber(strings.Trim(m, " \t　.)．）(（-*+・"))
}

// clauseNumber reads a clause's number in Arabic (2, ２) or kanji (二, 十二)
// numerals, 0 for none.
func clauseNumber(s string) int {
	n := 0
	for _, r := range s {
		switch {
		case r >= '0' && r <= '9':
			n = n*10 + int(r-'0')
		case r >= '０' && r <= '９':
			n = n*10 + int(r-'０')
		case r == '十':
			if n == 0 {
				n = 1
			}
			n *= 10
		default:
			d := strings.IndexRune("一二三四五六七八九", r)
			if d < 0 {
				return 0
			}
			n += d/3 + 1
		}
	}
	return n
}

// matchSiblings is how well the rows or items next to unit k in its
// table or list, and the items under it, hold word i.
func (c *chooser) matchSiblings(i, k int) float64 {
	u := c.s.units[k]
	if u.kind != unitRow && u.kind != unitItem {
		return 0
	}
	best := 0.0
	for d := -siblings; d <= siblings; d++ {
		if j := k + d; d != 0 && j >= 0 && j < len(c.s.units) {
			// The rows or items beside it, and the items under it (an
			// item's sub-items spell out what it says).
			if v := c.s.units[j]; v.kind == u.kind && v.header == u.header && v.lead == u.lead || v.lead == k {
				best = max(best, c.matchUnit(i, j))
			}
		}
	}
	return best
}

// visible is text as it reads: a link as its text, without its target,
// tags left out.
func visible(s string) string {
	if !strings.ContainsAny(s, "[<") {
		return s
	}
	s = mdLink.ReplaceAllString(s, "$1")
	return htmlTag.ReplaceAllString(s, " ")
}

// match is how well folded text holds word i: 1 for the word itself, a
// synonym's weight for a synonym, 0 for none.
func (c *chooser) match(i int, f string) float64 {
	w := &c.words[i]
	for _, fm := range w.forms {
		switch {
		case fm.stem:
			if stemIn(f, fm.text) {
				return 1
			}
		case fm.edge:
			if edgeIn(f, fm.text) {
				return wCondition
			}
		case containsWord(f, fm.text):
			return 1
		}
	}
	return c.matchOthers(w, f)
}

// matchOthers is how well f holds a synonym or the compound of word w.
func (c *chooser) matchOthers(w *cword, f string) float64 {
	best := 0.0
	for _, s := range w.syns {
		if s.weight > best && containsWord(f, s.text) {
			best = s.weight
		}
	}
	if w.compound != "" && best < wCompound && strings.Contains(f, w.compound) {
		best = wCompound
	}
	return best
}

// containsWord reports whether f holds w; a Latin word or a number only
// as a word of its own (git, not github; 3.3, not 3.34).
func containsWord(f, w string) bool {
	if !isASCIIWord(w) {
		return strings.Contains(f, w)
	}
	for off := 0; off < len(f); {
		i := strings.Index(f[off:], w)
		if i < 0 {
			return false
		}
		if wordAt(f, off+i, off+i+len(w)) {
			return true
		}
		off += i + 1
	}
	return false
}

// wordAt reports whether f[a:b] stands as a word: for a Latin word or a
// number, not inside a longer one (git in github, 3.3 in 3.34, 3 in
// 5.6.3); any other text anywhere.
func wordAt(f string, a, b int) bool {
	w := f[a:b]
	if !isASCIIWord(w) {
		return true
	}
	// A number's dot or thousands comma joins it to the digits beside
	// it: 10 is not in 10,000円 nor 3 in 3.6.
	left := a == 0 || !isAlnum(f[a-1]) && (f[a-1] != '.' && f[a-1] != ',' || a < 2 || !isDigit(w[0]) || !isDigit(f[a-2]))
	right := b == len(f) || !isAlnum(f[b]) && (f[b] != '.' && f[b] != ',' || b+1 == len(f) || !isDigit(w[len(w)-1]) || !isDigit(f[b+1]))
	return left && right
}

// stemAt reports whether a verb's stem at f[a:b] is followed by kana.
func stemAt(f string, _, b int) bool {
	r, _ := utf8.DecodeRuneInString(f[b:])
	return r >= 0x3041 && r <= 0x309F
}

// verbForm reports a written verb (取る, 申し出る, 取れ): Han first,
// kana last.
func verbForm(w string) bool {
	first, _ := utf8.DecodeRuneInString(w)
	last, _ := utf8.DecodeLastRuneInString(w)
	return unicode.Is(unicode.Han, first) && last >= 0x3041 && last <= 0x309F
}

// inCompoundVerb reports whether a verb at f[a:] is the second half of a
// compound verb: 取る in 受け取る, 出す in 引き出す. Kana that are no
// particle stand between it and the Han character before it; after を
// or が it is a verb of its own (休暇を取る).
func inCompoundVerb(f string, a int) bool {
	r, size := utf8.DecodeLastRuneInString(f[:a])
	// The kana a verb's 連用形 ends in (受け, 引き, 取り, 読み).
	if size == 0 || !strings.ContainsRune("いきぎしちにびみりえけげせてねべめれ", r) {
		return false
	}
	p, psize := utf8.DecodeLastRuneInString(f[:a-size])
	// An adverb or a conjunction ends in the same kana: 及び届け出る,
	// 予め届け出る, 少し取る.
	return unicode.Is(unicode.Han, p) && !notVerbStems[f[a-size-psize:a]]
}

// notVerbStems are a kanji and a kana before a verb that are no verb's
// 連用形.
var notVerbStems = map[string]bool{"及び": true, "並び": true, "予め": true, "少し": true, "直ち": true, "既に": true, "更に": true, "特に": true, "共に": true, "必ず": true}

// isASCIIWord reports a word of ASCII that starts and ends with a letter
// or a digit.
func isASCIIWord(w string) bool {
	if w == "" || !isAlnum(w[0]) || !isAlnum(w[len(w)-1]) {
		return false
	}
	for i := 0; i < len(w); i++ {
		if w[i] >= 0x80 || w[i] == ' ' {
			return false
		}
	}
	return true
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// stemIn reports whether a verb's stem stands in f before kana (書いて,
// 書き方), not inside another word (設計書).
func stemIn(f, stem string) bool {
	for off := 0; off < len(f); {
		i := strings.Index(f[off:], stem)
		if i < 0 {
			return false
		}
		if stemAt(f, off+i, off+i+len(stem)) {
			return true
		}
		off += i + len(stem)
	}
	return false
}

// score scores unit k; prior is the index's score of its passage over
// the file's best passage's (0 when the index did not match it). A word
// of the file's head counts toward the coverage of every unit.
func (c *chooser) score(k int, prior float64) unitScore {
	u := c.s.units[k]
	p := c.p
	us := unitScore{held: make([]bool, len(c.words))}
	var total, covered float64
	for i, cw := range c.words {
		w := cw.weight
		if cw.bonus {
			if c.matchUnit(i, k) > 0 {
				us.words += w * cw.idf
			}
			continue
		}
		cov := w
		total += cov
		m := c.matchUnit(i, k)
		if m == 0 {
			m = wContext * c.matchContext(i, k)
		}
		if m == 0 {
			m = wContext * c.matchExample(i, k)
		}
		if m == 0 {
			m = wContext * c.matchReferenced(i, k)
		}
		if m == 0 {
			m = wSibling * c.matchSiblings(i, k)
		}
		switch {
		case m > 0:
			us.held[i] = true
			covered += cov
			if cw.inHead {
				m *= wHeadWord // the file is about it: it tells its units apart less
			}
			us.words += w * cw.idf * m
		case cw.inHead || cw.topic:
			covered += cov // the file is about it
		}
	}
	for _, q := range p.quoted {
		if !strings.Contains(c.text(k), q) && !c.contextHolds(k, q) {
			return us
		}
	}
	if us.words == 0 {
		return us
	}
	us.coverage, us.share = 1, 1
	if total > 0 {
		us.share = covered / total
		us.coverage = math.Pow(us.share, unitAlpha)
	}
	us.kind = 1
	switch {
	case u.kind == unitHeading, u.kind == unitRow && u.head:
		us.kind = wHeadingUnit
	}
	if !c.purposeAsked && c.inPurpose(k) {
		us.kind *= wPurpose
	}
	if exceptionLine.MatchString(c.s.lines[u.start]) {
		us.kind *= wException
	}
	switch u.kind {
	case unitLinks:
		us.kind = wLinksUnit
	case unitCode:
		if !c.code {
			us.kind = wCodeUnit
		}
	}
	// A range that holds the question's own amount (5km以上8km未満 for
	// 6km) is the condition the unit's value depends on, not that value:
	// the unit states what it holds besides. Ranges that leave the amount
	// out are another case's.
	us.rangeFactor = 1
	stated := func(f string) float64 {
		if in, rest := rangeMatch(f, p.quantities); in == 1 {
			f = rest
		}
		return p.asked.stated(f)
	}
	in, rest := rangeMatch(c.folded[k], p.quantities)
	if in != 1 && u.kind == unitRow && cellHolds(u.cells, p.quantities) {
		in = 1
	}
	switch in {
	case 1:
		us.rangeFactor = 1 + wRange
	case -1:
		us.rangeFactor = wRangeOut
	}
	us.boundFactor = 1
	if p.asked.Bound && statesLimit(rest) {
		us.boundFactor = 1 + wBound // 3か月以内 for どのくらいまで
	}
	us.stated = p.asked.stated(rest)
	if exampleLine.MatchString(c.s.lines[u.start]) {
		us.stated = 0 // （例）宿泊費 5000円: an example, not the rule's value
	}
	if u.kind == unitRow && u.header >= 0 {
		// Each cell under its column's name: バージョン 16, 休暇日数 5日.
		hdr := c.s.units[u.header].cells
		for i, cell := range u.cells {
			if i < len(hdr) && cell != "" {
				us.stated = max(us.stated, stated(analyzer.Fold(hdr[i]+" "+cell)))
			}
		}
	}
	if us.stated == 0 && p.asked.Has(AskThing) && u.kind == unitItem && u.lead >= 0 {
		us.stated = 0.4 // an item of a list its lead-in introduces
	}
	if c.example {
		us.stated *= wExampleDoc
	}
	us.prior = prior
	// The headings it stands under name the question's words: the
	// section is about it (コミットメッセージには理由を書こう).
	var named float64
	for i, cw := range c.words {
		if cw.bonus {
			continue
		}
		for j, h := range c.s.trail(k) {
			if c.matchUnit(i, h) > 0 {
				if c.narrowed(i, h) {
					break // under the narrower thing's heading
				}
				if j == 0 || cw.inHead {
					named += cw.weight
				} else {
					named += cw.weight * wFarHeading
				}
				break
			}
		}
	}
	if total > 0 {
		us.heading = named / total
	}
	us.statedFactor = 1 + wStated*us.stated
	if us.stated >= 1 && p.asked.Value() {
		us.statedFactor += wValue // the asked value itself: 93日 for 何日
	}
	us.score = us.words * us.coverage * us.kind * us.statedFactor * us.rangeFactor * us.boundFactor * (1 + wNamed*us.heading) * (1 - wPrior + wPrior*prior)
	return us
}

// choose picks the lines of a file a ranked hit shows: the unit that
// best states what the question asks, widened with the header row,
// lead-in or heading it stands under and with its neighbours while the
// snippet fits maxChars. hits are the index's passages of the file.
func choose(s *structure, p *rankedPlan, head string, kind DocKind, hits []scoredPassage, maxChars int, explain bool) chosen {
	best := 0.0
	// The index's score of the passage each line stands in, over the
	// file's best passage's.
	prior := make([]float64, len(s.lines))
	for _, h := range hits {
		best = max(best, h.score)
	}
	for _, h := range hits {
		for l := max(h.start, 1); l <= min(h.end, len(s.lines)) && best > 0; l++ {
			prior[l-1] = max(prior[l-1], h.score/best)
		}
	}
	var active []bool
	if len(s.lines) >= bigFile && len(hits) > 0 {
		active = make([]bool, len(s.units))
		for k, u := range s.units {
			for l := u.start; l <= u.end && !active[k]; l++ {
				active[k] = prior[l] > 0
			}
		}
	}
	c := newChooser(s, p, head, active)
	c.example = !kind.AsksAbout(p.text)
	scores := make([]unitScore, len(s.units))
	win := -1
	for k := range s.units {
		if active != nil && !active[k] {
			continue
		}
		scores[k] = c.score(k, prior[s.units[k].start])
		if scores[k].score > 0 && (win < 0 || scores[k].score > scores[win].score) {
			win = k
		}
	}
	if win < 0 {
		return chosen{unit: -1}
	}
	ch := chosen{unit: win, score: scores[win].score, stated: scores[win].stated}
	ch.start, ch.end = c.widen(win, maxChars)
	u := s.units[win]
	if l := c.tiedLead(win, scores); l >= 0 && s.units[l].start+1 >= ch.start {
		// Rows that state the value alike (a table of amounts by grade,
		// the question naming none): the answer is the sentence that
		// leads into them, which the key point runs on to its rows.
		u = s.units[l]
	}
	a, b := u.start, u.end
	if b-a+1 > maxAnswerLines {
		a, b = c.answerLines(win)
	}
	text := s.plain(win)
	if u.start != s.units[win].start {
		text = s.plain(s.units[win].lead)
	}
	if a != u.start || b != u.end {
		text = plainText(analyzer.JoinWrapped(s.lines[a : b+1]))
	}
	ch.answer = &Answer{StartLine: max(a+1, ch.start), EndLine: min(b+1, ch.end), Text: text, Kind: u.kind.String(), Stated: scores[win].stated, Coverage: scores[win].share, Asked: p.asked.String(), Leads: u.start != s.units[win].start}
	if explain {
		us := scores[win]
		ch.why = fmt.Sprintf("passage L%d-L%d (%s): %.3f = words %.3f × coverage %.2f × kind %.2g × stated %.2g (states it %.2g) × headings (1 + %g × %.2f) × passage (%.2g + %.2g × %.2f)",
			s.units[win].start+1, s.units[win].end+1, s.units[win].kind, us.score, us.words, us.coverage, us.kind, us.statedFactor, us.stated, wNamed, us.heading, 1-wPrior, wPrior, us.prior)
		if us.rangeFactor != 1 {
			ch.why += fmt.Sprintf(" × range %.2g", us.rangeFactor)
		}
		if us.boundFactor != 1 {
			ch.why += fmt.Sprintf(" × limit %.3g", us.boundFactor)
		}
		if u.start != s.units[win].start {
			ch.why += fmt.Sprintf("; rows alike: the answer is their lead-in L%d", u.start+1)
		}
	}
	ch.answer.Why = ch.why
	// A second passage of the file that also states the asked value,
	// away from the first (another section or table).
	if p.asked.Value() {
		alt := -1
		for k := range s.units {
			us := scores[k]
			if k == win || us.stated < 1 || us.score < alsoShare*scores[win].score || s.units[k].start+1 <= ch.end && s.units[k].end+1 >= ch.start {
				continue
			}
			if s.units[k].heading == s.units[win].heading && absInt(s.units[k].start-s.units[win].start) < maxReach {
				continue
			}
			if alt < 0 || us.score > scores[alt].score {
				alt = k
			}
		}
		if alt >= 0 {
			a, b := c.widen(alt, maxChars)
			ch.also = append(ch.also, Excerpt{StartLine: a, EndLine: b, Snippet: strings.Join(s.lines[a-1:b], "\n")})
		}
	}
	return ch
}

// tieShare is how close another row or item must score to the winner's
// for the two to state the asked value alike.
const tieShare = 0.9

// tiedLead returns the lead-in of unit win (a sentence, or a clause of an
// article: 日当は、次の計算式で算出した額を支給する。) when win is a row or an
// item and another one under the same lead-in states the asked value and
// scores about as well (the question names no condition that tells them
// apart: 役員 7,500円, 一般社員 2,500円), else -1.
func (c *chooser) tiedLead(win int, scores []unitScore) int {
	s := c.s
	u := s.units[win]
	if u.kind != unitRow && u.kind != unitItem || u.lead < 0 || scores[win].stated < 1 || scores[win].rangeFactor != 1 {
		return -1
	}
	if lk := s.units[u.lead].kind; lk != unitText && lk != unitItem || s.titleItem(u.lead) {
		return -1 // an article's title in a list of articles leads into no values
	}
	// The winner is the case the others leave out (上記以外の場合) and the
	// question names no case: each case's value is the answer.
	other := !c.p.conditioned && otherCase.MatchString(c.folded[win])
	for k, v := range s.units {
		if k != win && v.lead == u.lead && v.kind == u.kind && scores[k].stated >= 1 && (other || scores[k].score >= tieShare*scores[win].score) {
			return u.lead
		}
	}
	return -1
}

// otherCase is an item or a row for the case the others leave out: 上記以外
// の場合, 前各号以外の者, その他の場合.
var otherCase = lazyre.New(`^\s*(?:[-*・]\s*)?(?:[(（]?[0-9０-９]+[)）.．]\s*)?(?:上記以外|前各号以外|前号以外|それ以外|その他の場合|その他の者)`)

func absInt(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// widen returns the lines (1-based) a snippet of unit k shows: the unit,
// then what it stands under when that is near (a row's header row, an
// item's lead-in, else its heading), then up to contextUnits neighbouring
// units each way, while the snippet fits maxChars. A unit longer than
// maxChars is cut at line ends around its best lines.
func (c *chooser) widen(k, maxChars int) (int, int) {
	s := c.s
	u := s.units[k]
	chars := func(a, b int) int { // 0-based lines a..b; over the budget when more than maxSnippetLines
		if b-a+1 > maxSnippetLines && b > u.end || b-a+1 > maxSnippetLines && a < u.start {
			return maxChars + 1
		}
		n := -1
		for i := a; i <= b; i++ {
			n += utf8.RuneCountInString(s.lines[i]) + 1
		}
		return n
	}
	a, b := u.start, u.end
	if chars(a, b) > maxChars {
		a, b = c.bestLines(k, maxChars)
		return a + 1, b + 1
	}
	// What it stands under.
	up := -1
	switch {
	case u.kind == unitRow && u.header >= 0:
		up = u.header
	case u.lead >= 0:
		up = u.lead
	case u.heading >= 0:
		up = u.heading
	}
	if up >= 0 && u.start-s.units[up].start <= maxReach && chars(s.units[up].start, b) <= maxChars {
		a = s.units[up].start
		// A table's heading too (第6条（日当）over its header row),
		// when it is just above and fits.
		if h := u.heading; up != h && h >= 0 && s.units[up].start-s.units[h].end <= 3 && chars(s.units[h].start, b) <= maxChars {
			a = s.units[h].start
		}
	} else if u.heading >= 0 && up != u.heading && u.start-s.units[u.heading].start <= maxReach && chars(s.units[u.heading].start, b) <= maxChars {
		a = s.units[u.heading].start
	}
	// Neighbours, whole units while the snippet fits: the rows or items
	// after it in its table or list (and the ones before when it reached
	// for nothing above), the paragraph after a paragraph; never a
	// heading, nor past a blank line after a table or list.
	prev := func(line int) int {
		for j := line - 1; j >= 0; j-- {
			if s.of[j] >= 0 {
				return s.of[j]
			}
		}
		return -1
	}
	next := func(line int) (int, bool) { // the unit after line, and whether blank lines stand between
		for j := line + 1; j < len(s.lines); j++ {
			if s.of[j] >= 0 {
				return s.of[j], j > line+1
			}
		}
		return -1, false
	}
	sibling := func(v unit) bool {
		return v.kind == u.kind && v.header == u.header && v.lead == u.lead && (u.kind == unitRow || u.kind == unitItem)
	}
	reached := a < u.start
	// A sentence that leads into a table or list brings it along, row
	// by row, while it fits (次の額を上限として: the amounts).
	for {
		k2, _ := next(b)
		if k2 < 0 || s.units[k2].lead != k || s.units[k2].kind != unitRow && s.units[k2].kind != unitItem || chars(a, s.units[k2].end) > maxChars {
			break
		}
		b = s.units[k2].end
	}
	// A table's rows are short and read together: all of them while
	// they fit (a table of amounts by grade), other units' neighbours up
	// to contextUnits.
	limit := contextUnits
	if u.kind == unitRow {
		limit = maxTableRows
	}
	before, after := 0, 0
	for grew := true; grew; {
		grew = false
		if after < limit {
			k2, gap := next(b)
			if k2 >= 0 && chars(a, s.units[k2].end) <= maxChars && s.units[k2].end-b <= maxReach {
				v := s.units[k2]
				if v.kind != unitHeading && (sibling(v) && !gap || u.kind == unitText && v.kind != unitLinks || u.kind == unitCode && v.kind == unitText) {
					b = v.end
					after++
					grew = true
				}
			}
		}
		if before < contextUnits && !reached {
			if k2 := prev(a); k2 >= 0 && chars(s.units[k2].start, b) <= maxChars && a-s.units[k2].start <= maxReach {
				if v := s.units[k2]; v.kind != unitHeading && v.kind != unitLinks && (sibling(v) || u.kind == unitText && v.kind == unitText) {
					a = v.start
					before++
					grew = true
				}
			}
		}
	}
	return a + 1, b + 1
}

// maxAnswerLines bounds the lines of an Answer: a longer paragraph gives
// its best line (answerLines). maxBlockLines bounds a block of code a line
// opens (password_policy: and the settings under it).
const (
	maxAnswerLines = 4
	maxBlockLines  = 10
)

// answerLines are the lines (0-based) of unit k that state the answer: a
// paragraph's line that holds the most of the question's words and the
// asked value, with the lines its sentence runs on to; a code block's
// line the same way, a comment with the line it comments on, a line that
// opens a block with the lines under it; a row, an item or a one-line
// unit whole.
func (c *chooser) answerLines(k int) (int, int) {
	s := c.s
	u := s.units[k]
	if u.kind != unitText && u.kind != unitCode || u.end == u.start {
		return u.start, u.end
	}
	best, bestScore := u.start, -1.0
	for j := u.start; j <= u.end; j++ {
		if u.kind == unitCode && codeFence(s.lines[j]) {
			// A fence (```ruby) says what the block is, not what it does.
			continue
		}
		f := analyzer.Fold(visible(s.lines[j]))
		sc := 0.0
		for i, cw := range c.words {
			if m := c.match(i, f); m > 0 {
				sc += cw.weight * cw.idf * m
			}
		}
		if st := c.p.asked.stated(f); sc > 0 || st >= 1 {
			// The line that states the asked value is the answer (time:
			// 1.5時間, not title: Gitの使い方).
			sc = (sc + 1) * (1 + 3*wStated*st)
		}
		if sc > bestScore {
			best, bestScore = j, sc
		}
	}
	end := best
	if u.kind == unitCode {
		// A comment says what the code under it does (// 303を指定して
		// リダイレクト, then return new HttpResponse(303, …)).
		for end < u.end && end-best < 2 && codeComment.MatchString(s.lines[end]) {
			end++
		}
		// A line that opens a block (password_policy:, func f() {) holds
		// the lines indented under it, up to maxBlockLines.
		if t := strings.TrimSpace(s.lines[end]); t != "" && strings.ContainsAny(t[len(t)-1:], ":{([=") {
			in := IndentWidth(s.lines[end])
			for end < u.end && end-best+1 < maxBlockLines && !codeFence(s.lines[end+1]) &&
				(strings.TrimSpace(s.lines[end+1]) == "" || IndentWidth(s.lines[end+1]) > in) {
				end++
			}
			for end > best && strings.TrimSpace(s.lines[end]) == "" {
				end--
			}
		}
		return best, end
	}
	// The sentence may run on over the next lines (text wrapped).
	for end < u.end && end-best < 2 && !u.meta && !sentenceEnd(s.lines[end]) {
		end++
	}
	return best, end
}

// codeFence reports a line that opens or closes a fenced code block.
func codeFence(l string) bool {
	t := strings.TrimSpace(l)
	return strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~")
}

// codeComment is a line of code that is a comment alone: // …, # …, -- …,
// /* … */, <!-- … -->.
var codeComment = lazyre.New(`^\s*(?://|#|--|/\*|\*|<!--|;)`)

// sentenceEnd reports a line that ends a sentence.
func sentenceEnd(l string) bool {
	t := strings.TrimSpace(l)
	r, _ := utf8.DecodeLastRuneInString(t)
	return strings.ContainsRune("。．.!?！？」）)", r) || t == ""
}

// bestLines is the window of whole lines of a long unit k that holds the
// most of the query's weighted words within maxChars (at least one line).
func (c *chooser) bestLines(k, maxChars int) (int, int) {
	s := c.s
	u := s.units[k]
	lineScore := make([]float64, u.end-u.start+1)
	for j := u.start; j <= u.end; j++ {
		f := analyzer.Fold(s.lines[j])
		for i, cw := range c.words {
			if m := c.match(i, f); m > 0 {
				lineScore[j-u.start] += cw.weight * cw.idf * m
			}
		}
		if st := c.p.asked.stated(f); st > 0 && lineScore[j-u.start] > 0 {
			lineScore[j-u.start] *= 1 + wStated*st
		}
	}
	ba, bb, bs := u.start, u.start, -1.0
	for a := u.start; a <= u.end; a++ {
		n, sum := -1, 0.0
		for b := a; b <= u.end && b-a < windowLines; b++ {
			n += utf8.RuneCountInString(s.lines[b]) + 1
			if n > maxChars && b > a {
				break
			}
			sum += lineScore[b-u.start]
			if sum > bs {
				ba, bb, bs = a, b, sum
			}
		}
	}
	for bb > ba && strings.TrimSpace(s.lines[bb]) == "" {
		bb--
	}
	return ba, bb
}

// unitAt is the unit that holds a 1-based line, -1 for none.
func (s *structure) unitAt(line int) int {
	if line < 1 || line > len(s.of) {
		return -1
	}
	return s.of[line-1]
}

// passageOf is the passage (1-based lines) of passages that holds line.
func passageOf(ps []Passage, line int) (int, int) {
	i, found := slices.BinarySearchFunc(ps, line, func(p Passage, l int) int {
		switch {
		case p.End < l:
			return -1
		case p.Start > l:
			return 1
		}
		return 0
	})
	if found {
		return ps[i].Start, ps[i].End
	}
	if i < len(ps) {
		return ps[i].Start, ps[i].End
	}
	return ps[len(ps)-1].Start, ps[len(ps)-1].End
}

// narrowed reports whether heading h names word i only inside a longer
// compound the question does not say, while another heading of the file
// names it alone: under 育休 or 育児休業, （出生時育児休業の申出の手続等）
// heads the narrower leave's article and （育児休業の申出の手続等） the one
// asked about. A file that never names it alone (年次有給休暇 for 有給休暇)
// keeps its headings' credit.
func (c *chooser) narrowed(i, h int) bool {
	if c.narrow == nil {
		c.narrow = make([][]bool, len(c.words))
	}
	if c.narrow[i] == nil {
		c.narrow[i] = c.narrowedHeadings(i)
	}
	return c.narrow[i][h]
}

// narrowedHeadings is, per unit, whether it is a heading that names word
// i only as the tail of a longer compound of Han characters (出生時 +
// 育児休業), when some heading of the file names it with no such prefix.
func (c *chooser) narrowedHeadings(i int) []bool {
	out := make([]bool, len(c.s.units))
	compounds := c.wordCompounds(i)
	if len(compounds) == 0 {
		return out
	}
	q := analyzer.Fold(c.p.text)
	var narrowed []int
	alone := false
	for k, u := range c.s.units {
		if u.kind != unitHeading && !c.s.titleItem(k) {
			continue
		}
		f := c.folded[k]
		if f == "" {
			f = analyzer.Fold(visible(c.s.text(k)))
		}
		rest, inner, here := f, false, false
		for _, cp := range compounds {
			for off := 0; off < len(f); {
				j := strings.Index(f[off:], cp)
				if j < 0 {
					break
				}
				a := off + j
				off = a + len(cp)
				r, size := utf8.DecodeLastRuneInString(f[:a])
				if a > 0 && unicode.Is(unicode.Han, r) && !strings.Contains(q, f[a-size:off]) {
					inner = true
					rest = strings.Replace(rest, f[a-size:off], " ", 1)
					continue
				}
				here = true
			}
		}
		alone = alone || here
		if inner && !here && !c.holdsIn(i, rest) {
			narrowed = append(narrowed, k)
		}
	}
	if alone {
		for _, k := range narrowed {
			out[k] = true
		}
	}
	return out
}

// wordCompounds are the compounds of three or more Han characters that
// name word i in the question: a run of nouns it is written in (育児休業
// of 育児 and 休業), the word itself, or its phrase (育児休業 for 育休).
func (c *chooser) wordCompounds(i int) []string {
	w := c.words[i]
	var out []string
	add := func(s string) {
		if utf8.RuneCountInString(s) >= 3 && analyzer.AllKanji(s) && !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	for _, fm := range w.forms {
		add(fm.text)
		for _, sp := range c.p.compounds {
			if f := analyzer.Fold(sp); fm.text != "" && strings.Contains(f, fm.text) {
				add(f)
			}
		}
	}
	for _, sy := range w.syns {
		add(sy.text)
	}
	return out
}

// holdsIn reports whether text holds word i in one of its forms or
// synonyms.
func (c *chooser) holdsIn(i int, text string) bool {
	w := c.words[i]
	for _, fm := range w.forms {
		if fm.text != "" && strings.Contains(text, fm.text) {
			return true
		}
	}
	for _, sy := range w.syns {
		if sy.text != "" && strings.Contains(text, sy.text) {
			return true
		}
	}
	return false
}
