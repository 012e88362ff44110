package index

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/search"
	"github.com/blevesearch/bleve/v2/search/query"

	"lwr/analyzer"
)

// Weights of the ranked query's clauses. BM25 scores every term clause;
// Bleve multiplies each disjunction by the share of its clauses that match.
const (
	wBody     = 1.0
	wHead     = 2.0
	wHeadGram = 0.1
	wSynonym  = 0.4
	wGramWord = 0.1
	// maxSynonymTerms bounds the synonym terms of one query word: the
	// first ones are the closest; more cost time and add noise.
	maxSynonymTerms = 3
	// coverageAlpha sharpens the coverage factor (see combineQuery).
	coverageAlpha = 1.0
	// Query words by part of speech (see termWeight).
	wVerb       = 0.5
	wVerbalNoun = 0.8
)

// termWeight weighs a query word by its part of speech: in a question
// ("ディスクの空き容量を調べる") the nouns name the topic while verbs and
// verbal nouns (調べる, 表示, 追加) name generic actions that many documents
// share.
func termWeight(t analyzer.Token) float64 {
	switch {
	case t.Kind == analyzer.KindLatin:
		return 1
	case strings.HasPrefix(t.POS, "動詞"), strings.HasPrefix(t.POS, "形容詞"):
		return wVerb
	case t.POS == "名詞,サ変接続":
		return wVerbalNoun
	}
	return 1
}

func hasKatakana(s string) bool {
	for _, r := range s {
		if r >= 0x30A1 && r <= 0x30FA {
			return true
		}
	}
	return false
}

// rankedPlan is the query a ranked search runs, and what it looks for.
type rankedPlan struct {
	terms    []string   // analyzed query words
	weights  []float64  // their weights, by part of speech
	surfaces []string   // how a Japanese word is written in the query, "" for others
	synOf    [][]string // analyzed synonyms of each query word
	synonyms []string
	literals []string // folded strings to find in snippets
	quoted   []string // folded quoted words, which must occur
	q        query.Query
}

func termQ(field, term string, boost float64) query.Query {
	t := bleve.NewTermQuery(term)
	t.SetField(field)
	t.SetBoost(boost)
	return t
}

