package research

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"lwr/analyzer"
	"lwr/analyzer/edition"
	"lwr/policy"
)

// Conclusion is section 4, built from the evidence alone (no model): the
// main point of each source, the Layer 1 conflicts and how the priority
// order resolves them, the preferred-source and currentness notes, the
// 未確認 / 要検証 labels and, when cross-checking is impossible, the
// FORCE_REVIEW notice. Texts are raw; the renderer escapes them.
type Conclusion struct {
	Points      []Point            `json:"points"`
	Conflicts   []Conflict         `json:"conflicts"`
	Preferences []Note             `json:"preferences"`
	Currentness []CurrentnessNote  `json:"currentness"`
	Unverified  []Note             `json:"unverified"` // 未確認
	ToVerify    []Note             `json:"to_verify"`  // 要検証
	ForceReview *ForceReview       `json:"force_review,omitempty"`
	Resolution  ConflictResolution `json:"conflict_resolution"`
}

// Point is the main point of one source.
type Point struct {
	Ref    string   `json:"ref"`
	Where  string   `json:"where"` // relative path or URL
	Line   int      `json:"line,omitempty"`
	Text   string   `json:"text"`
	Labels []string `json:"labels,omitempty"` // 優先資料, 旧版, 未確認, …
}

// Note is a line of the conclusion about one source.
type Note struct {
	Ref  string `json:"ref"`
	Text string `json:"text"`
}

// Fact kinds of Layer 1.
const (
	FactAmount  = "amount"
	FactDate    = "date"
	FactEdition = "edition"
	FactVersion = "version"
	FactValue   = "value" // a value a currentness record is about
)

var factKindLabels = map[string]string{FactAmount: "金額", FactDate: "日付", FactEdition: "版", FactVersion: "バージョン", FactValue: "値"}

// FactKindLabel is the Japanese name of a fact kind.
func FactKindLabel(kind string) string { return factKindLabels[kind] }

// Side is one side of a conflict.
type Side struct {
	Ref   string `json:"ref"`   // L1, W2, DL1, or 記録:<id>
	Where string `json:"where"` // relative path, URL, or the record id
	Line  int    `json:"line,omitempty"`
	Value string `json:"value"` // as written
	Text  string `json:"text"`  // the line or sentence stating it
	Class string `json:"class"` // 公式一次情報, ローカル最新, …
	// Label is what the report says of a losing value: 旧値（当時の値）,
	// 値を現行の根拠に使わない, 設例, ….
	Label string `json:"label,omitempty"`
}

// Conflict is two sources stating different dates, editions, versions or
// amounts on the same point.
type Conflict struct {
	Kind   string `json:"kind"`
	Point  string `json:"point"`
	Sides  []Side `json:"sides"`
	Winner int    `json:"winner"` // index into Sides; -1 unresolved
	Rule   string `json:"rule"`
	Reason string `json:"reason"`
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
}

// The rules a conflict is resolved by.
const (
	RuleCurrentness = "currentness_record"
	RulePreference  = "source_preference"
	RulePriority    = "source_priority"
	RuleUnresolved  = "unresolved_force_review"
)

// PriorityOrder is the order of SPEC §7.4 (seed source-priority.md).
const PriorityOrder = "公式一次情報 ＞ ローカル最新 ＞ 信頼性の高い二次情報 ＞ ローカル旧版 ＞ 一般Web"

var ruleTexts = map[string]string{
	RuleCurrentness: "現行性確認記録（currentness.json）の確認済みの値を優先し、記録が現行の根拠に使わないとする値を採らない",
	RulePreference:  "版の優先指定（source-preferences.json）: 優先資料を先に確認し、旧版の記載と混ぜない",
	RulePriority:    "情報源優先順位: " + PriorityOrder + "（本文の日付・版で判断し、更新日時や取得日時は使わない）",
	RuleUnresolved:  "判定不能: 両方の情報源を併記し、判断を利用者に委ねる（FORCE_REVIEW）",
}

// RuleText explains a rule in Japanese.
func RuleText(rule string) string { return ruleTexts[rule] }

