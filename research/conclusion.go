package research

import (
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"lwr/analyzer"
	"lwr/analyzer/edition"
	"lwr/analyzer/lazyre"
	"lwr/index"
	"lwr/policy"
	"lwr/research/report"
	"lwr/web"
)

// Conclusion is section 4, built from the evidence alone (no model): the
// main point of each source, the Layer 1 conflicts and how the priority
// order resolves them, the preferred-source and currentness notes, the
// 未確認 / 要検証 labels and, when cross-checking is impossible, the
// FORCE_REVIEW notice. Texts are raw; the renderer escapes them.
type Conclusion struct {
	Points      []Point           `json:"points"`
	Conflicts   []Conflict        `json:"conflicts"`
	Preferences []Note            `json:"preferences"`
	Currentness []CurrentnessNote `json:"currentness"`
	Unverified  []Note            `json:"unverified"` // 未確認
	ToVerify    []Note            `json:"to_verify"`  // 要検証
	ForceReview *ForceReview      `json:"force_review,omitempty"`
	// NotStated says that no source states the value the question asks
	// for (資料に明記なし): the points are the nearest related lines.
	NotStated  *NotStated                `json:"not_stated,omitempty"`
	Resolution report.ConflictResolution `json:"conflict_resolution"`
}

// NotStated is the conclusion's 資料に明記なし: what the question asks for
// that no local source states.
type NotStated struct {
	Asked string `json:"asked"` // 数量(文字), 金額, 期限, 版
}

// notStated returns the 資料に明記なし notice when the question asks for
// a value a line can be told to state (an amount, a date, a version, a
// number of a named unit) and no local point states one of its kind; it
// labels the points 関連 (related lines, not the answer).
func notStated(query string, q question, srcs []source, points []Point) *NotStated {
	a := index.AskedOf(query)
	if !a.Specific() || len(points) == 0 {
		return nil
	}
	for _, s := range srcs {
		if !s.local() {
			continue
		}
		if ans := s.hit.Match.Answer; ans != nil && (ans.Stated >= 1 || ans.Stated > 0 && a.States(ans.Text)) {
			// Its answer states a value of the asked kind, also where the
			// search weighs it less (a sample project's 応答時間3秒以内).
			return nil
		}
		if ans := s.hit.Match.Answer; ans == nil && q.asked.any() && answersAny(q.asked, factsOfSource(s)) {
			return nil
		}
	}
	for i := range points {
		points[i].Labels = append(points[i].Labels, "関連")
	}
	return &NotStated{Asked: a.String()}
}

// Point is the main point of one source.
type Point struct {
	Ref   string `json:"ref"`
	Where string `json:"where"` // relative path or URL
	Line  int    `json:"line,omitempty"`
	// EndLine is the last line of a point that runs on to the line with
	// the asked value (the rule, then its amounts); 0 for one line.
	EndLine int      `json:"end_line,omitempty"`
	Text    string   `json:"text"`
	Labels  []string `json:"labels,omitempty"` // 優先資料, 旧版, 未確認, …
}

// Note is a line of the conclusion about one source.
type Note struct {
	Ref  string `json:"ref"`
	Text string `json:"text"`
}

// CurrentnessNote is a currentness record applied to a source.
type CurrentnessNote struct {
	Ref    string           `json:"ref"`
	Path   string           `json:"path"`
	Record policy.ExtRecord `json:"record"`
}

// ForceReview is the FORCE_REVIEW notice: the reason, and both sides.
type ForceReview struct {
	Reason string `json:"reason"`
	Sides  []Side `json:"sides"`
	// Missing says what the other side would be when the sources are all
	// of one type: the best evidence stands on one side, not two
	// unrelated lines against each other.
	Missing string `json:"missing,omitempty"`
}

// source is one source of the evidence.
type source struct {
	ref   string
	where string
	hit   *Hit
	web   *WebHit
}

func (s source) local() bool { return s.hit != nil }

