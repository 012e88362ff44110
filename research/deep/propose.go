package deep

import (
	"context"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"lwr/analyzer"
	"lwr/index"
	"lwr/research/local"
)

// facetSep splits a question into its facets: 日当と宿泊料, 申請・承認.
var facetSep = regexp.MustCompile(`\s*(?:と|や|及び|および|並びに|ならびに|・|、|，|,|／|/)\s*`)

// heading is a line that names a part of a document: a Markdown heading
// below the title, or an article's title in parentheses.
var (
	mdHeading    = regexp.MustCompile(`^#{2,6}\s+(.+?)\s*#*$`)
	articleName  = regexp.MustCompile(`^(?:#{1,6}\s*)?第[0-9０-９一二三四五六七八九十百千]+条\s*[（(]([^）)]+)[）)]\s*$`)
	chapterLabel = regexp.MustCompile(`^第[0-9０-９一二三四五六七八九十百千]+[章節款編部]\s*`)
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
	add := func(n string, queries ...string) {
		n = strings.TrimSpace(n)
		if utf8.RuneCountInString(n) < 2 || utf8.RuneCountInString(n) > maxSubtopicChars || generic[n] || fold(n) == fold(topic) || len(subs) >= ProposeMax {
			return
		}
		for _, x := range subs {
			if fold(x.Name) == fold(n) {
				return
			}
		}
		if len(queries) == 0 {
			queries = defaultQueries(topic, n)
		}
		subs = append(subs, Subtopic{Name: n, Queries: queries})
	}
	if parts := facetSep.Split(topic, -1); len(parts) > 1 {
		for _, p := range parts {
			add(p)
		}
	}
	if q, err := index.ParseQuery(topic); err == nil {
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
				for _, m := range res.Matches {
					add(m.Title, topic+" "+m.Title, m.Title)
				}
			}
		}
	}
	for _, f := range fallbackFacets {
		if len(subs) >= ProposeMin {
			break
		}
		// A generic facet means nothing without the topic.
		add(f, topic+" "+f)
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
