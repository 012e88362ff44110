package index

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/search/query"

	"lwr/analyzer"
	"lwr/analyzer/thesaurus"
)

// rankedPlan is the query a ranked search runs, and what it looks for.
// planRanked builds it in steps: the query's words, its quoted words, the
// synonyms of its words, then the Bleve query. --explain prints it
// (String): each word's clauses and their weights.
type rankedPlan struct {
	terms    []string  // analyzed query words
	weights  []float64 // their weights, by part of speech
	surfaces []string  // how a Japanese word is written in the query, "" for others
	compound []string  // the compound an affix word belongs to (残業代), "" for others
	content  []string  // the content words among terms (see isContent)
	// forms are, per word, the folded strings the passage chooser looks
	// for in a document's lines: the word as written, its base form, a
	// verb's stem. They and the lines fold with analyzer.Fold, which keeps
	// spaces: what a line states is read with them (バージョン 16).
	forms [][]form
	synOf [][]alt // analyzed one-word synonyms of each query word
	// phraseOf are the synonyms of several words (非表示: 非, 表示) of each
	// query word, matched as a unit (all their bigrams) or not at all.
	phraseOf [][]alt
	synonyms []string
	literals []string // folded strings to find in snippets
	quoted   []string // folded quoted words, which must occur
	asked    Asked    // what the question asks for
	// quantities are the amounts the question states (6km, 勤続3年).
	quantities []quantity
	// conditioned: the question names a condition its answer depends on
	// (子ども, パート, 海外; conditions.go).
	conditioned bool
	q           query.Query

	// Built along the way.
	toks      []analyzer.Token
	text      string
	spans     []string          // the query's runs of Japanese, for the head's bigrams
	compounds []string          // the query's runs of two or more nouns (介護休業), as written
	potential map[string]string // a potential form's verb (休める → 休む), by term
	termIndex map[string]int
	stamp     []int // per word, the covered call that listed it last
	call      int
	lits      map[string]bool
	shown     map[string]bool
}

// form is a folded string the passage chooser looks for.
type form struct {
	text string
	// stem: a verb's stem (書 of 書く), which counts only before kana
	// (書いて, 書き), not inside another word (設計書).
	stem bool
	// edge: a condition's word as rules write it (子 for 子ども), which
	// counts only as a word of its own (conditions.go).
	edge bool
}

// planRanked analyzes the query and builds the Bleve query.
func planRanked(q Query, opts SearchOptions) rankedPlan {
	p := rankedPlan{text: q.Text(), lits: map[string]bool{}, shown: map[string]bool{}, potential: map[string]string{}}
	p.toks = opts.analyzerOf().QueryTokens(p.text)
	p.asked = AskedOf(p.text)
	p.quantities = quantitiesOf(analyzer.Fold(p.text))
	p.readWords()
	p.readQuoted(q)
	if len(p.content) == 0 {
		p.content = p.terms
	}
	p.synOf = make([][]alt, len(p.terms))
	p.phraseOf = make([][]alt, len(p.terms))
	p.addPotentials()
	p.addOkurigana(opts) // first: the same word, before the capped synonyms
	p.addSynonyms(opts)
	p.addDictionary(opts)
	p.addThesaurus(opts)
	p.build()
	return p
}

// addLit adds a folded string to look for in snippets.
func (p *rankedPlan) addLit(s string) {
	s = analyzer.FoldText(strings.TrimSpace(s))
	if s != "" && !p.lits[s] && (utf8.RuneCountInString(s) > 1 || s[0] >= utf8.RuneSelf) {
		p.lits[s] = true
		p.literals = append(p.literals, s)
	}
}