// BuildConclusion builds section 4 from the report's evidence.
func BuildConclusion(r *Report) Conclusion {
	var srcs []source
	for i := range r.Local.Hits {
		h := &r.Local.Hits[i]
		srcs = append(srcs, source{ref: h.Ref, where: h.Path, hit: h})
	}
	for i := range r.Web.Hits {
		w := &r.Web.Hits[i]
		srcs = append(srcs, source{ref: w.Ref, where: w.Entry.URL, web: w})
	}
	for i := range r.Deep.Hits {
		h := &r.Deep.Hits[i]
		srcs = append(srcs, source{ref: h.Ref, where: h.Path, hit: h})
	}
	c := Conclusion{Points: []Point{}, Conflicts: []Conflict{}, Preferences: []Note{}, Currentness: []CurrentnessNote{}, Unverified: []Note{}, ToVerify: []Note{}}
	q := question{asked: askedOf(r.Query), values: factsOf(r.Query, 0), shape: shapeOf(r.Query)}
	for _, w := range r.Local.Content {
		// What a passage must hold to be about the question: not the
		// year or 当時 of a historical question, nor a lone character
		// other than a kanji (親, 妻, 車 name a topic; a kana or a digit
		// alone does not).
		if (utf8.RuneCountInString(w) > 1 || isKanji(w)) && !policy.Historical(w) {
			q.words = append(q.words, []string{w})
		}
	}
	for _, w := range r.Local.Synonyms {
		// A synonym that holds a word of the question (上限額) adds none.
		if f := analyzer.Fold(w); utf8.RuneCountInString(f) > 1 && holding(f, q.words) == 0 {
			q.synonyms = append(q.synonyms, f)
		}
	}
	var about []bool
	c.Points, about = keyPoints(srcs, q, r.Query)
	c.NotStated = notStated(r.Query, q, srcs, c.Points)
	alignExcerpts(srcs, c.Points)
	// A page that could not be fetched is no evidence to weigh against
	// another: its snippet is the search engine's.
	// Nor is a source that is not about the question (while others are).
	var weighed []source
	for i, s := range srcs {
		if (s.local() || s.web.Entry.Status != web.EntryFetchFailed) && about[i] {
			weighed = append(weighed, s)
		}
	}
	c.Conflicts = findConflicts(weighed, r.IgnorePreference || r.Historical, q)
	notes(&c, srcs, r)
	c.Resolution = resolution(c.Conflicts)
	c.ForceReview = forceReview(&c, srcs, r)
	return c
}

// question is what the conclusion reads from the question.
type question struct {
	asked    asked
	words    [][]string // content words
	synonyms []string   // folded, of more than one character
	values   []fact     // the amounts, quantities and dates it names
	// shape matches a line that states the asked number the way the
	// question asks it (何か月先まで: 2か月先まで), nil for none.
	shape *regexp.Regexp
}

// askedShape is a question's 何 with its unit and what bounds it: 何か月先
// まで, 何日前, 何文字以上.
var askedShape = lazyre.New(`何(文字|桁|営業日|日|時間|分|回|か月|ヶ月|カ月|年|歳|人|名|社|件|泊|週間)((?:前|後|先|以上|以下|以内|未満|まで|目)+)`)

// shapeOf returns the pattern of a line that answers a question's 何 in
// its own words, or nil.
func shapeOf(query string) *regexp.Regexp {
	m := askedShape.FindStringSubmatch(analyzer.Fold(query))
	if m == nil {
		return nil
	}
	return regexp.MustCompile(`[0-9][0-9,]*` + regexp.QuoteMeta(m[1]+m[2]))
}

// held counts the question's words a folded text holds, a synonym of
// them (宿泊料 for ホテル代) counting as one more.
func (q question) held(f string) int {
	n := holding(f, q.words)
	if n < len(q.words) && slices.ContainsFunc(q.synonyms, func(s string) bool { return strings.Contains(f, s) }) {
		n++
	}
	return n
}

// statesValue reports whether one of the facts is a value the question
// names itself (5万円くらいのプリンタ: a line about 5万円).
func (q question) statesValue(fs []fact) bool {
	for _, f := range fs {
		for _, v := range q.values {
			if f.kind == v.kind && f.value == v.value {
				return true
			}
		}
	}
	return false
}

