package research

import (
	"strings"

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
	Points      []Point                   `json:"points"`
	Conflicts   []Conflict                `json:"conflicts"`
	Preferences []Note                    `json:"preferences"`
	Currentness []CurrentnessNote         `json:"currentness"`
	Unverified  []Note                    `json:"unverified"` // 未確認
	ToVerify    []Note                    `json:"to_verify"`  // 要検証
	ForceReview *ForceReview              `json:"force_review,omitempty"`
	Resolution  report.ConflictResolution `json:"conflict_resolution"`
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
	for _, s := range srcs {
		c.Points = append(c.Points, mainPoint(s))
	}
	// A page that could not be fetched is no evidence to weigh against
	// another: its snippet is the search engine's.
	var weighed []source
	for _, s := range srcs {
		if s.local() || s.web.Entry.Status != web.EntryFetchFailed {
			weighed = append(weighed, s)
		}
	}
	c.Conflicts = findConflicts(weighed, r.IgnorePreference)
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
	p := Point{Ref: s.ref, Where: s.hit.Path, Line: m.StartLine + best, Text: report.Cut(strings.TrimSpace(lines[best]), 160)}
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