// readWords reads the query's words: each analyzed term once, with its
// weight, whether it names the topic, how it is written, the compound an
// affix belongs to; and the runs of Japanese for the head's bigrams.
func (p *rankedPlan) readWords() {
	toks, text := p.toks, p.text
	seen := map[string]bool{}
	run := 0 // nouns in the current compound
	p.termIndex = map[string]int{}
	for i, t := range toks {
		if base, ok := t.Potential(); ok {
			if analyzer.IsStopWord(base) {
				continue // できる, なれる: no word of the query
			}
			p.potential[t.Term] = base
		}
		surface := text[t.Start:t.End]
		if !seen[t.Term] {
			seen[t.Term] = true
			p.termIndex[t.Term] = len(p.terms)
			p.terms = append(p.terms, t.Term)
			w, content := termWeight(t), isContent(t)
			if framesTime(text, t) {
				w, content = wAffix, false
			}
			if glossed(text, t.Start) {
				w, content = w*wGloss, false // 臨時社員（有期契約）: the word before says it
			}
			p.weights = append(p.weights, w)
			if content {
				p.content = append(p.content, t.Term)
			}
			// Unknown words and katakana, which the analyzer may cut
			// differently in the documents, are also looked for by bigrams.
			sf := ""
			if t.Kind == analyzer.KindJapanese && (t.Unknown || hasKatakana(t.Term)) {
				sf = surface
			}
			p.surfaces = append(p.surfaces, sf)
			p.compound = append(p.compound, compoundOf(text, toks, i))
			p.forms = append(p.forms, nil)
		}
		k := p.termIndex[t.Term]
		p.forms[k] = addForm(p.forms[k], form{text: analyzer.Fold(surface)})
		p.forms[k] = addForm(p.forms[k], form{text: analyzer.Fold(t.Term)})
		if st := stemOf(t); st != "" {
			p.forms[k] = addForm(p.forms[k], form{text: st, stem: true})
		}
		for _, c := range conditionsOf(analyzer.Fold(surface), analyzer.Fold(t.Term)) {
			p.forms[k] = addForm(p.forms[k], c)
			p.conditioned = true
		}
		p.addLit(surface)
		p.addLit(t.Term)
		// Runs of nouns written together are compounds (介護休業).
		if strings.HasPrefix(t.POS, "名詞") && t.Kind == analyzer.KindJapanese {
			if i > 0 && strings.HasPrefix(toks[i-1].POS, "名詞") && toks[i-1].Kind == analyzer.KindJapanese && toks[i-1].End == t.Start && run > 0 {
				p.compounds[len(p.compounds)-1] += surface
				run++
			} else {
				p.compounds = append(p.compounds, surface)
				run = 1
			}
		} else {
			run = 0
		}
		// Merge neighbouring Japanese tokens into spans for the bigram view.
		if t.Kind == analyzer.KindJapanese {
			if i > 0 && toks[i-1].Kind == analyzer.KindJapanese && toks[i-1].End == t.Start && len(p.spans) > 0 {
				p.spans[len(p.spans)-1] += surface
			} else {
				p.spans = append(p.spans, surface)
			}
		}
	}
}

func addForm(fs []form, f form) []form {
	if f.text == "" || slices.ContainsFunc(fs, func(g form) bool { return g.text == f.text }) {
		return fs
	}
	return append(fs, f)
}

// stemOf is the stem of a verb or adjective whose base form ends in kana
// (書く → 書, 入れる → 入れ, 短い → 短), "" for other words.
func stemOf(t analyzer.Token) string {
	if !strings.HasPrefix(t.POS, "動詞") && !strings.HasPrefix(t.POS, "形容詞") {
		return ""
	}
	rs := []rune(analyzer.Fold(t.Term))
	if len(rs) < 2 || !isKana(rs[len(rs)-1]) {
		return ""
	}
	stem := rs[:len(rs)-1]
	for _, r := range stem {
		if !isKana(r) {
			return string(stem)
		}
	}
	return "" // all kana (する, いる): too common to look for
}

func isKana(r rune) bool { return r >= 0x3041 && r <= 0x30FF }

// readQuoted reads the quoted words, which must occur as written.
func (p *rankedPlan) readQuoted(q Query) {
	for _, w := range q.Words {
		if w.Quoted {
			p.quoted = append(p.quoted, analyzer.FoldText(w.Text))
			p.addLit(w.Text)
		}
	}
}

// addPotentials adds the verb a potential form is made from (休める →
// 休む) as a variant of it.
func (p *rankedPlan) addPotentials() {
	for i, t := range p.terms {
		if base, ok := p.potential[t]; ok && !hasAlt(p.synOf[i], base) {
			if _, own := p.termIndex[base]; !own {
				p.synOf[i] = append(p.synOf[i], alt{text: base, weight: wVariant})
			}
		}
	}
}