// about reports whether a passage (folded as the index folds text,
// analyzer.FoldText) is about the question: it holds
// most of its content words, a synonym of them counting as one when it
// holds one of the words itself.
func (q question) about(f string) bool {
	if len(q.words) == 0 {
		return true
	}
	n := holding(f, q.words)
	if n > 0 && n < len(q.words) && slices.ContainsFunc(q.synonyms, func(s string) bool { return strings.Contains(f, s) }) {
		n++
	}
	return 2*n > len(q.words)
}

// Tiers of a key point: the answer (it holds the question's words and
// the asked value), about the question (it holds its words), filler.
const (
	tierAnswer = iota
	tierAbout
	tierFiller
)

// isKanji reports a word of one CJK ideograph.
func isKanji(w string) bool {
	r, n := utf8.DecodeRuneInString(w)
	return n == len(w) && unicode.Is(unicode.Han, r)
}

// editionLine states when a rule was made, revised or abolished (附則:
// 2020年6月1日改定（…）): a point only when the question asks for a date.
var editionLine = lazyre.New(`(制定|施行|改定|改正|改訂|廃止|発行)`)

// ruleLine is a border of a table drawn with box characters or ASCII.
func ruleLine(t string) bool {
	return strings.Trim(t, "|-: ─━┌┐└┘├┤┬┴┼│┃┏┓┗┛┣┫┳┻╋　") == ""
}

// maxExcerptLines bounds an excerpt widened to show its key point.
const maxExcerptLines = 12

// alignExcerpts widens (or moves) the excerpt of a local source whose key
// point stands outside it, in the same passage, so that section 1 shows
// the lines the conclusion cites. Extracted documents (PDF, Office) keep
// theirs: their excerpt has a place in the document the lines alone do
// not give.
func alignExcerpts(srcs []source, points []Point) {
	at := map[string]Point{}
	for _, p := range points {
		at[p.Ref] = p
	}
	for _, s := range srcs {
		p, ok := at[s.ref]
		if !s.local() || !ok || p.Line == 0 {
			continue
		}
		m := &s.hit.Match
		lo, hi := p.Line, max(p.EndLine, p.Line)
		if m.Passage == "" || m.Locator != nil || lo >= m.StartLine && hi <= m.EndLine || lo < m.PassageStart || hi > m.PassageEnd {
			continue
		}
		from, to := min(m.StartLine, lo-1), max(m.EndLine, hi+1)
		if to-from+1 > maxExcerptLines {
			from, to = lo-2, max(hi+2, lo-2+maxExcerptLines/2)
		}
		from, to = max(from, m.PassageStart), min(to, m.PassageEnd)
		pl := strings.Split(m.Passage, "\n")
		m.Snippet = strings.Join(pl[from-m.PassageStart:to-m.PassageStart+1], "\n")
		m.StartLine, m.EndLine = from, to
		m.Highlights = nil
	}
}

// maxFillerPoints bounds the key points when none is about the question.
const maxFillerPoints = 3

// rankedPoint is a source's point and its tier.
type rankedPoint struct {
	p    Point
	tier int
	src  source
}

