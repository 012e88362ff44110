package index

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"unicode"
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
	// wAnswerFile raises a file whose chosen passage states what the
	// question asks for (× 1 + wAnswerFile × how well it does); the
	// answerPool files below the limit are weighed too.
	wAnswerFile = 0.3
	answerPool  = 4
	// wFormFile scales a form (BlankForm) the question is not about: it
	// shows what a request asks for, the rule says what holds.
	wFormFile = 0.3
)

// termWeight weighs a query word by its part of speech: in a question
// ("ディスクの空き容量を調べる") the nouns name the topic while verbs and
// verbal nouns (調べる, 表示, 追加) name generic actions that many documents
// share, and adverbs (ちょっと, たまに) and the asker's times (今月) how and
// when the asker speaks, not what.
func termWeight(t analyzer.Token) float64 {
	switch {
	case t.Kind == analyzer.KindLatin:
		return 1
	case strings.HasPrefix(t.POS, "動詞"), strings.HasPrefix(t.POS, "形容詞"):
		return wVerb
	case t.POS == "名詞,サ変接続":
		return wVerbalNoun
	case isAffix(t), frameWords[t.Term], deicticWords[t.Term], strings.HasPrefix(t.POS, "副詞"):
		return wAffix
	}
	return 1
}

// deicticWords are times as the asker sees them (今月, 来週, 最近): a rule
// writes 当月 or 清算期間, never the asker's now.
var deicticWords = map[string]bool{"今日": true, "明日": true, "昨日": true, "今週": true, "来週": true, "先週": true, "今月": true, "来月": true, "先月": true, "今年": true, "来年": true, "去年": true, "昨年": true, "今度": true, "最近": true, "今回": true, "この間": true}

// frameWords are nouns that frame a question (計算の方法, 休める場合,
// 持ち帰っても大丈夫, 変えないとだめ, 誰でも使える) rather than name its topic: weighed as
// an affix and not content words.
var frameWords = map[string]bool{"方法": true, "やり方": true, "仕方": true, "場合": true, "際": true, "仕組み": true, "大丈夫": true, "可能": true, "だめ": true, "ダメ": true, "駄目": true, "誰": true, "だれ": true, "どなた": true}

// isAffix reports a suffix or prefix morpheme (代 in 残業代, 非 in 非表示).
func isAffix(t analyzer.Token) bool {
	return t.POS == "名詞,接尾" || strings.HasPrefix(t.POS, "接頭詞")
}

// timeFrames are nouns that, after の, say when rather than what (研修の前に,
// 休暇の間, 会議の最中): weighed as a frame word, not as the topic.
var timeFrames = map[string]bool{"前": true, "間": true, "最中": true}

// framesTime reports a word of timeFrames written right after の.
func framesTime(text string, t analyzer.Token) bool {
	return timeFrames[t.Term] && strings.HasPrefix(t.POS, "名詞") && strings.HasSuffix(text[:t.Start], "の")
}

// wGloss weighs the words of a question's gloss in brackets after a
// word (臨時社員（有期契約）, 育休（育児休業）): they say again what the word
// before them names, and a passage that holds only them (a definition of
// 臨時社員) has not answered what is asked of it.
const wGloss = 0.3

