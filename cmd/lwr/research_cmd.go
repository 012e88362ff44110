package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"lwr/config"
	"lwr/index"
	"lwr/research"
	"lwr/research/local"
	"lwr/research/local/daemon"
	"lwr/research/report"
	"lwr/research/understand"
	"lwr/web"
)

// researchOptions are the flags of `lwr research`.
type researchOptions struct {
	skipWeb          bool
	json             bool
	workspace        string
	timestamp        string
	model            string
	webResults       string
	understanding    string
	intentName       string
	maxResults       int
	ignorePreference bool

	// Set by Check.
	intent web.Intent
	ts     time.Time
}

func (o *researchOptions) AddFlags(cmd *cobra.Command) {
	fs := cmd.Flags()
	fs.BoolVar(&o.skipWeb, "skip-web", false, "local documents only (also when the query says ローカルのみ, ローカルだけ, Web不要, Web検索なし, オフライン or 社内資料のみ)")
	fs.BoolVar(&o.json, "json", false, "print a machine summary (paths, statuses, timings per phase) instead of the saved line")
	fs.StringVar(&o.workspace, "workspace", "", "folder the report goes into (default: the git top-level of the current folder, else the current folder)")
	fs.StringVar(&o.timestamp, "timestamp", "", "name the report research_<TS>.md with this UTC time, yyyyMMddTHHmmssZ (default now); the same report again is skipped")
	fs.StringVar(&o.model, "model", "", "record the model that asked (report schema 1.1): "+strings.Join(report.Models, ", "))
	fs.StringVar(&o.webResults, "web-results", "", "use the web_result JSON an agent already fetched (file, or - for standard input) instead of the configured providers")
	fs.StringVar(&o.understanding, "query-understanding", "", "off, auto or always (default query_understanding, env CC_LWR_QUERY_UNDERSTANDING)")
	fs.StringVar(&o.intentName, "intent", "", "the query's intent for the web search and its cache (default: understood from the query)")
	fs.IntVar(&o.maxResults, "max-results", 0, "web results to keep, 1 to 10 (default web.max_results)")
	fs.BoolVar(&o.ignorePreference, "ignore-source-preference", false, "historical or old-edition question: keep relevance order; old values are quoted as values of their time")
}

// Check validates the flags and reads the timestamp and the intent.
func (o *researchOptions) Check() error {
	if o.timestamp != "" {
		ts, err := report.ParseTimestamp(o.timestamp)
		if err != nil {
			return usagef("--timestamp: %v", err)
		}
		o.ts = ts
	}
	if o.model != "" && !slices.Contains(report.Models, o.model) {
		return usagef("unknown --model %q; use one of %s", o.model, strings.Join(report.Models, ", "))
	}
	if o.understanding != "" {
		if _, err := understand.ParseMode(o.understanding); err != nil {
			return usagef("--query-understanding: %v", err)
		}
	}
	if o.intentName != "" {
		i, err := web.ParseIntent(o.intentName)
		if err != nil {
			return usagef("--intent: %v", err)
		}
		o.intent = i
	}
	if o.maxResults < 0 || o.maxResults > web.MaxResults {
		return usagef("--max-results is %d; use 1 to %d", o.maxResults, web.MaxResults)
	}
	if o.webResults != "" && o.skipWeb {
		return usagef("--web-results and --skip-web contradict each other; give one")
	}
	return nil
}

func (o *researchOptions) overrides() []config.Override {
	if o.understanding == "" {
		return nil
	}
	return []config.Override{{Key: "query_understanding", Value: o.understanding, Origin: "flag --query-understanding"}}
}

func newResearchCommand(g *globalOptions) *cobra.Command {
	var opts researchOptions
	cmd := &cobra.Command{
		Use:     "research QUERY...",
		Example: "  lwr research 随意契約の上限額はいくらか\n  lwr research --skip-web --json 有給休暇の申請期限\n  lwr research --web-results web.json --ignore-source-preference 2024年度の出張旅費の上限",
		Short:   "Research a question in the local documents and the web and save a validated report",
		Long: "Run the research pipeline: preflight (skip words, source root, query understanding, policies),\n" +
			"local search (through the daemon when it runs) and web search (cache, then the configured providers),\n" +
			"a deep-drill with keywords from the web results, and a report with five sections, line-exact\n" +
			"citations and a conclusion built from the evidence. The report is validated and saved atomically\n" +
			"to <workspace>/result/research/research_<UTC time>.md with its context file; the only output is\n" +
			"the line 保存しました: [research_<ts>.md](<absolute path>) (or --json).",
		RunE: func(cmd *cobra.Command, args []string) error {
			return runResearch(cmd.Context(), opts, g, g.stdout, args)
		},
	}
	opts.AddFlags(cmd)
	return cmd
}

