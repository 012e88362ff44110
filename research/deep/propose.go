package deep

import (
	"context"
	"regexp"
	"strings"
	"unicode/utf8"

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

// propose decomposes a topic into 3–5 subtopics: the question's own
// facets (日当と宿泊料 → 日当, 宿泊料), then the headings of the
// documents its words find (the article titles of a rule first, in the
// document's order; chapters when a document has no articles), then
// generic facets of a rule.
func (s *searcher) propose(ctx context.Context, topic string) ([]Subtopic, error) {
	var names []string
	add := func(n string) {
		n = strings.TrimSpace(n)
		if utf8.RuneCountInString(n) < 2 || utf8.RuneCountInString(n) > maxSubtopicChars || generic[n] || containsFold(names, n) || fold(n) == fold(topic) || len(names) >= ProposeMax {
			return
		}
		names = append(names, n)
	}
	if parts := facetSep.Split(topic, -1); len(parts) > 1 {
		for _, p := range parts {
			add(p)
		}
	}
	if q, err := index.ParseQuery(topic); err == nil {
		res, err := s.local.Search(ctx, local.Request{Query: q, Mode: index.Ranked, Limit: 3, MaxChars: 200, NoHighlights: true})
		if err != nil && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if err == nil {
			for _, m := range res.Matches {
				f, err := s.read(m.Path)
				if err != nil {
					continue
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
					articles = chapters
				}
				for _, a := range articles {
					add(a)
				}
			}
		}
	}
	found := len(names)
	for _, f := range fallbackFacets {
		if len(names) >= ProposeMin {
			break
		}
		add(f)
	}
	out := make([]Subtopic, len(names))
	for i, n := range names {
		out[i] = Subtopic{Name: n, Queries: defaultQueries(topic, n)}
		if i >= found {
			// A generic facet means nothing without the topic.
			out[i].Queries = []string{topic + " " + n}
		}
	}
	return out, nil
}