// source classes, higher wins.
type class int

const (
	classUnknown class = iota
	classGeneralWeb
	classLocalOlder
	classSecondary
	classLocalLatest
	classOfficial
	classRecord
)

var classNames = map[class]string{
	classUnknown: "不明", classGeneralWeb: "一般Web", classLocalOlder: "ローカル旧版", classSecondary: "信頼性の高い二次情報",
	classLocalLatest: "ローカル最新", classOfficial: "公式一次情報", classRecord: "現行性確認記録（公式出典で確認済み）",
}

// source is one source of the evidence.
type source struct {
	ref   string
	where string
	hit   *Hit
	web   *WebHit
}

func (s source) local() bool { return s.hit != nil }

// fact is one Layer 1 statement: a kind, a normalized value, the text it
// stands in and the point it is about.
type fact struct {
	kind  string
	value string // normalized
	raw   string
	label string // the line without its facts, folded
	text  string
	line  int
}

var amountRe = regexp.MustCompile(`(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d+))?\s*(億|万|千)?\s*円`)

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

// related reports whether two local sources are about the same document
// family: a declared preference, or titles that differ only by year or
// edition (possibly related).
func related(a, b source) bool {
	if !a.local() || !b.local() {
		return false
	}
	for _, r := range a.hit.Ext.Relations {
		if r.Path == b.hit.Path {
			return true
		}
	}
	for _, r := range b.hit.Ext.Relations {
		if r.Path == a.hit.Path {
			return true
		}
	}
	ka, kb := edition.TitleKey(a.hit.Match.Title), edition.TitleKey(b.hit.Match.Title)
	return ka != "" && ka == kb
}

// declared reports whether a supersedes b by source-preferences.json.
func declared(a, b *Hit) bool {
	if a.Ext.Preferred == nil {
		return false
	}
	for _, r := range b.Ext.Relations {
		if r.Kind == policy.SupersededBy && r.Path == a.Path {
			return true
		}
	}
	for _, r := range a.Ext.Relations {
		if r.Kind == policy.Supersedes && r.Path == b.Path {
			return true
		}
	}
	return false
}

func superseded(h *Hit) bool {
	for _, r := range h.Ext.Relations {
		if r.Kind == policy.SupersededBy {
			return true
		}
	}
	return false
}

// newer compares two local documents by what their text says: +1 when a
// is newer, -1 when b is, 0 when the text does not tell. basis says how.
func newer(a, b *Hit) (int, string) {
	switch {
	case declared(a, b):
		return 1, "優先指定"
	case declared(b, a):
		return -1, "優先指定"
	}
	if c := edition.Compare(a.Match.Editions, b.Match.Editions); c != 0 {
		return c, "本文の版・日付"
	}
	return 0, ""
}

// demoting actions: the value they are about is never the current basis.
func demotes(a policy.Action) bool {
	switch a {
	case policy.ReplaceWithVerifiedRule, policy.CorrectBoundary, policy.DoNotAssertCurrent, policy.IllustrativeOnly, policy.NoNumericRule:
		return true
	}
	return false
}

// recordsFor returns the currentness records of a hit that concern a
// side's text: those whose matched text it holds, or, with no matched
// text, all of them.
func recordsFor(h *Hit, text string) []policy.ExtRecord {
	if h == nil {
		return nil
	}
	f := analyzer.Fold(text)
	var out []policy.ExtRecord
	for _, r := range h.Ext.Currentness {
		if r.MatchedText == "" || strings.Contains(f, analyzer.Fold(r.MatchedText)) {
			out = append(out, r)
		}
	}
	return out
}

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
	for _, s := range srcs {
		c.Points = append(c.Points, mainPoint(s))
	}
	c.Conflicts = findConflicts(srcs, r.IgnorePreference)
	notes(&c, srcs, r)
	c.Resolution = resolution(c.Conflicts)
	c.ForceReview = forceReview(&c, srcs)
	return c
}