// planRanked analyzes the query and builds the Bleve query.
func planRanked(q Query, opts SearchOptions) rankedPlan {
	a := analyzer.Default()
	text := q.Text()
	var p rankedPlan
	seen := map[string]bool{}
	lits := map[string]bool{}
	addLit := func(s string) {
		s = analyzer.Fold(strings.TrimSpace(s))
		if s != "" && !lits[s] && (utf8.RuneCountInString(s) > 1 || s[0] >= utf8.RuneSelf) {
			lits[s] = true
			p.literals = append(p.literals, s)
		}
	}
	toks := a.Tokens(text)
	var spans []string
	for i, t := range toks {
		if !seen[t.Term] {
			seen[t.Term] = true
			p.terms = append(p.terms, t.Term)
			p.weights = append(p.weights, termWeight(t))
			// Unknown words and katakana, which the analyzer may cut
			// differently in the documents, are also looked for by bigrams.
			sf := ""
			if t.Kind == analyzer.KindJapanese && (t.Unknown || hasKatakana(t.Term)) {
				sf = text[t.Start:t.End]
			}
			p.surfaces = append(p.surfaces, sf)
		}
		addLit(text[t.Start:t.End])
		addLit(t.Term)
		// Merge neighbouring Japanese tokens into spans for the bigram view.
		if t.Kind == analyzer.KindJapanese {
			if i > 0 && toks[i-1].Kind == analyzer.KindJapanese && toks[i-1].End == t.Start && len(spans) > 0 {
				spans[len(spans)-1] += text[t.Start:t.End]
			} else {
				spans = append(spans, text[t.Start:t.End])
			}
		}
	}
	for _, w := range q.Words {
		if w.Quoted {
			p.quoted = append(p.quoted, analyzer.Fold(w.Text))
			addLit(w.Text)
		}
	}
	// Synonyms stand in for the query words they replace: a dictionary
	// synonym for the words its entry spans in the query, an extra synonym
	// (--synonym) for every word.
	p.synOf = make([][]string, len(p.terms))
	termIndex := map[string]int{}
	for i, t := range p.terms {
		termIndex[t] = i
	}
	addSyn := func(s string, to []int) {
		p.synonyms = append(p.synonyms, s)
		addLit(s)
		for _, term := range opts.Dictionary.Terms(s) {
			if _, own := termIndex[term]; own {
				continue
			}
			for _, i := range to {
				if !slices.Contains(p.synOf[i], term) {
					p.synOf[i] = append(p.synOf[i], term)
				}
			}
		}
	}
	all := make([]int, len(p.terms))
	for i := range all {
		all[i] = i
	}
	for _, s := range opts.Synonyms {
		addSyn(s, all)
	}
	for _, e := range opts.Dictionary.Entries(text) {
		var to []int
		for _, t := range toks {
			if t.Start < e.End && e.Start < t.End {
				if i, ok := termIndex[t.Term]; ok && !slices.Contains(to, i) {
					to = append(to, i)
				}
			}
		}
		if len(to) == 0 {
			to = all
		}
		for _, s := range e.Synonyms {
			addSyn(s, to)
		}
	}
	if len(p.terms) == 0 && len(p.quoted) == 0 {
		return p
	}

	// One clause per query word: the word in the body and in the head (file
	// name, folders, title, summary, lead), and its synonyms at a lower
	// weight. The sum over the words is scaled by their weighted coverage.
	var words []query.Query
	for i, t := range p.terms {
		w := p.weights[i]
		kids := []query.Query{termQ(fieldBody, t, w*wBody), termQ(fieldHead, t, w*wHead)}
		for j, s := range p.synOf[i] {
			if j == maxSynonymTerms {
				break
			}
			kids = append(kids, termQ(fieldBody, s, w*wSynonym*wBody), termQ(fieldHead, s, w*wSynonym*wHead))
		}
		// A Japanese word also counts where all its bigrams are: the
		// analyzer may have cut the text differently (unknown compounds
		// such as リマインダーメール are one token).
		if bg := analyzer.QueryBigrams(p.surfaces[i]); len(bg) > 0 {
			var conj []query.Query
			for _, g := range bg {
				conj = append(conj, termQ(fieldGram, g, w*wGramWord))
			}
			kids = append(kids, bleve.NewConjunctionQuery(conj...))
		}
		words = append(words, &combineQuery{children: kids})
	}
	top := &combineQuery{children: words, coverage: p.weights, alpha: coverageAlpha}
	// The bigrams of the query's Japanese spans in the head: a bonus for
	// the words side by side in a title or lead. (The same bonus over the
	// body cost half the search time and did not change the ranking.)
	var gram []query.Query
	bis := map[string]bool{}
	for _, s := range spans {
		for _, g := range analyzer.QueryBigrams(s) {
			if !bis[g] {
				bis[g] = true
				gram = append(gram, termQ(fieldHeadGram, g, wHeadGram))
			}
		}
	}
	if len(gram) > 0 {
		top.children = append(top.children, &combineQuery{children: gram})
	}
	var must []query.Query
	for _, w := range p.quoted {
		must = append(must, literalQuery(w, wGramWord))
	}
	switch {
	case len(p.terms) == 0:
		p.q = bleve.NewConjunctionQuery(must...)
	case len(must) == 0:
		p.q = top
	default:
		p.q = bleve.NewConjunctionQuery(append(must, top)...)
	}
	return p
}

