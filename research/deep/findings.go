package deep

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path"
	"strings"
	"time"

	"lwr/research/report"
)

// Findings are what the search found for one subtopic: its evidence
// (lines of the documents, web pages), every web page fetched, and the
// gaps.
type Findings struct {
	Subtopic     string        `json:"subtopic"`
	Queries      []string      `json:"queries"`
	Alternatives []string      `json:"alternatives,omitempty"`
	Searches     []QueryResult `json:"searches"`
	Evidence     []Evidence    `json:"evidence"`
	// Web are the pages the web search returned for the queries (already
	// sanitized): what a web citation of the report is checked against.
	Web  []WebPage `json:"web"`
	Gaps []Gap     `json:"gaps"`
}

// QueryResult is how one query's search went.
type QueryResult struct {
	Query string        `json:"query"`
	Local report.Status `json:"local"`
	Web   report.Status `json:"web"`
	// Hits are the local and web sources the search found; Evidence the
	// items it gave.
	Hits     int    `json:"hits"`
	Evidence int    `json:"evidence"`
	Error    string `json:"error,omitempty"`
}

// Evidence is one line (or a few) of a document, or one web page, with
// the claim lwr reads from it.
type Evidence struct {
	// Key identifies it across subtopics: <path>#L<s>-L<e>, or the URL.
	Key   string `json:"key"`
	Kind  string `json:"kind"` // local or web
	Query string `json:"query"`
	// Claim is what the evidence states, in its own words (the lines
	// joined with " / ", or the web snippet's first sentence); Claims the
	// same, a claim per paragraph of an article (empty for one claim).
	Claim  string   `json:"claim"`
	Claims []string `json:"claims,omitempty"`
	Labels []string `json:"labels,omitempty"`

	Path       string   `json:"path,omitempty"` // relative to the source root
	Abs        string   `json:"abs,omitempty"`  // absolute, forward slashes
	Start      int      `json:"start,omitempty"`
	End        int      `json:"end,omitempty"`
	ClaimStart int      `json:"claim_start,omitempty"` // the first line the claim states (after an article title)
	Lines      []string `json:"lines,omitempty"`       // lines Start–End as the file says them
	Edition    string   `json:"edition,omitempty"`
	Title      string   `json:"title,omitempty"` // the document's title
	Where      string   `json:"where,omitempty"` // p.3, シート「…」 行12 (PDF and Office)

	Page *WebPage `json:"page,omitempty"`

	// head is the first lines of the document (its title, its issuer):
	// what it is about, when the search finds it (not kept).
	head string
}

// WebPage is a web result as lwr fetched it.
type WebPage struct {
	Title     string    `json:"title"`
	URL       string    `json:"url"`
	Snippet   string    `json:"snippet"`
	FetchedAt time.Time `json:"fetched_at"`
	Freshness string    `json:"freshness,omitempty"`
	Status    string    `json:"status,omitempty"`
}

// Gap is what a subtopic's search did not find, with the query that
// searches it again.
type Gap struct {
	Text  string `json:"text"`
	Query string `json:"query"`
}

// Name is the file name of a local source.
func (e Evidence) Name() string { return path.Base(e.Path) }

const findingsMarker = "<!-- FINDINGS: "

// renderFindings is findings/NN-<subtopic>.md: front matter, the
// evidence with its sources and the gaps for a reader (and the agent
// that called deep_search), and the findings as JSON at the end.
func renderFindings(f *Findings) ([]byte, error) {
	var b bytes.Buffer
	status := "ok"
	if len(f.Evidence) == 0 {
		status = "insufficient"
	}
	qs := make([]string, len(f.Queries))
	for i, q := range f.Queries {
		qs[i] = report.YAMLString(q)
	}
	fmt.Fprintf(&b, "---\nsubtopic: %s\nqueries: [%s]\nstatus: %s\nevidence: %d\ngaps: %d\n---\n\n", report.YAMLString(f.Subtopic), strings.Join(qs, ", "), status, len(f.Evidence), len(f.Gaps))
	fmt.Fprintf(&b, "# 調査結果: %s\n\n", report.Text(f.Subtopic))
	for _, s := range f.Searches {
		fmt.Fprintf(&b, "- 検索「%s」: ローカル %s / Web %s（出典 %d件、証拠 %d件）", report.Text(s.Query), s.Local, s.Web, s.Hits, s.Evidence)
		if s.Error != "" {
			fmt.Fprintf(&b, " — %s", report.Text(report.Cut(s.Error, 200)))
		}
		b.WriteString("\n")
	}
	b.WriteString("\n## EVIDENCE\n\n")
	if len(f.Evidence) == 0 {
		b.WriteString(report.SentenceInsufficient + "\n")
	}
	for i, e := range f.Evidence {
		for _, c := range shownClaims(e) {
			fmt.Fprintf(&b, "- %s [E%d]\n", c, i+1)
		}
	}
	b.WriteString("\n## SOURCES\n\n")
	for i, e := range f.Evidence {
		writeSource(&b, fmt.Sprintf("E%d", i+1), e)
	}
	if len(f.Web) > 0 {
		b.WriteString("### Web results\n\n")
		for _, p := range f.Web {
			fmt.Fprintf(&b, "- %s\n", webLink(p))
		}
		b.WriteString("\n")
	}
	b.WriteString("## GAPS\n\n")
	if len(f.Gaps) == 0 {
		b.WriteString("- なし\n")
	}
	for _, g := range f.Gaps {
		fmt.Fprintf(&b, "- %s（再検索: %s）\n", report.Text(g.Text), report.Text(g.Query))
	}
	raw, err := json.Marshal(f)
	if err != nil {
		return nil, fmt.Errorf("write the findings of %s: %w", f.Subtopic, err)
	}
	// The JSON is one line; <, > and & are escaped, so no text ends it.
	b.WriteString("\n" + findingsMarker)
	b.Write(raw)
	b.WriteString(" -->\n")
	return b.Bytes(), nil
}