// mainPoint is the line of a source that holds the most query words (its
// highlights), else its first line of text.
func mainPoint(s source) Point {
	if !s.local() {
		e := s.web.Entry
		text := strings.TrimSpace(e.Snippet)
		if ss := sentences(text); len(ss) > 0 {
			text = strings.TrimSpace(ss[0])
		}
		if text == "" {
			text = e.Title
		}
		p := Point{Ref: s.ref, Where: e.URL, Text: cut(text, 160)}
		switch {
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
		return p
	}
	m := s.hit.Match
	lines := strings.Split(m.Snippet, "\n")
	// The line with the most query words (highlighted bytes), a line
	// stating an amount or a date counting a little more; headings and
	// table rules only when nothing else is there.
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
		if t == "" || strings.HasPrefix(t, "#") || strings.Trim(t, "|-: ") == "" {
			continue
		}
		if i+1 < len(lines) && strings.HasPrefix(t, "|") && strings.Trim(strings.TrimSpace(lines[i+1]), "|-: ") == "" {
			continue // a table's header row
		}
		if n > 0 && len(factsOf(t, 0)) > 0 {
			n += 3
		}
		if n > bestN {
			best, bestN = i, n
		}
	}
	if best < 0 {
		best = 0
	}
	p := Point{Ref: s.ref, Where: s.hit.Path, Line: m.StartLine + best, Text: cut(strings.TrimSpace(lines[best]), 160)}
	if ed := s.hit.Edition(); ed != "" {
		p.Labels = append(p.Labels, "版: "+ed)
	}
	if s.hit.Ext.Preferred != nil {
		p.Labels = append(p.Labels, "優先資料")
	}
	if superseded(s.hit) {
		p.Labels = append(p.Labels, "旧版")
	}
	for _, rec := range s.hit.Ext.Currentness {
		p.Labels = append(p.Labels, rec.Meaning.Label)
	}
	return p
}

// cut shortens text to n characters.
func cut(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n]) + "…"
}

// maxConflicts bounds the conflicts listed.
const maxConflicts = 12