func (ix *Index) ranked(ctx context.Context, q Query, opts SearchOptions) (*Result, error) {
	p := planRanked(q, opts)
	res := &Result{Terms: p.terms, Synonyms: p.synonyms}
	if p.q == nil {
		return res, nil
	}
	type cand struct {
		path       string
		start, end int
		score      float64
		expl       *search.Explanation
	}
	var cands []cand
	size := opts.Limit * 6
	for {
		req := ix.searchRequest(p.q, size, opts.Explain)
		sr, err := ix.b.SearchInContext(ctx, req)
		if err != nil {
			return nil, fmt.Errorf("search: %w", err)
		}
		cands = cands[:0]
		seen := map[string]bool{}
		for _, h := range sr.Hits {
			pth, s, e, ok := parsePassageID(h.ID)
			if !ok || seen[pth] || !opts.inScope(pth) || h.Score <= 0 {
				continue
			}
			seen[pth] = true
			cands = append(cands, cand{pth, s, e, h.Score, h.Expl})
		}
		// Ask for more passages when the best ones crowd into too few files.
		if len(cands) >= opts.Limit+2 || uint64(len(sr.Hits)) >= sr.Total {
			break
		}
		size *= 4
	}
	// Equal scores in path order, so that the same content gives the same
	// results however the index's segments were written.
	slices.SortStableFunc(cands, func(a, b cand) int {
		if a.score != b.score {
			if a.score > b.score {
				return -1
			}
			return 1
		}
		return strings.Compare(a.path, b.path)
	})
	res.Total = len(cands)
	for _, c := range cands {
		if len(res.Matches) >= opts.Limit {
			break
		}
		m, ok, err := ix.snippet(c.path, c.start, c.end, p, opts)
		if err != nil {
			return nil, err
		}
		if !ok {
			continue
		}
		m.Score = c.score
		m.PassageStart, m.PassageEnd = c.start, c.end
		if opts.Explain {
			m.Explain = explain(c.expl)
		}
		res.Matches = append(res.Matches, m)
	}
	// Preferred documents: whether their own text holds every query
	// word, and those below the limit that do, with their best passage.
	for i := range res.Matches {
		if slices.Contains(opts.Preferred, res.Matches[i].Path) {
			own, err := ix.hasTerms(ctx, res.Matches[i].Path, p.terms)
			if err != nil {
				return nil, err
			}
			res.Matches[i].OwnMatch = own
		}
	}
	for _, pref := range opts.Preferred {
		if slices.ContainsFunc(res.Matches, func(m Match) bool { return m.Path == pref }) || !opts.inScope(pref) {
			continue
		}
		own, err := ix.hasTerms(ctx, pref, p.terms)
		if err != nil || !own {
			if err != nil {
				return nil, err
			}
			continue
		}
		pq := bleve.NewTermQuery(pref)
		pq.SetField(fieldPath)
		sr, err := ix.b.SearchInContext(ctx, ix.searchRequest(bleve.NewConjunctionQuery(p.q, pq), 1, opts.Explain))
		if err != nil {
			return nil, fmt.Errorf("search: %w", err)
		}
		if len(sr.Hits) == 0 {
			continue
		}
		h := sr.Hits[0]
		pth, s, e, ok := parsePassageID(h.ID)
		if !ok {
			continue
		}
		m, ok, err := ix.snippet(pth, s, e, p, opts)
		if err != nil || !ok {
			if err != nil {
				return nil, err
			}
			continue
		}
		// It ranked below every match above: keep it there until the
		// preferences move it.
		m.Score = min(h.Score, lowest(res.Matches))
		m.PassageStart, m.PassageEnd = s, e
		m.OwnMatch = true
		if opts.Explain {
			m.Explain = explain(h.Expl)
		}
		res.Matches = append(res.Matches, m)
	}
	return res, nil
}

// hasTerms reports whether a document has every term in its own analyzed
// text (body or head), each in some passage.
func (ix *Index) hasTerms(ctx context.Context, doc string, terms []string) (bool, error) {
	if len(terms) == 0 {
		return false, nil
	}
	for _, t := range terms {
		pq := bleve.NewTermQuery(doc)
		pq.SetField(fieldPath)
		q := bleve.NewConjunctionQuery(pq, bleve.NewDisjunctionQuery(termQ(fieldBody, t, 1), termQ(fieldHead, t, 1)))
		req := ix.searchRequest(q, 0, false)
		req.Score = "none"
		sr, err := ix.b.SearchInContext(ctx, req)
		if err != nil {
			return false, fmt.Errorf("search: %w", err)
		}
		if sr.Total == 0 {
			return false, nil
		}
	}
	return true, nil
}

// lowest is the lowest score of the matches, or +Inf.
func lowest(ms []Match) float64 {
	lo := math.Inf(1)
	for _, m := range ms {
		lo = min(lo, m.Score)
	}
	return lo
}

// snippet reads a file and cuts the snippet of a ranked hit from its
// passage lines; ok is false when the file is gone or no longer holds a
// quoted word.
func (ix *Index) snippet(rel string, start, end int, p rankedPlan, opts SearchOptions) (Match, bool, error) {
	literals, quoted, maxChars := p.literals, p.quoted, opts.MaxChars
	cur, ok := ix.readCurrent(rel)
	if !ok {
		return Match{}, false, nil
	}
	text := cur.text
	lines := Lines(text)
	if start > len(lines) {
		start, end = 1, len(lines)
	}
	end = min(end, len(lines))
	if len(quoted) > 0 {
		f := analyzer.Fold(strings.Join(lines[start-1:end], "\n"))
		for _, w := range quoted {
			if !strings.Contains(f, w) {
				return Match{}, false, nil
			}
		}
	}
	m, found := snippetOf(lines, start, end, literals, maxChars, !opts.SkipHighlights)
	if !found && (start > 1 || end < len(lines)) {
		// The file changed since it was indexed: look in all of it.
		if m2, found := snippetOf(lines, 1, len(lines), literals, maxChars, !opts.SkipHighlights); found {
			m = m2
		}
	}
	m.Path = rel
	m.ModTime = cur.mtime
	m.SHA256 = cur.sum
	m.Locator = cur.locator(m.StartLine, m.EndLine, literals)
	m.Passage = strings.Join(lines[start-1:end], "\n")
	ix.describe(&m, text)
	return m, true, nil
}
