package deep

import (
	"context"
	"errors"
	"fmt"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"

	"lwr/analyzer"
	"lwr/analyzer/lazyre"
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
	tw := topicWords(topic)
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
		// The subtopic's own passages of the files found (第5条（交通費）
		// for 交通費), besides the passage each file's search found best.
		if sub.Name != Followup {
			for _, e := range s.titled(r, sub.Name, q) {
				if !overlaps(cands, e) && !overlapsAny(skip, e) {
					cands = append(cands, e)
				}
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
	// Evidence is about the topic too (年末調整 is no 精算 of 出張旅費);
	// when none of it names the topic, the subtopic's own is kept if the
	// caller asked for it by name. The follow-up's evidence holds what
	// its query looks for besides the topic (a gap's word), and the topic.
	onTopic := sub.Proposed || sub.Name == Followup ||
		slices.ContainsFunc(cands, func(e Evidence) bool { return about(e, words) && aboutTopic(e, tw) })
	for _, e := range cands {
		if onTopic && !aboutTopic(e, tw) {
			continue
		}
		if sub.Name == Followup && !aboutTopic(e, queryWords(e.Query, tw)) {
			continue
		}
		if len(f.Evidence) < maxEvidence && (sub.Name == Followup || about(e, words)) {
			if sub.Name != Followup {
				e = focus(e, sub.Name, words)
			}
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
		texts = append(texts, analyzer.FoldText(e.Claim+"\n"+strings.Join(e.Lines, "\n")))
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
	text := analyzer.FoldText(e.Title + "\n" + e.Claim + "\n" + strings.Join(e.Lines, "\n"))
	if e.Page != nil {
		text += "\n" + analyzer.FoldText(e.Page.Title+"\n"+e.Page.Snippet)
	}
	return holds(text, words)
}

// holds reports whether folded text holds more than half of words (all
// of them when there are two or fewer).
func holds(text string, words []string) bool {
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

// focus narrows the claims of evidence that a unit larger than the
// subtopic holds (an article on another matter, a list of reasons) to
// the paragraphs and list items that are about the subtopic, a list's
// lead-in kept; evidence titled by the subtopic, or none of whose parts
// is about it alone, is left whole. The citation stays the whole unit.
func focus(e Evidence, name string, words []string) Evidence {
	if e.Kind != "local" || len(words) == 0 || e.ClaimStart <= 0 || e.ClaimStart < e.Start || e.ClaimStart > e.End {
		return e
	}
	if e.ClaimStart > e.Start && strings.Contains(fold(e.Lines[0]), fold(name)) {
		return e // titled by the subtopic
	}
	if len(e.Claims) > 1 {
		var keep []string
		for _, c := range e.Claims {
			if holds(analyzer.FoldText(c), words) {
				keep = append(keep, c)
			}
		}
		if len(keep) > 0 && len(keep) < len(e.Claims) {
			e.Claims, e.Claim = keep, strings.Join(keep, " / ")
			if len(keep) == 1 {
				e.Claims = nil
			}
		}
		return e
	}
	// A list after its lead-in: the lead-in and the items about it.
	body := e.Lines[e.ClaimStart-e.Start:]
	if len(body) < 3 || listItem.MatchString(body[0]) {
		return e
	}
	f := &index.File{Lines: body}
	idx := []int{1}
	items := 0
	for i := 2; i <= len(body); i++ {
		if strings.TrimSpace(body[i-1]) == "" {
			continue
		}
		if !listItem.MatchString(body[i-1]) {
			return e
		}
		items++
		if holds(analyzer.FoldText(body[i-1]), words) {
			idx = append(idx, i)
		}
	}
	if len(idx) > 1 && len(idx)-1 < items {
		e.Claim, e.Claims = joinClaim(f, idx), nil
	}
	return e
}

// titled is the evidence of the units titled by a subtopic in the files
// a search found, with the labels of each file's key point.
func (s *searcher) titled(r *research.Report, name, q string) []Evidence {
	labels := map[string][]string{}
	for _, p := range r.Conclusion.Points {
		labels[p.Ref] = p.Labels
	}
	var out []Evidence
	for _, hs := range [][]research.Hit{r.Local.Hits, r.Deep.Hits} {
		for i := range hs {
			h := &hs[i]
			file, err := s.read(h.Path)
			if err != nil {
				continue
			}
			for _, u := range titledUnits(file, fold(name)) {
				if e, ok := localEvidence(file, h, u, labels[h.Ref], q); ok {
					out = append(out, e)
				}
			}
		}
	}
	// A rule's article named by the subtopic first (第7条（宿泊料）), then
	// an article that holds its name, then a section (## 宿泊料の見直し).
	rank := func(e Evidence) int {
		t := strings.TrimSpace(e.Lines[0])
		switch {
		case articleTitle.MatchString(t) && (strings.Contains(fold(t), "（"+fold(name)+"）") || strings.Contains(fold(t), "("+fold(name)+")")):
			return 0
		case articleTitle.MatchString(t):
			return 1
		}
		return 2
	}
	slices.SortStableFunc(out, func(a, b Evidence) int { return rank(a) - rank(b) })
	return out
}

// topicWords are the content words of a topic, as the analyzer reads
// them, besides the words that name no document (規程, ルール) and the
// request (全部まとめて).
func topicWords(topic string) []string {
	var out []string
	for _, t := range analyzer.Default().Tokens(topicCore(topic)) {
		noun := t.Kind == analyzer.KindLatin || strings.HasPrefix(t.POS, "名詞") && t.POS != "名詞,接尾" && t.POS != "名詞,数"
		if w := analyzer.Fold(t.Term); noun && !topicFiller[w] && !requestWords[w] && !slices.Contains(out, w) {
			out = append(out, w)
		}
	}
	return out
}

// queryWords are the content words of a query besides the topic's;
// nil for none (aboutTopic then holds for any evidence, so a query of
// the topic's words alone asks for nothing more).
func queryWords(q string, topic []string) []string {
	var out []string
	for _, w := range topicWords(q) {
		if !slices.Contains(topic, w) {
			out = append(out, w)
		}
	}
	return out
}

// aboutTopic reports whether evidence names one of the topic's words:
// in its lines, its document's title or its path (any evidence when the
// topic has none).
func aboutTopic(e Evidence, words []string) bool {
	if len(words) == 0 {
		return true
	}
	text := e.Title + "\n" + e.head + "\n" + e.Path + "\n" + e.Claim + "\n" + strings.Join(e.Lines, "\n")
	if e.Page != nil {
		text += "\n" + e.Page.Title + "\n" + e.Page.Snippet
	}
	// A PDF spaces the characters of a heading (旅 費): compared without
	// spaces.
	text = strings.Join(strings.Fields(analyzer.Fold(text)), "")
	for _, w := range words {
		if strings.Contains(text, w) {
			return true
		}
	}
	return false
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
	first := p.Line
	if first <= 0 {
		first = hit.Match.StartLine
	}
	last := max(p.EndLine, first)
	if first < 1 || last > len(file.Lines) {
		return Evidence{}, false
	}
	return localEvidence(file, hit, unitOf(file, first, last), p.Labels, q)
}

// localEvidence is the evidence of a unit of a document a search found.
func localEvidence(file *index.File, hit *research.Hit, u span, labels []string, q string) (Evidence, bool) {
	if len(u.claims) == 0 || u.start < 1 || u.end > len(file.Lines) {
		return Evidence{}, false
	}
	abs := filepath.ToSlash(file.Abs)
	e := Evidence{
		Key: fmt.Sprintf("%s#L%d-L%d", hit.Path, u.start, u.end), Kind: "local", Query: q, Claim: strings.Join(u.claims, " / "), Labels: slices.Clone(labels),
		Path: hit.Path, Abs: abs, Start: u.start, End: u.end, ClaimStart: u.claimStart, Lines: append([]string(nil), file.Lines[u.start-1:u.end]...), Edition: hit.Edition(),
		Title: hit.Match.Title,
	}
	if len(u.claims) > 1 {
		e.Claims = u.claims
	}
	var head []string
	for _, l := range file.Lines {
		if t := strings.TrimSpace(l); t != "" && len(head) < 3 {
			head = append(head, t)
		}
	}
	e.head = strings.Join(head, "\n")
	if e.Title == "" || e.Title == path.Base(hit.Path) {
		// A document without a title of its own (a sheet, a PDF): the first
		// line of the part the evidence stands in says what it is about.
		e.Title = report.Cut(leadOf(file, u.start), 120)
	}
	if u.start-1 < len(file.Locators) {
		l := file.Locators[u.start-1]
		e.Where = l.Label()
		if l.Hidden && !slices.Contains(e.Labels, HiddenLabel) {
			// What a hidden sheet says is a draft or a note, never the rule
			// without saying so.
			e.Labels = append(e.Labels, HiddenLabel)
		}
	}
	return e, true
}

// HiddenLabel marks a claim read from a hidden sheet.
const HiddenLabel = "非表示シートの記載（規程の本文ではない）"

// sentenceEnd ends a sentence of a web snippet.
var sentenceEnd = lazyre.New(`[。．！？!?]|\. `)

// firstSentence is a snippet's first sentence.
func firstSentence(s string) string {
	s = strings.TrimSpace(strings.Join(strings.Fields(s), " "))
	if loc := sentenceEnd.FindStringIndex(s); loc != nil {
		return strings.TrimSpace(s[:loc[1]])
	}
	return s
}