// failJSON reports a failure as --json and on stderr.
func failJSON(g *globalOptions, out io.Writer, asJSON bool, err error) error {
	if !asJSON {
		return err
	}
	s := research.Failed(err, sentence(err))
	if errors.Is(err, local.ErrInvalidInput) && !errors.As(err, new(*report.Failure)) {
		s.Reason = "usage"
	}
	local.WriteJSON(out, s)
	fmt.Fprintln(g.stderr, "lwr: "+sentence(err))
	return reportedError{err}
}

// workspaceOf resolves --workspace, else the git top-level of the current
// folder, else the current folder.
func workspaceOf(flag string) (string, error) {
	if flag != "" {
		abs, err := filepath.Abs(flag)
		if err != nil {
			return "", err
		}
		switch st, err := os.Stat(abs); {
		case errors.Is(err, fs.ErrNotExist):
			return "", usagef("--workspace %s does not exist; create it (mkdir) or name an existing folder", flag)
		case err != nil || !st.IsDir():
			return "", usagef("--workspace %s is not a folder", flag)
		}
		return abs, nil
	}
	wd, err := os.Getwd()
	if err != nil {
		return "", fmt.Errorf("find the workspace: %w", err)
	}
	return report.FindWorkspace(wd)
}

// importSearcher answers the web step with results an agent fetched.
type importSearcher struct {
	data []byte
	opts web.Options
}

func (s importSearcher) Search(_ context.Context, req web.Request) (*web.Result, error) {
	return web.Import(req, s.data, "file", s.opts)
}

func runResearch(ctx context.Context, opts researchOptions, g *globalOptions, out io.Writer, args []string) error {
	fail := func(err error) error { return failJSON(g, out, opts.json, err) }
	if err := opts.Check(); err != nil {
		return fail(err)
	}
	query := strings.TrimSpace(strings.Join(args, " "))
	if query == "" {
		return fail(usagef("the query is empty; give the question to research, e.g. lwr research 随意契約の上限額"))
	}
	if strings.TrimSpace(understand.StripSkipWords(query)) == "" {
		return fail(usagef("the query has only skip words (%s); give the question to research", strings.Join(understand.SkipWebWords, ", ")))
	}
	if _, err := index.ParseQuery(query); err != nil {
		return fail(err)
	}
	cfg, _, err := g.load(opts.overrides()...)
	if err != nil {
		return fail(err)
	}
	ws, err := workspaceOf(opts.workspace)
	if err != nil {
		return fail(err)
	}
	if err := report.OutsideSourceRoot(ws, cfg.Research.OutputDir, cfg.SourceRoot); err != nil {
		return fail(err)
	}
	log := g.logger()
	ro, err := research.Configure(cfg, g.environ, log)
	if err != nil {
		return fail(err)
	}
	lo, err := g.localOptions(cfg)
	if err != nil {
		return fail(err)
	}
	searcher, err := daemon.Open(ctx, lo)
	if err != nil {
		return fail(err)
	}
	defer searcher.Close()
	ro.Query, ro.Local, ro.Model, ro.Timestamp = query, searcher, opts.model, opts.ts
	ro.SkipWeb, ro.Intent, ro.IgnorePreference = opts.skipWeb, opts.intent, opts.ignorePreference
	if opts.maxResults > 0 {
		ro.MaxResults = opts.maxResults
	}
	switch {
	case opts.skipWeb:
		ro.Web, ro.Cache = nil, nil
	case opts.webResults != "":
		data, err := readInput(ctx, g.stdin, opts.webResults, web.DefaultFileMaxBytes)
		if ctx.Err() != nil {
			return fail(ctx.Err())
		}
		if err != nil {
			return fail(usagef("--web-results: %v", err))
		}
		ro.Web, ro.Cache = importSearcher{data: data, opts: web.Options{Environ: g.environ, Logger: log}}, nil
	}
	src, err := g.sources(cfg)
	if err != nil {
		return fail(err)
	}
	res, err := research.Run(ctx, ro, report.FinalizeOptions{Workspace: ws, OutputDir: cfg.Research.OutputDir, Sources: src})
	if err != nil {
		if errors.Is(err, research.ErrEmptyQuery) {
			err = usage(err)
		}
		return fail(err)
	}
	f := res.Finalized
	if !opts.json {
		fmt.Fprintln(out, f.SavedLine())
		return nil
	}
	local.WriteJSON(out, res.Summary(ws))
	return nil
}