// findConflicts compares the facts of every pair of sources and resolves
// each conflict found.
func findConflicts(srcs []source, historical bool) []Conflict {
	facts := make([][]fact, len(srcs))
	for i, s := range srcs {
		facts[i] = factsOfSource(s)
	}
	has := func(i int, kind, value string) bool {
		for _, f := range facts[i] {
			if f.kind == kind && f.value == value {
				return true
			}
		}
		return false
	}
	out := []Conflict{}
	seen := map[string]bool{}
	recordSides := map[string]bool{} // record id + hit: already shown in a conflict
	for i := 0; i < len(srcs); i++ {
		for j := i + 1; j < len(srcs); j++ {
			rel := related(srcs[i], srcs[j])
			// Two editions of one document, declared in the preferences:
			// their editions are a conflict of their own.
			if a, b := srcs[i], srcs[j]; a.local() && b.local() && (declared(a.hit, b.hit) || declared(b.hit, a.hit)) {
				ea, eb := a.hit.Edition(), b.hit.Edition()
				if ea != eb && ea != edition.Unknown && eb != edition.Unknown && len(out) < maxConflicts {
					c := Conflict{Kind: FactEdition, Point: "同じ資料の版: " + cut(a.hit.Match.Title, 60), Sides: []Side{
						{Ref: a.ref, Where: a.where, Value: ea, Text: a.hit.Match.Title},
						{Ref: b.ref, Where: b.where, Value: eb, Text: b.hit.Match.Title},
					}}
					resolve(&c, a, b, historical)
					out = append(out, c)
				}
			}
			for _, a := range facts[i] {
				for _, b := range facts[j] {
					if a.kind != b.kind || a.value == b.value || !samePoint(a, b, rel) {
						continue
					}
					// A source that states both values is not in conflict
					// with one that states one of them.
					if has(i, b.kind, b.value) || has(j, a.kind, a.value) {
						continue
					}
					lo, hi := a.value, b.value
					if hi < lo {
						lo, hi = hi, lo
					}
					key := fmt.Sprintf("%s|%s|%s|%d|%d", a.kind, lo, hi, i, j)
					if seen[key] || len(out) == maxConflicts {
						continue
					}
					seen[key] = true
					c := Conflict{Kind: a.kind, Point: cut(a.text, 80), Sides: []Side{sideOf(srcs[i], a), sideOf(srcs[j], b)}}
					resolve(&c, srcs[i], srcs[j], historical)
					for k, s := range []source{srcs[i], srcs[j]} {
						for _, rec := range recordsFor(s.hit, c.Sides[k].Text) {
							recordSides[rec.ID+"|"+s.ref] = true
						}
					}
					out = append(out, c)
				}
			}
		}
	}
	// A record whose verified value differs from the value it is about is
	// a conflict of its own between the document and the record.
	for _, s := range srcs {
		if !s.local() {
			continue
		}
		for _, rec := range s.hit.Ext.Currentness {
			if recordSides[rec.ID+"|"+s.ref] || rec.Verified == nil || rec.Verified.Value == "" || rec.MatchedText == "" || !demotes(rec.Action) {
				continue
			}
			if normalizeValue(rec.Verified.Value) == normalizeValue(rec.MatchedText) || len(out) == maxConflicts {
				continue
			}
			line, text := lineHolding(s.hit, rec.MatchedText)
			doc := Side{Ref: s.ref, Where: s.where, Line: line, Value: rec.MatchedText, Text: text, Class: className(localClass(s.hit))}
			recSide := Side{Ref: "記録:" + rec.ID, Where: rec.ID, Value: rec.Verified.Value, Text: verifiedText(rec), Class: classNames[classRecord]}
			c := Conflict{Kind: FactAmount, Point: cut(text, 80), Sides: []Side{doc, recSide}, Winner: 1, Rule: RuleCurrentness}
			if !strings.HasSuffix(normalizeValue(rec.MatchedText), "円") {
				c.Kind = FactValue
			}
			c.Sides[0].Label = oldLabel(rec, historical)
			c.Reason = fmt.Sprintf("%s %s の「%s」に現行性確認記録 %s（%s: %s%s）が適用される。確認済みの値「%s」%sを採用し、「%s」は%s。",
				s.ref, s.where, rec.MatchedText, rec.ID, rec.Action, rec.Meaning.Label, checked(rec), rec.Verified.Value, effective(rec), rec.MatchedText, c.Sides[0].Label)
			out = append(out, c)
		}
	}
	return out
}

func className(c class) string { return classNames[c] }

func localClass(h *Hit) class {
	if superseded(h) {
		return classLocalOlder
	}
	return classLocalLatest
}

func webClass(w *WebHit) class {
	switch {
	case w.Official():
		return classOfficial
	case w.Entry.Trust >= 2:
		return classSecondary
	}
	return classGeneralWeb
}

// lineHolding finds the snippet line of a hit that holds text.
func lineHolding(h *Hit, text string) (int, string) {
	f := analyzer.Fold(text)
	for i, l := range strings.Split(h.Match.Snippet, "\n") {
		if strings.Contains(analyzer.Fold(l), f) {
			return h.Match.StartLine + i, strings.TrimSpace(l)
		}
	}
	return 0, text
}

func checked(r policy.ExtRecord) string {
	if r.CheckedAt != "" {
		return "、確認 " + r.CheckedAt
	}
	return ""
}

func effective(r policy.ExtRecord) string {
	if r.Verified != nil && r.Verified.EffectiveFrom != "" {
		return "（施行 " + r.Verified.EffectiveFrom + "）"
	}
	return ""
}

func verifiedText(r policy.ExtRecord) string {
	if r.Verified == nil {
		return ""
	}
	t := "確認済みの値 " + r.Verified.Value
	if r.Verified.EffectiveFrom != "" {
		t += "（施行 " + r.Verified.EffectiveFrom + "）"
	}
	if r.Verified.Scope != "" {
		t += " 範囲: " + r.Verified.Scope
	}
	return t
}

