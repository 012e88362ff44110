package deep

import (
	"context"
	"slices"
	"strings"
	"unicode/utf8"

	"lwr/analyzer"
	"lwr/analyzer/lazyre"
	"lwr/index"
	"lwr/research/local"
)

// facetGaps separate two facets of a question when they stand, alone,
// between two of its words: the particles と and や (並立助詞, 格助詞),
// 及び, 並びに and the marks ・、/ — which the analyzer leaves out. A と
// inside a word (ひととおり, とりまとめる, まとめて) is no gap.
var facetGaps = map[string]bool{
	"と": true, "や": true, "及び": true, "および": true, "並びに": true, "ならびに": true,
	"・": true, "、": true, "，": true, ",": true, "／": true, "/": true,
}

// requestWords are the words of a question that ask rather than name
// what is asked about (全部まとめて, 教えて, 調べて, 調査して), as the
// analyzer writes them (base forms).
var requestWords = map[string]bool{
	"全部": true, "全て": true, "すべて": true, "全体": true, "一通り": true, "ひととおり": true,
	"まとめる": true, "とりまとめる": true, "取りまとめる": true, "教える": true, "調べる": true, "調査": true,
	"知る": true, "知りたい": true, "一覧": true, "整理": true, "説明": true, "解説": true, "網羅": true,
}

// question reads a question as the analyzer does: its facets (日当と宿泊料
// → 日当, 宿泊料; split only where a particle or a mark of facetGaps
// stands alone after a noun) and its core, the question without the
// request that ends it (出張の旅費規程を全部まとめて → 出張の旅費規程).
// A request is no facet.
func question(topic string) (facets []string, core string) {
	toks := analyzer.Default().Tokens(topic)
	if len(toks) == 0 {
		return nil, topic
	}
	noun := func(t analyzer.Token) bool { return t.Kind == analyzer.KindLatin || strings.HasPrefix(t.POS, "名詞") }
	// trim leaves out the request words at the ends of a run of words,
	// and the verbs and adjectives that end it (調べて, 知りたい).
	// request is the number of words at the start (or the end) of g
	// that make a request word, one word or a few (ひと+とおり), 0 when none
	// does.
	request := func(g []analyzer.Token, atEnd bool) int {
		for k := min(3, len(g)); k >= 1; k-- {
			w := g[:k]
			if atEnd {
				w = g[len(g)-k:]
			}
			if k == 1 && requestWords[w[0].Term] || requestWords[topic[w[0].Start:w[len(w)-1].End]] {
				return k
			}
		}
		return 0
	}
	trim := func(g []analyzer.Token) []analyzer.Token {
		for len(g) > 0 {
			k := request(g, false)
			if k == 0 {
				break
			}
			g = g[k:]
		}
		for len(g) > 0 {
			if k := request(g, true); k > 0 {
				g = g[:len(g)-k]
				continue
			}
			if noun(g[len(g)-1]) {
				break
			}
			g = g[:len(g)-1]
		}
		return g
	}
	span := func(g []analyzer.Token) (int, int) {
		end := 0
		for _, t := range g {
			end = max(end, t.End)
		}
		return g[0].Start, end
	}
	var groups [][]analyzer.Token
	var cur []analyzer.Token
	end := 0
	for _, t := range toks {
		if len(cur) > 0 && t.Start >= end {
			gap := strings.Trim(topic[end:t.Start], " \t　")
			if facetGaps[gap] && noun(cur[len(cur)-1]) {
				groups = append(groups, cur)
				cur = nil
			}
		}
		cur = append(cur, t)
		end = max(end, t.End)
	}
	groups = append(groups, cur)
	core = topic
	if all := trim(toks); len(all) > 0 {
		_, e := span(all)
		core = strings.TrimSpace(topic[:e])
	}
	if len(groups) < 2 {
		return nil, core
	}
	for _, g := range groups {
		if g = trim(g); len(g) > 0 {
			s, e := span(g)
			facets = append(facets, strings.TrimSpace(topic[s:e]))
		}
	}
	return facets, core
}

// heading is a line that names a part of a document: a Markdown heading
// below the title, or an article's title in parentheses.
var (
	mdHeading    = lazyre.New(`^#{2,6}\s+(.+?)\s*#*$`)
	articleName  = lazyre.New(`^(?:#{1,6}\s*)?第[0-9０-９一二三四五六七八九十百千]+条\s*[（(]([^）)]+)[）)]\s*$`)
	chapterLabel = lazyre.New(`^(?:第[0-9０-９一二三四五六七八九十百千]+[章節款編部]|[0-9０-９]{1,3}[.．、)）]|[（(][0-9０-９]{1,3}[）)])\s*`)
)

