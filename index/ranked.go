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
	"lwr/analyzer/thesaurus"
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
	// SudachiDict's words (see planRanked): at most maxThesaurusWords per
	// query word, the same lexeme at wVariant, others at wThesaurus.
	maxThesaurusWords = 6
	// coverageAlpha sharpens the coverage factor (see combineQuery).
	coverageAlpha = 1.5
	// Query words by part of speech (see termWeight).
	wVerb       = 0.6
	wVerbalNoun = 0.8
	// wAffix weighs a lone suffix or prefix (代, 額, 料, 非): alone it
	// says little; the compound it belongs to (残業代) is matched as a unit
	// at wCompound per bigram, the affix alone is the fallback.
	wAffix    = 0.3
	wCompound = 0.5
	// wHeadAlone scales a word's head match in a passage whose body lacks
	// the word: a file name or title that mentions it does not make a
	// passage about it.
	wHeadAlone = 0.5
	// SudachiDict's words: the same lexeme as the query's word (スマホ,
	// スマートフォン) nearly as the word, words of like meaning (印鑑, 印章)
	// below the hand-made dictionary's synonyms.
	wVariant   = 0.8
	wThesaurus = 0.25
	// wSecond adds a share of a file's second-best passage to its best:
	// a file that speaks of the words in two places is more likely about
	// them than one that mentions them once. hitsPerResult bounds the
	// passages looked at per result asked for.
	wSecond       = 0.2
	hitsPerResult = 6
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
	case isAffix(t), frameWords[t.Term]:
		return wAffix
	}
	return 1
}

// frameWords are nouns that frame a question (計算の方法, 休める場合,
// 持ち帰っても大丈夫) rather than name its topic: weighed as an affix and
// not content words.
var frameWords = map[string]bool{"方法": true, "やり方": true, "仕方": true, "場合": true, "際": true, "仕組み": true, "大丈夫": true, "可能": true}

// isAffix reports a suffix or prefix morpheme (代 in 残業代, 非 in 非表示).
func isAffix(t analyzer.Token) bool {
	return t.POS == "名詞,接尾" || strings.HasPrefix(t.POS, "接頭詞")
}

// politePrefixes are prefixes that add nothing to the noun they join (ご利用,
// 各部署).
var politePrefixes = map[string]bool{"お": true, "ご": true, "御": true, "各": true, "約": true, "第": true, "全": true, "計": true, "毎": true}

// addsMeaning reports an affix that changes what its noun names: 代, 料,
// 額 (名詞,接尾,一般), 非, 再. Grammatical ones (的, 時, 中) and polite
// prefixes do not.
func addsMeaning(t analyzer.Token) bool {
	if t.POS == "名詞,接尾" {
		return t.Sub == "一般"
	}
	return strings.HasPrefix(t.POS, "接頭詞") && !politePrefixes[t.Term]
}

// isContent reports a word that names what the query is about: a noun
// (a number too: 三万円 asks for that amount) that is not an affix or a
// pronoun, or a Latin word. Verbs and adjectives (使う, いい) say what is
// asked of it.
func isContent(t analyzer.Token) bool {
	if t.Kind == analyzer.KindLatin {
		return true
	}
	return strings.HasPrefix(t.POS, "名詞") && !isAffix(t) && !frameWords[t.Term] && t.POS != "名詞,代名詞"
}

func hasKatakana(s string) bool {
	for _, r := range s {
		if r >= 0x30A1 && r <= 0x30FA {
			return true
		}
	}
	return false
}

// alt is a synonym of a query word and its weight relative to the word.
type alt struct {
	text      string
	weight    float64
	thesaurus bool // from SudachiDict's groups (capped apart)
}

// capped keeps the first maxSynonymTerms synonyms of the dictionaries and
// the first maxThesaurusWords of SudachiDict's, in order.
func capped(as []alt) []alt {
	var out []alt
	hand, thes := 0, 0
	for _, a := range as {
		switch {
		case a.thesaurus && thes < maxThesaurusWords:
			thes++
		case !a.thesaurus && hand < maxSynonymTerms:
			hand++
		default:
			continue
		}
		out = append(out, a)
	}
	return out
}

func hasAlt(as []alt, text string) bool {
	return slices.ContainsFunc(as, func(a alt) bool { return a.text == text })
}

