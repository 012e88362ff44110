package deep

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"lwr/analyzer"
	"lwr/index"
	"lwr/research"
	"lwr/research/local"
	"lwr/research/report"
	"lwr/research/understand"
)

// Bounds of the evidence of a subtopic.
const (
	maxEvidence      = 6   // items per subtopic
	maxEvidenceLines = 8   // lines per item
	maxClaimChars    = 300 // a longer claim is cut at a " / " between lines
	maxFollowups     = 5   // queries of the _followup subtopic
)

// articleTitle is a rule's article heading: 第4条（日当）.
var articleTitle = regexp.MustCompile(`^第[0-9０-９一二三四五六七八九十百千]+条\s*[（(][^）)]*[）)]\s*$`)

// bullet is a list item's marker (the claim is a list item itself).
var bullet = regexp.MustCompile(`^[-*+・]\s+`)

// tableRule is a table's border row.
var tableRule = regexp.MustCompile(`^\|?[\s:\-|]+\|?$`)

// searcher runs the searches of one run, reading cited files once.
type searcher struct {
	opts  Options
	local local.Searcher
	files map[string]*index.File
}

func (s *searcher) read(rel string) (*index.File, error) {
	if f, ok := s.files[rel]; ok {
		return f, nil
	}
	f, err := index.ReadFile(s.opts.Sources.Root, s.opts.Sources.Rules, rel)
	if err != nil {
		return nil, err
	}
	s.files[rel] = f
	return f, nil
}

// query runs the research pipeline's search phases (local, web, the
// deep-drill and the conclusion) for one query. A query without any
// evidence is a *report.Failure with no_evidence.
func (s *searcher) query(ctx context.Context, q string, alts []string, skipWeb, understanding bool) (*research.Report, error) {
	ro := s.opts.Research
	ro.Query, ro.Local, ro.Alternatives = q, s.local, alts
	ro.Timestamp = s.opts.now()
	if skipWeb {
		ro.SkipWeb, ro.Web, ro.Cache = true, nil, nil
	}
	if understanding {
		ro.Understanding = understand.Always
	}
	r, _, err := research.Research(ctx, ro)
	return r, err
}

// fatal reports whether a search error stops the run (a policy file
// that is invalid, a busy index, a cancellation) rather than leaving the
// query without evidence.
func fatal(err error) bool {
	var f *report.Failure
	if !errors.As(err, &f) {
		return true
	}
	switch f.Reason {
	case report.ReasonNoEvidence, report.ReasonSearchFailed, report.ReasonInvalidInput:
		return false
	}
	return true
}

