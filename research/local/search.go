package local

import (
	"context"
	"errors"
	"fmt"
	"path"
	"strings"
	"time"

	"lwr/analyzer"
	"lwr/config"
	"lwr/index"
	"lwr/index/extract"
	"lwr/policy"
	"lwr/web"
)

// Request is one local search: the query and its options, as the daemon's
// protocol carries them.
type Request struct {
	Query index.Query `json:"query"`
	Mode  index.Mode  `json:"mode"`
	// Limit is the number of files (config's search.max_files when zero
	// in ranked mode; every match in full-text mode).
	Limit int `json:"limit,omitempty"`
	// MaxChars bounds each snippet (search.max_chars when zero).
	MaxChars int `json:"max_chars,omitempty"`
	// Synonyms are extra words, matched at a lower weight.
	Synonyms []string `json:"synonyms,omitempty"`
	// Exclude leaves out files, folders and globs (relative paths).
	Exclude []string `json:"exclude,omitempty"`
	// Only keeps the files these files, folders and globs name.
	Only []string `json:"only,omitempty"`
	// Context is the lines shown around each matching line (FormatGrep).
	Context LineContext `json:"context,omitzero"`
	Explain bool        `json:"explain,omitempty"`
	// NoHighlights: the output does not show highlighted words.
	NoHighlights bool `json:"no_highlights,omitempty"`
	// IgnorePreference leaves the order to relevance alone (historical or
	// old-edition questions); editions and relations are still shown.
	IgnorePreference bool `json:"ignore_preference,omitempty"`
}

// LineContext is how many lines FormatGrep shows before and after each
// matching line.
type LineContext struct {
	Before int `json:"before,omitempty"`
	After  int `json:"after,omitempty"`
}

// Result is a local search with the policies applied.
type Result struct {
	Root string `json:"root"`
	*index.Result
	// Annotations are the policies' notes on each match, in match order.
	Annotations []policy.Ext    `json:"annotations"`
	Policies    policy.Policies `json:"policies"`
	// Message is the search's message for agents: a summary line, then
	// one line per match (edition, relations, currentness records).
	Message string `json:"message"`
	// Synced is when the index was last synced with the files.
	Synced time.Time `json:"synced"`
	// Via says who answered: ViaDaemon or ViaProcess.
	Via string `json:"via"`
	// Stale says why the index may miss changes to the files ("" when
	// nothing says so): the daemon that kept it was killed.
	Stale string `json:"stale,omitempty"`
	// Locations say, in match order, where each match of a PDF or Office
	// document stands and what its text holds that reads as instructions
	// to an agent ({} for text files).
	Locations []Location `json:"locations"`
}

// Location is where a match of a PDF or Office document stands (its
// page, sheet and row, slide or heading) and the injection patterns the
// web sanitizer finds in its snippet: a document from outside (a PDF
// someone sent) can address an agent. The text itself is never changed.
type Location struct {
	Format string `json:"format,omitempty"` // pdf, docx, xlsx, pptx
	*extract.Locator
	Label              string   `json:"label,omitempty"` // p.3, シート「単価表」 行12, スライド4
	SuspiciousPatterns []string `json:"suspicious_patterns,omitempty"`
}

// locate describes where a match stands.
func locate(m index.Match) Location {
	if m.Locator == nil {
		return Location{}
	}
	l := Location{Format: strings.TrimPrefix(path.Ext(m.Path), "."), Locator: m.Locator, Label: m.Locator.Label()}
	if _, f := web.SanitizeText(m.Snippet, len([]rune(m.Snippet))+1); len(f.SuspiciousPatterns) > 0 {
		l.SuspiciousPatterns = f.SuspiciousPatterns
	}
	return l
}

// Who answers a search.
const (
	ViaDaemon  = "daemon"
	ViaProcess = "this process" // the index opened by the process that asked
)

// Searcher runs local searches of one source root. A Session (the index
// opened in this process) and a Client (the daemon) are Searchers; Open
// chooses.
type Searcher interface {
	// Search runs a search with the policies applied. An invalid
	// currentness file fails it (policy.ErrCurrentnessInvalid): there is
	// no answer without it.
	Search(ctx context.Context, req Request) (*Result, error)
	// Render runs a search and returns it in an output format.
	Render(ctx context.Context, req Request, f Format, tty bool) (string, error)
	// Policies says which policies are in force, reading them as a search
	// does: an invalid file is the same error.
	Policies(ctx context.Context, ignorePreference bool) (policy.Policies, error)
	// Status reports on the index, and on the daemon when one serves it.
	Status(ctx context.Context) (Status, error)
	// Skipped lists the files that are not indexed, and why.
	Skipped(ctx context.Context) ([]index.Skip, error)
	Close() error
}