// glossed reports whether offset i of a question stands inside a gloss:
// brackets right after a word that hold kanji and hiragana only. A list
// (PDF・Excel), a name (@@foo), an edition (3.6版) or a katakana term in
// brackets is what the question asks about.
func glossed(text string, i int) bool {
	open := max(strings.LastIndex(text[:i], "（"), strings.LastIndex(text[:i], "("))
	if open <= 0 || strings.ContainsAny(text[open:i], "）)") {
		return false
	}
	_, n := utf8.DecodeRuneInString(text[open:])
	inner, _, closed := strings.Cut(text[open+n:], "）")
	if !closed || inner == "" {
		return false
	}
	for _, r := range inner {
		if !unicode.Is(unicode.Han, r) && !unicode.Is(unicode.Hiragana, r) {
			return false
		}
	}
	r, _ := utf8.DecodeLastRuneInString(text[:open])
	return unicode.Is(unicode.Han, r) || unicode.Is(unicode.Katakana, r)
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
	return strings.HasPrefix(t.POS, "名詞") && !isAffix(t) && !frameWords[t.Term] && !deicticWords[t.Term] && t.POS != "名詞,代名詞"
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

func (ix *Index) ranked(ctx context.Context, q Query, opts SearchOptions) (*Result, error) {
	p := planRanked(q, opts)
	res := &Result{Terms: p.terms, Content: p.content, Synonyms: p.synonyms}
	if p.q == nil {
		return res, nil
	}
	if opts.Explain {
		res.Plan = p.String()
	}
	type cand struct {
		path   string
		hits   []scoredPassage // the file's passages among the hits, best first
		score  float64
		expl   *search.Explanation
		second float64 // the file's second-best passage's score, 0 for none
	}
	var cands []cand
	size := opts.Limit * hitsPerResult
	for {
		// One hit past the cut tells whether equal passages straddle it.
		req := ix.searchRequest(p.q, size+1, opts.Explain)
		sr, err := ix.searchIn(ctx, req)
		if err != nil {
			return nil, fmt.Errorf("search: %w", err)
		}
		hits := aboveCut(sr.Hits, size)
		if len(hits) == 0 && len(sr.Hits) > 0 {
			size *= 4 // the best passages all tie past the cut
			continue
		}
		cands = cands[:0]
		at := map[string]int{} // path → index in cands
		for _, h := range hits {
			pth, s, e, ok := parsePassageID(h.ID)
			if !ok || !opts.inScope(pth) || h.Score <= 0 {
				continue
			}
			if k, dup := at[pth]; dup {
				if cands[k].second == 0 {
					cands[k].second = h.Score // hits come best first
				}
				cands[k].hits = append(cands[k].hits, scoredPassage{s, e, h.Score})
				continue
			}
			at[pth] = len(cands)
			cands = append(cands, cand{path: pth, hits: []scoredPassage{{s, e, h.Score}}, score: h.Score, expl: h.Expl})
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
	// Every passage of the files shown, scored: the passage chooser
	// weighs them all, not only those among the best hits.
	var shown []string
	for _, c := range cands[:min(len(cands), opts.Limit+answerPool+2)] {
		shown = append(shown, c.path)
	}
	all, err := ix.filePassages(ctx, p.q, shown)
	if err != nil {
		return nil, err
	}
	for i := range cands {
		if hs := all[cands[i].path]; len(hs) > 0 {
			cands[i].hits = hs
		}
	}
	// The files whose passage states what the question asks for move up:
	// the best ones, and a few below them, get their passages chosen and
	// their scores raised by how well that passage states it.
	pool := opts.Limit
	if p.asked.Any() {
		pool += answerPool
	}
	for _, c := range cands {
		if len(res.Matches) >= pool {
			break
		}
		m, ok, err := ix.snippet(c.path, c.hits, &p, opts)
		if err != nil {
			return nil, err
		}
		if !ok {
			continue
		}
		m.Score = c.score
		bonus := 0.0
		if m.Answer != nil && p.asked.Value() && m.Answer.Stated >= 1 {
			// The asked value itself; the signs of a rule or a procedure
			// (禁止, すること) are in most rules and move no file.
			bonus = wAnswerFile * m.Answer.Stated
			m.Score *= 1 + bonus
		}
		// A file whose best answer holds few of the question's words
		// matched them elsewhere (看護休暇の5日 for 妻の出産の休暇; its
		// title held 出産): it keeps that share of its score, the share's
		// square root when the question asks for no kind of value (a
		// manual's best unit names less of a how-to question).
		partial := m.Answer != nil && m.Answer.Coverage < 1
		cover := 1.0
		if partial {
			cover = m.Answer.Coverage
			if !p.asked.Any() {
				cover = math.Sqrt(cover)
			}
			m.Score *= cover
		}
		form := m.Kind == KindForm && !m.Kind.AsksAbout(p.text) && BlankForm(m.Path, m.Title)
		if form {
			m.Score *= wFormFile
		}
		if opts.Explain {
			why := m.Explain
			m.Explain = explain(c.expl)
			if wSecond*c.second > 0 {
				m.Explain += fmt.Sprintf("\n+ %.3f = %g × %.3f, the file's second-best passage", wSecond*c.second, wSecond, c.second)
			}
			if bonus > 0 {
				m.Explain += fmt.Sprintf("\n× %.3f = 1 + %g × %.2f, its passage states what the question asks for (%s)", 1+bonus, wAnswerFile, m.Answer.Stated, p.asked)
			}
			if partial {
				m.Explain += fmt.Sprintf("\n× %.2f, for the share of the question's words its answer holds (%.2f)", cover, m.Answer.Coverage)
			}
			if form {
				m.Explain += fmt.Sprintf("\n× %g, a %s the question is not about", wFormFile, m.Kind.Label())
			}
			if why != "" {
				m.Explain += "\n" + why
			}
		}
		res.Matches = append(res.Matches, m)
	}
	out, err := ix.scopeOut(ctx, &p, res.Matches)
	if err != nil {
		return nil, err
	}
	for i, m := range res.Matches {
		if w, ok := out[m.Path]; ok {
			res.Matches[i].Score *= wScopeOut
			if opts.Explain {
				res.Matches[i].Explain += fmt.Sprintf("\n× %g, it never names %s, which another file's name or title does", wScopeOut, w)
			}
		}
	}
	slices.SortStableFunc(res.Matches, func(a, b Match) int {
		if a.Score != b.Score {
			if a.Score > b.Score {
				return -1
			}
			return 1
		}
		return strings.Compare(a.Path, b.Path)
	})
	res.Matches = res.Matches[:min(len(res.Matches), opts.Limit)]
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
		sr, err := ix.searchIn(ctx, ix.searchRequest(bleve.NewConjunctionQuery(p.q, pq), 1, opts.Explain))
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
		m, ok, err := ix.snippet(pth, []scoredPassage{{s, e, h.Score}}, &p, opts)
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
			why := m.Explain
			m.Explain = explain(h.Expl)
			if why != "" {
				m.Explain += "\n" + why
			}
		}
		res.Matches = append(res.Matches, m)
	}
	return res, nil
}

// filePassages scores every passage of the files for a query: by file,
// its passages that match, best first.
func (ix *Index) filePassages(ctx context.Context, q query.Query, files []string) (map[string][]scoredPassage, error) {
	var ids []string
	for _, f := range files {
		if e, ok := ix.entry(f); ok {
			ids = append(ids, e.IDs...)
		}
	}
	out := map[string][]scoredPassage{}
	if len(ids) == 0 {
		return out, nil
	}
	sr, err := ix.searchIn(ctx, ix.searchRequest(bleve.NewConjunctionQuery(q, bleve.NewDocIDQuery(ids)), len(ids), false))
	if err != nil {
		return nil, fmt.Errorf("search: %w", err)
	}
	for _, h := range sr.Hits {
		if pth, s, e, ok := parsePassageID(h.ID); ok && h.Score > 0 {
			out[pth] = append(out[pth], scoredPassage{s, e, h.Score})
		}
	}
	return out, nil
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
		sr, err := ix.searchIn(ctx, req)
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
		sr, err := ix.searchIn(ctx, req)
		if err != nil {
			return false, fmt.Errorf("search: %w", err)
		}
		if sr.Total == 0 {
			return false, nil
		}
	}
	return true, nil
}