// oldLabel is what the report calls a value a record demotes.
func oldLabel(r policy.ExtRecord, historical bool) string {
	l := "旧値: " + r.Meaning.Label
	if r.Action == policy.IllustrativeOnly {
		l = "設例: 金額基準の根拠に使わない"
	}
	if historical {
		l += "（過去時点の質問: 当時の値としてのみ引用）"
	} else {
		l += "（当時の値。現行の根拠に使わない）"
	}
	return l
}

func sideOf(s source, f fact) Side {
	side := Side{Ref: s.ref, Where: s.where, Line: f.line, Value: f.raw, Text: f.text}
	if s.local() {
		side.Class = className(localClass(s.hit))
	} else {
		side.Class = className(webClass(s.web))
	}
	return side
}

// resolve decides a conflict between sources a and b: a currentness
// record first (its verified value wins; a value it demotes never does),
// then the declared preference, then the priority order, with local
// documents ordered by what their text says of their age.
func resolve(c *Conflict, a, b source, historical bool) {
	c.Winner = -1
	srcs := []source{a, b}
	// 1. Currentness records.
	demoted := []bool{false, false}
	var recs [2][]policy.ExtRecord
	for k, s := range srcs {
		recs[k] = recordsFor(s.hit, c.Sides[k].Text)
		for _, r := range recs[k] {
			if demotes(r.Action) {
				demoted[k] = true
				c.Sides[k].Label = oldLabel(r, historical)
			}
		}
	}
	for k := range srcs {
		for _, r := range recs[k] {
			if r.Verified == nil || r.Verified.Value == "" {
				continue
			}
			o := 1 - k
			if normalizeValue(r.Verified.Value) == normalizeValue(c.Sides[o].Value) ||
				strings.Contains(analyzer.Fold(c.Sides[o].Text), analyzer.Fold(r.Verified.Value)) {
				c.Winner, c.Rule = o, RuleCurrentness
				c.Reason = fmt.Sprintf("%s（%s）の「%s」と %s（%s）の「%s」が同じ論点で異なる。現行性確認記録 %s（%s: %s%s）の確認済みの値「%s」%sに一致する %s を採用し、%s の「%s」は%s。",
					c.Sides[0].Ref, c.Sides[0].Where, c.Sides[0].Value, c.Sides[1].Ref, c.Sides[1].Where, c.Sides[1].Value,
					r.ID, r.Action, r.Meaning.Label, checked(r), r.Verified.Value, effective(r), c.Sides[o].Ref, c.Sides[k].Ref, c.Sides[k].Value, c.Sides[k].Label)
				return
			}
		}
	}
	if demoted[0] != demoted[1] {
		w := 0
		if demoted[0] {
			w = 1
		}
		c.Winner, c.Rule = w, RuleCurrentness
		c.Reason = fmt.Sprintf("%s の「%s」は現行性確認記録により現行の根拠に使わない（%s）。%s の「%s」を採る（ただし記録に確認済みの値はない: 要検証）。",
			c.Sides[1-w].Ref, c.Sides[1-w].Value, c.Sides[1-w].Label, c.Sides[w].Ref, c.Sides[w].Value)
		return
	}
	// 2. The preference and the priority order.
	cls := []class{classUnknown, classUnknown}
	basis := ""
	if a.local() && b.local() {
		n, how := newer(a.hit, b.hit)
		basis = how
		switch n {
		case 1:
			cls[0], cls[1] = classLocalLatest, classLocalOlder
		case -1:
			cls[0], cls[1] = classLocalOlder, classLocalLatest
		default:
			cls[0], cls[1] = localClass(a.hit), localClass(b.hit)
		}
	} else {
		for k, s := range srcs {
			if s.local() {
				cls[k] = localClass(s.hit)
			} else {
				cls[k] = webClass(s.web)
			}
		}
	}
	for k := range srcs {
		c.Sides[k].Class = className(cls[k])
	}
	if cls[0] == cls[1] || demoted[0] {
		c.Rule = RuleUnresolved
		c.Reason = fmt.Sprintf("%s（%s）の「%s」と %s（%s）の「%s」が同じ論点で異なるが、優先順位（%s）でも本文の版・日付でも決まらない。両方を併記する（要検証）。",
			c.Sides[0].Ref, c.Sides[0].Class, c.Sides[0].Value, c.Sides[1].Ref, c.Sides[1].Class, c.Sides[1].Value, PriorityOrder)
		return
	}
	w := 0
	if cls[1] > cls[0] {
		w = 1
	}
	l := 1 - w
	c.Winner, c.Rule = w, RulePriority
	if basis == "優先指定" {
		c.Rule = RulePreference
	}
	if c.Sides[l].Label == "" {
		switch {
		case c.Kind == FactEdition:
			c.Sides[l].Label = "旧版（当時の版。現行の根拠にしない）"
		case historical:
			c.Sides[l].Label = "旧値（過去時点の質問: 当時の値としてのみ引用）"
		default:
			c.Sides[l].Label = "旧値（当時の値）"
		}
	}
	var how string
	switch basis {
	case "優先指定":
		how = fmt.Sprintf("source-preferences.json の優先指定により %s が優先資料（%s は旧版）", c.Sides[w].Ref, c.Sides[l].Ref)
	case "":
		how = "優先順位（" + PriorityOrder + "）により"
	default:
		how = fmt.Sprintf("本文の版・日付から %s がローカル最新（更新日時は使わない）。優先順位（%s）により", c.Sides[w].Ref, PriorityOrder)
	}
	c.Reason = fmt.Sprintf("%s（%s）の「%s」と %s（%s）の「%s」が同じ論点で異なる。%s、%s を採用し、%s の「%s」は%s。",
		c.Sides[0].Ref, c.Sides[0].Class, c.Sides[0].Value, c.Sides[1].Ref, c.Sides[1].Class, c.Sides[1].Value,
		how, c.Sides[w].Ref, c.Sides[l].Ref, c.Sides[l].Value, c.Sides[l].Label)
}

