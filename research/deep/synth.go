package deep

import (
	"bytes"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"lwr/analyzer/lazyre"
	"lwr/research/report"
)

// FollowupTitle is the title of the section of the gap check's
// follow-up search.
const FollowupTitle = "補足（ギャップの再検索）"

// render is the synthesis: report.md as a draft, with a section per
// subtopic holding a claim per evidence item (its own words, its source
// label), SentenceInsufficient where a subtopic found nothing, the
// sources section numbering every source once (L1…, W1…), and the JSON
// comment. The same findings give the same bytes: the dates are the
// topic's start, never the time of the synthesis.
func (t *topic) render(all []*Findings) ([]byte, error) {
	st := t.state
	excluded := map[string]bool{}
	for _, k := range st.Excluded {
		excluded[k] = true
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "---\nkind: deep\nstatus: %s\ntopic: %s\nslug: %s\n---\n\n", report.DeepDraft, report.YAMLString(t.plan.Topic), report.YAMLString(t.slug))
	fmt.Fprintf(&b, "# 深掘り調査レポート: %s\n\n", report.Text(t.plan.Topic))
	fmt.Fprintf(&b, "- 調査開始: %s（UTC）\n", st.StartedAt.UTC().Format(time.RFC3339))
	fmt.Fprintf(&b, "- 資料ルート: %s\n", report.Text(filepath.ToSlash(t.o.Sources.Root)))
	names := make([]string, len(t.plan.Subtopics))
	for i, s := range t.plan.Subtopics {
		names[i] = report.Text(s.Name)
	}
	fmt.Fprintf(&b, "- サブトピック: %s\n", strings.Join(names, "、"))
	if len(st.Gaps) > 0 {
		fmt.Fprintf(&b, "- ギャップ: %d件（「%s」で再検索）\n", len(st.Gaps), report.Text(FollowupTitle))
	} else {
		b.WriteString("- ギャップ: なし\n")
	}
	// The subtopics the findings leave without a claim are gaps too.
	var empty []string
	for _, f := range all {
		if f.Subtopic == Followup {
			continue
		}
		if !slices.ContainsFunc(f.Evidence, func(e Evidence) bool { return !excluded[e.Key] }) {
			empty = append(empty, report.Text(f.Subtopic))
		}
	}
	if len(empty) > 0 {
		fmt.Fprintf(&b, "- 資料の見つからないサブトピック: %s\n", strings.Join(empty, "、"))
	}
	if len(st.Researched) > 0 {
		names := make([]string, len(st.Researched))
		for i, n := range st.Researched {
			names[i] = report.Text(n)
			if n == Followup {
				names[i] = report.Text(FollowupTitle)
			}
		}
		fmt.Fprintf(&b, "- 再検索: %s（検証の時に引用元の資料が変わっていた）\n", strings.Join(names, "、"))
	}
	if len(st.Excluded) > 0 {
		fmt.Fprintf(&b, "- 検証で除いた証拠: %d件（引用行が資料と一致しなかった）\n", len(st.Excluded))
	}
	b.WriteString("- 検証: 各主張の数値が引用行にあること、各引用の行と引用文が資料のとおりであること、Web出典が取得した結果のとおりであることを lwr が照合する（status: confirmed は照合済み）\n\n")

	type source struct {
		ref string
		e   Evidence
	}
	var sources []source
	refOf := map[string]string{}
	nl, nw := 0, 0
	ref := func(e Evidence) string {
		if r, ok := refOf[e.Key]; ok {
			return r
		}
		var r string
		if e.Kind == "web" {
			nw++
			r = fmt.Sprintf("W%d", nw)
		} else {
			nl++
			r = fmt.Sprintf("L%d", nl)
		}
		refOf[e.Key] = r
		sources = append(sources, source{r, e})
		return r
	}
	n := 0
	for _, f := range all {
		n++
		title := f.Subtopic
		if f.Subtopic == Followup {
			title = FollowupTitle
		}
		fmt.Fprintf(&b, "## %d. %s\n\n", n, report.Text(title))
		// Evidence an earlier section states already is said once, unless
		// it is all this section has.
		var shown []Evidence
		for _, e := range f.Evidence {
			if _, seen := refOf[e.Key]; !excluded[e.Key] && !seen {
				shown = append(shown, e)
			}
		}
		if len(shown) == 0 {
			for _, e := range f.Evidence {
				if !excluded[e.Key] {
					shown = append(shown, e)
				}
			}
		}
		claims := 0
		for _, e := range shown {
			r := ref(e)
			for _, c := range shownClaims(e) {
				fmt.Fprintf(&b, "- %s [%s]\n", c, r)
				claims++
			}
		}
		if claims == 0 {
			b.WriteString(report.SentenceInsufficient + "\n")
		}
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "## %s\n\n", report.DeepSourcesTitle)
	if len(sources) == 0 {
		b.WriteString("出典なし\n\n")
	}
	// Local sources first, then web pages, each in the order of their
	// labels.
	for _, kind := range []string{"local", "web"} {
		for _, s := range sources {
			if s.e.Kind == kind {
				writeSource(&b, s.ref, s.e)
			}
		}
	}
	md, _ := report.Complete(b.Bytes())
	return md, nil
}

var statusLine = lazyre.New(`(?m)^status:[^\n]*$`)

// setStatus sets the status of a deep report's front matter.
func setStatus(md []byte, status string) ([]byte, error) {
	_, n, p := report.FrontMatter(md)
	if p != nil || n == 0 {
		return nil, fmt.Errorf("set the report's status: it has no front matter")
	}
	lines := bytes.SplitAfter(md, []byte("\n"))
	head := bytes.Join(lines[:n], nil)
	loc := statusLine.FindIndex(head)
	if loc == nil {
		return nil, fmt.Errorf("set the report's status: its front matter has no status")
	}
	out := append([]byte(nil), head[:loc[0]]...)
	out = append(out, "status: "+status...)
	out = append(out, head[loc[1]:]...)
	return append(out, bytes.Join(lines[n:], nil)...), nil
}

// normSpace trims text and makes its space single.
func normSpace(s string) string { return strings.Join(strings.Fields(s), " ") }