// addSyn adds a synonym s (analyzed into terms) of the query words to:
// a synonym of several words is matched as a unit or not at all (隠し →
// 非表示 must not match 表示 alone).
func (p *rankedPlan) addSyn(s string, terms []string, weight float64, thes bool, to []int) {
	if !p.shown[s] {
		p.shown[s] = true
		p.synonyms = append(p.synonyms, s)
	}
	p.addLit(s)
	if len(terms) > 1 && len(analyzer.QueryBigrams(s)) > 0 && !isPlainASCIIWord(s) {
		for _, i := range to {
			if !hasAlt(p.phraseOf[i], s) {
				p.phraseOf[i] = append(p.phraseOf[i], alt{s, weight, thes})
			}
		}
		return
	}
	for _, term := range terms {
		if _, own := p.termIndex[term]; own {
			continue
		}
		for _, i := range to {
			if !hasAlt(p.synOf[i], term) {
				p.synOf[i] = append(p.synOf[i], alt{term, weight, thes})
			}
		}
	}
}

func (p *rankedPlan) all() []int {
	all := make([]int, len(p.terms))
	for i := range all {
		all[i] = i
	}
	return all
}

// addSynonyms adds the extra synonyms (--synonym), each for every word.
func (p *rankedPlan) addSynonyms(opts SearchOptions) {
	for _, s := range opts.Synonyms {
		p.addSyn(s, opts.Dictionary.Terms(s), wSynonym, false, p.all())
	}
}

// covered are the query words whose tokens overlap start..end of the
// query text, in order: the tokens are in text order, so it finds the
// first by binary search and reads no further than end (linear in the
// query over all the dictionary's entries).
func (p *rankedPlan) covered(start, end int) []int {
	if len(p.stamp) != len(p.terms) {
		p.stamp = make([]int, len(p.terms))
	}
	p.call++
	var to []int
	for k := sort.Search(len(p.toks), func(k int) bool { return p.toks[k].End > start }); k < len(p.toks) && p.toks[k].Start < end; k++ {
		if i, ok := p.termIndex[p.toks[k].Term]; ok && p.stamp[i] != p.call {
			p.stamp[i] = p.call
			to = append(to, i)
		}
	}
	return to
}

// addDictionary adds the dictionary's synonyms, each for the words its
// entry spans in the query.
//
// The words of a phrase that only says again a word the question holds
// elsewhere (会社を辞める beside 退職金: 退職) weigh as little as a gloss: the question's
// own word finds the passage, and 会社, in every line of a rule, would
// pick the wrong one.
func (p *rankedPlan) addDictionary(opts SearchOptions) {
	restated := map[int]bool{}
	for _, e := range opts.Dictionary.Entries(p.text) {
		to := p.covered(e.Start, e.End)
		if len(to) == 0 {
			to = p.all()
		}
		for _, s := range e.Synonyms {
			p.addSyn(s, opts.Dictionary.Terms(s), wSynonym, false, to)
		}
		for _, sp := range e.Again {
			// A phrase of several words (会社を辞める), not a single word
			// the question may set beside it on purpose (評価と査定).
			if again := p.covered(sp[0], sp[1]); len(again) > 1 {
				for _, i := range again {
					if !slices.Contains(to, i) {
						restated[i] = true
					}
				}
			}
		}
	}
	if len(restated) == 0 {
		return
	}
	content := make([]string, 0, len(p.content))
	for _, t := range p.content {
		if i, ok := p.termIndex[t]; !ok || !restated[i] {
			content = append(content, t)
		}
	}
	p.content = content
	for i := range restated {
		p.weights[i] *= wGloss
	}
}

// addThesaurus adds SudachiDict's groups, below the hand-made dictionary:
// the same lexeme (スマホ, スマートフォン) nearly as the word, words of like
// meaning (印鑑, 印章) lower.
func (p *rankedPlan) addThesaurus(opts SearchOptions) {
	if !opts.Dictionary.Thesaurus() || opts.NoThesaurus {
		return
	}
	toks := p.toks
	ts := make([]thesaurus.Term, len(toks))
	for i, t := range toks {
		ts[i] = thesaurus.Term{Text: t.Term, Predicate: strings.HasPrefix(t.POS, "動詞") || strings.HasPrefix(t.POS, "形容詞"),
			Joined: i > 0 && t.Kind == analyzer.KindJapanese && toks[i-1].Kind == analyzer.KindJapanese && toks[i-1].End == t.Start}
	}
	for _, m := range thesaurus.Default().Lookup(ts) {
		// A word of several query terms (早見表: 早見, 表) stands in for
		// the first one only: a weak synonym must not cover them all.
		to := p.covered(toks[m.From].Start, toks[m.To-1].End)
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
			p.addSyn(w.Text, w.Terms, weight, true, to)
		}
	}
}

