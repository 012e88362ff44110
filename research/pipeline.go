package research

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"lwr/analyzer"
	"lwr/config"
	"lwr/index"
	"lwr/policy"
	"lwr/research/local"
	"lwr/research/report"
	"lwr/research/understand"
	"lwr/web"
)

// WebSearcher searches the web; *web.Searcher is one.
type WebSearcher interface {
	Search(ctx context.Context, req web.Request) (*web.Result, error)
}

// WebCache is what the research needs of the web cache; *web.Cache is one.
type WebCache interface {
	Get(req web.Request) (web.Hit, error)
	Store(req web.Request, res *web.Result) (bool, error)
	Close() error
}

// CacheOpener opens the web cache for one step: read-only for the lookup,
// read-write for the store. The research never holds it open while the
// providers run.
type CacheOpener func(readOnly bool) (WebCache, error)

// ErrEmptyQuery is returned for a query with no words (besides skip words).
var ErrEmptyQuery = errors.New("the research query is empty")

// Options are the research's inputs and dependencies. Query, Local and
// SourceRoot are needed; the zero value of the rest works (no web, the
// embedded synonym dictionary, the real clock).
type Options struct {
	// Query is the user's question as given.
	Query string
	// SourceRoot is the resolved source root; it may not exist.
	SourceRoot string
	// SkipWeb is --skip-web; skip words in the query also set it.
	SkipWeb bool
	// Understanding is the query understanding mode.
	Understanding understand.Mode
	// Dictionary is the synonym dictionary (default + user); nil means
	// the embedded default. Only read when Understanding is not off.
	Dictionary *analyzer.Synonyms
	// Intent overrides the understood intent of the web search.
	Intent web.Intent
	// IgnorePreference is for historical or old-edition questions.
	IgnorePreference bool
	// Alternatives are words in the documents' own vocabulary the local
	// search adds at a lower weight (an agent's 3–5 alternatives).
	Alternatives []string
	// MaxResults and Locale of the web search (5 and "ja" when zero).
	MaxResults int
	Locale     string
	// Model, when set, makes the report schema 1.1 with this model.
	Model string
	// Timestamp names the report; zero means Now().
	Timestamp time.Time

	// Local searches the source root (through the daemon or in this
	// process); the research does not close it.
	Local local.Searcher
	// LocalLimit and DeepLimit bound the searches of Phase B and C
	// (config's research limits when zero).
	LocalLimit, DeepLimit Limit
	// Web is nil when no web provider is configured.
	Web WebSearcher
	// Cache is nil for no web cache.
	Cache CacheOpener
	// Tokenizer extracts deep-drill keywords; nil means analyzer.Default().
	Tokenizer Tokenizer
	// Keywords caches keyword candidates; nil means none.
	Keywords *KeywordCache
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// Logger receives debug records and warnings; nil discards them.
	Logger *slog.Logger
}

