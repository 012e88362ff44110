package research

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"lwr/index"
	"lwr/policy"
)

// localIndex is what a local search needs of the index, whether it is
// open in this process or served by the daemon.
type localIndex interface {
	Search(ctx context.Context, q index.Query, opts index.SearchOptions) (*index.Result, error)
	Titles() (map[string]string, error)
}

// LocalOptions are the knobs of a local search.
type LocalOptions struct {
	Search index.SearchOptions
	// IgnorePreference leaves the order to relevance alone (for historical
	// or old-edition questions); editions and relations are still shown.
	IgnorePreference bool
}

// Local is a local search with the policies applied.
type Local struct {
	Root   string        `json:"root"`
	Result *index.Result `json:"result"`
	// Annotations are the policies' notes on each match, in match order.
	Annotations []policy.Ext    `json:"annotations"`
	Policies    policy.Policies `json:"policies"`
	// Message is the search's message for agents: a summary line, then
	// one line per match (edition, relations, currentness records).
	Message string `json:"message"`
}

// LocalSearch searches the index and applies the policies of the source
// root, read now: preferred documents whose own text matched come first
// (unless IgnorePreference), and every match is annotated with its edition,
// relations and currentness records. corpus holds the titles of the
// indexed documents for relations; nil builds it from the index. An
// invalid currentness file fails the search (policy.ErrCurrentnessInvalid):
// there is no answer without it.
func LocalSearch(ctx context.Context, ix localIndex, root string, corpus *policy.Corpus, q index.Query, opts LocalOptions) (*Local, error) {
	cur, err := policy.LoadCurrentness(root)
	if err != nil {
		return nil, err
	}
	prefs, err := policy.LoadPreferences(root)
	if err != nil {
		if !opts.IgnorePreference {
			return nil, err
		}
		prefs = nil
	}
	so := opts.Search
	limit := so.Limit
	if so.Mode == index.Ranked {
		if limit <= 0 {
			limit = 8
		}
		so.Limit = limit
		if prefs != nil && !opts.IgnorePreference {
			for _, pr := range prefs.Preferred {
				so.Preferred = append(so.Preferred, pr.Path)
			}
		}
	}
	res, err := ix.Search(ctx, q, so)
	if err != nil {
		return nil, err
	}
	if corpus == nil {
		titles, err := ix.Titles()
		if err != nil {
			return nil, fmt.Errorf("read the titles of the index: %w", err)
		}
		corpus = policy.NewCorpus(titles)
	}
	cands := make([]policy.Candidate, len(res.Matches))
	for i, m := range res.Matches {
		cands[i] = policy.Candidate{
			Path: m.Path, Title: m.Title, Score: m.Score, Text: m.Passage,
			SHA256: m.SHA256, OwnMatch: m.OwnMatch, Editions: m.Editions,
		}
	}
	popts := policy.Options{IgnorePreference: opts.IgnorePreference}
	ann := policy.Apply(cands, corpus, prefs, cur, popts)
	byPath := make(map[string]index.Match, len(res.Matches))
	for _, m := range res.Matches {
		byPath[m.Path] = m
	}
	matches := make([]index.Match, 0, len(ann))
	for _, a := range ann {
		matches = append(matches, byPath[a.Path])
	}
	if so.Mode == index.Ranked && len(matches) > limit {
		matches, ann = matches[:limit], ann[:limit]
	}
	res.Matches = matches
	l := &Local{Root: root, Result: res, Policies: policy.Describe(prefs, cur, popts), Annotations: make([]policy.Ext, len(ann))}
	for i, a := range ann {
		l.Annotations[i] = a.Ext()
	}
	l.Message = summary(res)
	if len(ann) > 0 {
		l.Message += "\n" + policy.Messages(ann, popts)
	}
	return l, nil
}

// summary is the first line of a search's message.
func summary(res *index.Result) string {
	if len(res.Terms) == 0 {
		return "検索語がありません: the query has only particles, symbols or stop words; use content words"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "mode=%s; files=%d/%d; indexed=%d; words=%s", res.Mode, len(res.Matches), res.Total, res.Scanned, strings.Join(res.Terms, ","))
	if len(res.Synonyms) > 0 {
		fmt.Fprintf(&b, "; synonyms=%s", strings.Join(res.Synonyms, ","))
	}
	return b.String()
}

// IsPolicyError reports whether err is an invalid policy file.
func IsPolicyError(err error) bool {
	return errors.Is(err, policy.ErrCurrentnessInvalid) || errors.Is(err, policy.ErrPreferencesInvalid)
}