// keyPoints are the main points of the sources, best evidence first: the
// answers (one per organisation first when the sources come from several
// top-level folders), then the points about the question; within each,
// rules before forms, examples, FAQs and minutes, and the newest edition
// of a family before the older ones (labelled 旧版), else the search's
// order. Filler (a passage that holds too few of the question's words)
// only when nothing else is there, and then the first few. about says,
// per source, whether its point counts as evidence.
func keyPoints(srcs []source, q question, query string) (points []Point, about []bool) {
	var all []rankedPoint
	best := tierFiller
	for _, s := range srcs {
		p, t := mainPoint(s, q)
		all = append(all, rankedPoint{p, t, s})
		best = min(best, t)
	}
	points = []Point{}
	// When a rule states the answer, forms and examples (how a thing is
	// filled in) make no further point.
	answered := slices.ContainsFunc(all, func(r rankedPoint) bool { return r.tier == tierAnswer && kindRank(r.src, query) == 0 })
	for tier := tierAnswer; tier <= tierFiller; tier++ {
		if tier == tierFiller && best < tierFiller {
			break
		}
		var rs []rankedPoint
		for _, r := range all {
			if r.tier == tier {
				rs = append(rs, r)
			}
		}
		if tier == tierAbout && answered {
			rs = slices.DeleteFunc(rs, func(r rankedPoint) bool { return exampleOnly(r.src, query) })
		}
		rs = orderPoints(rs, query, tier == tierAnswer)
		if tier == tierAnswer {
			rs = byOrganisation(rs)
		}
		for _, r := range rs {
			points = append(points, r.p)
		}
	}
	if best == tierFiller {
		// Nothing is about the question: the first few sources say what
		// was found, the rest would only be more of it.
		points = points[:min(len(points), maxFillerPoints)]
	}
	for _, r := range all {
		about = append(about, r.tier < tierFiller || best == tierFiller)
	}
	return points, about
}

// mainPoint is the line of a source that holds the most query words (its
// highlights), the asked value counting more, else its first line of
// text; when that line lacks the asked value and one of the next lines
// states it (a rule, then its table of amounts), the point runs on to
// it. It returns the point's tier.
func mainPoint(s source, q question) (Point, int) {
	if !s.local() {
		e := s.web.Entry
		text := strings.TrimSpace(e.Snippet)
		if ss := sentences(text); len(ss) > 0 {
			text = strings.TrimSpace(ss[0])
		}
		if text == "" {
			text = e.Title
		}
		p := Point{Ref: s.ref, Where: e.URL, Text: report.Cut(text, 160)}
		switch {
		case e.Status == web.EntryFetchFailed:
			p.Labels = append(p.Labels, "取得失敗", "未確認")
		case s.web.Official():
			p.Labels = append(p.Labels, "公式一次情報")
		case e.Trust >= 2:
			p.Labels = append(p.Labels, "信頼性の高い二次情報")
		default:
			p.Labels = append(p.Labels, "一般Web", "未確認")
		}
		if l := e.Freshness.String(); l != "" {
			p.Labels = append(p.Labels, l)
		}
		tier := tierFiller
		if q.about(analyzer.FoldText(e.Title + " " + e.Snippet)) {
			tier = tierAbout
		}
		return p, tier
	}
	p, tier := localPoint(s, q)
	if ed := s.hit.Edition(); ed != "" {
		p.Labels = append(p.Labels, "版: "+ed)
	}
	if s.hit.Ext.Preferred != nil {
		p.Labels = append(p.Labels, "優先資料")
	}
	if at, ok := edition.AbolishedAt(s.hit.Match.Editions); ok {
		p.Labels = append(p.Labels, "廃止("+at+")")
	} else if superseded(s.hit) {
		p.Labels = append(p.Labels, "旧版")
	}
	for _, rec := range s.hit.Ext.Currentness {
		p.Labels = append(p.Labels, rec.Meaning.Label)
	}
	return p, tier
}

// maxPointLines bounds the lines a key point cites; minCoverage is the
// share of the question's words a passage found to state the answer must
// hold (with its headings and its file's name) to be about the question.
const (
	maxPointLines = 6
	minCoverage   = 0.6
)

