package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"lwr/config"
	"lwr/research/local"
	"lwr/web"
)

func newWebCommand(g *globalOptions) *cobra.Command {
	c := group(&cobra.Command{Use: "web", Short: "Search the web through the configured providers, and use the web cache",
		Example: "  lwr web search 電子契約 導入\n  lwr web cache stats"})
	c.AddCommand(newWebSearchCommand(g), newWebCacheCommand(g))
	return c
}

// webSearchOptions are the flags of `lwr web search`.
type webSearchOptions struct {
	format     string
	intentName string
	intent     web.Intent // set by Check
	maxResults int
	locale     string
	providers  []string
	timeout    time.Duration
}

func (o *webSearchOptions) AddFlags(cmd *cobra.Command) {
	fs := cmd.Flags()
	fs.StringVar(&o.format, "format", "text", "output format: text, json (the web_result of agent-output-schema.json) or json-ext (with engines, trust, freshness and the sanitize flags)")
	fs.StringVar(&o.intentName, "intent", "default", "query intent: definition, howto, troubleshooting, factcheck, comparison or default")
	fs.IntVar(&o.maxResults, "max-results", 0, "results to keep after merging, 1 to 10 (default web.max_results)")
	fs.StringVar(&o.locale, "locale", "", "language of the results (default web.locale)")
	fs.StringArrayVar(&o.providers, "provider", nil, "use this provider instead of web.providers: searxng, brave, exec or file (repeatable)")
	fs.DurationVar(&o.timeout, "timeout", 0, "time each provider may take (default web.timeout)")
}

// Check validates the flags.
func (o *webSearchOptions) Check() error {
	switch o.format {
	case "text", "json", "json-ext":
	default:
		return usagef("unknown --format %q; use text, json or json-ext", o.format)
	}
	i, err := parseIntent(o.intentName)
	if err != nil {
		return err
	}
	o.intent = i
	if o.maxResults < 0 || o.maxResults > web.MaxResults {
		return usagef("--max-results is %d; use 1 to %d", o.maxResults, web.MaxResults)
	}
	if o.timeout < 0 {
		return usagef("--timeout is %s; use a positive duration such as 10s", o.timeout)
	}
	return nil
}

// overrides turns the flags that change the configuration into overrides.
func (o *webSearchOptions) overrides() []config.Override {
	var ov []config.Override
	if len(o.providers) > 0 {
		ov = append(ov, config.Override{Key: "web.providers", Value: strings.Join(o.providers, ","), Origin: "flag --provider"})
	}
	if o.timeout > 0 {
		ov = append(ov, config.Override{Key: "web.timeout", Value: o.timeout.String(), Origin: "flag --timeout"})
	}
	return ov
}

// parseIntent reads --intent.
func parseIntent(s string) (web.Intent, error) {
	i, err := web.ParseIntent(s)
	if err != nil {
		return i, usagef("--intent: %v", err)
	}
	return i, nil
}

func newWebSearchCommand(g *globalOptions) *cobra.Command {
	var opts webSearchOptions
	cmd := &cobra.Command{
		Use:     "search QUERY...",
		Example: "  lwr web search 電子契約 収入印紙\n  lwr web search --format json --intent howto VPN 接続 手順",
		Short:   "Run the configured web providers alone and print the merged, sanitized results",
		Long: "Ask every provider of web.providers at once (each within web.timeout), merge the results by\n" +
			"canonical URL, score them (+2 several engines, +1 official domain, +1 dated recently), label and\n" +
			"filter them by freshness, and sanitize everything. One provider failing gives a partial result\n" +
			"that names it. The web cache is not used; see lwr web cache.",
		RunE: func(cmd *cobra.Command, args []string) error {
			return runWebSearch(cmd.Context(), opts, g, g.stdout, args)
		},
	}
	opts.AddFlags(cmd)
	return cmd
}