// wScopeOut weighs a file that never names a scope the question names in
// Latin letters (Ruby, Swift, PostgreSQL) when another file's name or
// title names it: the style guide of another language answers another
// question.
const wScopeOut = 0.75

// scopeOut returns the matches (path → the word) that never name, in
// their text or head, a Latin word of the question that the name or title
// of another match holds, nor one of its synonyms.
func (ix *Index) scopeOut(ctx context.Context, p *rankedPlan, ms []Match) (map[string]string, error) {
	out := map[string]string{}
	for i, t := range p.terms {
		if !isASCIIWord(t) || isNumber(t) || len(t) < 3 || !slices.Contains(p.content, t) {
			continue
		}
		named := 0
		for _, m := range ms {
			if containsWord(analyzer.Fold(m.Path+"\n"+m.Title), t) {
				named++
			}
		}
		if named == 0 || named == len(ms) {
			continue
		}
		forms := []string{t}
		for _, s := range p.synOf[i] {
			forms = append(forms, s.text)
		}
		var docs []string
		for _, m := range ms {
			if _, ok := out[m.Path]; !ok && !containsWord(analyzer.Fold(m.Path+"\n"+m.Title), t) {
				docs = append(docs, m.Path)
			}
		}
		held, err := ix.holdAny(ctx, docs, forms)
		if err != nil {
			return nil, err
		}
		for _, d := range docs {
			if !held[d] {
				out[d] = t
			}
		}
	}
	return out, nil
}