func (o Options) withDefaults() Options {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Timestamp.IsZero() {
		o.Timestamp = o.Now()
	}
	o.Timestamp = o.Timestamp.UTC().Truncate(time.Second)
	if o.Understanding == "" {
		o.Understanding = understand.Off
	}
	d := config.DefaultResearch()
	if o.LocalLimit.Files <= 0 {
		o.LocalLimit.Files = d.LocalMaxFiles
	}
	if o.LocalLimit.Chars <= 0 {
		o.LocalLimit.Chars = d.LocalMaxChars
	}
	if o.DeepLimit.Files <= 0 {
		o.DeepLimit.Files = d.DeepMaxFiles
	}
	if o.DeepLimit.Chars <= 0 {
		o.DeepLimit.Chars = d.DeepMaxChars
	}
	if o.MaxResults <= 0 {
		o.MaxResults = config.DefaultWeb().MaxResults
	}
	if o.Locale == "" {
		o.Locale = config.DefaultWeb().Locale
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	return o
}

// Limit bounds a local search: files, and characters per snippet.
type Limit struct {
	Files, Chars int
}

// Timings are how long each phase took.
type Timings struct {
	Preflight time.Duration `json:"-"`
	Local     time.Duration `json:"-"`
	Web       time.Duration `json:"-"`
	Deep      time.Duration `json:"-"`
	Report    time.Duration `json:"-"`
	Finalize  time.Duration `json:"-"`
	Total     time.Duration `json:"-"`
}

// Millis returns the timings in milliseconds, for --json.
func (t Timings) Millis() map[string]float64 {
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	return map[string]float64{
		"preflight": ms(t.Preflight), "local": ms(t.Local), "web": ms(t.Web), "deep": ms(t.Deep),
		"report": ms(t.Report), "finalize": ms(t.Finalize), "total": ms(t.Total),
	}
}

// Research runs Phases A to C and builds the conclusion (Phase D's
// content); Render writes it. It fails with a *Failure: an invalid
// currentness file (currentness_policy_invalid, no fallback answer), an
// invalid preferences file, both searches failing, or no evidence at all.
func Research(ctx context.Context, opts Options) (*Report, Timings, error) {
	if opts.Local == nil {
		return nil, Timings{}, &report.Failure{Reason: report.ReasonInvalidInput, Err: errors.New("research: no local searcher")}
	}
	opts = opts.withDefaults()
	var tm Timings
	start := time.Now()
	log := opts.Logger

	// Phase A: preflight.
	r := &Report{Query: strings.TrimSpace(opts.Query), Timestamp: opts.Timestamp, SchemaVersion: report.SchemaVersion10,
		IgnorePreference: opts.IgnorePreference, Historical: policy.Historical(opts.Query)}
	if opts.Model != "" {
		r.SchemaVersion, r.Model = report.SchemaVersion11, opts.Model
	}
	r.SkipWord = understand.SkipWebWord(r.Query)
	r.SkipWeb = opts.SkipWeb || r.SkipWord != ""
	r.SearchQuery = understand.StripSkipWords(r.Query)
	q, err := index.ParseQuery(r.SearchQuery)
	if err != nil {
		return nil, tm, &report.Failure{Reason: report.ReasonInvalidInput, Err: fmt.Errorf("%w: give the words to research besides %s", ErrEmptyQuery, strings.Join(understand.SkipWebWords, ", "))}
	}
	root := opts.SourceRoot
	if abs, err := filepath.Abs(root); err == nil {
		root = abs
	}
	r.SourceRoot = root
	if st, err := os.Stat(root); err == nil && st.IsDir() {
		r.SourceExists = true
	}
	if !r.SourceExists && r.SkipWeb {
		// Nothing to research: say so before anything is written.
		return nil, tm, &report.Failure{Reason: report.ReasonInvalidInput, Err: fmt.Errorf("%w: %s (the web is skipped, so there is nothing to research)", index.ErrNoRoot, root)}
	}
	if r.SourceExists {
		// The policies in force: an invalid file stops the research here,
		// before the web is asked.
		if _, err := opts.Local.Policies(ctx, opts.IgnorePreference); err != nil {
			if f := policyFailure(err); f != nil {
				return nil, tm, f
			}
		}
	}
	r.Understanding = understand.Query(r.SearchQuery, opts.Understanding, opts.Dictionary)
	tm.Preflight = time.Since(start)

	// Phase B: local and web at once.
	// A policy failure of the local search stops the web search too.
	bctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	var localErr error
	wg.Go(func() {
		t0 := time.Now()
		localErr = searchLocalPhase(bctx, opts, r, q)
		tm.Local = time.Since(t0)
		if localErr != nil {
			cancel()
		}
	})
	wg.Go(func() {
		t0 := time.Now()
		searchWebPhase(bctx, opts, r)
		tm.Web = time.Since(t0)
	})
	wg.Wait()
	cancel()
	if err := ctx.Err(); err != nil {
		return nil, tm, &report.Failure{Reason: report.ReasonCanceled, Err: err}
	}
	if localErr != nil {
		return nil, tm, localErr
	}
	webUsable := (r.Web.Status == report.StatusOK || r.Web.Status == report.StatusPartial) && len(r.Web.Hits) > 0
	if r.Local.Status == report.StatusError && !webUsable {
		why := "Web検索なし"
		if r.Web.Status == report.StatusError {
			why = "Web検索も失敗: " + r.Web.Error
		} else if r.Web.Status == report.StatusEmpty {
			why = "Web検索は該当なし"
		}
		return nil, tm, &report.Failure{Reason: report.ReasonSearchFailed, Err: fmt.Errorf("ローカル検索もWeb検索も使えないため調査を中止しました（ローカル検索: %s; %s）", r.Local.Error, why)}
	}

	// Phase C: deep-drill.
	t0 := time.Now()
	deepDrill(ctx, opts, r)
	tm.Deep = time.Since(t0)
	if err := ctx.Err(); err != nil {
		return nil, tm, &report.Failure{Reason: report.ReasonCanceled, Err: err}
	}
	if len(r.Local.Hits)+len(r.Web.Hits)+len(r.Deep.Hits) == 0 {
		return nil, tm, &report.Failure{Reason: report.ReasonNoEvidence, Err: errors.New(noEvidenceSentence(r))}
	}

	// Phase D: the conclusion.
	t0 = time.Now()
	r.Conclusion = BuildConclusion(r)
	tm.Report = time.Since(t0)
	tm.Total = time.Since(start)
	log.Debug("research", "local", r.Local.Status, "web", r.Web.Status, "deep", r.Deep.Status, "took", tm.Total.Round(time.Millisecond))
	return r, tm, nil
}

// noEvidenceSentence says why there is nothing to report.
func noEvidenceSentence(r *Report) string {
	localPart := report.SentenceLocalEmpty
	if !r.SourceExists {
		localPart = local.MissingRootSentence
	}
	webPart := map[report.Status]string{
		report.StatusSkipped: report.SentenceWebSkippedByUser, report.StatusUnconfigured: report.SentenceWebUnconfigured,
		report.StatusEmpty: report.SentenceWebEmpty, report.StatusError: report.SentenceWebFailed,
	}[r.Web.Status]
	if webPart == "" {
		webPart = report.SentenceWebEmpty
	}
	return "報告できる情報がありません: " + localPart + "。" + webPart + "。検索語を見直すか、Web検索を有効にしてください"
}

// policyFailure is the failure of an invalid policy file, nil for other
// errors.
func policyFailure(err error) *report.Failure {
	switch {
	case errors.Is(err, policy.ErrCurrentnessInvalid):
		return &report.Failure{Reason: report.ReasonCurrentnessInvalid, Err: err}
	case errors.Is(err, policy.ErrPreferencesInvalid):
		return &report.Failure{Reason: report.ReasonPreferencesInvalid, Err: fmt.Errorf("%w (or pass --ignore-source-preference to research without it)", err)}
	}
	return nil
}

// searchLocalPhase is Phase B's local search. A policy error stops the
// research; other errors make the local status "error".
func searchLocalPhase(ctx context.Context, opts Options, r *Report, q index.Query) error {
	r.Local = LocalPhase{Status: report.StatusEmpty}
	if !r.SourceExists {
		r.Local.Message = local.MissingRootSentence
		return nil
	}
	req := local.Request{Query: q, Mode: index.Ranked, Limit: opts.LocalLimit.Files, MaxChars: opts.LocalLimit.Chars,
		Synonyms: append(append([]string(nil), r.Understanding.Synonyms...), opts.Alternatives...), IgnorePreference: opts.IgnorePreference}
	// A daemon still building the index is waited for by the searcher
	// (search.sync_wait).
	l, err := opts.Local.Search(ctx, req)
	if ctx.Err() != nil {
		return &report.Failure{Reason: report.ReasonCanceled, Err: ctx.Err()}
	}
	if f := policyFailure(err); f != nil {
		return f
	}
	switch {
	case errors.Is(err, local.ErrSyncing), errors.Is(err, local.ErrNotAnswering), errors.Is(err, index.ErrLocked):
		// Busy, not broken: the user tries again (exit 3) rather than
		// getting a report without the local documents.
		return &report.Failure{Reason: report.ReasonIndexBusy, Err: err}
	case err != nil:
		if ctx.Err() != nil {
			return &report.Failure{Reason: report.ReasonCanceled, Err: ctx.Err()}
		}
		r.Local.Status, r.Local.Error = report.StatusError, err.Error()
		return nil
	}
	r.Local.Hits = hitsOf(l, "L", nil)
	r.Local.Scanned, r.Local.Total, r.Local.Message, r.Local.Policy = l.Scanned, l.Total, l.Message, l.Policies
	r.Local.Content, r.Local.Synonyms = l.Content, l.Synonyms
	if len(r.Local.Hits) > 0 {
		r.Local.Status = report.StatusOK
	}
	return nil
}

// hitsOf turns a local search into hits numbered prefix1…, leaving out
// the paths of skip.
func hitsOf(l *local.Result, prefix string, skip map[string]bool) []Hit {
	var hits []Hit
	for i, m := range l.Matches {
		if skip[m.Path] {
			continue
		}
		h := Hit{Ref: fmt.Sprintf("%s%d", prefix, len(hits)+1), Path: m.Path, Abs: index.Resolve(l.Root, m.Path), Match: m}
		if i < len(l.Annotations) {
			h.Ext = l.Annotations[i]
		}
		if i < len(l.Locations) {
			h.Location = l.Locations[i]
		}
		hits = append(hits, h)
	}
	return hits
}

// searchWebPhase is Phase B's web search: cache, providers, cache store.
func searchWebPhase(ctx context.Context, opts Options, r *Report) {
	log := opts.Logger
	switch {
	case r.SkipWeb:
		r.Web = WebPhase{Status: report.StatusSkipped, Cache: "off"}
		return
	case opts.Web == nil:
		r.Web = WebPhase{Status: report.StatusUnconfigured, Cache: "off"}
		return
	}
	intent := r.Understanding.Intent
	if opts.Intent != "" {
		intent = opts.Intent
	}
	req := web.Request{Query: r.SearchQuery, Intent: intent, MaxResults: opts.MaxResults, Locale: opts.Locale}
	r.Web.Cache = "off"
	var res *web.Result
	if opts.Cache != nil {
		r.Web.Cache = "miss"
		c, err := opts.Cache(true)
		if err != nil {
			log.Warn("web cache: treated as a miss", "err", err)
			r.Web.Cache = "error"
		} else {
			hit, err := c.Get(req)
			c.Close()
			switch {
			case err != nil:
				log.Warn("web cache: treated as a miss", "err", err)
				r.Web.Cache = "error"
			case hit.Damaged != "":
				log.Warn("web cache: " + hit.Damaged)
				r.Web.Cache = "error"
			case hit.Found && hit.Result != nil:
				res = hit.Result
				r.Web.Cache = "hit"
				if hit.Negative {
					r.Web.Cache = "negative"
				}
				log.Debug("web cache hit", "intent", req.Intent, "negative", hit.Negative, "age", hit.Age.Round(time.Second))
			}
		}
	}
	if res == nil {
		var err error
		res, err = opts.Web.Search(ctx, req)
		if err != nil {
			r.Web.Status, r.Web.Error = report.StatusError, err.Error()
			return
		}
		if opts.Cache != nil {
			if c, err := opts.Cache(false); err != nil {
				log.Warn("web cache: not stored", "err", err)
			} else {
				if _, err := c.Store(req, res); err != nil {
					log.Warn("web cache: not stored", "err", err)
				}
				c.Close()
			}
		}
	}
	r.Web.Result = res
	switch {
	case r.Web.Cache == "negative":
		// A remembered error or empty search counts as empty (seed 000).
		r.Web.Status = report.StatusEmpty
	case res.Status == web.StatusOK:
		r.Web.Status = report.StatusOK
	case res.Status == web.StatusPartial:
		r.Web.Status = report.StatusPartial
	case res.Status == web.StatusError:
		r.Web.Status, r.Web.Error = report.StatusError, res.ErrorMessage()
	default:
		r.Web.Status = report.StatusEmpty
	}
	if r.Web.Status != report.StatusOK && r.Web.Status != report.StatusPartial {
		return
	}
	for i, e := range res.Entries {
		r.Web.Hits = append(r.Web.Hits, WebHit{Ref: fmt.Sprintf("W%d", i+1), Entry: e})
	}
	if len(r.Web.Hits) == 0 {
		r.Web.Status = report.StatusEmpty
	}
}

// deepDrill is Phase C: keywords from the web texts that occur in the
// local index but not in the query, searched again without Phase B's
// files.
func deepDrill(ctx context.Context, opts Options, r *Report) {
	r.Deep = DeepPhase{Status: report.StatusSkipped, Keywords: []string{}}
	skip := func(reason report.DeepSkip) { r.Deep.SkipReason = reason }
	switch {
	case r.SkipWeb:
		skip(report.DeepSkipUser)
		return
	case r.Web.Status == report.StatusUnconfigured:
		skip(report.DeepSkipWebNone)
		return
	case r.Web.Status == report.StatusError:
		skip(report.DeepSkipWebError)
		return
	case r.Web.Status != report.StatusOK && r.Web.Status != report.StatusPartial, len(r.Web.Hits) == 0:
		skip(report.DeepSkipWebEmpty)
		return
	case !r.SourceExists:
		skip(report.DeepSkipNoRoot)
		return
	case r.Local.Status == report.StatusError:
		skip(report.DeepSkipLocalError)
		return
	case r.Local.Scanned > 0 && len(r.Local.Hits) == r.Local.Scanned:
		skip(report.DeepSkipAllMatched)
		return
	}
	var titles, snippets []string
	for _, w := range r.Web.Hits {
		titles = append(titles, w.Entry.Title)
		snippets = append(snippets, w.Entry.Snippet)
	}
	key := keywordKey(titles, snippets)
	cands, ok := []string(nil), false
	if opts.Keywords != nil {
		cands, ok = opts.Keywords.Get(key)
	}
	if !ok {
		tok := opts.Tokenizer
		if tok == nil {
			tok = analyzer.Default()
		}
		cands = ExtractKeywords(tok, titles, snippets)
		if opts.Keywords != nil {
			opts.Keywords.Put(key, cands)
		}
	}
	cands = notInQuery(cands, r.Query)
	if len(cands) > maxChecked {
		cands = cands[:maxChecked]
	}
	if len(cands) == 0 {
		skip(report.DeepSkipNoKeywords)
		return
	}
	// Which candidates occur in the local index: one search for all of
	// them, then a literal check in the passages found (and in Phase B's).
	check := index.Query{}
	for _, c := range cands {
		check.Words = append(check.Words, index.Word{Text: c})
	}
	found, err := opts.Local.Search(ctx, local.Request{Query: check, Mode: index.Ranked, Limit: 10, MaxChars: 200, NoHighlights: true, IgnorePreference: opts.IgnorePreference || r.Historical})
	if err != nil {
		r.Deep.Status, r.Deep.Error = report.StatusError, err.Error()
		return
	}
	var texts []string
	for _, m := range found.Matches {
		texts = append(texts, analyzer.FoldText(m.Passage+"\n"+m.Title))
	}
	for _, h := range r.Local.Hits {
		texts = append(texts, analyzer.FoldText(h.Match.Passage+"\n"+h.Match.Title))
	}
	for _, c := range cands {
		fc := analyzer.FoldText(c)
		for _, t := range texts {
			if strings.Contains(t, fc) {
				r.Deep.Keywords = append(r.Deep.Keywords, c)
				break
			}
		}
		if len(r.Deep.Keywords) == maxKeywords {
			break
		}
	}
	if len(r.Deep.Keywords) == 0 {
		skip(report.DeepSkipNoKeywords)
		return
	}
	exclude := make([]string, 0, len(r.Local.Hits))
	prior := map[string]bool{}
	for _, h := range r.Local.Hits {
		exclude = append(exclude, h.Path)
		prior[h.Path] = true
	}
	dq := index.Query{}
	for _, k := range r.Deep.Keywords {
		dq.Words = append(dq.Words, index.Word{Text: k})
	}
	l, err := opts.Local.Search(ctx, local.Request{Query: dq, Mode: index.Ranked, Limit: opts.DeepLimit.Files, MaxChars: opts.DeepLimit.Chars, Exclude: exclude, IgnorePreference: opts.IgnorePreference || r.Historical})
	if err != nil {
		r.Deep.Status, r.Deep.Error = report.StatusError, err.Error()
		return
	}
	r.Deep.Hits = hitsOf(l, "DL", prior)
	if len(r.Deep.Hits) > opts.DeepLimit.Files {
		r.Deep.Hits = r.Deep.Hits[:opts.DeepLimit.Files]
	}
	r.Deep.Status = report.StatusEmpty
	if len(r.Deep.Hits) > 0 {
		r.Deep.Status = report.StatusOK
	}
}
