package deep

import (
	"fmt"
	"strings"

	"golang.org/x/text/width"

	"lwr/research/report"
)

// verify is phase 5 on a report: its form and every local citation's
// file, lines and quote and every claim's numbers against its cited
// lines (report.Check), that it is this topic's draft, and every web
// source against the pages lwr fetched for the topic — every problem at
// once. It returns nil when all of it holds.
func (t *topic) verify(md []byte) []report.Problem {
	if report.KindOf(md) != report.KindDeep {
		if ps := report.Validate(md); len(ps) > 0 && ps[0].Code == report.ProblemEncoding {
			return ps
		}
		return []report.Problem{{Code: report.ProblemFrontMatter, Line: 1, Message: "front matter: start the report with --- lines holding kind: deep, status: draft, topic and slug (a deep report, not a research report)"}}
	}
	// Every problem at once: the form's and the citations'.
	ps := report.Check(md, &t.o.Sources)
	d, _ := report.ParseDeep(md)
	if d.Slug != t.slug {
		ps = append(ps, report.Problem{Code: report.ProblemFrontMatter, Line: 1, Message: fmt.Sprintf("front matter slug: write %q, the topic this report is finalized for", t.slug)})
	}
	if fold(d.Topic) != fold(t.plan.Topic) {
		ps = append(ps, report.Problem{Code: report.ProblemFrontMatter, Line: 1, Message: fmt.Sprintf("front matter topic: write %q, the topic as it was started", cut(t.plan.Topic, 80))})
	}
	if d.Status != report.DeepDraft {
		ps = append(ps, report.Problem{Code: report.ProblemFrontMatter, Line: 1, Message: "front matter status: write draft; lwr writes confirmed once the report is verified"})
	}
	return append(ps, t.verifyWeb(d)...)
}

// verifyWeb checks every web source of a report against the pages the
// topic's searches fetched (kept in its findings, as the web cache
// returned them): the address is one of them, the link text is its
// title, and each quoted line stands in its snippet.
func (t *topic) verifyWeb(d *report.DeepReport) []report.Problem {
	pages := map[string]WebPage{}
	if all, err := t.allFindings(); err == nil {
		for _, f := range all {
			for _, p := range f.Web {
				pages[report.URL(p.URL)] = p
			}
			for _, e := range f.Evidence {
				if e.Page != nil {
					pages[report.URL(e.Page.URL)] = *e.Page
				}
			}
		}
	}
	var out []report.Problem
	for _, s := range d.Sources {
		if s.Web == nil {
			continue
		}
		p, ok := pages[s.Web.URL]
		if !ok {
			p, ok = pages[report.URL(s.Web.URL)]
		}
		switch {
		case !ok:
			out = append(out, report.WebMismatch(s.Ref, s.Web.Line, fmt.Sprintf("%s is not among the pages lwr fetched for this topic", cut(s.Web.URL, 100))))
		case s.Web.Title != report.Inline(p.Title) && s.Web.Title != p.Title:
			out = append(out, report.WebMismatch(s.Ref, s.Web.Line, fmt.Sprintf("its link text %q is not the page's title %q", cut(s.Web.Title, 60), cut(report.Inline(p.Title), 60))))
		case !quoteIn(s.Web.Quote, p.Snippet):
			out = append(out, report.WebMismatch(s.Ref, s.Web.Line, "its quoted snippet is not what the page's snippet says"))
		}
	}
	return out
}

// quoteIn reports whether each quoted line stands in a snippet (as lwr
// shows it, or as fetched), "…" marking what was left out; width is
// folded.
func quoteIn(quote []string, snippet string) bool {
	var shown []string
	for _, l := range strings.Split(snippet, "\n") {
		shown = append(shown, report.Inline(strings.TrimSpace(l)))
	}
	texts := []string{comparable(strings.Join(shown, "\n")), comparable(snippet)}
	for _, q := range quote {
		ok := false
		for _, text := range texts {
			if partsIn(q, text) {
				ok = true
				break
			}
		}
		if !ok {
			return false
		}
	}
	return true
}

func partsIn(q, text string) bool {
	at := 0
	for _, part := range strings.FieldsFunc(q, func(r rune) bool { return r == '…' }) {
		part = strings.TrimSpace(comparable(part))
		if part == "" {
			continue
		}
		k := strings.Index(text[at:], part)
		if k < 0 {
			return false
		}
		at += k + len(part)
	}
	return true
}

func comparable(s string) string { return strings.TrimSpace(width.Fold.String(s)) }

// failedEvidence is the evidence a failed verification of lwr's own
// draft names: the sources of the blocks its problems stand in, and of
// the claims they stand on.
func (t *topic) failedEvidence(md []byte, ps []report.Problem) []string {
	d, _ := report.ParseDeep(md)
	all, err := t.allFindings()
	if err != nil {
		return nil
	}
	keyOf := func(s report.DeepSource) string {
		for _, f := range all {
			for _, e := range f.Evidence {
				switch {
				case s.Local != nil && e.Kind == "local" && e.Abs == s.Local.Path && e.Start == s.Local.Start && e.End == s.Local.End:
					return e.Key
				case s.Web != nil && e.Kind == "web" && report.URL(e.Key) == s.Web.URL:
					return e.Key
				}
			}
		}
		return ""
	}
	byRef := map[string]report.DeepSource{}
	for _, s := range d.Sources {
		byRef[s.Ref] = s
	}
	var out []string
	add := func(k string) {
		if k != "" && !containsFold(out, k) {
			out = append(out, k)
		}
	}
	for _, p := range ps {
		if p.Line == 0 {
			continue
		}
		for _, s := range d.Sources {
			if p.Line >= s.Line && p.Line <= s.End {
				add(keyOf(s))
			}
		}
		for _, sec := range d.Sections {
			for _, c := range sec.Claims {
				if c.Line == p.Line {
					for _, r := range c.Refs {
						add(keyOf(byRef[r]))
					}
				}
			}
		}
	}
	return out
}