// holdAny reports which documents hold one of the terms at least, in
// their own analyzed text or head.
func (ix *Index) holdAny(ctx context.Context, docs, terms []string) (map[string]bool, error) {
	out := make(map[string]bool, len(docs))
	if len(terms) == 0 || len(docs) == 0 {
		return out, nil
	}
	anyTerm := func() query.Query {
		var ts []query.Query
		for _, t := range terms {
			ts = append(ts, termQ(fieldBody, t, 1), termQ(fieldHead, t, 1))
		}
		return bleve.NewDisjunctionQuery(ts...)
	}
	var ps []query.Query
	for _, d := range docs {
		pq := bleve.NewTermQuery(d)
		pq.SetField(fieldPath)
		ps = append(ps, pq)
	}
	req := ix.searchRequest(bleve.NewConjunctionQuery(bleve.NewDisjunctionQuery(ps...), anyTerm()), 50*len(docs)+100, false)
	req.Score = "none"
	sr, err := ix.searchIn(ctx, req)
	if err != nil {
		return nil, fmt.Errorf("search: %w", err)
	}
	for _, h := range sr.Hits {
		if pth, _, _, ok := parsePassageID(h.ID); ok {
			out[pth] = true
		}
	}
	if uint64(len(sr.Hits)) < sr.Total {
		// Some documents' passages were left past the cut: ask of each.
		for _, d := range docs {
			if out[d] {
				continue
			}
			pq := bleve.NewTermQuery(d)
			pq.SetField(fieldPath)
			req := ix.searchRequest(bleve.NewConjunctionQuery(pq, anyTerm()), 0, false)
			req.Score = "none"
			sr, err := ix.searchIn(ctx, req)
			if err != nil {
				return nil, fmt.Errorf("search: %w", err)
			}
			out[d] = sr.Total > 0
		}
	}
	return out, nil
}

// lowest is the lowest score of the matches, or +Inf.
func lowest(ms []Match) float64 {
	lo := math.Inf(1)
	for _, m := range ms {
		lo = min(lo, m.Score)
	}
	return lo
}

