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
	"lwr/index"
	"lwr/policy"
	"lwr/web"
)

// LocalSearcher runs a local search with the policies applied: through
// the daemon when one answers, else on the index (cmd's searchLocal).
type LocalSearcher interface {
	SearchLocal(ctx context.Context, q index.Query, ws WireSearch, ignorePreference bool) (*Local, error)
}

// LocalFunc is a function that is a LocalSearcher.
type LocalFunc func(ctx context.Context, q index.Query, ws WireSearch, ignorePreference bool) (*Local, error)

// SearchLocal calls f.
func (f LocalFunc) SearchLocal(ctx context.Context, q index.Query, ws WireSearch, ignorePreference bool) (*Local, error) {
	return f(ctx, q, ws, ignorePreference)
}

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

// Limits of Phase B (seed 000).
const (
	LocalMaxFiles = 8
	LocalMaxChars = 800
)

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
	Understanding UnderstandingMode
	// Dictionary is the synonym dictionary (default + user); nil means
	// the embedded default. Only read when Understanding is not off.
	Dictionary *analyzer.Synonyms
	// Intent overrides the understood intent of the web search.
	Intent web.Intent
	// IgnorePreference is for historical or old-edition questions.
	IgnorePreference bool
	// MaxResults and Locale of the web search (5 and "ja" when zero).
	MaxResults int
	Locale     string
	// Model, when set, makes the report schema 1.1 with this model.
	Model string
	// Timestamp names the report; zero means Now().
	Timestamp time.Time

	Local LocalSearcher
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
	// SyncWait is how long to wait for a daemon that is still building
	// the index; 0 means 60s.
	SyncWait time.Duration
	// Logger receives debug records and warnings; nil discards them.
	Logger *slog.Logger
}