// localPoint is the point of a local source and its tier: the unit the
// search found to state the answer (a rule's sentence, a table row with
// its headers, a list item), else the line of its snippet that holds the
// most query words.
func localPoint(s source, q question) (Point, int) {
	m := s.hit.Match
	if a := m.Answer; a != nil && a.StartLine >= m.StartLine && a.EndLine <= m.EndLine && strings.TrimSpace(a.Text) != "" {
		p := Point{Ref: s.ref, Where: s.hit.Path, Line: a.StartLine, Text: report.Cut(a.Text, 160)}
		end := a.EndLine
		// A sentence that leads into a list, or a question of a Q&A list,
		// runs on to the items or the answer below it.
		if pl := strings.Split(m.Passage, "\n"); m.Passage != "" && a.EndLine >= m.PassageStart && a.EndLine-m.PassageStart < len(pl) {
			last := a.EndLine - m.PassageStart
			if t := strings.TrimSpace(pl[last]); a.Leads && rowKind(t) == "item" || leadIn.MatchString(t) || faqQuestion.MatchString(t) {
				if k := runOn(pl, last, q, a.Leads); k > last {
					end = m.PassageStart + k
					var parts []string
					for _, l := range pl[last+1 : k+1] {
						if t := strings.TrimSpace(l); t != "" && !ruleLine(t) {
							parts = append(parts, plainLine(t))
						}
					}
					p.Text = report.Cut(a.Text+" / "+strings.Join(parts, " / "), 160)
				}
			}
		}
		if end = min(end, a.StartLine+maxPointLines-1); end > a.StartLine {
			p.EndLine = end
		}
		tier := tierAbout
		switch {
		case a.Coverage < minCoverage && !q.about(analyzer.FoldText(s.hit.Path+"\n"+m.Title+"\n"+m.Snippet)):
			tier = tierFiller
		case a.Stated >= 1:
			// It states a value of the kind the question asks for (the
			// search read what it asks: 何文字, いくら, いつまで, どのバージョン).
			tier = tierAnswer
		}
		return p, tier
	}
	lines := strings.Split(m.Snippet, "\n")
	// The line with the most query words (highlighted bytes), a line
	// stating an amount or a date counting a little more; headings and
	// table rules only when nothing else is there.
	// The point may run on in the passage the snippet was cut from (the
	// snippet may end before the table of amounts).
	text, base := lines, m.StartLine
	if m.Passage != "" && m.PassageStart > 0 && m.PassageStart <= m.StartLine {
		if pl := strings.Split(m.Passage, "\n"); m.StartLine+len(lines)-1-m.PassageStart < len(pl) {
			text, base = pl, m.PassageStart
		}
	}
	best, bestN, off := -1, -1, 0
	for i, l := range lines {
		t := strings.TrimSpace(l)
		n := 0
		for _, h := range m.Highlights {
			a, b := max(h[0], off), min(h[1], off+len(l))
			if b > a {
				n += b - a
			}
		}
		off += len(l) + 1
		if t == "" || strings.HasPrefix(t, "#") || ruleLine(t) || articleTitle.MatchString(t) {
			continue
		}
		if !q.asked.kinds[FactDate] && editionLine.MatchString(t) && slices.ContainsFunc(factsOf(t, 0), func(f fact) bool { return f.kind == FactDate }) {
			continue // when the rule was revised, not what it says
		}
		if i+1 < len(lines) && strings.HasPrefix(t, "|") && ruleLine(strings.TrimSpace(lines[i+1])) {
			continue // a table's header row
		}
		if n > 0 {
			// Each of the question's words the line holds counts as a
			// word more: a line that holds them all beats one that
			// repeats one of them.
			n += 6 * q.held(analyzer.FoldText(t))
			fs := factsOf(t, 0)
			if len(fs) > 0 {
				n += 3
				if q.statesValue(fs) {
					n += 12 // the question's own amount (5万円)
				}
				if q.shape != nil && q.shape.MatchString(analyzer.Fold(t)) {
					n += 24 // 2か月先まで for 何か月先まで: the answer, as asked
				}
			}
			// A line that states the asked value, or leads into the
			// lines that do (a rule, then its table of amounts).
			if answersAny(q.asked, fs) || q.asked.any() && askedRunOn(text, m.StartLine+i-base, q) > m.StartLine+i-base {
				n += 6
			}
		}
		if n > bestN {
			best, bestN = i, n
		}
	}
	if best < 0 {
		best = 0
	}
	first := m.StartLine + best - base
	end := first
	if q.asked.any() && !answersAny(q.asked, factsOf(text[first], 0)) {
		end = askedRunOn(text, first, q)
		if end == first {
			// The answer may stand elsewhere in the passage, outside the
			// snippet: a line that states the asked value and holds as
			// many of the question's words, the nearest one.
			if k := answerLine(text, first, q); k >= 0 {
				first, end = k, k
			}
		}
	}
	if end == first {
		end = runOn(text, first, q, false)
	}
	var parts []string
	for k := first; k <= end; k++ {
		t := strings.TrimSpace(text[k])
		if t == "" || ruleLine(t) {
			continue
		}
		if k > first && k+1 < len(text) && strings.HasPrefix(t, "|") && ruleLine(strings.TrimSpace(text[k+1])) {
			continue // a table's header row
		}
		parts = append(parts, plainLine(t))
	}
	p := Point{Ref: s.ref, Where: s.hit.Path, Line: base + first, Text: report.Cut(strings.Join(parts, " / "), 160)}
	if end > first {
		p.EndLine = base + end
	}
	tier := tierFiller
	switch point := analyzer.Fold(strings.Join(text[first:end+1], "\n")); {
	case !q.about(analyzer.FoldText(m.Title + "\n" + m.Snippet)): // the title scopes the passage (工場安全教育テキスト)
	case q.asked.any() && answersAny(q.asked, factsOf(point, 0)):
		tier = tierAnswer
	default:
		tier = tierAbout
	}
	return p, tier
}