func runWebSearch(ctx context.Context, opts webSearchOptions, g *globalOptions, out io.Writer, args []string) error {
	fail := func(err error) error {
		if opts.format == "text" {
			return err
		}
		local.WriteJSON(out, web.WebResult{AgentType: "web", Status: web.StatusError, Results: []web.WebEntry{}, ErrorMessage: sentence(err)})
		fmt.Fprintln(g.stderr, "lwr: "+sentence(err))
		return reportedError{err}
	}
	if err := opts.Check(); err != nil {
		return fail(err)
	}
	cfg, _, err := g.load(opts.overrides()...)
	if err != nil {
		return fail(err)
	}
	query := strings.TrimSpace(strings.Join(args, " "))
	if query == "" {
		return fail(usagef("the query is empty; give the words to search for, e.g. lwr web search 有給休暇 申請"))
	}
	if len(cfg.Web.Providers) == 0 {
		return fail(usagef("no web providers are configured; set web.providers in the config file or LWR_WEB_PROVIDERS (searxng, brave, exec, file), or pass --provider"))
	}
	s, err := web.New(cfg.Web, web.Options{Environ: g.environ, Logger: g.logger()})
	if err != nil {
		return fail(usage(err))
	}
	req := web.Request{Query: query, Intent: opts.intent, MaxResults: opts.maxResults, Locale: opts.locale}
	if req.MaxResults == 0 {
		req.MaxResults = cfg.Web.MaxResults
	}
	if req.Locale == "" {
		req.Locale = cfg.Web.Locale
	}
	res, err := s.Search(ctx, req)
	if err != nil {
		return fail(err)
	}
	var failed error
	if res.Status == web.StatusError {
		failed = fmt.Errorf("every web provider failed: %s", res.ErrorMessage())
	}
	switch opts.format {
	case "json", "json-ext":
		if opts.format == "json" {
			local.WriteJSON(out, res.WebResult())
		} else {
			local.WriteJSON(out, res)
		}
		if failed != nil {
			fmt.Fprintln(g.stderr, "lwr: "+sentence(failed))
			return reportedError{failed}
		}
		return nil
	}
	writeWebText(out, res)
	return failed
}

// writeWebText prints a readable list of the results.
func writeWebText(out io.Writer, res *web.Result) {
	fmt.Fprintf(out, "Web: %s — %s, %d results from %s; 判定: %s\n", res.Query, res.Status, len(res.Entries), strings.Join(res.Providers, ", "), res.Verdict)
	for _, f := range res.Failed {
		fmt.Fprintf(out, "  failed: %s\n", f)
	}
	if flags := res.Flags.String(); flags != "" {
		fmt.Fprintf(out, "  flags: %s\n", flags)
	}
	if res.StaleDropped > 0 {
		fmt.Fprintf(out, "  dropped as outdated (%s topic): %d\n", res.Topic, res.StaleDropped)
	}
	fmt.Fprintln(out)
	for i, e := range res.Entries {
		label := ""
		if l := e.Freshness.String(); l != "" {
			label = "  " + l
		}
		fmt.Fprintf(out, "%d. %s%s  trust %d\n", i+1, e.Title, label, e.Trust)
		fmt.Fprintf(out, "   %s\n", e.URL)
		meta := "   engines: " + strings.Join(e.Engines, ", ")
		if !e.Published.IsZero() {
			meta += "; published " + e.Published.Format("2006-01-02")
		}
		meta += "; 参照日 " + e.FetchedAt.Local().Format("2006-01-02")
		fmt.Fprintln(out, meta)
		if e.Snippet != "" {
			fmt.Fprintf(out, "   %s\n", e.Snippet)
		}
		fmt.Fprintln(out)
	}
}

// The web cache commands speak the JSON of the research skill's cache
// scripts (Get-WebCache.ps1, Set-WebCache.ps1, Invoke-WebCacheCleanup.ps1),
// one line on stdout, so that an agent that searches with its own tools
// can still use the cache. Like those scripts they exit 0 whatever happens
// to the cache; only a bad command line exits 2.

func newWebCacheCommand(g *globalOptions) *cobra.Command {
	c := group(&cobra.Command{Use: "cache", Short: "Read and write the web cache (JSON in and out, for agents that search themselves)",
		Example: "  lwr web cache stats\n  lwr web cache cleanup"})
	c.AddCommand(newWebCacheGetCommand(g), newWebCacheSetCommand(g), newWebCacheCleanupCommand(g), newWebCacheStatsCommand(g))
	return c
}

// cacheKeyOptions are the flags that make a cache key.
type cacheKeyOptions struct {
	query      string
	intentName string
	intent     web.Intent // set by Check
	maxResults int
	locale     string
}

func (o *cacheKeyOptions) AddFlags(cmd *cobra.Command) {
	fs := cmd.Flags()
	fs.StringVar(&o.query, "query", "", "the search query (required)")
	fs.StringVar(&o.intentName, "intent", "default", "query intent: definition, howto, troubleshooting, factcheck, comparison or default")
	fs.IntVar(&o.maxResults, "max-results", 0, "max results of the search, part of the key (default web.max_results)")
	fs.StringVar(&o.locale, "locale", "", "locale of the search, part of the key (default web.locale)")
}