func (o Options) withDefaults() Options {
	if o.SyncWait <= 0 {
		o.SyncWait = 60 * time.Second
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Timestamp.IsZero() {
		o.Timestamp = o.Now()
	}
	o.Timestamp = o.Timestamp.UTC().Truncate(time.Second)
	if o.Understanding == "" {
		o.Understanding = UnderstandOff
	}
	if o.MaxResults <= 0 {
		o.MaxResults = web.DefaultMaxResults
	}
	if o.Locale == "" {
		o.Locale = "ja"
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	return o
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
	opts = opts.withDefaults()
	var tm Timings
	start := time.Now()
	log := opts.Logger

	// Phase A: preflight.
	r := &Report{Query: strings.TrimSpace(opts.Query), Timestamp: opts.Timestamp, SchemaVersion: SchemaVersion10, IgnorePreference: opts.IgnorePreference}
	if opts.Model != "" {
		r.SchemaVersion, r.Model = SchemaVersion11, opts.Model
	}
	r.SkipWord = SkipWebWord(r.Query)
	r.SkipWeb = opts.SkipWeb || r.SkipWord != ""
	r.SearchQuery = StripSkipWords(r.Query)
	q, err := index.ParseQuery(r.SearchQuery)
	if err != nil {
		return nil, tm, &Failure{Reason: ReasonInvalidInput, Err: fmt.Errorf("%w: give the words to research besides %s", ErrEmptyQuery, strings.Join(SkipWebWords, ", "))}
	}
	root := opts.SourceRoot
	if abs, err := filepath.Abs(root); err == nil {
		root = abs
	}
	r.SourceRoot = root
	if st, err := os.Stat(root); err == nil && st.IsDir() {
		r.SourceExists = true
	}
	if r.SourceExists {
		if _, err := policy.LoadCurrentness(root); err != nil {
			return nil, tm, &Failure{Reason: ReasonCurrentnessInvalid, Err: err}
		}
		if !opts.IgnorePreference {
			if _, err := policy.LoadPreferences(root); err != nil {
				return nil, tm, &Failure{Reason: ReasonPreferencesInvalid, Err: fmt.Errorf("%w (or pass --ignore-source-preference to research without it)", err)}
			}
		}
	}
	r.Understanding = Understand(r.SearchQuery, opts.Understanding, opts.Dictionary)
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
		return nil, tm, &Failure{Reason: ReasonCanceled, Err: err}
	}
	if localErr != nil {
		return nil, tm, localErr
	}
	webUsable := (r.Web.Status == StatusOK || r.Web.Status == StatusPartial) && len(r.Web.Hits) > 0
	if r.Local.Status == StatusError && !webUsable {
		why := "Web検索なし"
		if r.Web.Status == StatusError {
			why = "Web検索も失敗: " + r.Web.Error
		} else if r.Web.Status == StatusEmpty {
			why = "Web検索は該当なし"
		}
		return nil, tm, &Failure{Reason: ReasonSearchFailed, Err: fmt.Errorf("ローカル検索もWeb検索も使えないため調査を中止しました（ローカル検索: %s; %s）", r.Local.Error, why)}
	}

	// Phase C: deep-drill.
	t0 := time.Now()
	deepDrill(ctx, opts, r)
	tm.Deep = time.Since(t0)
	if err := ctx.Err(); err != nil {
		return nil, tm, &Failure{Reason: ReasonCanceled, Err: err}
	}
	if len(r.Local.Hits)+len(r.Web.Hits)+len(r.Deep.Hits) == 0 {
		return nil, tm, &Failure{Reason: ReasonNoEvidence, Err: errors.New(noEvidenceSentence(r))}
	}

	// Phase D: the conclusion.
	t0 = time.Now()
	r.Conclusion = BuildConclusion(r)
	tm.Report = time.Since(t0)
	tm.Total = time.Since(start)
	log.Debug("research", "local", r.Local.Status, "web", r.Web.Status, "deep", r.Deep.Status, "took", tm.Total)
	return r, tm, nil
}

// noEvidenceSentence says why there is nothing to report.
func noEvidenceSentence(r *Report) string {
	local := SentenceLocalEmpty
	if !r.SourceExists {
		local = MissingRootSentence
	}
	webPart := map[string]string{
		StatusSkipped: SentenceWebSkippedByUser, StatusUnconfigured: SentenceWebUnconfigured,
		StatusEmpty: SentenceWebEmpty, StatusError: SentenceWebFailed,
	}[r.Web.Status]
	if webPart == "" {
		webPart = SentenceWebEmpty
	}
	return "報告できる情報がありません: " + local + "。" + webPart + "。検索語を見直すか、Web検索を有効にしてください"
}

// searchLocalPhase is Phase B's local search. A policy error stops the
// research; other errors make the local status "error".
func searchLocalPhase(ctx context.Context, opts Options, r *Report, q index.Query) error {
	r.Local = LocalPhase{Status: StatusEmpty}
	if !r.SourceExists {
		r.Local.Message = MissingRootSentence
		return nil
	}
	ws := WireSearch{Mode: index.Ranked.String(), Limit: LocalMaxFiles, MaxChars: LocalMaxChars, Synonyms: r.Understanding.Synonyms}
	// A daemon still building the index answers ErrSyncing: wait for it
	// a while rather than research without the local documents.
	deadline := time.Now().Add(opts.SyncWait)
	l, err := opts.Local.SearchLocal(ctx, q, ws, opts.IgnorePreference)
	for errors.Is(err, ErrSyncing) && time.Now().Before(deadline) {
		select {
		case <-ctx.Done():
			return &Failure{Reason: ReasonCanceled, Err: ctx.Err()}
		case <-time.After(250 * time.Millisecond):
		}
		l, err = opts.Local.SearchLocal(ctx, q, ws, opts.IgnorePreference)
	}
	switch {
	case errors.Is(err, policy.ErrCurrentnessInvalid):
		return &Failure{Reason: ReasonCurrentnessInvalid, Err: err}
	case errors.Is(err, policy.ErrPreferencesInvalid):
		return &Failure{Reason: ReasonPreferencesInvalid, Err: err}
	case errors.Is(err, ErrSyncing), errors.Is(err, ErrNotAnswering), errors.Is(err, index.ErrLocked):
		// Busy, not broken: the user tries again (exit 3) rather than
		// getting a report without the local documents.
		return &Failure{Reason: ReasonIndexBusy, Err: err}
	case err != nil:
		if ctx.Err() != nil {
			return &Failure{Reason: ReasonCanceled, Err: ctx.Err()}
		}
		r.Local.Status, r.Local.Error = StatusError, err.Error()
		return nil
	}
	r.Local.Hits = hitsOf(l, "L", nil)
	r.Local.Scanned, r.Local.Total, r.Local.Message, r.Local.Policy = l.Result.Scanned, l.Result.Total, l.Message, l.Policies
	if len(r.Local.Hits) > 0 {
		r.Local.Status = StatusOK
	}
	return nil
}

// hitsOf turns a local search into hits numbered prefix1…, leaving out
// the paths of skip.
func hitsOf(l *Local, prefix string, skip map[string]bool) []Hit {
	var hits []Hit
	root := l.Root
	for i, m := range l.Result.Matches {
		if skip[m.Path] {
			continue
		}
		h := Hit{Ref: fmt.Sprintf("%s%d", prefix, len(hits)+1), Path: m.Path, Abs: filepath.Join(root, filepath.FromSlash(m.Path)), Match: m}
		if i < len(l.Annotations) {
			h.Ext = l.Annotations[i]
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
		r.Web = WebPhase{Status: StatusSkipped, Cache: "off"}
		return
	case opts.Web == nil:
		r.Web = WebPhase{Status: StatusUnconfigured, Cache: "off"}
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
			r.Web.Status, r.Web.Error = StatusError, err.Error()
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
		r.Web.Status = StatusEmpty
	case res.Status == web.StatusOK, res.Status == web.StatusPartial:
		r.Web.Status = string(res.Status)
	case res.Status == web.StatusError:
		r.Web.Status, r.Web.Error = StatusError, res.ErrorMessage()
	default:
		r.Web.Status = StatusEmpty
	}
	if r.Web.Status != StatusOK && r.Web.Status != StatusPartial {
		return
	}
	for i, e := range res.Entries {
		r.Web.Hits = append(r.Web.Hits, WebHit{Ref: fmt.Sprintf("W%d", i+1), Entry: e})
	}
	if len(r.Web.Hits) == 0 {
		r.Web.Status = StatusEmpty
	}
}

// deepDrill is Phase C: keywords from the web texts that occur in the
// local index but not in the query, searched again without Phase B's
// files.
func deepDrill(ctx context.Context, opts Options, r *Report) {
	r.Deep = DeepPhase{Status: StatusSkipped, Keywords: []string{}}
	skip := func(reason string) { r.Deep.SkipReason = reason }
	switch {
	case r.SkipWeb:
		skip(DeepSkipUser)
		return
	case r.Web.Status == StatusUnconfigured:
		skip(DeepSkipWebNone)
		return
	case r.Web.Status == StatusError:
		skip(DeepSkipWebError)
		return
	case r.Web.Status != StatusOK && r.Web.Status != StatusPartial, len(r.Web.Hits) == 0:
		skip(DeepSkipWebEmpty)
		return
	case !r.SourceExists:
		skip(DeepSkipNoRoot)
		return
	case r.Local.Status == StatusError:
		skip(DeepSkipLocalError)
		return
	case r.Local.Scanned > 0 && len(r.Local.Hits) == r.Local.Scanned:
		skip(DeepSkipAllMatched)
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
		skip(DeepSkipNoKeywords)
		return
	}
	// Which candidates occur in the local index: one search for all of
	// them, then a literal check in the passages found (and in Phase B's).
	check := index.Query{}
	for _, c := range cands {
		check.Words = append(check.Words, index.Word{Text: c})
	}
	found, err := opts.Local.SearchLocal(ctx, check, WireSearch{Mode: index.Ranked.String(), Limit: 10, MaxChars: 200}, opts.IgnorePreference)
	if err != nil {
		r.Deep.Status, r.Deep.Error = StatusError, err.Error()
		return
	}
	var texts []string
	for _, m := range found.Result.Matches {
		texts = append(texts, analyzer.Fold(m.Passage+"\n"+m.Title))
	}
	for _, h := range r.Local.Hits {
		texts = append(texts, analyzer.Fold(h.Match.Passage+"\n"+h.Match.Title))
	}
	for _, c := range cands {
		fc := analyzer.Fold(c)
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
		skip(DeepSkipNoKeywords)
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
	l, err := opts.Local.SearchLocal(ctx, dq, WireSearch{Mode: index.Ranked.String(), Limit: DeepMaxFiles, MaxChars: DeepMaxChars, Exclude: exclude}, opts.IgnorePreference)
	if err != nil {
		r.Deep.Status, r.Deep.Error = StatusError, err.Error()
		return
	}
	r.Deep.Hits = hitsOf(l, "DL", prior)
	if len(r.Deep.Hits) > DeepMaxFiles {
		r.Deep.Hits = r.Deep.Hits[:DeepMaxFiles]
	}
	r.Deep.Status = StatusEmpty
	if len(r.Deep.Hits) > 0 {
		r.Deep.Status = StatusOK
	}
}