// searchSubtopic searches a subtopic's queries and turns the key points
// of what they found into its evidence. skip holds the keys of evidence
// other subtopics have (the _followup's evidence is only what is new).
func (s *searcher) searchSubtopic(ctx context.Context, topic string, sub Subtopic, skipWeb, understanding bool, skip map[string][]Evidence) (*Findings, error) {
	f := &Findings{Subtopic: sub.Name, Queries: sub.Queries, Alternatives: sub.Alternatives, Evidence: []Evidence{}, Web: []WebPage{}, Gaps: []Gap{}}
	// words are the subtopic's own content words, as the searches
	// analyzed them: evidence is about the subtopic when it holds most
	// of them (a line about the topic alone is another subtopic's).
	var words []string
	var cands []Evidence
	pages := map[string]bool{}
	for _, q := range sub.Queries {
		qr := QueryResult{Query: q}
		r, err := s.query(ctx, q, sub.Alternatives, skipWeb, understanding)
		if err != nil {
			if fatal(err) {
				return nil, err
			}
			qr.Local, qr.Web, qr.Error = report.StatusEmpty, report.StatusEmpty, err.Error()
			f.Searches = append(f.Searches, qr)
			continue
		}
		qr.Local, qr.Web, qr.Hits = r.Local.Status, r.Web.Status, len(r.Local.Hits)+len(r.Web.Hits)+len(r.Deep.Hits)
		for _, w := range r.Local.Content {
			if fw := analyzer.Fold(w); strings.Contains(analyzer.Fold(sub.Name), fw) && !topicFiller[fw] && !slices.Contains(words, fw) {
				words = append(words, fw)
			}
		}
		for _, w := range r.Web.Hits {
			if !pages[w.Entry.URL] {
				pages[w.Entry.URL] = true
				f.Web = append(f.Web, webPage(w))
			}
		}
		for _, p := range r.Conclusion.Points {
			e, ok := s.evidence(r, p, q)
			if !ok || overlaps(cands, e) || overlapsAny(skip, e) {
				continue
			}
			cands = append(cands, e)
		}
		f.Searches = append(f.Searches, qr)
	}
	for _, e := range cands {
		if len(f.Evidence) < maxEvidence && (sub.Name == Followup || about(e, words)) {
			f.Evidence = append(f.Evidence, e)
			for i := range f.Searches {
				if f.Searches[i].Query == e.Query {
					f.Searches[i].Evidence++
				}
			}
		}
	}
	if sub.Name == Followup {
		for _, q := range sub.Queries {
			found := false
			for _, e := range f.Evidence {
				found = found || e.Query == q
			}
			if !found {
				f.Gaps = append(f.Gaps, Gap{Text: "補足の再検索「" + q + "」でも新しい資料なし", Query: q})
			}
		}
		return f, nil
	}
	if len(f.Evidence) == 0 {
		f.Gaps = append(f.Gaps, Gap{Text: "「" + sub.Name + "」を述べる資料が見つからない", Query: sub.Name})
		return f, nil
	}
	// The subtopic's words that no evidence states.
	var texts []string
	for _, e := range f.Evidence {
		texts = append(texts, analyzer.Fold(e.Claim+"\n"+strings.Join(e.Lines, "\n")))
	}
	for _, fw := range words {
		w := fw
		if utf8.RuneCountInString(fw) < 2 || strings.Contains(analyzer.Fold(topic), fw) {
			continue
		}
		stated := false
		for _, t := range texts {
			stated = stated || strings.Contains(t, fw)
		}
		if !stated {
			f.Gaps = append(f.Gaps, Gap{Text: "「" + w + "」を述べる行が見つからない（" + sub.Name + "）", Query: topic + " " + w})
		}
	}
	return f, nil
}

// about reports whether evidence holds more than half of the
// subtopic's words (all of them when there are two or fewer); with no
// words known, any evidence is.
func about(e Evidence, words []string) bool {
	if len(words) == 0 {
		return true
	}
	text := analyzer.Fold(e.Title + "\n" + e.Claim + "\n" + strings.Join(e.Lines, "\n"))
	if e.Page != nil {
		text += "\n" + analyzer.Fold(e.Page.Title+"\n"+e.Page.Snippet)
	}
	n := 0
	for _, w := range words {
		if strings.Contains(text, w) {
			n++
		}
	}
	if len(words) <= 2 {
		return n == len(words)
	}
	return 2*n > len(words)
}

// overlapsAny reports whether another subtopic has the evidence.
func overlapsAny(skip map[string][]Evidence, e Evidence) bool {
	for _, es := range skip {
		if overlaps(es, e) {
			return true
		}
	}
	return false
}

// overlaps reports whether es holds e: the same page, or lines of the
// same file that overlap.
func overlaps(es []Evidence, e Evidence) bool {
	for _, x := range es {
		if x.Kind != e.Kind {
			continue
		}
		if x.Kind == "web" && x.Key == e.Key || x.Kind == "local" && x.Path == e.Path && x.Start <= e.End && e.Start <= x.End {
			return true
		}
	}
	return false
}

func webPage(w research.WebHit) WebPage {
	e := w.Entry
	return WebPage{Title: e.Title, URL: e.URL, Snippet: e.Snippet, FetchedAt: e.FetchedAt.UTC(), Freshness: e.Freshness.String(), Status: e.Status}
}