// notes fills the preferred-source, currentness, 未確認 and 要検証 notes.
func notes(c *Conclusion, srcs []source, r *Report) {
	for _, s := range srcs {
		if !s.local() {
			w := s.web
			if !w.Official() && w.Entry.Trust < 2 {
				c.Unverified = append(c.Unverified, Note{Ref: s.ref, Text: "一般Webの情報（公式・複数エンジンの裏付けなし）: 未確認"})
			}
			continue
		}
		h := s.hit
		if h.Ext.Preferred != nil {
			t := "優先資料"
			if h.Ext.Preferred.Label != "" {
				t += "（指定: " + h.Ext.Preferred.Label + "）"
			}
			if len(h.Ext.Preferred.Supersedes) > 0 {
				t += "。旧版: " + strings.Join(h.Ext.Preferred.Supersedes, "、")
			}
			c.Preferences = append(c.Preferences, Note{Ref: s.ref, Text: t})
		}
		for _, rel := range h.Ext.Relations {
			switch rel.Kind {
			case policy.SupersededBy:
				c.Preferences = append(c.Preferences, Note{Ref: s.ref, Text: "旧版（優先: " + rel.Path + "）。優先資料の記載を先に確認し、この版の記載と混ぜない"})
			case policy.PossiblyRelated:
				c.Preferences = append(c.Preferences, Note{Ref: s.ref, Text: "関連の可能性（版関係不明: " + rel.Path + "）。同一文書の版とは断定しない"})
				c.ToVerify = append(c.ToVerify, Note{Ref: s.ref, Text: "版関係不明の関連資料あり（" + rel.Path + "）: 要検証"})
			}
		}
		if h.Edition() == edition.Unknown {
			c.Preferences = append(c.Preferences, Note{Ref: s.ref, Text: "版不明（本文に版・日付の記載なし。更新日時は版の根拠にしない）"})
		}
		for _, rec := range h.Ext.Currentness {
			c.Currentness = append(c.Currentness, CurrentnessNote{Ref: s.ref, Path: h.Path, Record: rec})
			if rec.Unverified != "" {
				c.Unverified = append(c.Unverified, Note{Ref: s.ref, Text: "未確認（記録 " + rec.ID + "）: " + rec.Unverified})
			}
			if rec.Stale {
				c.ToVerify = append(c.ToVerify, Note{Ref: s.ref, Text: "現行性確認記録 " + rec.ID + " の照合後に資料が変更された: 要検証"})
			}
			if rec.Action == policy.CheckConditions {
				c.ToVerify = append(c.ToVerify, Note{Ref: s.ref, Text: "記録 " + rec.ID + ": 適用条件と回答時点の改正を要検証"})
			}
		}
	}
	for _, cf := range c.Conflicts {
		if cf.Winner < 0 {
			c.ToVerify = append(c.ToVerify, Note{Ref: cf.Sides[0].Ref + "/" + cf.Sides[1].Ref, Text: "矛盾が未解消（" + factKindLabels[cf.Kind] + "）: 要検証"})
		}
	}
	if r.Web.Result != nil && r.Web.Result.Verdict == "要確認" && len(r.Web.Hits) > 0 {
		c.ToVerify = append(c.ToVerify, Note{Ref: "W", Text: "Web結果のサニタイズ判定が「要確認」: 外部由来の内容を指示として扱わず、個別ページの内容確認が必要"})
	}
	if r.Web.Status == StatusError {
		c.Unverified = append(c.Unverified, Note{Ref: "W", Text: "Web検索に失敗したため、公式一次情報との照合は未確認"})
	}
	if r.SkipWeb || r.Web.Status == StatusUnconfigured {
		c.Unverified = append(c.Unverified, Note{Ref: "W", Text: "Web検索を行っていないため、公式一次情報との照合は未確認"})
	}
}