// Check validates the flags.
func (o *cacheKeyOptions) Check() error {
	if strings.TrimSpace(o.query) == "" {
		return usagef("--query is required; give the search query the result belongs to")
	}
	i, err := parseIntent(o.intentName)
	if err != nil {
		return err
	}
	o.intent = i
	if o.maxResults < 0 || o.maxResults > web.MaxResults {
		return usagef("--max-results is %d; use 1 to %d", o.maxResults, web.MaxResults)
	}
	return nil
}

func (o *cacheKeyOptions) request(cfg config.Config) web.Request {
	req := web.Request{Query: o.query, Intent: o.intent, MaxResults: o.maxResults, Locale: o.locale}
	if req.MaxResults == 0 {
		req.MaxResults = cfg.Web.MaxResults
	}
	if req.Locale == "" {
		req.Locale = cfg.Web.Locale
	}
	return req
}

// webCacheGetOptions are the flags of `lwr web cache get`.
type webCacheGetOptions struct {
	cacheKeyOptions
	ext bool
}

func (o *webCacheGetOptions) AddFlags(cmd *cobra.Command) {
	o.cacheKeyOptions.AddFlags(cmd)
	cmd.Flags().BoolVar(&o.ext, "ext", false, "give data in the extended form (engines, trust, freshness, sanitize flags) instead of web_result")
}

func newWebCacheGetCommand(g *globalOptions) *cobra.Command {
	var opts webCacheGetOptions
	cmd := &cobra.Command{
		Use:     "get --query Q [--intent I] [--max-results N] [--locale L]",
		Example: "  lwr web cache get --query \"電子契約 収入印紙\" --intent factcheck",
		Short:   `Look a search up: {"hit":true,"data":…,"negative":…,"age_seconds":…} or {"hit":false}`,
		Args:    noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runWebCacheGet(cmd.Context(), opts, g, g.stdout)
		},
	}
	opts.AddFlags(cmd)
	return cmd
}

// cacheGetOutput is Get-WebCache's answer, plus what lwr knows more.
type cacheGetOutput struct {
	Hit        bool        `json:"hit"`
	Data       any         `json:"data,omitempty"`
	Negative   *bool       `json:"negative,omitempty"`
	AgeSeconds *int        `json:"age_seconds,omitempty"`
	CachedAt   string      `json:"cached_at,omitempty"`
	Verdict    web.Verdict `json:"verdict,omitempty"`
	Key        string      `json:"key,omitempty"`
	Warning    string      `json:"warning,omitempty"`
}

func runWebCacheGet(_ context.Context, opts webCacheGetOptions, g *globalOptions, out io.Writer) error {
	if err := opts.Check(); err != nil {
		return err
	}
	cfg, _, err := g.load()
	if err != nil {
		return err
	}
	req := opts.request(cfg)
	miss := func(err error) error {
		o := cacheGetOutput{Hit: false}
		if err != nil {
			o.Warning = sentence(err)
			fmt.Fprintln(g.stderr, "lwr: warning: "+o.Warning)
		}
		writeJSONLine(out, o)
		return nil
	}
	c, err := web.OpenCache(cfg.CacheDir, cfg.Web.CacheFile, web.CacheOptions{ReadOnly: true, Timeout: web.DefaultCacheLockTimeout, Logger: g.logger()})
	if err != nil {
		return miss(err)
	}
	defer c.Close()
	hit, err := c.Get(req)
	if err == nil && hit.Damaged != "" {
		err = errors.New(hit.Damaged)
	}
	if err != nil || !hit.Found {
		return miss(err)
	}
	age := int(hit.Age.Seconds())
	o := cacheGetOutput{Hit: true, Negative: &hit.Negative, AgeSeconds: &age, CachedAt: hit.CachedAt.UTC().Format(time.RFC3339),
		Verdict: hit.Result.Verdict, Key: web.CacheKey(req), Data: hit.Result.WebResult()}
	if opts.ext {
		o.Data = hit.Result
	}
	if hit.Negative {
		g.logger().Warn("negative web cache hit", "intent", req.Intent, "age", hit.Age.Round(time.Second))
	}
	writeJSONLine(out, o)
	return nil
}

// webCacheSetOptions are the flags of `lwr web cache set`.
type webCacheSetOptions struct {
	cacheKeyOptions
	data     string
	dataFile string
	negative bool
}