// snippet reads a file and cuts the snippet of a ranked hit: the lines
// the passage chooser picks among the file's units (its best passages in
// the index weighing in), or, when no unit holds a word, the window of the
// best passage that does; ok is false when the file is gone or no longer
// holds a quoted word. hits are the file's passages among the hits, best
// first.
func (ix *Index) snippet(rel string, hits []scoredPassage, p *rankedPlan, opts SearchOptions) (Match, bool, error) {
	literals, quoted, maxChars := p.literals, p.quoted, opts.MaxChars
	cur, ok := ix.readCurrent(rel)
	if !ok {
		return Match{}, false, nil
	}
	text := cur.text
	lines := Lines(text)
	start, end := hits[0].start, hits[0].end
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
	var m Match
	e, _ := ix.entry(rel)
	kind := KindOf(rel, e.Title)
	st := structureOf(lines)
	ch := choose(st, p, rel+"\n"+e.Title, kind, hits, maxChars, opts.Explain)
	if ch.unit >= 0 {
		// One place: the lines of the answer's page, sheet, slide,
		// heading or part (without an answer, those of the chosen unit's
		// lines that hold the most words), so that its label says where
		// they all stand and the answer is among them.
		a, b := ch.start, ch.end
		if an := ch.answer; an != nil && (an.StartLine > an.EndLine || an.StartLine < a || an.EndLine > b) {
			ch.answer = nil // no lines of the snippet
		}
		if an := ch.answer; an != nil && len(cur.locs) == len(lines) && !holdsAny(lines[an.StartLine-1:an.EndLine], literals) {
			// An answer that holds none of the question's words (a note
			// beside the cell that does) is no place to send a reader to:
			// the place of the window that holds the most of them is.
			if wa, wb := sectionOf(lines, cur.locs, literals, a, b); an.StartLine < wa || an.EndLine > wb {
				ch.answer = nil
			}
		}
		if an := ch.answer; an != nil {
			// An answer over two places (a paragraph run on past a
			// heading) is narrowed to the one that holds the most words.
			aa, ab := sectionOf(lines, cur.locs, literals, an.StartLine, an.EndLine)
			if aa != an.StartLine || ab != an.EndLine {
				narrowed := *an
				narrowed.StartLine, narrowed.EndLine = aa, ab
				narrowed.Text = plainText(analyzer.JoinWrapped(lines[aa-1 : ab]))
				narrowed.Stated = min(an.Stated, p.asked.stated(analyzer.Fold(narrowed.Text)))
				ch.answer = &narrowed
			}
			a, b = placeAround(cur.locs, aa, ab, a, b)
		} else {
			u := st.units[ch.unit]
			ua, ub := sectionOf(lines, cur.locs, literals, max(u.start+1, a), min(u.end+1, b))
			a, b = placeAround(cur.locs, ua, ub, a, b)
		}
		m = Match{StartLine: a, EndLine: b, Snippet: strings.Join(lines[a-1:b], "\n"), Also: ch.also, Answer: ch.answer, Explain: ch.why}
		if !opts.SkipHighlights {
			m.Highlights = highlights(m.Snippet, literals)
		}
	} else {
		var found bool
		a, b := sectionOf(lines, cur.locs, literals, start, end) // one place: its label says where all its lines stand
		m, found = snippetOf(lines, a, b, literals, maxChars, !opts.SkipHighlights)
		if !found && (start > 1 || end < len(lines)) {
			// The file changed since it was indexed: look in all of it.
			a, b := sectionOf(lines, cur.locs, literals, 1, len(lines))
			if m2, found := snippetOf(lines, a, b, literals, maxChars, !opts.SkipHighlights); found {
				m = m2
			}
		}
	}
	// The passage is the index's passage (or passages) of the snippet.
	ps := cutPassagesOf(lines, sectionStarts(cur.locs, len(lines)), st)
	start, _ = passageOf(ps, m.StartLine)
	_, end = passageOf(ps, m.EndLine)
	m.Path = rel
	m.Kind = kind
	m.ModTime = cur.mtime
	m.SHA256 = cur.sum
	// Where the answer stands, when a unit states it: the row or the
	// comment a reader is sent to, not the header above it.
	if a := m.Answer; a != nil && a.StartLine >= m.StartLine && a.EndLine <= m.EndLine && len(cur.locs) >= a.EndLine {
		m.Locator = cur.locator(a.StartLine, a.EndLine, literals)
	} else {
		m.Locator = cur.locator(m.StartLine, m.EndLine, literals)
	}
	m.Passage = strings.Join(lines[start-1:end], "\n")
	m.PassageStart, m.PassageEnd = start, end // the lines Passage is, also when the file changed
	ix.describe(&m, text)
	return m, true, nil
}

// aboveCut returns the first size hits (best first) without the passages
// that score as the first one past them: which of equal passages (copies
// of a file) the index returns at the cut depends on how its segments were
// written, so a tie across it is left out, and the same files give the
// same results however they were indexed. It returns nil when every hit
// ties: more must be asked for.
func aboveCut(hits search.DocumentMatchCollection, size int) search.DocumentMatchCollection {
	if len(hits) <= size {
		return hits
	}
	cut := hits[size].Score
	n := size
	for n > 0 && hits[n-1].Score == cut {
		n--
	}
	return hits[:n]
}