// generic are the headings every rule has, which name no subtopic.
var generic = map[string]bool{
	"目的": true, "趣旨": true, "定義": true, "用語の定義": true, "総則": true, "適用範囲": true, "適用": true, "附則": true,
	"雑則": true, "補則": true, "改廃": true, "施行": true, "施行期日": true, "前文": true, "はじめに": true, "概要": true,
	"目次": true, "改定履歴": true, "改訂履歴": true, "問い合わせ": true, "問合せ先": true, "問い合わせ先": true, "その他": true,
}

// fallbackFacets are the facets a subtopic list is filled up with when
// the question and the documents give fewer than ProposeMin.
var fallbackFacets = []string{"対象と範囲", "手続きと期限", "金額と上限", "例外と注意点"}

// topicFiller are words of a question that name no document: 規程,
// ルール, まとめ (出張旅費の規程 is about 旅費; 社内ルール about nothing in particular).
var topicFiller = map[string]bool{
	"規程": true, "規則": true, "規定": true, "ルール": true, "社内": true, "まとめ": true, "全部": true, "調査": true,
	"一覧": true, "概要": true, "内容": true, "制度": true, "について": true,
}

// propose decomposes a topic into 3–5 subtopics: the question's own
// facets (日当と宿泊料 → 日当, 宿泊料); then the headings of the documents
// its words find that are the topic's own (their title holds half its
// words or more: 旅費規程 for 出張旅費の規程), in the order found — a rule's
// article titles, in order, or its chapters — or, when none is, the
// titles of the documents found (a topic several documents share); then
// generic facets of a rule.
func (s *searcher) propose(ctx context.Context, topic string) ([]Subtopic, error) {
	var subs []Subtopic
	facets, core := question(topic)
	add := func(n string, queries ...string) {
		n = strings.TrimSpace(n)
		if utf8.RuneCountInString(n) < 2 || utf8.RuneCountInString(n) > maxSubtopicChars || generic[n] || fold(n) == fold(topic) || fold(n) == fold(core) || len(subs) >= ProposeMax {
			return
		}
		for _, x := range subs {
			if fold(x.Name) == fold(n) {
				return
			}
		}
		if len(queries) == 0 {
			queries = defaultQueries(core, n)
		}
		subs = append(subs, Subtopic{Name: n, Queries: queries, Proposed: true})
	}
	for _, f := range facets {
		add(f)
	}
	if q, err := index.ParseQuery(core); err == nil {
		res, err := s.local.Search(ctx, local.Request{Query: q, Mode: index.Ranked, Limit: 5, MaxChars: 200, NoHighlights: true})
		if err != nil && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if err == nil && len(res.Matches) > 0 {
			var words []string
			for _, w := range res.Content {
				if fw := analyzer.Fold(w); !topicFiller[fw] && !slices.Contains(words, fw) {
					words = append(words, fw)
				}
			}
			own := func(title string) bool {
				ft, n := analyzer.Fold(title), 0
				for _, w := range words {
					if strings.Contains(ft, w) {
						n++
					}
				}
				return len(words) > 0 && 2*n >= len(words)
			}
			if slices.ContainsFunc(res.Matches, func(m index.Match) bool { return own(m.Title) }) {
				for _, m := range res.Matches {
					if !own(m.Title) {
						continue
					}
					for _, h := range s.headings(m.Path) {
						add(h)
					}
				}
			} else {
				tw := topicWords(topic)
				for _, m := range res.Matches {
					// A document is a subtopic of the topic only when it
					// speaks of it (its title or the passage found).
					if !aboutTopic(Evidence{Title: m.Title, Claim: m.Snippet}, tw) {
						continue
					}
					add(m.Title, core+" "+m.Title, m.Title)
				}
			}
		}
	}
	for _, f := range fallbackFacets {
		if len(subs) >= ProposeMin {
			break
		}
		// A generic facet means nothing without the topic.
		add(f, core+" "+f)
	}
	return subs, nil
}

// headings are a document's article titles in order (第4条（日当） →
// 日当), or its Markdown headings below the title when it has no
// articles.
func (s *searcher) headings(rel string) []string {
	f, err := s.read(rel)
	if err != nil {
		return nil
	}
	var articles, chapters []string
	for _, l := range f.Lines {
		t := strings.TrimSpace(l)
		if a := articleName.FindStringSubmatch(t); a != nil {
			articles = append(articles, a[1])
		} else if h := mdHeading.FindStringSubmatch(t); h != nil {
			chapters = append(chapters, strings.TrimSpace(chapterLabel.ReplaceAllString(h[1], "")))
		}
	}
	if len(articles) == 0 {
		return chapters
	}
	return articles
}