func (o *webCacheSetOptions) AddFlags(cmd *cobra.Command) {
	o.cacheKeyOptions.AddFlags(cmd)
	fs := cmd.Flags()
	fs.StringVar(&o.data, "data", "", "the web_result JSON to store")
	fs.StringVar(&o.dataFile, "data-file", "", "read the web_result JSON from this file (- for standard input)")
	fs.BoolVar(&o.negative, "negative", false, "store as a negative entry (an error or empty search), kept 5 minutes")
}

// Check validates the flags.
func (o *webCacheSetOptions) Check() error {
	if err := o.cacheKeyOptions.Check(); err != nil {
		return err
	}
	if (o.data == "") == (o.dataFile == "") {
		return usagef("give the result with exactly one of --data JSON and --data-file FILE")
	}
	return nil
}

func newWebCacheSetCommand(g *globalOptions) *cobra.Command {
	var opts webCacheSetOptions
	cmd := &cobra.Command{
		Use:     "set --query Q [--intent I] [--max-results N] [--locale L] (--data JSON | --data-file F) [--negative]",
		Example: "  lwr web cache set --query \"電子契約 収入印紙\" --intent factcheck --data-file web.json\n  lwr web cache set --query \"存在しない制度\" --negative --data \"{\\\"status\\\":\\\"empty\\\",\\\"results\\\":[]}\"",
		Short:   `Store a search result (sanitized first): {"status":"ok"|"skipped"|"error",…}`,
		Args:    noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runWebCacheSet(cmd.Context(), opts, g, g.stdout)
		},
	}
	opts.AddFlags(cmd)
	return cmd
}

// cacheSetOutput is Set-WebCache's answer, plus what lwr knows more.
type cacheSetOutput struct {
	Status   string      `json:"status"`
	Path     string      `json:"path,omitempty"`
	Negative *bool       `json:"negative,omitempty"`
	Key      string      `json:"key,omitempty"`
	Results  *int        `json:"results,omitempty"`
	Verdict  web.Verdict `json:"verdict,omitempty"`
	Flags    *web.Flags  `json:"aggregate_flags,omitempty"`
	Reason   string      `json:"reason,omitempty"`
	Message  string      `json:"message,omitempty"`
	Warnings []string    `json:"warnings,omitempty"`
}

// maxCacheData bounds the JSON a cache set reads.
const maxCacheData = 8 << 20

func runWebCacheSet(ctx context.Context, opts webCacheSetOptions, g *globalOptions, out io.Writer) error {
	if err := opts.Check(); err != nil {
		return err
	}
	cfg, _, err := g.load()
	if err != nil {
		return err
	}
	req := opts.request(cfg)
	answer := func(o cacheSetOutput) error {
		if o.Message != "" {
			fmt.Fprintln(g.stderr, "lwr: warning: "+o.Message)
		}
		writeJSONLine(out, o)
		return nil
	}
	// Bad input is the caller's to fix: the same JSON, and exit 2. A
	// cache that cannot be written is not: the answer says so, exit 0.
	badInput := func(msg string) error {
		answer(cacheSetOutput{Status: "error", Message: msg})
		return reportedError{usagef("%s", msg)}
	}
	data := []byte(opts.data)
	if opts.dataFile != "" {
		data, err = readInput(ctx, g.stdin, opts.dataFile, maxCacheData)
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if err != nil {
			return badInput(sentence(fmt.Errorf("--data-file: %w", err)))
		}
	}
	res, err := web.Import(req, data, "agent", web.Options{Logger: g.logger()})
	if err != nil {
		return badInput(sentence(fmt.Errorf("invalid JSON in --data: %w", err)))
	}
	negative := opts.negative || res.Status == web.StatusEmpty || res.Status == web.StatusError
	c, err := web.OpenCache(cfg.CacheDir, cfg.Web.CacheFile, web.CacheOptions{Timeout: web.DefaultCacheLockTimeout, Logger: g.logger()})
	switch {
	case errors.Is(err, web.ErrCacheUnsafe):
		return answer(cacheSetOutput{Status: "skipped", Reason: "boundary_check_failed", Message: sentence(err)})
	case errors.Is(err, web.ErrCacheLocked):
		return answer(cacheSetOutput{Status: "skipped", Reason: "locked", Message: sentence(err)})
	case err != nil:
		return answer(cacheSetOutput{Status: "error", Message: sentence(err)})
	}
	defer c.Close()
	if err := c.Set(req, res, negative); err != nil {
		return answer(cacheSetOutput{Status: "error", Message: sentence(err), Warnings: c.Warnings()})
	}
	n := len(res.Entries)
	return answer(cacheSetOutput{Status: "ok", Path: c.Path(), Negative: &negative, Key: web.CacheKey(req), Results: &n,
		Verdict: res.Verdict, Flags: &res.Flags, Warnings: c.Warnings()})
}