// evidence turns a key point of a search into evidence: for a document,
// the point's lines read from the file now, run on to the end of the
// rule they start (the lines below it up to a blank line, a heading or
// the next article), with the article's title above it; for a web page,
// its snippet's first sentence.
func (s *searcher) evidence(r *research.Report, p research.Point, q string) (Evidence, bool) {
	for _, w := range r.Web.Hits {
		if w.Ref != p.Ref {
			continue
		}
		page := webPage(w)
		claim := firstSentence(w.Entry.Snippet)
		if claim == "" {
			claim = strings.TrimSpace(w.Entry.Title)
		}
		if claim == "" {
			return Evidence{}, false
		}
		return Evidence{Key: w.Entry.URL, Kind: "web", Query: q, Claim: claim, Labels: p.Labels, Page: &page}, true
	}
	var hit *research.Hit
	for _, hs := range [][]research.Hit{r.Local.Hits, r.Deep.Hits} {
		for i := range hs {
			if hs[i].Ref == p.Ref {
				hit = &hs[i]
			}
		}
	}
	if hit == nil {
		return Evidence{}, false
	}
	file, err := s.read(hit.Path)
	if err != nil {
		return Evidence{}, false
	}
	lines := file.Lines
	first := p.Line
	if first <= 0 {
		first = hit.Match.StartLine
	}
	last := max(p.EndLine, first)
	if first < 1 || last > len(lines) {
		return Evidence{}, false
	}
	// A table row is a unit of its own: it does not run on into the next
	// row (a rule's lead-in does run on into its table).
	row := strings.HasPrefix(strings.TrimSpace(lines[first-1]), "|")
	if row {
		last = first
	}
	for !row && last+1 <= len(lines) && last-first+1 < maxEvidenceLines {
		t := strings.TrimSpace(lines[last])
		if t == "" || strings.HasPrefix(t, "#") || articleTitle.MatchString(t) {
			break
		}
		last++
	}
	start := first
	if first > 1 {
		t := strings.TrimSpace(lines[first-2])
		if articleTitle.MatchString(t) || strings.HasPrefix(t, "##") {
			start = first - 1
		}
	}
	var parts []string
	for _, l := range lines[first-1 : last] {
		if t := strings.TrimSpace(l); t != "" && !tableRule.MatchString(t) {
			parts = append(parts, strings.TrimSpace(bullet.ReplaceAllString(t, "")))
		}
	}
	claim := strings.Join(parts, " / ")
	if utf8.RuneCountInString(claim) > maxClaimChars {
		// Cut between two lines, never inside one (a number cut in two
		// would be a number no line states).
		for n := len(parts) - 1; n >= 1; n-- {
			if c := strings.Join(parts[:n], " / "); utf8.RuneCountInString(c) <= maxClaimChars {
				claim = c + " / …"
				break
			}
		}
	}
	if claim == "" {
		return Evidence{}, false
	}
	abs := filepath.ToSlash(file.Abs)
	e := Evidence{
		Key: fmt.Sprintf("%s#L%d-L%d", hit.Path, start, last), Kind: "local", Query: q, Claim: claim, Labels: p.Labels,
		Path: hit.Path, Abs: abs, Start: start, End: last, ClaimStart: first, Lines: append([]string(nil), lines[start-1:last]...), Edition: hit.Edition(),
		Title: hit.Match.Title,
	}
	if start-1 < len(file.Locators) {
		e.Where = file.Locators[start-1].Label()
	}
	return e, true
}

// sentenceEnd ends a sentence of a web snippet.
var sentenceEnd = regexp.MustCompile(`[。．！？!?]|\. `)

// firstSentence is a snippet's first sentence.
func firstSentence(s string) string {
	s = strings.TrimSpace(strings.Join(strings.Fields(s), " "))
	if loc := sentenceEnd.FindStringIndex(s); loc != nil {
		return strings.TrimSpace(s[:loc[1]])
	}
	return s
}
