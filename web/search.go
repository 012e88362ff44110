package web

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"lwr/config"
)

// Provider is one source of web results. Search returns the provider's
// results for req, unsanitized and in its own order, at most MaxResults
// of them as far as the provider controls that; the Searcher sanitizes,
// merges and ranks. It must return when ctx is done, and must be safe
// for concurrent use.
type Provider interface {
	Name() string
	Search(ctx context.Context, req Request) (Response, error)
}

// Options configure the providers and the Searcher. The zero value works.
type Options struct {
	// HTTPClient is used by the HTTP providers; nil means a client of
	// its own (each search is bounded by Timeout through its context).
	HTTPClient *http.Client
	// Environ is the environment of exec commands; nil means the process's.
	Environ []string
	// Timeout bounds each provider's search; 0 means 10s.
	Timeout time.Duration
	// OfficialDomains are official in addition to .go.jp .lg.jp .gov .edu .ac.jp.
	OfficialDomains []string
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// Logger receives debug and warning records; nil discards them.
	Logger *slog.Logger
}

func (o Options) withDefaults() Options {
	if o.HTTPClient == nil {
		o.HTTPClient = &http.Client{}
	}
	if o.Timeout <= 0 {
		o.Timeout = config.DefaultWeb().Timeout
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	return o
}

// Searcher runs every provider in parallel and merges what they find.
type Searcher struct {
	providers []Provider
	opts      Options
}

// New builds the providers that cfg.Providers names and a Searcher over
// them. cfg.Timeout and cfg.OfficialDomains apply unless opts sets them.
// It returns ErrNoProviders when none is configured, and an error naming
// the setting to fix when a provider is misconfigured.
func New(cfg config.Web, opts Options) (*Searcher, error) {
	if opts.Timeout <= 0 {
		opts.Timeout = cfg.Timeout
	}
	opts.OfficialDomains = append(slices.Clone(opts.OfficialDomains), cfg.OfficialDomains...)
	var ps []Provider
	for _, name := range cfg.Providers {
		var (
			p   Provider
			err error
		)
		switch name {
		case "searxng":
			p, err = NewSearXNG(cfg.SearXNG, opts)
		case "brave":
			p, err = NewBrave(cfg.Brave, opts)
		case "exec":
			p, err = NewExec(cfg.Exec, opts)
		case "file":
			p, err = NewFile(cfg.File, opts)
		default:
			err = fmt.Errorf("unknown web provider %q; use searxng, brave, exec or file", name)
		}
		if err != nil {
			return nil, err
		}
		ps = append(ps, p)
	}
	return NewSearcher(ps, opts)
}

// NewSearcher returns a Searcher over the given providers, which must
// have distinct names.
func NewSearcher(providers []Provider, opts Options) (*Searcher, error) {
	if len(providers) == 0 {
		return nil, ErrNoProviders
	}
	seen := map[string]bool{}
	for _, p := range providers {
		if p == nil {
			return nil, errors.New("new web searcher: nil provider")
		}
		if seen[p.Name()] {
			return nil, fmt.Errorf("new web searcher: provider %q is listed twice", p.Name())
		}
		seen[p.Name()] = true
	}
	return &Searcher{providers: providers, opts: opts.withDefaults()}, nil
}

// Providers names the providers in order.
func (s *Searcher) Providers() []string {
	names := make([]string, len(s.providers))
	for i, p := range s.providers {
		names[i] = p.Name()
	}
	return names
}

// outcome is one provider's answer.
type outcome struct {
	name string
	resp Response
	err  error
	took time.Duration
}

// Search asks every provider at once, each within the timeout, and
// returns the merged, sanitized, ranked result. Provider failures are
// in the result (status partial or error), not in the error, which is
// only for an empty query or a cancelled ctx.
func (s *Searcher) Search(ctx context.Context, req Request) (*Result, error) {
	req = req.normalized()
	if req.Query == "" {
		return nil, ErrEmptyQuery
	}
	started := s.opts.Now()
	outs := make([]outcome, len(s.providers))
	var wg sync.WaitGroup
	for i, p := range s.providers {
		wg.Go(func() {
			outs[i] = s.run(ctx, p, req)
		})
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("web search %q: %w", firstRunes(req.Query, 40), err)
	}
	res := assemble(req, outs, s.opts, started)
	s.opts.Logger.Debug("web search", "query", req.Query, "status", res.Status, "results", len(res.Entries), "verdict", res.Verdict, "took", s.opts.Now().Sub(started).Round(time.Millisecond))
	return res, nil
}

// run asks one provider with its own deadline and turns a panic into a failure.
func (s *Searcher) run(ctx context.Context, p Provider, req Request) (o outcome) {
	o.name = p.Name()
	start := time.Now()
	pctx, cancel := context.WithTimeout(ctx, s.opts.Timeout)
	defer cancel()
	defer func() {
		if r := recover(); r != nil {
			o.err = fmt.Errorf("provider panicked: %v", r)
		}
		o.took = time.Since(start)
		if o.err != nil {
			s.opts.Logger.Warn("web provider failed", "provider", o.name, "err", o.err, "took", o.took.Round(time.Millisecond))
		} else {
			s.opts.Logger.Debug("web provider answered", "provider", o.name, "status", o.resp.Status, "results", len(o.resp.Entries), "took", o.took.Round(time.Millisecond))
		}
	}()
	o.resp, o.err = p.Search(pctx, req)
	if o.err == nil && pctx.Err() != nil && ctx.Err() == nil {
		// The provider ignored its deadline and answered anyway; its
		// answer came too late to trust.
		o.err = pctx.Err()
	}
	if o.err != nil && errors.Is(o.err, context.DeadlineExceeded) && ctx.Err() == nil {
		o.err = fmt.Errorf("timed out after %s: %w", s.opts.Timeout, o.err)
	}
	return o
}

// Import turns a web_result that an agent produced into a sanitized,
// ranked Result, as if a provider named provider had returned it.
func Import(req Request, data []byte, provider string, opts Options) (*Result, error) {
	opts = opts.withDefaults()
	req = req.normalized()
	now := opts.Now()
	resp, err := ParseWebResult(data, now)
	if err != nil {
		return nil, fmt.Errorf("import web results: %w", err)
	}
	return assemble(req, []outcome{{name: provider, resp: resp}}, opts, now), nil
}

// merged is an entry being merged, with what ranking needs.
type merged struct {
	Entry
	host  string
	order int
}

// assemble sanitizes each provider's entries, merges them by canonical
// URL, ranks them and sets the status (SPEC §6.2, §6.3).
func assemble(req Request, outs []outcome, opts Options, started time.Time) *Result {
	now := opts.Now()
	res := &Result{
		Query:      req.Query,
		Intent:     req.Intent,
		Entries:    []Entry{},
		Topic:      DetectTopic(req.Query),
		SearchedAt: started.UTC(),
	}
	byKey := map[string]*merged{}
	var list []*merged
	failed, answered := 0, 0
	var messages []string
	for _, o := range outs {
		res.Providers = append(res.Providers, o.name)
		if o.err == nil && o.resp.Status == StatusError {
			// The provider's own message is text from outside: its
			// findings count like those of its results.
			msg, f := SanitizeText(o.resp.Message, 300)
			res.Flags.Merge(f)
			if msg == "" {
				msg = "reported an error"
			}
			o.err = errors.New(msg)
		}
		if o.err != nil {
			failed++
			// Errors are lwr's own sentences, perhaps quoting a command's
			// standard error: cleaned, but not what the verdict is about.
			reason, _ := SanitizeText(o.err.Error(), 300)
			res.Failed = append(res.Failed, Failure{Provider: o.name, Reason: reason})
			messages = append(messages, reason)
			continue
		}
		answered++
		if o.resp.Status == StatusPartial {
			msg, f := SanitizeText(o.resp.Message, 300)
			res.Flags.Merge(f)
			if msg == "" {
				msg = "reported partial results"
			} else {
				msg = "reported partial results: " + msg
			}
			res.Failed = append(res.Failed, Failure{Provider: o.name, Reason: msg})
		}
		if QueryMismatch(req.Query, o.resp.Query) {
			res.Flags.QueryMismatch = true
		}
		res.Flags.DroppedResults += o.resp.Malformed
		entries := o.resp.Entries
		if len(entries) > MaxResults {
			res.Flags.DroppedResults += len(entries) - MaxResults
			entries = entries[:MaxResults]
		}
		for i, raw := range entries {
			e, host, ok := sanitizeEntry(raw, &res.Flags)
			if !ok {
				continue
			}
			if e.FetchedAt.IsZero() || e.FetchedAt.After(now.Add(time.Minute)) {
				e.FetchedAt = now
			}
			e.FetchedAt = e.FetchedAt.UTC().Truncate(time.Second)
			if len(raw.Engines) == 0 {
				e.Engines = []string{o.name}
			}
			if raw.Rank <= 0 {
				e.Rank = i + 1
			}
			key := host
			if c, err := canonicalize(e.URL); err == nil {
				key = c.key
			}
			if m, ok := byKey[key]; ok {
				mergeInto(m, e)
				continue
			}
			m := &merged{Entry: e, host: host, order: len(list)}
			byKey[key] = m
			list = append(list, m)
		}
	}

	kept := make([]*merged, 0, len(list))
	for _, m := range list {
		if judge(&m.Entry, m.host, res.Topic, req.Query, now, opts.OfficialDomains) {
			res.StaleDropped++
			continue
		}
		kept = append(kept, m)
	}
	slices.SortStableFunc(kept, func(a, b *merged) int {
		if a.Trust != b.Trust {
			return b.Trust - a.Trust
		}
		if a.Rank != b.Rank {
			return a.Rank - b.Rank
		}
		return a.order - b.order
	})
	limit := req.MaxResults
	if limit <= 0 {
		limit = config.DefaultWeb().MaxResults
	}
	for _, m := range kept[:min(len(kept), limit)] {
		res.Entries = append(res.Entries, m.Entry)
	}

	switch {
	case answered == 0:
		res.Status = StatusError
		res.Message = strings.Join(messages, "; ")
	case len(res.Failed) > 0:
		res.Status = StatusPartial
	case len(res.Entries) == 0:
		res.Status = StatusEmpty
	default:
		res.Status = StatusOK
	}
	res.Verdict = res.Flags.Verdict()
	return res
}

// sanitizeEntry cleans one entry. It returns the cleaned entry, its host,
// and false when it must be dropped.
func sanitizeEntry(raw Entry, f *Flags) (Entry, string, bool) {
	u, ok := sanitizeURL(raw.URL, f)
	if !ok {
		return Entry{}, "", false
	}
	c, err := canonicalize(u)
	if err != nil {
		f.FilteredUnsafeURLs++
		return Entry{}, "", false
	}
	e := raw
	e.URL = c.display
	e.Title = sanitizeText(raw.Title, MaxTitleRunes, f)
	e.Snippet = sanitizeText(raw.Snippet, MaxSnippetRunes, f)
	if e.Title == "" {
		e.Title = c.host
	}
	if e.Status != EntryFetchFailed {
		e.Status = EntryOK
	}
	e.Engines = nil
	for _, name := range raw.Engines {
		if n := sanitizeText(name, 60, f); n != "" {
			e.Engines = addEngine(e.Engines, n)
		}
	}
	e.Trust, e.TrustReasons, e.Freshness = 0, nil, FreshUnknown
	return e, c.host, true
}

// mergeInto adds a duplicate of m's URL found by another engine or rank.
func mergeInto(m *merged, e Entry) {
	m.Engines = addEngine(m.Engines, e.Engines...)
	if e.Rank < m.Rank {
		m.Rank = e.Rank
		if e.Title != "" {
			m.Title = e.Title
		}
		if e.Snippet != "" {
			m.Snippet = e.Snippet
		}
	}
	if m.Snippet == "" {
		m.Snippet = e.Snippet
	}
	if e.Published.After(m.Published) {
		m.Published = e.Published
	}
	if e.FetchedAt.After(m.FetchedAt) {
		m.FetchedAt = e.FetchedAt
	}
	if e.Status == EntryOK {
		m.Status = EntryOK
	}
}