// parseFindings reads the findings of a findings file.
func parseFindings(data []byte) (*Findings, error) {
	i := bytes.LastIndex(data, []byte(findingsMarker))
	if i < 0 {
		return nil, errorf(ErrDamaged, "the findings file has no %s…--> record", findingsMarker)
	}
	raw := bytes.TrimSpace(data[i+len(findingsMarker):])
	raw, ok := bytes.CutSuffix(raw, []byte("-->"))
	if !ok {
		return nil, errorf(ErrDamaged, "the findings record is cut short")
	}
	var f Findings
	if err := json.Unmarshal(bytes.TrimSpace(raw), &f); err != nil {
		return nil, errorf(ErrDamaged, "the findings record: %v", err)
	}
	return &f, nil
}

// claims are what the evidence states, a claim per paragraph.
func (e Evidence) claims() []string {
	if len(e.Claims) > 0 {
		return e.Claims
	}
	return []string{e.Claim}
}

// shownClaims are the claims as a report shows them: a document's text
// escaped (report.Text), a web text so that it links nothing
// (report.Inline); each with the labels that state no number (a label
// with a number goes with the source, where no claim's numbers are
// checked against it).
func shownClaims(e Evidence) []string {
	var ls []string
	for _, l := range e.Labels {
		if len(report.Numbers(l)) == 0 {
			ls = append(ls, report.Text(l))
		}
	}
	var out []string
	for _, c := range e.claims() {
		s := report.Text(c)
		if e.Kind == "web" {
			s = report.Inline(c)
		}
		if len(ls) > 0 {
			s += "【" + strings.Join(ls, "・") + "】"
		}
		out = append(out, s)
	}
	return out
}

// writeSource writes a source block: "### [ref] name", the citation or
// link, and the quoted lines or snippet.
func writeSource(b *bytes.Buffer, ref string, e Evidence) {
	if e.Kind == "web" && e.Page != nil {
		fmt.Fprintf(b, "### [%s] %s\n\n%s\n\n", ref, report.Inline(e.Page.Title), webLink(*e.Page))
		for _, l := range strings.Split(strings.TrimSpace(e.Page.Snippet), "\n") {
			if l = strings.TrimSpace(l); l != "" {
				fmt.Fprintf(b, "> %s\n", report.Inline(l))
			}
		}
		b.WriteString("\n")
		return
	}
	fmt.Fprintf(b, "### [%s] %s\n\n%s\n\n", ref, report.Text(e.Name()), report.Citation(e.Name(), e.Abs, e.Start, e.End))
	b.WriteString(report.QuoteBlock(strings.Join(e.Lines, "\n")))
	b.WriteString("\n")
	s := "- 資料: " + report.Text(e.Path)
	if e.Edition != "" {
		s += "（版: " + report.Text(e.Edition) + "）"
	}
	b.WriteString(s + "\n")
	if e.Where != "" {
		fmt.Fprintf(b, "- 位置: %s（行番号は抽出したテキストのもの）\n", report.Text(e.Where))
	}
	var ls []string
	for _, l := range e.Labels {
		if len(report.Numbers(l)) > 0 && !strings.HasPrefix(l, "版: ") {
			ls = append(ls, report.Text(l))
		}
	}
	if len(ls) > 0 {
		fmt.Fprintf(b, "- 注記: %s\n", strings.Join(ls, "、"))
	}
	b.WriteString("\n")
}

// webLink is [title](https://…)（参照日: YYYY-MM-DD） with the freshness
// label, as lwr research writes web sources.
func webLink(p WebPage) string {
	s := fmt.Sprintf("[%s](%s)（参照日: %s）", report.Inline(p.Title), report.URL(p.URL), p.FetchedAt.UTC().Format("2006-01-02"))
	if p.Freshness != "" {
		s += " " + p.Freshness
	}
	return s
}
