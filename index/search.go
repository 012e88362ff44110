package index

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/search"
	"github.com/blevesearch/bleve/v2/search/query"

	"lwr/analyzer"
	"lwr/analyzer/edition"
)

// Mode is how a search matches documents.
type Mode int

// Search modes.
const (
	// Ranked scores documents by relevance (BM25 over the analyzed fields
	// with boosts and bonuses) and returns the best ones.
	Ranked Mode = iota
	// FullText returns every document whose text holds every query word
	// literally (after Fold), ordered by the number of occurrences.
	FullText
)

func (m Mode) String() string {
	if m == FullText {
		return "fulltext"
	}
	return "ranked"
}

// ParseMode reads a mode name.
func ParseMode(s string) (Mode, error) {
	switch strings.ToLower(s) {
	case "", "ranked":
		return Ranked, nil
	case "fulltext", "full-text", "exact":
		return FullText, nil
	}
	return Ranked, fmt.Errorf("unknown search mode %q; use ranked or fulltext", s)
}

// SearchOptions are the knobs of one search.
type SearchOptions struct {
	Mode Mode
	// Limit is the number of files returned: 8 in ranked mode when zero;
	// in full-text mode zero means every matching file.
	Limit int
	// MaxChars bounds each snippet, in characters (1200 when zero).
	MaxChars int
	// Synonyms are extra words, matched at a lower weight (ranked mode).
	Synonyms []string
	// Dictionary adds the synonyms of the query's words (ranked mode).
	Dictionary *analyzer.Synonyms
	// Exclude leaves out files: a relative path, a folder (every file
	// under it) or a glob on the relative path.
	Exclude []string
	// Explain attaches to each match why it scored as it did.
	Explain bool
	// SkipHighlights leaves Match.Highlights empty, for outputs that do
	// not show them.
	SkipHighlights bool
	// Preferred are documents (relative paths) that a ranked search also
	// returns, after the Limit best, when they match the query at all, and
	// for which it says whether their own text holds every query word (see
	// Match.OwnMatch): the source preferences need both.
	Preferred []string
}

func (o SearchOptions) withDefaults() SearchOptions {
	if o.Limit <= 0 && o.Mode == Ranked {
		o.Limit = 8
	}
	if o.MaxChars <= 0 {
		o.MaxChars = 1200
	}
	return o
}

// Match is one file found by a search.
type Match struct {
	Path      string // relative to the source root, forward slashes
	Score     float64
	Snippet   string // the text of lines StartLine..EndLine, trimmed at the edges only
	StartLine int
	EndLine   int
	ModTime   time.Time
	// Highlights are byte ranges of Snippet that hold query words.
	Highlights [][2]int
	// Occurrences counts the query words in the file (full-text mode).
	Occurrences int
	// Passage is the line range of the best passage (ranked mode) and
	// its text in the current file.
	PassageStart, PassageEnd int
	Passage                  string
	Title                    string
	SHA256                   string            // of the current file's bytes
	Editions                 []edition.Edition // read from the current text
	// OwnMatch: the document's own text holds every query word, not only
	// synonyms or bigrams (ranked mode: for SearchOptions.Preferred only).
	OwnMatch bool
	Explain  string
}

// Result is the answer to a search.
type Result struct {
	Mode    Mode
	Matches []Match
	// Total is the number of matching files found (full-text: all of them;
	// ranked: those among the passages examined).
	Total int
	// Scanned is the number of files in the index.
	Scanned int
	// Terms are the analyzed words searched for (ranked) or the literal
	// words (full-text).
	Terms []string
	// Synonyms are the synonyms that were added.
	Synonyms []string
	Took     time.Duration
}

// Search runs a query.
func (ix *Index) Search(ctx context.Context, q Query, opts SearchOptions) (*Result, error) {
	start := time.Now()
	opts = opts.withDefaults()
	var (
		res *Result
		err error
	)
	if opts.Mode == FullText {
		res, err = ix.fullText(ctx, q, opts)
	} else {
		res, err = ix.ranked(ctx, q, opts)
	}
	if err != nil {
		return nil, err
	}
	res.Mode = opts.Mode
	res.Scanned = ix.internalInt(keyFiles)
	res.Took = time.Since(start)
	return res, nil
}

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

// literalQuery finds the passages that may hold a folded word literally:
// every bigram of it in the bigram view, and for a one-character run a
// term of the view that starts with it.
func literalQuery(w string, boost float64) query.Query {
	var qs []query.Query
	for _, run := range strings.Fields(w) {
		if utf8.RuneCountInString(run) == 1 {
			pq := bleve.NewPrefixQuery(run)
			pq.SetField(fieldGram)
			pq.SetBoost(boost)
			qs = append(qs, pq)
			continue
		}
		for _, g := range analyzer.QueryBigrams(run) {
			qs = append(qs, termQ(fieldGram, g, boost))
		}
	}
	if len(qs) == 1 {
		return qs[0]
	}
	return bleve.NewConjunctionQuery(qs...)
}

