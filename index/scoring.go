package index

import (
	"context"
	"fmt"
	"math"

	"github.com/blevesearch/bleve/v2/mapping"
	"github.com/blevesearch/bleve/v2/search"
	"github.com/blevesearch/bleve/v2/search/query"
	"github.com/blevesearch/bleve/v2/search/searcher"
	index "github.com/blevesearch/bleve_index_api"
)

// combineQuery matches what any of its children match and scores the sum of
// the children's scores, without Bleve's coordination factor. When
// coverage is set, the first len(coverage) children are the query's words
// and the sum is multiplied by the weighted share of those words that
// match, raised to the power alpha: a passage that holds every word
// outranks one that holds a few of them many times. The other children are
// bonuses that do not count toward coverage.
type combineQuery struct {
	children []query.Query
	coverage []float64 // weight of each word child; nil for a plain sum
	alpha    float64
	// headAlone, when set, scales a child that matches a word in the
	// head when its partner, the same word in the body, does not match:
	// heads maps the index of a head child to its body child's.
	headAlone float64
	heads     map[int]int
}

// Searcher builds the children's searchers and a disjunction over them
// that reports each child's score (Bleve's score breakdown), which
// combineSearcher then combines.
func (q *combineQuery) Searcher(ctx context.Context, r index.IndexReader, m mapping.IndexMapping, opts search.SearcherOptions) (search.Searcher, error) {
	ss := make([]search.Searcher, 0, len(q.children))
	closeAll := func() {
		for _, s := range ss {
			_ = s.Close()
		}
	}
	for _, c := range q.children {
		s, err := c.Searcher(ctx, r, m, opts)
		if err != nil {
			closeAll()
			return nil, err
		}
		if s == nil {
			s, err = searcher.NewMatchNoneSearcher(r)
			if err != nil {
				closeAll()
				return nil, err
			}
		}
		ss = append(ss, s)
	}
	dctx := context.WithValue(ctx, search.IncludeScoreBreakdownKey, true)
	ds, err := searcher.NewDisjunctionSearcher(dctx, r, ss, 0, opts)
	if err != nil {
		closeAll()
		return nil, err
	}
	total := 0.0
	for _, w := range q.coverage {
		total += w
	}
	return &combineSearcher{Searcher: ds, q: q, total: total, explain: opts.Explain}, nil
}

type combineSearcher struct {
	search.Searcher
	q       *combineQuery
	total   float64
	explain bool
}

func (s *combineSearcher) Next(ctx *search.SearchContext) (*search.DocumentMatch, error) {
	dm, err := s.Searcher.Next(ctx)
	if dm != nil {
		s.score(dm)
	}
	return dm, err
}

func (s *combineSearcher) Advance(ctx *search.SearchContext, id index.IndexInternalID) (*search.DocumentMatch, error) {
	dm, err := s.Searcher.Advance(ctx, id)
	if dm != nil {
		s.score(dm)
	}
	return dm, err
}

// score replaces the breakdown with the combined score.
func (s *combineSearcher) score(dm *search.DocumentMatch) {
	// Add in the children's order: float addition is not associative, and
	// equal documents must get equal scores whatever the map's order.
	sum, covered := 0.0, 0.0
	for i := range s.q.children {
		v, ok := dm.ScoreBreakdown[i]
		if !ok {
			continue
		}
		if b, isHead := s.q.heads[i]; isHead && s.q.headAlone > 0 {
			if _, inBody := dm.ScoreBreakdown[b]; !inBody {
				v *= s.q.headAlone
			}
		}
		sum += v
		if i < len(s.q.coverage) {
			covered += s.q.coverage[i]
		}
	}
	factor := 1.0
	if s.total > 0 {
		factor = covered / s.total
		if s.q.alpha != 1 {
			factor = math.Pow(factor, s.q.alpha)
		}
	}
	dm.Score = sum * factor
	if s.explain {
		var kids []*search.Explanation
		if dm.Expl != nil {
			for _, e := range dm.Expl.Children {
				if e != nil {
					kids = append(kids, e)
				}
			}
		}
		msg := "sum of:"
		if s.total > 0 {
			msg = fmt.Sprintf("sum × coverage %.2f^%g (%.3f) of:", covered/s.total, s.q.alpha, factor)
		}
		dm.Expl = &search.Explanation{Value: dm.Score, Message: msg, Children: kids}
	}
	clear(dm.ScoreBreakdown)
}