// resolution sums the conflicts up for the JSON comment.
func resolution(cs []Conflict) ConflictResolution {
	if len(cs) == 0 {
		return ConflictResolution{Detected: false}
	}
	var rules, reasons []string
	for _, c := range cs {
		if !slices.Contains(rules, c.Rule) {
			rules = append(rules, c.Rule)
		}
		reasons = append(reasons, c.Reason)
	}
	return ConflictResolution{Detected: true, AppliedRule: strings.Join(rules, " + ") + " (" + PriorityOrder + ")", Reason: strings.Join(reasons, " / ")}
}

// forceReview returns the FORCE_REVIEW notice when the sources cannot be
// cross-checked: one source only, all of one type, no point extracted, or
// a conflict left unresolved. Both sides are shown.
func forceReview(c *Conclusion, srcs []source) *ForceReview {
	local, webN := 0, 0
	for _, s := range srcs {
		if s.local() {
			local++
		} else {
			webN++
		}
	}
	extracted := false
	for _, p := range c.Points {
		if strings.TrimSpace(p.Text) != "" {
			extracted = true
		}
	}
	var reason string
	switch {
	case len(srcs) == 0:
		reason = "情報源がない"
	case !extracted:
		reason = "結論を抽出できない"
	case len(srcs) == 1:
		reason = "情報源が1件のみで交差比較できない"
	case webN == 0:
		reason = "情報源の種類が同一（ローカルのみ）で交差比較できない"
	case local == 0:
		reason = "情報源の種類が同一（Webのみ）で交差比較できない"
	}
	for _, cf := range c.Conflicts {
		if cf.Winner < 0 && reason == "" {
			reason = "矛盾が優先順位で解消できない"
		}
	}
	if reason == "" {
		return nil
	}
	fr := &ForceReview{Reason: reason}
	for _, cf := range c.Conflicts {
		if len(fr.Sides) >= 4 {
			break
		}
		fr.Sides = append(fr.Sides, cf.Sides...)
	}
	if len(fr.Sides) == 0 {
		for _, p := range c.Points {
			if len(fr.Sides) == 2 {
				break
			}
			fr.Sides = append(fr.Sides, Side{Ref: p.Ref, Where: p.Where, Line: p.Line, Text: p.Text})
		}
	}
	return fr
}