// excluded reports whether a path is left out by the Exclude options.
func excluded(p string, ex []string) bool {
	for _, e := range ex {
		e = strings.TrimSuffix(filepath.ToSlash(strings.TrimPrefix(e, "./")), "/")
		if e == "" {
			continue
		}
		if p == e || strings.HasPrefix(p, e+"/") {
			return true
		}
		if ok, _ := path.Match(e, p); ok {
			return true
		}
	}
	return false
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
			if !ok || seen[pth] || excluded(pth, opts.Exclude) || h.Score <= 0 {
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
		if slices.ContainsFunc(res.Matches, func(m Match) bool { return m.Path == pref }) || excluded(pref, opts.Exclude) {
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

func (ix *Index) fullText(ctx context.Context, q Query, opts SearchOptions) (*Result, error) {
	var words []string
	seen := map[string]bool{}
	for _, w := range q.Words {
		f := analyzer.Fold(w.Text)
		if strings.TrimSpace(f) != "" && !seen[f] {
			seen[f] = true
			words = append(words, f)
		}
	}
	res := &Result{Terms: words}
	if len(words) == 0 {
		return res, nil
	}
	n, err := ix.b.DocCount()
	if err != nil {
		return nil, err
	}
	// Candidate files: for each word, the files with a passage that has
	// all its bigrams; then those that have every word.
	var cand map[string]bool
	for _, w := range words {
		req := ix.searchRequest(literalQuery(w, 1), int(n)+1, false)
		req.Score = "none"
		sr, err := ix.b.SearchInContext(ctx, req)
		if err != nil {
			return nil, fmt.Errorf("search: %w", err)
		}
		files := map[string]bool{}
		for _, h := range sr.Hits {
			if pth, _, _, ok := parsePassageID(h.ID); ok && (cand == nil || cand[pth]) && !excluded(pth, opts.Exclude) {
				files[pth] = true
			}
		}
		cand = files
		if len(cand) == 0 {
			break
		}
	}
	paths := make([]string, 0, len(cand))
	for p := range cand {
		paths = append(paths, p)
	}
	sort.Strings(paths)

	// Verify every candidate against its text, on a few goroutines.
	type verified struct {
		m   Match
		ok  bool
		err error
	}
	out := make([]verified, len(paths))
	var wg sync.WaitGroup
	next := make(chan int)
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				m, ok, err := ix.verifyLiteral(paths[i], words, opts.MaxChars, !opts.SkipHighlights)
				out[i] = verified{m, ok, err}
			}
		}()
	}
	for i := range paths {
		if ctx.Err() != nil {
			break
		}
		next <- i
	}
	close(next)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	for _, v := range out {
		if v.err != nil {
			return nil, v.err
		}
		if v.ok {
			res.Matches = append(res.Matches, v.m)
		}
	}
	sort.SliceStable(res.Matches, func(i, j int) bool {
		if res.Matches[i].Occurrences != res.Matches[j].Occurrences {
			return res.Matches[i].Occurrences > res.Matches[j].Occurrences
		}
		return res.Matches[i].Path < res.Matches[j].Path
	})
	res.Total = len(res.Matches)
	if opts.Limit > 0 && len(res.Matches) > opts.Limit {
		res.Matches = res.Matches[:opts.Limit]
	}
	return res, nil
}

// verifyLiteral reads a candidate file and checks that it holds every word.
func (ix *Index) verifyLiteral(rel string, words []string, maxChars int, highlight bool) (Match, bool, error) {
	text, sum, mtime, ok := ix.readCurrent(rel)
	if !ok {
		return Match{}, false, nil
	}
	f := analyzer.Fold(text)
	occ := 0
	for _, w := range words {
		c := strings.Count(f, w)
		if c == 0 {
			return Match{}, false, nil
		}
		occ += c
	}
	lines := Lines(text)
	m, _ := snippetOf(lines, 1, len(lines), words, maxChars, highlight)
	m.Path = rel
	m.ModTime = mtime
	m.SHA256 = sum
	m.Passage = m.Snippet
	ix.describe(&m, text)
	m.OwnMatch = true
	m.Occurrences = occ
	m.Score = float64(occ)
	return m, true, nil
}

// readCurrent reads a source file as it is now: its text, the SHA-256 of
// its bytes and its modification time.
func (ix *Index) readCurrent(rel string) (text, sum string, mtime time.Time, ok bool) {
	abs := filepath.Join(ix.opts.Root, filepath.FromSlash(rel))
	st, err := os.Stat(abs)
	if err != nil || !st.Mode().IsRegular() {
		return "", "", time.Time{}, false
	}
	data, err := os.ReadFile(abs)
	if err != nil {
		return "", "", time.Time{}, false
	}
	text, _, err = Decode(data)
	if err != nil {
		return "", "", time.Time{}, false
	}
	// The manifest's hash stands while mtime and size do, as for builds.
	if e, ok := ix.entry(rel); ok && e.ModTime == st.ModTime().UnixNano() && e.Size == int64(len(data)) {
		return text, e.SHA256, st.ModTime(), true
	}
	h := sha256.Sum256(data)
	return text, hex.EncodeToString(h[:]), st.ModTime(), true
}

// snippet reads a file and cuts the snippet of a ranked hit from its
// passage lines; ok is false when the file is gone or no longer holds a
// quoted word.
func (ix *Index) snippet(rel string, start, end int, p rankedPlan, opts SearchOptions) (Match, bool, error) {
	literals, quoted, maxChars := p.literals, p.quoted, opts.MaxChars
	text, sum, mtime, ok := ix.readCurrent(rel)
	if !ok {
		return Match{}, false, nil
	}
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
	m.ModTime = mtime
	m.SHA256 = sum
	m.Passage = strings.Join(lines[start-1:end], "\n")
	ix.describe(&m, text)
	return m, true, nil
}