var (
	mdLinkRe  = lazyre.New(`!?\[([^\]]*)\]\([^)]*\)`)
	htmlTagRe = lazyre.New(`<[^>]*>`)
)

// plainLine is a line of a key point without its markup: a link as its
// text, no tags, no heading marks after an item's number, no emphasis or
// code marks (the quoted lines of section 1
// keep theirs).
func plainLine(t string) string {
	t = index.WithoutItemHeading(t)
	t = mdLinkRe.ReplaceAllString(t, "$1")
	t = htmlTagRe.ReplaceAllString(t, " ")
	t = strings.NewReplacer("**", "", "__", "", "`", "", "&nbsp;", " ", "&lt;", "<", "&gt;", ">", "&amp;", "&").Replace(t)
	return strings.Join(strings.Fields(t), " ")
}

// articleTitle is a rule's article heading: 第4条（USBメモリ等の利用）.
var articleTitle = lazyre.New(`^第[0-9０-９一二三四五六七八九十百]+条\s*[（(][^）)]*[）)]$`)

// faqQuestion starts a question of a Q&A list: Q3．, Ｑ. , 問2:.
var faqQuestion = lazyre.New(`^(\*\*)?(Q|Ｑ|問)\s*[0-9０-９]*\s*[.．:：、]`)

// answersAny reports whether one of the facts is of the asked kind.
func answersAny(a asked, fs []fact) bool {
	for _, f := range fs {
		if a.answers(f) {
			return true
		}
	}
	return false
}

// askedRunOn returns the last line of a point at line first that lacks
// the asked value when one of the next three lines of text states it (a
// rule, then its table of amounts): that line and up to two more that
// state values too. It returns first when none does before the next
// section, article or question of a Q&A list.
func askedRunOn(text []string, first int, q question) int {
	for k, seen := first+1, 0; k < len(text) && seen < 3; k++ {
		t := strings.TrimSpace(text[k])
		if strings.HasPrefix(t, "#") || articleTitle.MatchString(t) || faqQuestion.MatchString(t) {
			break // the next section, article or question is another point
		}
		if t == "" || ruleLine(t) {
			continue // blank lines and table rules come along free
		}
		seen++
		if answersAny(q.asked, factsOf(t, 0)) {
			end := k
			for end+1 < len(text) && end < k+2 && answersAny(q.asked, factsOf(text[end+1], 0)) {
				end++
			}
			return end
		}
	}
	return first
}

// leadIn is a line that leads into the list below it: 次の順序で処置を
// しなければならない。, 手順は以下のとおり：.
var leadIn = lazyre.New(`(次の|以下の|下記の|次に掲げる).{0,30}[。：:]$|[：:]$`)