// addOkurigana adds the shorter spellings that rules use for a word the
// question writes with okurigana (申し出: 申出, 取り扱い: 取扱), nearly as
// the word.
func (p *rankedPlan) addOkurigana(opts SearchOptions) {
	a := opts.analyzerOf()
	for _, t := range p.toks {
		i, ok := p.termIndex[t.Term]
		if !ok {
			continue
		}
		for _, v := range a.Okurigana(t) {
			var terms []string
			a.Terms(v, func(term string) { terms = append(terms, term) })
			p.addSyn(v, terms, wVariant, false, []int{i})
		}
	}
}

// build builds the Bleve query: one clause per query word (the word in the
// body and in the head — file name, folders, title, summary, lead — and
// its synonyms at a lower weight), summed and scaled by the words'
// weighted coverage; a bonus for the query's bigrams in the head; the
// quoted words required.
func (p *rankedPlan) build() {
	if len(p.terms) == 0 && len(p.quoted) == 0 {
		return
	}
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
	if gram := p.headBigrams(); len(gram) > 0 {
		var qs []query.Query
		for _, g := range gram {
			qs = append(qs, termQ(fieldHeadGram, g, wHeadGram))
		}
		top.children = append(top.children, &combineQuery{children: qs})
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
}

// headBigrams are the distinct bigrams of the query's runs of Japanese.
func (p *rankedPlan) headBigrams() []string {
	var out []string
	seen := map[string]bool{}
	for _, s := range p.spans {
		for _, g := range analyzer.QueryBigrams(s) {
			if !seen[g] {
				seen[g] = true
				out = append(out, g)
			}
		}
	}
	return out
}

// String is the plan as --explain prints it: per word its weight and
// clauses (field:term^boost), its synonyms with theirs, then the head's
// bigrams, the quoted words and what the question asks for.
func (p rankedPlan) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "plan: %d words, score = sum of the words' clauses × coverage^%g\n", len(p.terms), coverageAlpha)
	num := func(f float64) string { return strings.TrimRight(strings.TrimRight(fmt.Sprintf("%.3f", f), "0"), ".") }
	for i, t := range p.terms {
		w := p.weights[i]
		role := "word"
		if slices.Contains(p.content, t) {
			role = "content word"
		}
		fmt.Fprintf(&b, "  %s (%s, weight %s): body:%s^%s head:%s^%s", t, role, num(w), t, num(w*wBody), t, num(w*wHead))
		for _, s := range capped(p.synOf[i]) {
			fmt.Fprintf(&b, " | synonym body:%s^%s head:%s^%s", s.text, num(w*s.weight*wBody), s.text, num(w*s.weight*wHead))
		}
		for _, s := range capped(p.phraseOf[i]) {
			fmt.Fprintf(&b, " | phrase gram:%s^%s", s.text, num(w*s.weight*wBody))
		}
		if c := p.compound[i]; c != "" {
			fmt.Fprintf(&b, " | compound gram:%s^%s", c, num(wCompound))
		}
		if p.surfaces[i] != "" {
			fmt.Fprintf(&b, " | bigrams gram:%s^%s", p.surfaces[i], num(w*wGramWord))
		}
		b.WriteByte('\n')
	}
	if g := p.headBigrams(); len(g) > 0 {
		fmt.Fprintf(&b, "  head bigrams ^%s: %s\n", num(wHeadGram), strings.Join(g, " "))
	}
	if len(p.quoted) > 0 {
		fmt.Fprintf(&b, "  required: %s\n", strings.Join(p.quoted, " "))
	}
	if p.asked.Any() {
		fmt.Fprintf(&b, "  asks for: %s (a passage that states it counts more)\n", p.asked)
	}
	return strings.TrimRight(b.String(), "\n")
}
