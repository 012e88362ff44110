package index

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/search/query"

	"lwr/analyzer"
)

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

func (ix *Index) fullText(ctx context.Context, q Query, opts SearchOptions) (*Result, error) {
	var words []string
	seen := map[string]bool{}
	for _, w := range q.Words {
		f := analyzer.FoldText(w.Text)
		if strings.TrimSpace(f) != "" && !seen[f] {
			seen[f] = true
			words = append(words, f)
		}
	}
	res := &Result{Terms: words, Content: words}
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
		sr, err := ix.searchIn(ctx, req)
		if err != nil {
			return nil, fmt.Errorf("search: %w", err)
		}
		files := map[string]bool{}
		for _, h := range sr.Hits {
			if pth, _, _, ok := parsePassageID(h.ID); ok && (cand == nil || cand[pth]) && opts.inScope(pth) {
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

// verifyLiteral reads a candidate file and checks that it holds every word,
// within a line or across one line break (see analyzer.JoinLines).
func (ix *Index) verifyLiteral(rel string, words []string, maxChars int, highlight bool) (Match, bool, error) {
	cur, ok := ix.readCurrent(rel)
	if !ok {
		return Match{}, false, nil
	}
	text := cur.text
	f := analyzer.FoldText(analyzer.JoinLines(text)) // a word may run over one line break
	occ := 0
	for _, w := range words {
		c := strings.Count(f, w)
		if c == 0 {
			return Match{}, false, nil
		}
		occ += c
	}
	lines := Lines(text)
	from, to := sectionOf(lines, cur.locs, words, 1, len(lines))
	m, _ := snippetOf(lines, from, to, words, maxChars, highlight)
	m.Path = rel
	m.ModTime = cur.mtime
	m.SHA256 = cur.sum
	m.Locator = cur.locator(m.StartLine, m.EndLine, words)
	m.Passage = m.Snippet
	ix.describe(&m, text)
	m.OwnMatch = true
	m.Occurrences = occ
	m.Score = float64(occ)
	return m, true, nil
}