// runOn returns the last line of a point that starts at line first: a
// line that leads into a list runs on to its first items, a question of a
// Q&A list to its answer; a table row or list item the next ones
// complete with the question's other words (a table's CC row, then its
// BCC row) runs on to them. It stops at a blank line after text, a
// heading, an article or a question of a Q&A list. leads says the search
// found line first to lead into rows or items that each state the asked
// value: it runs on to those under it.
func runOn(text []string, first int, q question, leads bool) int {
	stop := func(t string) bool {
		return strings.HasPrefix(t, "#") || articleTitle.MatchString(t) || faqQuestion.MatchString(t)
	}
	end := first
	if t := strings.TrimSpace(text[first]); leads && rowKind(t) == "item" {
		// A clause that leads into the items under it: those items, not
		// the next clause.
		for k, n := first+1, 0; k < len(text) && n < 3; k++ {
			t := strings.TrimSpace(text[k])
			switch {
			case t == "" && n == 0, ruleLine(t) && t != "":
				continue
			case t == "", stop(t), rowKind(t) == "", index.IndentWidth(text[k]) <= index.IndentWidth(text[first]):
				return end
			}
			end, n = k, n+1
		}
		return end
	}
	if t := strings.TrimSpace(text[first]); leadIn.MatchString(t) || faqQuestion.MatchString(t) {
		for k, n := first+1, 0; k < len(text) && n < 3; k++ {
			t := strings.TrimSpace(text[k])
			switch {
			case t == "" && n > 0:
				return end
			case t == "" || ruleLine(t):
				continue
			case stop(t):
				return end
			}
			end, n = k, n+1
		}
		return end
	}
	held := holdingWords(analyzer.FoldText(text[first]), q.words)
	kind := rowKind(strings.TrimSpace(text[first]))
	for k, n := first+1, 0; k < len(text) && n < 2 && kind != ""; k++ {
		t := strings.TrimSpace(text[k])
		if ruleLine(t) && t != "" {
			continue // a table rule
		}
		if t == "" || stop(t) || rowKind(t) != kind {
			break
		}
		more := false
		for i, h := range holdingWords(analyzer.FoldText(t), q.words) {
			if h && !held[i] {
				held[i], more = true, true
			}
		}
		if !more {
			break
		}
		end, n = k, n+1
	}
	return end
}

// listItem starts an item of a list (- ・ ● 1. 2) （3）) or a clause of
// an article (2　貸与機器は…).
var listItem = lazyre.New(`^([-*・●■□]\s*|[0-9０-９]+[.)．）]\s*|[（(][0-9０-９]+[）)]|[0-9０-９]+[ 　])`)

// rowKind is "table" for a table row, "item" for a list item, "" for
// other text: the rows and items next to a point complete it, the
// sentences of the next paragraph do not.
func rowKind(t string) string {
	switch {
	case strings.HasPrefix(t, "|") || strings.HasPrefix(t, "｜") || strings.HasPrefix(t, "│") || strings.HasPrefix(t, "┃"):
		return "table"
	case listItem.MatchString(t):
		return "item"
	}
	return ""
}

// holdingWords says which of the content words a folded text holds.
func holdingWords(f string, words [][]string) []bool {
	out := make([]bool, len(words))
	for i, forms := range words {
		out[i] = holding(f, [][]string{forms}) > 0
	}
	return out
}

// answerLine returns the line of a passage nearest to line from that
// states the asked value and holds at least as many of the question's
// words as line from does (one at least), or -1.
func answerLine(text []string, from int, q question) int {
	need := max(1, q.held(analyzer.FoldText(text[from])))
	found, dist := -1, 0
	for k, l := range text {
		t := strings.TrimSpace(l)
		if t == "" || strings.HasPrefix(t, "#") || articleTitle.MatchString(t) || !answersAny(q.asked, factsOf(t, 0)) {
			continue
		}
		if q.held(analyzer.FoldText(t)) < need {
			continue
		}
		d := k - from
		if d < 0 {
			d = -d
		}
		if found < 0 || d < dist {
			found, dist = k, d
		}
	}
	return found
}