// rankedPlan is the query a ranked search runs, and what it looks for.
type rankedPlan struct {
	terms    []string  // analyzed query words
	weights  []float64 // their weights, by part of speech
	surfaces []string  // how a Japanese word is written in the query, "" for others
	compound []string  // the compound an affix word belongs to (残業代), "" for others
	content  []string  // the content words among terms (see isContent)
	synOf    [][]alt   // analyzed one-word synonyms of each query word
	// phraseOf are the synonyms of several words (非表示: 非, 表示) of each
	// query word, matched as a unit (all their bigrams) or not at all.
	phraseOf [][]alt
	synonyms []string
	literals []string // folded strings to find in snippets
	quoted   []string // folded quoted words, which must occur
	q        query.Query
}

// gramsQ matches a passage whose bigram field (fieldGram, fieldHeadGram)
// has every bigram of s: s as a unit, however the analyzer cut it.
func gramsQ(field, s string, boost float64) query.Query {
	var conj []query.Query
	for _, g := range analyzer.QueryBigrams(s) {
		conj = append(conj, termQ(field, g, boost))
	}
	return bleve.NewConjunctionQuery(conj...)
}

// compoundOf returns the compound the affix toks[i] belongs to, as written
// in text: the affix with the noun it is joined to (残業代, 非表示), "" when
// toks[i] is no affix or stands alone.
func compoundOf(text string, toks []analyzer.Token, i int) string {
	t := toks[i]
	if !isAffix(t) || !addsMeaning(t) {
		return ""
	}
	joined := func(a, b analyzer.Token) bool {
		return a.Kind == analyzer.KindJapanese && b.Kind == analyzer.KindJapanese && a.End == b.Start
	}
	switch {
	case t.POS == "名詞,接尾" && i > 0 && joined(toks[i-1], t) && strings.HasPrefix(toks[i-1].POS, "名詞"):
		return text[toks[i-1].Start:t.End]
	case t.POS != "名詞,接尾" && i+1 < len(toks) && joined(t, toks[i+1]) && strings.HasPrefix(toks[i+1].POS, "名詞"):
		return text[t.Start:toks[i+1].End]
	}
	return ""
}

