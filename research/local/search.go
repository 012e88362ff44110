package local

import (
	"context"
	"errors"
	"fmt"
	"path"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"lwr/analyzer"
	"lwr/index"
	"lwr/index/extract"
	"lwr/policy"
)

// Request is one local search: the query and its options. Check
// validates it and fills its defaults, for every front end alike (the
// command line, the MCP tools, the daemon).
type Request struct {
	Query index.Query
	Mode  index.Mode
	// Limit is the number of files (config's search.max_files when zero
	// in ranked mode; every match in full-text mode).
	Limit int
	// MaxChars bounds each snippet (search.max_chars when zero).
	MaxChars int
	// Synonyms are extra words, matched at a lower weight.
	Synonyms []string
	// Exclude leaves out the files these path patterns name (the
	// .gitignore dialect of package glob: a folder's name leaves out the
	// folder, "**" any folders).
	Exclude []string
	// Only keeps the files these path patterns name.
	Only    []string
	Explain bool
	// NoHighlights: the output does not show highlighted words.
	NoHighlights bool
	// IgnorePreference leaves the order to relevance alone (historical or
	// old-edition questions); editions and relations are still shown.
	IgnorePreference bool
}

// Result is a local search with the policies applied.
type Result struct {
	Root string
	*index.Result
	// Words are the query's words as written (the line formats of a
	// full-text search find them in the files).
	Words []string
	// Annotations are the policies' notes on each match, in match order;
	// Notes the same in a few words.
	Annotations []policy.Ext
	Notes       []Note
	Policies    policy.Policies
	// Message is the search's message for agents: a summary line, then
	// one line per match (edition, relations, currentness records).
	Message string
	// Synced is when the index was last synced with the files.
	Synced time.Time
	// Via says who answered: ViaDaemon or ViaProcess.
	Via string
	// Stale says why the index may miss changes to the files ("" when
	// nothing says so): the daemon that kept it was killed.
	Stale string
	// Locations say, in match order, where each match of a PDF or Office
	// document stands and what its text holds that reads as instructions
	// to an agent ({} for text files).
	Locations []Location
}

// Note is what the policies say of a match in a few words: its edition,
// its relations and the currentness records that apply, as the message's
// line of the match writes them.
type Note struct {
	Edition  string // 2024年度 第2版, 版不明
	Relation string // 優先版, 旧版(優先: …), 旧版あり(…), 関連の可能性(…), なし
	Records  string // 現行性[id]=action(label) …, "" when none applies
}

