package local

import (
	"fmt"
	"strings"

	"lwr/policy"
	"lwr/research/report"
)

// maxShown bounds each free-text value in the one-line message; the
// json-ext form carries the whole text.
const maxShown = 100

// shown is report.Text plus the field separators of the message: ";" and "="
// become ＝ and ；, so that data never starts a field of its own.
func shown(s string) string {
	s = report.Text(s)
	if strings.ContainsAny(s, ";=") {
		s = strings.NewReplacer(";", "；", "=", "＝").Replace(s)
	}
	return s
}

// quoted shows free text in the message: shown, cut short, in "".
func quoted(s string) string {
	if r := []rune(s); len(r) > maxShown {
		s = string(r[:maxShown]) + "…"
	}
	return `"` + shown(s) + `"`
}

// listed shows up to three paths and how many more.
func listed(paths []string) string {
	const show = 3
	var b strings.Builder
	for i, p := range paths {
		if i == show {
			fmt.Fprintf(&b, " 他%d件", len(paths)-show)
			break
		}
		if i > 0 {
			b.WriteString("、")
		}
		b.WriteString(shown(p))
	}
	return b.String()
}

// matchMessage returns the match's line for the search JSON "message", in the
// fixed form documented in docs/policies.md:
//
//	<path>: 版=<edition>; 関係=<relations>[; 現行性[<id>]=<action>(<label>) 該当=".." 値=".." 施行=<date> 範囲=".." 確認=<date> 出典=".." <url> 未確認=".." 注記=".." 状態=stale(..)]...
//
// Every text from a policy file or a path is escaped (report.Text, and ";" "="
// become full-width ；＝ so data never forms a field); free text is quoted
// and cut at 100 characters.
func matchMessage(a policy.Annotated) string {
	var b strings.Builder
	b.WriteString(shown(a.Path))
	b.WriteString(": 版=")
	b.WriteString(shown(a.Edition))
	b.WriteString("; 関係=")
	b.WriteString(relationsText(a))
	for _, ap := range a.Records {
		b.WriteString("; ")
		writeApplied(&b, ap)
	}
	return b.String()
}

func relationsText(a policy.Annotated) string {
	var parts []string
	if a.Preferred != nil {
		s := "優先版"
		if a.Preferred.Label != "" {
			s += "(指定: " + shown(a.Preferred.Label) + ")"
		}
		parts = append(parts, s)
	}
	byKind := func(k policy.RelationKind) []policy.Relation {
		var rs []policy.Relation
		for _, r := range a.Relations {
			if r.Kind == k {
				rs = append(rs, r)
			}
		}
		return rs
	}
	if rs := byKind(policy.Supersedes); len(rs) > 0 {
		parts = append(parts, "旧版あり("+listed(relPaths(rs))+")")
	}
	for _, r := range byKind(policy.SupersededBy) {
		parts = append(parts, "旧版(優先: "+shown(r.Path)+")")
	}
	if rs := byKind(policy.PossiblyRelated); len(rs) > 0 {
		parts = append(parts, "関連の可能性(版関係不明: "+listed(relPaths(rs))+")")
	}
	if len(parts) == 0 {
		return "なし"
	}
	return strings.Join(parts, ", ")
}

func relPaths(rs []policy.Relation) []string {
	out := make([]string, len(rs))
	for i, r := range rs {
		out[i] = r.Path
	}
	return out
}

func writeApplied(b *strings.Builder, ap policy.Applied) {
	r := ap.Record
	fmt.Fprintf(b, "現行性[%s]=%s(%s)", shown(r.ID), shown(string(r.Action)), r.Action.Meaning().Label)
	if ap.Matched != "" {
		b.WriteString(" 該当=" + quoted(ap.Matched))
	}
	if v := r.Verified; v != nil {
		if v.Value != "" {
			b.WriteString(" 値=" + quoted(v.Value))
		}
		if v.EffectiveFrom != "" {
			b.WriteString(" 施行=" + shown(v.EffectiveFrom))
		}
		if v.Scope != "" {
			b.WriteString(" 範囲=" + quoted(v.Scope))
		}
	}
	if ap.CheckedAt != "" {
		b.WriteString(" 確認=" + shown(ap.CheckedAt))
	}
	for i, s := range r.Sources {
		if i == 0 {
			b.WriteString(" 出典=")
		} else {
			b.WriteString(" / ")
		}
		if s.Title != "" {
			b.WriteString(quoted(s.Title) + " ")
		}
		b.WriteString(report.URL(s.URL))
	}
	if r.Unverified != "" {
		b.WriteString(" 未確認=" + quoted(r.Unverified))
	}
	if r.Note != "" {
		b.WriteString(" 注記=" + quoted(r.Note))
	}
	if ap.Stale {
		b.WriteString(" 状態=stale(照合後に資料が変更: 要再確認)")
	}
}

// PreferenceIgnoredLine is the first line of Messages when preferences
// were ignored.
const PreferenceIgnoredLine = "優先指定: 無視(--ignore-source-preference)"

// HistoricalLine is the first line of Messages when the question names a
// year or an old edition (policy.Historical).
const HistoricalLine = "優先指定: 並べ替えなし(質問が年・旧版・当時を指定; 関連度順)"

// messages returns the search "message" block: PreferenceIgnoredLine
// first when opts.IgnorePreference, then one Message line per match, in
// order, joined by newlines.
func messages(as []policy.Annotated, opts policy.Options) string {
	lines := make([]string, 0, len(as)+1)
	switch {
	case opts.IgnorePreference:
		lines = append(lines, PreferenceIgnoredLine)
	case opts.Historical:
		lines = append(lines, HistoricalLine)
	}
	for _, a := range as {
		lines = append(lines, matchMessage(a))
	}
	return strings.Join(lines, "\n")
}