// isPlainASCIIWord reports a word of ASCII letters, digits and spaces.
func isPlainASCIIWord(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
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
		s = analyzer.FoldText(strings.TrimSpace(s))
		if s != "" && !lits[s] && (utf8.RuneCountInString(s) > 1 || s[0] >= utf8.RuneSelf) {
			lits[s] = true
			p.literals = append(p.literals, s)
		}
	}
	toks := a.Tokens(text)
	var spans []string
	// The verbs a potential form (休める) is made from (休む), by term.
	potential := map[string]string{}
	for i, t := range toks {
		if base, ok := t.Potential(); ok {
			if analyzer.IsStopWord(base) {
				continue
			}
			potential[t.Term] = base
		}
		if !seen[t.Term] {
			seen[t.Term] = true
			p.terms = append(p.terms, t.Term)
			p.weights = append(p.weights, termWeight(t))
			if isContent(t) {
				p.content = append(p.content, t.Term)
			}
			// Unknown words and katakana, which the analyzer may cut
			// differently in the documents, are also looked for by bigrams.
			sf := ""
			if t.Kind == analyzer.KindJapanese && (t.Unknown || hasKatakana(t.Term)) {
				sf = text[t.Start:t.End]
			}
			p.surfaces = append(p.surfaces, sf)
			p.compound = append(p.compound, compoundOf(text, toks, i))
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
			p.quoted = append(p.quoted, analyzer.FoldText(w.Text))
			addLit(w.Text)
		}
	}
	// Synonyms stand in for the query words they replace: a dictionary
	// synonym for the words its entry spans in the query, an extra synonym
	// (--synonym) for every word.
	if len(p.content) == 0 {
		p.content = p.terms
	}
	p.synOf = make([][]alt, len(p.terms))
	p.phraseOf = make([][]alt, len(p.terms))
	termIndex := map[string]int{}
	for i, t := range p.terms {
		termIndex[t] = i
	}
	for i, t := range p.terms {
		if base, ok := potential[t]; ok && !hasAlt(p.synOf[i], base) {
			if _, own := termIndex[base]; !own {
				p.synOf[i] = append(p.synOf[i], alt{text: base, weight: wVariant})
			}
		}
	}
	shown := map[string]bool{}
	addSyn := func(s string, terms []string, weight float64, thes bool, to []int) {
		if !shown[s] {
			shown[s] = true
			p.synonyms = append(p.synonyms, s)
		}
		addLit(s)
		if len(terms) > 1 && len(analyzer.QueryBigrams(s)) > 0 && !isPlainASCIIWord(s) {
			// Several words: as a unit or not at all (隠し → 非表示 must
			// not match 表示 alone).
			for _, i := range to {
				if !hasAlt(p.phraseOf[i], s) {
					p.phraseOf[i] = append(p.phraseOf[i], alt{s, weight, thes})
				}
			}
			return
		}
		for _, term := range terms {
			if _, own := termIndex[term]; own {
				continue
			}
			for _, i := range to {
				if !hasAlt(p.synOf[i], term) {
					p.synOf[i] = append(p.synOf[i], alt{term, weight, thes})
				}
			}
		}
	}
	all := make([]int, len(p.terms))
	for i := range all {
		all[i] = i
	}
	for _, s := range opts.Synonyms {
		addSyn(s, opts.Dictionary.Terms(s), wSynonym, false, all)
	}
	covered := func(start, end int) []int {
		var to []int
		for _, t := range toks {
			if t.Start < end && start < t.End {
				if i, ok := termIndex[t.Term]; ok && !slices.Contains(to, i) {
					to = append(to, i)
				}
			}
		}
		return to
	}
	for _, e := range opts.Dictionary.Entries(text) {
		to := covered(e.Start, e.End)
		if len(to) == 0 {
			to = all
		}
		for _, s := range e.Synonyms {
			addSyn(s, opts.Dictionary.Terms(s), wSynonym, false, to)
		}
	}
	// SudachiDict's groups, below the hand-made dictionary: the same
	// lexeme (スマホ, スマートフォン) nearly as the word, words of like
	// meaning (印鑑, 印章) lower.
	if opts.Dictionary.Thesaurus() && !opts.NoThesaurus {
		ts := make([]thesaurus.Term, len(toks))
		for i, t := range toks {
			ts[i] = thesaurus.Term{Text: t.Term, Predicate: strings.HasPrefix(t.POS, "動詞") || strings.HasPrefix(t.POS, "形容詞"),
				Joined: i > 0 && t.Kind == analyzer.KindJapanese && toks[i-1].Kind == analyzer.KindJapanese && toks[i-1].End == t.Start}
		}
		for _, m := range thesaurus.Default().Lookup(ts) {
			// A word of several query terms (早見表: 早見, 表) stands in for
			// the first one only: a weak synonym must not cover them all.
			to := covered(toks[m.From].Start, toks[m.To-1].End)
			if len(to) > 1 {
				to = to[:1]
			}
			for j, w := range m.Words {
				if j == maxThesaurusWords {
					break
				}
				weight := wThesaurus
				if w.Variant {
					weight = wVariant
				}
				addSyn(w.Text, w.Terms, weight, true, to)
			}
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
		heads := map[int]int{1: 0}
		for _, s := range capped(p.synOf[i]) {
			heads[len(kids)+1] = len(kids)
			kids = append(kids, termQ(fieldBody, s.text, w*s.weight*wBody), termQ(fieldHead, s.text, w*s.weight*wHead))
		}
		for _, s := range capped(p.phraseOf[i]) {
			kids = append(kids, gramsQ(fieldGram, s.text, w*s.weight*wBody), gramsQ(fieldHeadGram, s.text, w*s.weight*wHead))
		}
		if c := p.compound[i]; c != "" {
			kids = append(kids, gramsQ(fieldGram, c, wCompound))
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
		words = append(words, &combineQuery{children: kids, headAlone: wHeadAlone, heads: heads})
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
	res := &Result{Terms: p.terms, Content: p.content, Synonyms: p.synonyms}
	if p.q == nil {
		return res, nil
	}
	type cand struct {
		path       string
		start, end int
		score      float64
		expl       *search.Explanation
		second     float64 // the file's second-best passage's score, 0 for none
	}
	var cands []cand
	size := opts.Limit * hitsPerResult
	for {
		req := ix.searchRequest(p.q, size, opts.Explain)
		sr, err := ix.b.SearchInContext(ctx, req)
		if err != nil {
			return nil, fmt.Errorf("search: %w", err)
		}
		cands = cands[:0]
		at := map[string]int{} // path → index in cands
		for _, h := range sr.Hits {
			pth, s, e, ok := parsePassageID(h.ID)
			if !ok || !opts.inScope(pth) || h.Score <= 0 {
				continue
			}
			if k, dup := at[pth]; dup {
				if cands[k].second == 0 {
					cands[k].second = h.Score // hits come best first
				}
				continue
			}
			at[pth] = len(cands)
			cands = append(cands, cand{path: pth, start: s, end: e, score: h.Score, expl: h.Expl})
		}
		for i := range cands {
			cands[i].score += wSecond * cands[i].second
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
		if opts.Explain {
			m.Explain = explain(c.expl)
			if wSecond*c.second > 0 {
				m.Explain += fmt.Sprintf("+ %.3f = %g × %.3f, the file's second-best passage\n", wSecond*c.second, wSecond, c.second)
			}
		}
		res.Matches = append(res.Matches, m)
	}
	// Whether each match's own text holds the query's content words (the
	// policies promote, order editions and set aside abolished rules by
	// it), then the preferred documents below the limit that do, with
	// their best passage.
	paths := make([]string, len(res.Matches))
	for i, m := range res.Matches {
		paths[i] = m.Path
	}
	own, err := ix.holdTerms(ctx, paths, p.content)
	if err != nil {
		return nil, err
	}
	for i := range res.Matches {
		res.Matches[i].OwnMatch = own[res.Matches[i].Path]
	}
	for _, pref := range opts.Preferred {
		if slices.ContainsFunc(res.Matches, func(m Match) bool { return m.Path == pref }) || !opts.inScope(pref) {
			continue
		}
		own, err := ix.hasTerms(ctx, pref, p.content)
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
		m.OwnMatch = true
		if opts.Explain {
			m.Explain = explain(h.Expl)
		}
		res.Matches = append(res.Matches, m)
	}
	return res, nil
}

// holdTerms reports, for each of the documents, whether it has every term
// in its own analyzed text (body or head), each in some passage: one
// search per term over the documents, a document at a time only when a
// term's passages are too many to list.
func (ix *Index) holdTerms(ctx context.Context, docs, terms []string) (map[string]bool, error) {
	out := make(map[string]bool, len(docs))
	if len(terms) == 0 || len(docs) == 0 {
		return out, nil
	}
	left := slices.Clone(docs)
	for _, t := range terms {
		var ps []query.Query
		for _, d := range left {
			pq := bleve.NewTermQuery(d)
			pq.SetField(fieldPath)
			ps = append(ps, pq)
		}
		q := bleve.NewConjunctionQuery(bleve.NewDisjunctionQuery(ps...), bleve.NewDisjunctionQuery(termQ(fieldBody, t, 1), termQ(fieldHead, t, 1)))
		req := ix.searchRequest(q, 50*len(left)+100, false)
		req.Score = "none"
		sr, err := ix.b.SearchInContext(ctx, req)
		if err != nil {
			return nil, fmt.Errorf("search: %w", err)
		}
		found := map[string]bool{}
		for _, h := range sr.Hits {
			if pth, _, _, ok := parsePassageID(h.ID); ok {
				found[pth] = true
			}
		}
		var next []string
		for _, d := range left {
			has := found[d]
			if !has && uint64(len(sr.Hits)) < sr.Total {
				if has, err = ix.hasTerms(ctx, d, []string{t}); err != nil {
					return nil, err
				}
			}
			if has {
				next = append(next, d)
			}
		}
		if left = next; len(left) == 0 {
			break
		}
	}
	for _, d := range left {
		out[d] = true
	}
	return out, nil
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
		f := analyzer.FoldText(strings.Join(lines[start-1:end], "\n"))
		for _, w := range quoted {
			if !strings.Contains(f, w) {
				return Match{}, false, nil
			}
		}
	}
	a, b := sectionOf(lines, cur.locs, literals, start, end) // one place: its label says where all its lines stand
	m, found := snippetOf(lines, a, b, literals, maxChars, !opts.SkipHighlights)
	if !found && (start > 1 || end < len(lines)) {
		// The file changed since it was indexed: look in all of it.
		a, b := sectionOf(lines, cur.locs, literals, 1, len(lines))
		if m2, found := snippetOf(lines, a, b, literals, maxChars, !opts.SkipHighlights); found {
			m = m2
		}
	}
	m.Path = rel
	m.ModTime = cur.mtime
	m.SHA256 = cur.sum
	m.Locator = cur.locator(m.StartLine, m.EndLine, literals)
	m.Passage = strings.Join(lines[start-1:end], "\n")
	m.PassageStart, m.PassageEnd = start, end // the lines Passage is, also when the file changed
	ix.describe(&m, text)
	return m, true, nil
}