func noteOf(a policy.Annotated) Note {
	n := Note{Edition: shown(a.Edition), Relation: relationsText(a)}
	var b strings.Builder
	for i, ap := range a.Records {
		if i > 0 {
			b.WriteString("; ")
		}
		writeApplied(&b, ap)
	}
	n.Records = b.String()
	return n
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

// locate describes where a match stands; flag (nil: none) finds the
// patterns of its snippet that address an agent.
func locate(m index.Match, flag func(string) []string) Location {
	if m.Locator == nil {
		return Location{}
	}
	l := Location{Format: strings.TrimPrefix(path.Ext(m.Path), "."), Locator: m.Locator, Label: m.Locator.Label()}
	if flag != nil {
		// Every text shown: the snippet and the further passages.
		texts := []string{m.Snippet}
		for _, a := range m.Also {
			texts = append(texts, a.Snippet)
		}
		l.SuspiciousPatterns = flag(strings.Join(texts, "\n"))
	}
	return l
}

// Who answers a search.
const (
	ViaDaemon  = "daemon"
	ViaProcess = "this process" // the index opened by the process that asked
)

// Searcher runs local searches of one source root. A Session (the index
// opened in this process), the daemon's Client and the router that picks
// one of them (package daemon) are Searchers; localtest holds the tests
// every one of them passes.
type Searcher interface {
	// Search runs a search with the policies applied. An invalid
	// currentness file fails it (policy.ErrCurrentnessInvalid): there is
	// no answer without it.
	Search(ctx context.Context, req Request) (*Result, error)
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

// Errors of a Searcher that reaches the index through a daemon (package
// daemon returns them; callers branch on them whichever Searcher they
// hold).
var (
	// ErrNotAnswering: the daemon holds the index but says nothing for
	// search.daemon_timeout.
	ErrNotAnswering = errors.New("the daemon does not answer")
	// ErrSyncing: the daemon still builds an index that was not ready.
	ErrSyncing = errors.New("the daemon is still building the index")
	// ErrStaleDaemon: the daemon analyzes with another user dictionary or
	// is another lwr than the client; it must be restarted.
	ErrStaleDaemon = errors.New("the daemon analyzes with other words")
	// ErrDaemonRunning: a daemon already serves the source root.
	ErrDaemonRunning = errors.New("a daemon is already running for this source root")
)

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
func run(ctx context.Context, ix *index.Index, corpus *policy.Corpus, pols policySet, req Request, dict *analyzer.Synonyms, flag func(string) []string) (*Result, error) {
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
	out := &Result{Root: ix.Root(), Result: res, Words: queryWords(req.Query), Policies: policy.Describe(prefs, cur, popts), Annotations: make([]policy.Ext, len(ann)), Synced: ix.LastSync(), Via: ViaProcess}
	out.Notes = make([]Note, len(ann))
	for i, a := range ann {
		out.Annotations[i] = a.Ext()
		out.Annotations[i].Message = matchMessage(a)
		out.Notes[i] = noteOf(a)
	}
	out.Locations = make([]Location, len(matches))
	for i, m := range matches {
		out.Locations[i] = locate(m, flag)
	}
	out.Message = summary(res) + wordNotes(req.Query, res, dict.Analyzer())
	if len(ann) > 0 {
		out.Message += "\n" + messages(ann, popts)
	} else if h := groupingHint(out); h != "" {
		out.Message += "\n" + h
	}
	return out, nil
}

// wordNotes says, at the end of the summary line, which words of a ranked
// query the search dropped and why (いつから: a stop word and a particle;
// もらえる: the potential form of the stop word もらう), and which it cut
// into single characters (離席 as 離 and 席), which a user dictionary
// keeps whole.
func wordNotes(q index.Query, res *index.Result, a *analyzer.Analyzer) string {
	if res.Mode != index.Ranked {
		return ""
	}
	searched := map[string]bool{}
	for _, t := range res.Terms {
		searched[t] = true
	}
	var dropped, split []string
	for _, w := range q.Words {
		if w.Quoted {
			continue
		}
		toks := a.QueryTokens(w.Text)
		if len(toks) == 0 {
			dropped = append(dropped, fmt.Sprintf("%s(%s)", shown(w.Text), shown(a.Dropped(w.Text))))
			continue
		}
		var why []string
		kept, single := false, false
		for _, t := range toks {
			if searched[t.Term] {
				kept = true
			} else if base, ok := t.Potential(); ok && analyzer.IsStopWord(base) {
				why = append(why, fmt.Sprintf("%s: the potential form of the stop word %s", shown(w.Text[t.Start:t.End]), base))
			}
			single = single || t.Kind == analyzer.KindJapanese && utf8.RuneCountInString(w.Text[t.Start:t.End]) == 1
		}
		switch {
		case !kept && len(why) > 0:
			dropped = append(dropped, fmt.Sprintf("%s(%s)", shown(w.Text), strings.Join(why, ", ")))
		case kept && single && len(toks) > 1 && !strings.ContainsFunc(w.Text, isKanaOrMark):
			// A word written as one (離席, 新規事業推進室), not a question
			// typed without spaces, whose particles part it anyway.
			parts := make([]string, len(toks))
			for i, t := range toks {
				parts[i] = shown(w.Text[t.Start:t.End])
			}
			split = append(split, fmt.Sprintf("%s(%s: not one word of the dictionary; search.user_dict keeps it whole)", shown(w.Text), strings.Join(parts, "+")))
		}
	}
	var b strings.Builder
	if len(dropped) > 0 {
		b.WriteString("; dropped=" + strings.Join(dropped, "、"))
	}
	if len(split) > 0 {
		b.WriteString("; split=" + strings.Join(split, "、"))
	}
	return b.String()
}

// summary is the first line of a search's message.
func summary(res *index.Result) string {
	if len(res.Terms) == 0 {
		return "検索語がありません: the query has only particles, symbols or stop words; use content words"
	}
	var b strings.Builder
	// A ranked search examines the best passages only: the files it found
	// among them change with the number asked for, so it says how many it
	// shows; a full-text search counts every matching file.
	if res.Mode == index.Ranked {
		fmt.Fprintf(&b, "mode=%s; files=%d; indexed=%d; words=%s", res.Mode, len(res.Matches), res.Scanned, strings.Join(res.Terms, ","))
	} else {
		fmt.Fprintf(&b, "mode=%s; files=%d/%d; indexed=%d; words=%s", res.Mode, len(res.Matches), res.Total, res.Scanned, strings.Join(res.Terms, ","))
	}
	if len(res.Synonyms) > 0 {
		fmt.Fprintf(&b, "; synonyms=%s", strings.Join(res.Synonyms, ","))
	}
	return b.String()
}

// isKanaOrMark reports hiragana and punctuation, which part a question
// typed without spaces into words.
func isKanaOrMark(r rune) bool {
	return unicode.In(r, unicode.Hiragana) || unicode.IsPunct(r) || unicode.IsSpace(r)
}