// webCacheCleanupOptions are the flags of `lwr web cache cleanup`.
type webCacheCleanupOptions struct {
	max     int
	timeout time.Duration
}

func (o *webCacheCleanupOptions) AddFlags(cmd *cobra.Command) {
	cmd.Flags().IntVar(&o.max, "max", 200, "remove at most this many entries")
	cmd.Flags().DurationVar(&o.timeout, "timeout", 2*time.Second, "stop after this long")
}

// Check validates the flags.
func (o *webCacheCleanupOptions) Check() error {
	if o.max < 1 {
		return usagef("--max is %d; use a positive number", o.max)
	}
	if o.timeout <= 0 {
		return usagef("--timeout is %s; use a positive duration such as 2s", o.timeout)
	}
	return nil
}

func newWebCacheCleanupCommand(g *globalOptions) *cobra.Command {
	var opts webCacheCleanupOptions
	cmd := &cobra.Command{
		Use:     "cleanup",
		Example: "  lwr web cache cleanup\n  lwr web cache cleanup --max 1000 --timeout 5s",
		Short:   "Remove entries older than 24 hours (bounded in count and time); prints the cleanup report",
		Args:    noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runWebCacheCleanup(cmd.Context(), opts, g, g.stdout)
		},
	}
	opts.AddFlags(cmd)
	return cmd
}

func runWebCacheCleanup(ctx context.Context, opts webCacheCleanupOptions, g *globalOptions, out io.Writer) error {
	if err := opts.Check(); err != nil {
		return err
	}
	cfg, _, err := g.load()
	if err != nil {
		return err
	}
	failed := func(reason string, err error) error {
		fmt.Fprintln(g.stderr, "lwr: warning: "+sentence(err))
		writeJSONLine(out, map[string]any{"event": "web_cache_cleanup", "reason": reason, "detail": sentence(err),
			"deleted_count": 0, "failed_count": 0, "scanned_count": 0, "elapsed_ms": 0, "max_limit": opts.max, "truncated": false})
		return nil
	}
	c, err := web.OpenCache(cfg.CacheDir, cfg.Web.CacheFile, web.CacheOptions{Timeout: web.DefaultCacheLockTimeout, Logger: g.logger()})
	switch {
	case errors.Is(err, web.ErrCacheUnsafe):
		return failed("boundary_rejected", err)
	case errors.Is(err, web.ErrCacheLocked):
		return failed("locked", err)
	case err != nil:
		return failed("error", err)
	}
	defer c.Close()
	rep, err := c.Cleanup(ctx, web.CleanupOptions{MaxDelete: opts.max, MaxDuration: opts.timeout})
	if errors.Is(err, context.Canceled) {
		return err
	}
	if err != nil {
		return failed("error", err)
	}
	writeJSONLine(out, rep)
	return nil
}

func newWebCacheStatsCommand(g *globalOptions) *cobra.Command {
	return &cobra.Command{
		Use:     "stats",
		Example: "  lwr web cache stats",
		Short:   "Count the cache entries by kind and age",
		Args:    noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runWebCacheStats(cmd.Context(), g, g.stdout)
		},
	}
}

func runWebCacheStats(_ context.Context, g *globalOptions, out io.Writer) error {
	cfg, _, err := g.load()
	if err != nil {
		return err
	}
	c, err := web.OpenCache(cfg.CacheDir, cfg.Web.CacheFile, web.CacheOptions{ReadOnly: true, Timeout: web.DefaultCacheLockTimeout, Logger: g.logger()})
	if err != nil {
		fmt.Fprintln(g.stderr, "lwr: warning: "+sentence(err))
		writeJSONLine(out, map[string]any{"warning": sentence(err)})
		return nil
	}
	defer c.Close()
	st, err := c.Stats()
	if err != nil {
		fmt.Fprintln(g.stderr, "lwr: warning: "+sentence(err))
		writeJSONLine(out, map[string]any{"path": c.Path(), "warning": sentence(err)})
		return nil
	}
	writeJSONLine(out, st)
	return nil
}

// writeJSONLine prints v as one line of JSON, as the cache scripts did.
func writeJSONLine(out io.Writer, v any) {
	enc := json.NewEncoder(out)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
}
