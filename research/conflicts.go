package research

import (
	"fmt"
	"slices"
	"strings"

	"lwr/analyzer"
	"lwr/analyzer/edition"
	"lwr/policy"
	"lwr/research/report"
)

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

// ruleText explains a rule in Japanese.
func ruleText(rule string) string { return ruleTexts[rule] }

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
	if _, ok := edition.AbolishedAt(h.Match.Editions); ok {
		return true // 廃止: no longer in force
	}
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

// maxConflicts bounds the conflicts listed.
const maxConflicts = 12

// findConflicts compares the facts of every pair of sources and resolves
// each conflict found. Amounts and quantities conflict on the same point;
// dates, editions and versions stated in the text only between editions
// the preferences declare and when the question asks for a date (two
// meeting minutes of different days are no conflict). The conflicts about what
// the question asks for (its amount, its unit) come first.
func findConflicts(srcs []source, historical bool, q question) []Conflict {
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
			// Editions of one document by the preferences; documents that
			// are only alike in title (two meetings' minutes) state
			// different dates without contradicting each other.
			editions := srcs[i].local() && srcs[j].local() && (declared(srcs[i].hit, srcs[j].hit) || declared(srcs[j].hit, srcs[i].hit))
			// Two editions of one document, declared in the preferences:
			// their editions are a conflict of their own.
			if a, b := srcs[i], srcs[j]; a.local() && b.local() && (declared(a.hit, b.hit) || declared(b.hit, a.hit)) {
				ea, eb := a.hit.Edition(), b.hit.Edition()
				if ea != eb && ea != edition.Unknown && eb != edition.Unknown && len(out) < maxConflicts {
					c := Conflict{Kind: FactEdition, Point: "同じ資料の版: " + report.Cut(a.hit.Match.Title, 60), Sides: []Side{
						{Ref: a.ref, Where: a.where, Value: ea, Text: a.hit.Match.Title},
						{Ref: b.ref, Where: b.where, Value: eb, Text: b.hit.Match.Title},
					}}
					resolve(&c, a, b, historical)
					out = append(out, c)
				}
			}
			for _, a := range facts[i] {
				for _, b := range facts[j] {
					if a.kind != b.kind || a.value == b.value {
						continue
					}
					// The same point, or two editions stating what the
					// question asks (12文字 against 8文字) in lines about it.
					asked := rel && q.asked.answers(a) && q.asked.answers(b) && q.about(analyzer.Fold(a.text)) && q.about(analyzer.Fold(b.text))
					if !asked && !samePoint(a, b, rel) {
						continue
					}
					if a.kind == FactQuantity && a.unit != b.unit {
						continue
					}
					if (a.kind == FactDate || a.kind == FactEdition || a.kind == FactVersion) && (!editions || !q.asked.kinds[FactDate]) {
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
					c := Conflict{Kind: a.kind, Point: report.Cut(a.text, 80), Sides: []Side{sideOf(srcs[i], a), sideOf(srcs[j], b)}}
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
			c := Conflict{Kind: FactAmount, Point: report.Cut(text, 80), Sides: []Side{doc, recSide}, Winner: 1, Rule: RuleCurrentness}
			if !strings.HasSuffix(normalizeValue(rec.MatchedText), "円") {
				c.Kind = FactValue
			}
			c.Sides[0].Label = oldLabel(rec, historical)
			c.Reason = fmt.Sprintf("%s %s の「%s」に現行性確認記録 %s（%s: %s%s）が適用される。確認済みの値「%s」%sを採用し、「%s」は%s。",
				s.ref, s.where, rec.MatchedText, rec.ID, rec.Action, rec.Meaning.Label, checked(rec), rec.Verified.Value, effective(rec), rec.MatchedText, c.Sides[0].Label)
			out = append(out, c)
		}
	}
	// What the question asks for first.
	slices.SortStableFunc(out, func(x, y Conflict) int {
		ax, ay := q.asked.about(x), q.asked.about(y)
		switch {
		case ax && !ay:
			return -1
		case ay && !ax:
			return 1
		}
		return 0
	})
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
		if n == 0 && policy.FamilyKey(a.hit.Path) == policy.FamilyKey(b.hit.Path) {
			// Editions published in folders named by year or version
			// (styleguide_2016-08, styleguide_2026-02).
			n, how = newerEdition(a.hit, b.hit), "フォルダ名の版・年"
		}
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

// resolution sums the conflicts up for the JSON comment.
func resolution(cs []Conflict) report.ConflictResolution {
	if len(cs) == 0 {
		return report.ConflictResolution{Detected: false}
	}
	var rules, reasons []string
	for _, c := range cs {
		if !slices.Contains(rules, c.Rule) {
			rules = append(rules, c.Rule)
		}
		reasons = append(reasons, c.Reason)
	}
	return report.ConflictResolution{Detected: true, AppliedRule: strings.Join(rules, " + ") + " (" + PriorityOrder + ")", Reason: strings.Join(reasons, " / ")}
}