// MissingRootSentence is the guidance for a source root that does not
// exist (the research skill's sentence, naming the flag).
const MissingRootSentence = "設定されたローカル資料ディレクトリが見つかりません。--source-root または CC_LWR_SOURCE_ROOT と資料配置を確認してください"

// ErrNotAnswering is returned when the daemon holds the index but does
// not answer within the timeout.
var ErrNotAnswering = errors.New("the daemon does not answer")

// ErrSyncing is returned while a daemon builds an index that was not
// ready.
var ErrSyncing = errors.New("the daemon is still building the index")

// IsPolicyError reports whether err is an invalid policy file.
func IsPolicyError(err error) bool {
	return errors.Is(err, policy.ErrCurrentnessInvalid) || errors.Is(err, policy.ErrPreferencesInvalid)
}

// policySet is the policies of a source root as one search uses them.
type policySet struct {
	prefs    *policy.Preferences // nil: none, or ignored because invalid
	prefsErr error
	cur      *policy.Currentness
	curErr   error
}

// forRequest returns what a search may use: an invalid currentness file
// is always an error; an invalid preferences file unless the search
// ignores the preferences.
func (p policySet) forRequest(ignorePreference bool) (*policy.Preferences, *policy.Currentness, error) {
	if p.curErr != nil {
		return nil, nil, p.curErr
	}
	if p.prefsErr != nil {
		if !ignorePreference {
			return nil, nil, p.prefsErr
		}
		return nil, p.cur, nil
	}
	return p.prefs, p.cur, nil
}

func loadPolicies(l policy.Loader) policySet {
	var p policySet
	p.cur, p.curErr = l.Currentness()
	p.prefs, p.prefsErr = l.Preferences()
	return p
}

// run searches an open index and applies the policies: preferred
// documents whose own text matched come first (unless the request ignores
// them), and every match is annotated with its edition, relations and
// currentness records. corpus holds the titles of the indexed documents
// for relations.
func run(ctx context.Context, ix *index.Index, corpus *policy.Corpus, pols policySet, req Request, dict *analyzer.Synonyms) (*Result, error) {
	prefs, cur, err := pols.forRequest(req.IgnorePreference)
	if err != nil {
		return nil, err
	}
	so := index.SearchOptions{
		Mode: req.Mode, Limit: req.Limit, MaxChars: req.MaxChars, Synonyms: req.Synonyms, Exclude: req.Exclude, Only: req.Only,
		Explain: req.Explain, SkipHighlights: req.NoHighlights, Dictionary: dict,
	}
	hist := policy.Historical(req.Query.Text())
	limit := so.Limit
	if so.Mode == index.Ranked {
		if limit <= 0 {
			limit = config.DefaultSearch().MaxFiles
		}
		so.Limit = limit
		if prefs != nil && !req.IgnorePreference && !hist {
			for _, pr := range prefs.Preferred {
				so.Preferred = append(so.Preferred, corpus.Path(pr.Path))
			}
		}
	}
	res, err := ix.Search(ctx, req.Query, so)
	if err != nil {
		return nil, err
	}
	cands := make([]policy.Candidate, len(res.Matches))
	for i, m := range res.Matches {
		cands[i] = policy.Candidate{
			Path: m.Path, Title: m.Title, Score: m.Score, Text: m.Passage,
			SHA256: m.SHA256, OwnMatch: m.OwnMatch, Editions: m.Editions,
		}
	}
	popts := policy.Options{IgnorePreference: req.IgnorePreference, Historical: hist}
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
	out := &Result{Root: ix.Root(), Result: res, Policies: policy.Describe(prefs, cur, popts), Annotations: make([]policy.Ext, len(ann)), Synced: ix.LastSync(), Via: ViaProcess}
	for i, a := range ann {
		out.Annotations[i] = a.Ext()
		out.Annotations[i].Message = matchMessage(a)
	}
	out.Locations = make([]Location, len(matches))
	for i, m := range matches {
		out.Locations[i] = locate(m)
	}
	out.Message = summary(res)
	if len(ann) > 0 {
		out.Message += "\n" + messages(ann, popts)
	} else if h := groupingHint(out); h != "" {
		out.Message += "\n" + h
	}
	return out, nil
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
