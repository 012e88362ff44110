package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"lwr/analyzer"
	"lwr/config"
	"lwr/index"
	"lwr/policy"
	"lwr/research"
)

type searchOptions struct {
	format           string
	maxFiles         int
	maxChars         int
	mode             string
	synonyms         []string
	exclude          []string
	explain          bool
	ignorePreference bool
}

func (o *searchOptions) AddFlags(cmd *cobra.Command) {
	fs := cmd.Flags()
	fs.StringVar(&o.format, "format", "text", "output format: text, json (the local_result of agent-output-schema.json) or json-ext (json plus editions, relations and currentness records)")
	fs.IntVar(&o.maxFiles, "max-files", 0, "files to return (default 8; in fulltext mode every matching file)")
	fs.IntVar(&o.maxChars, "max-chars", 0, "characters per snippet (default 1200)")
	fs.StringVar(&o.mode, "mode", "ranked", "ranked (by relevance) or fulltext (every file holding every word literally)")
	fs.StringArrayVar(&o.synonyms, "synonym", nil, "an extra word matched at a lower weight (repeatable)")
	fs.StringArrayVar(&o.exclude, "exclude-path", nil, "leave out a file, a folder or a glob, relative to the source root (repeatable)")
	fs.BoolVar(&o.explain, "explain", false, "show why each hit scored as it did (text format)")
	fs.BoolVar(&o.ignorePreference, "ignore-source-preference", false, "keep pure relevance order (historical or old-edition questions); editions are still reported")
}

// Check validates the flags.
func (o *searchOptions) Check() error {
	switch o.format {
	case "text", "json", "json-ext":
	default:
		return usagef("unknown --format %q; use text, json or json-ext", o.format)
	}
	if _, err := index.ParseMode(o.mode); err != nil {
		return usageError{err.Error()}
	}
	if o.maxFiles < 0 {
		return usagef("--max-files is %d; use a positive number", o.maxFiles)
	}
	if o.maxChars != 0 && o.maxChars < 40 {
		return usagef("--max-chars is %d; use at least 40", o.maxChars)
	}
	if o.explain && o.format != "text" {
		return usagef("--explain works with --format text only")
	}
	return nil
}

func newSearchCommand(g *globalOptions) *cobra.Command {
	var opts searchOptions
	cmd := &cobra.Command{
		Use:   "search QUERY...",
		Short: "Search the local documents (ranked, or every literal match with --mode fulltext)",
		Long: "Search the indexed source root. Words are matched after Japanese morphological analysis\n" +
			"(conjugations, width and long-vowel variants fold together); \"quoted words\" must occur as written.\n" +
			"With --mode fulltext every file that holds every word literally is returned. The source root's\n" +
			"policies (.research-policy/) order preferred editions first and annotate editions, relations\n" +
			"and currentness records. A running daemon (lwr index watch) answers without opening the index.",
		RunE: func(cmd *cobra.Command, args []string) error {
			return runSearch(cmd.Context(), opts, g, cmd, args)
		},
	}
	opts.AddFlags(cmd)
	return cmd
}

// localResult is the local_result of agent-output-schema.json.
type localResult struct {
	AgentType        string      `json:"agent_type"`
	Status           string      `json:"status"`
	Matches          []jsonMatch `json:"matches"`
	ScannedFileCount int         `json:"scanned_file_count"`
	SourceRoot       string      `json:"sourceRoot,omitempty"`
	Message          string      `json:"message,omitempty"`
	ErrorMessage     string      `json:"error_message,omitempty"`
}

type jsonMatch struct {
	Path             string  `json:"path"`
	Score            float64 `json:"score"`
	Snippet          string  `json:"snippet"`
	SnippetStartLine int     `json:"snippetStartLine"`
	SnippetEndLine   int     `json:"snippetEndLine"`
	ModifiedAt       string  `json:"modifiedAt"`
}

// extResult is --format json-ext: the local_result and what the policies
// say of each match.
type extResult struct {
	localResult
	Annotations []policy.Ext    `json:"annotations"`
	Policies    policy.Policies `json:"policies"`
}

func runSearch(ctx context.Context, opts searchOptions, g *globalOptions, cmd *cobra.Command, args []string) error {
	out := g.stdout
	fail := func(err error) error {
		if opts.format == "text" {
			return err
		}
		lr := localResult{AgentType: "local", Status: "error", Matches: []jsonMatch{}, ErrorMessage: sentence(err)}
		if errors.Is(err, policy.ErrCurrentnessInvalid) {
			lr.Message = err.Error()
		}
		writeJSON(out, lr)
		fmt.Fprintln(g.stderr, "lwr: "+sentence(err))
		return reportedError{err}
	}
	if err := opts.Check(); err != nil {
		return fail(err)
	}
	cfg, _, err := g.load(cmd)
	if err != nil {
		return fail(err)
	}
	query := strings.Join(args, " ")
	q, err := index.ParseQuery(query)
	if errors.Is(err, index.ErrEmptyQuery) {
		return fail(usagef("the query is empty; give the words to search for, e.g. lwr search 有給休暇 申請"))
	}
	if st, err := os.Stat(cfg.SourceRoot); err != nil || !st.IsDir() {
		if opts.format != "text" {
			writeJSON(out, localResult{AgentType: "local", Status: "empty", Matches: []jsonMatch{}, SourceRoot: cfg.SourceRoot, Message: missingRootMessage})
			return nil
		}
		return usageError{missingRootMessage + " (" + cfg.SourceRoot + ")"}
	}
	mode, _ := index.ParseMode(opts.mode)
	ws := research.WireSearch{Mode: mode.String(), Limit: opts.maxFiles, MaxChars: opts.maxChars, Synonyms: opts.synonyms, Exclude: opts.exclude, Explain: opts.explain, NoHighlights: opts.format != "text"}
	if ws.MaxChars == 0 {
		ws.MaxChars = cfg.Search.MaxChars
	}
	if ws.Limit == 0 && mode == index.Ranked {
		ws.Limit = cfg.Search.MaxFiles
	}
	// Through the daemon, which renders the answer itself, when one runs.
	iopts, err := g.indexOptions(cfg, "")
	if err != nil {
		return fail(err)
	}
	if client, err := research.Dial(iopts.Dir, cfg.Search.DaemonTimeout); err == nil {
		text, err := client.Render(ctx, q.String(), ws, opts.ignorePreference, opts.format, g.stdoutIsTerminal())
		if err == nil {
			_, err = io.WriteString(out, text)
			return err
		}
		if !errors.Is(err, research.ErrNoDaemon) {
			return fail(daemonError(err, cfg, iopts.Dir))
		}
	}
	local, err := searchLocal(ctx, g, cfg, q, ws, opts.ignorePreference)
	if err != nil {
		return fail(daemonError(err, cfg, iopts.Dir))
	}
	text, err := render(local, opts.format, g.stdoutIsTerminal())
	if err != nil {
		return fail(err)
	}
	_, err = io.WriteString(out, text)
	return err
}

// render writes a local search in an output format.
func render(local *research.Local, format string, tty bool) (string, error) {
	var b strings.Builder
	switch format {
	case "json":
		writeJSON(&b, toLocalResult(local))
	case "json-ext":
		writeJSON(&b, extResult{localResult: toLocalResult(local), Annotations: local.Annotations, Policies: local.Policies})
	case "text":
		writeText(&b, local, tty)
	default:
		return "", usagef("unknown format %q", format)
	}
	return b.String(), nil
}

// daemonError explains an error of a request to the daemon.
func daemonError(err error, cfg config.Config, dir string) error {
	switch {
	case errors.Is(err, policy.ErrPreferencesInvalid):
		return fmt.Errorf("%w (or pass --ignore-source-preference to search without it)", err)
	case errors.Is(err, research.ErrNotAnswering):
		return fmt.Errorf("the lwr daemon for %s %s: %w; restart it with lwr index stop and lwr index watch --detach", cfg.SourceRoot, holderOf(dir), err)
	case errors.Is(err, research.ErrSyncing):
		return fmt.Errorf("%w of %s; try again in a moment (lwr index status shows it)", err, cfg.SourceRoot)
	}
	return err
}

// searchLocal runs a local search through the daemon when one answers for
// the source root, else on the index opened here (building it first when
// there is none). With search.autostart, a search that found no daemon
// leaves one running.
func searchLocal(ctx context.Context, g *globalOptions, cfg config.Config, q index.Query, ws research.WireSearch, ignorePreference bool) (*research.Local, error) {
	iopts, err := g.indexOptions(cfg, index.RoleAutoBuild)
	if err != nil {
		return nil, err
	}
	client, err := research.Dial(iopts.Dir, cfg.Search.DaemonTimeout)
	switch {
	case err == nil:
		local, err := client.Search(ctx, q.String(), ws, ignorePreference)
		if err == nil {
			return local, nil
		}
		if !errors.Is(err, research.ErrNoDaemon) {
			return nil, daemonError(err, cfg, iopts.Dir)
		}
	case !errors.Is(err, research.ErrNoDaemon):
		return nil, err
	}
	mode, _ := index.ParseMode(ws.Mode)
	dict, err := analyzer.LoadSynonyms(cfg.Search.SynonymFile)
	if err != nil {
		return nil, usageError{err.Error()}
	}
	ix, err := openForSearch(ctx, g, cfg, iopts)
	if err != nil {
		var le *index.LockedError
		if errors.As(err, &le) && le.Daemon() {
			return nil, busyf("the daemon (process %d) holds the index of %s but does not answer on its socket; wait for it to start, or restart it with lwr index stop and lwr index watch --detach", le.PID, cfg.SourceRoot)
		}
		return nil, err
	}
	lo := research.LocalOptions{
		Search: index.SearchOptions{
			Mode: mode, Limit: ws.Limit, MaxChars: ws.MaxChars, Synonyms: ws.Synonyms,
			Exclude: ws.Exclude, Explain: ws.Explain, SkipHighlights: ws.NoHighlights, Dictionary: dict,
		},
		IgnorePreference: ignorePreference,
	}
	local, err := research.LocalSearch(ctx, ix, ix.Root(), nil, q, lo)
	ix.Close()
	if err == nil && cfg.Search.Autostart {
		if err := startDaemon(g, cfg, false); err != nil {
			fmt.Fprintln(g.stderr, "lwr: could not start the daemon: "+sentence(err))
		}
	}
	return local, err
}

// openForSearch opens the index for reading; when there is none yet (or it
// must be rebuilt) and auto_build is on, it builds it first.
func openForSearch(ctx context.Context, g *globalOptions, cfg config.Config, iopts index.Options) (*index.Index, error) {
	ix, err := index.OpenReader(ctx, iopts)
	if err == nil || !(errors.Is(err, index.ErrNotIndexed) || errors.Is(err, index.ErrNeedsRebuild)) {
		return ix, err
	}
	if !cfg.Search.AutoBuild {
		return nil, fmt.Errorf("%w; run lwr index build first", err)
	}
	fmt.Fprintf(g.stderr, "lwr: indexing %s first (%v)…\n", cfg.SourceRoot, err)
	w, err := openWriter(ctx, iopts)
	if err != nil {
		return nil, err
	}
	st, err := build(ctx, g, w, index.BuildOptions{})
	if err != nil {
		w.Close()
		return nil, err
	}
	fmt.Fprintln(g.stderr, "lwr: "+buildSummary(w.Root(), st))
	return w, nil
}

func toLocalResult(l *research.Local) localResult {
	res := l.Result
	lr := localResult{AgentType: "local", Status: "ok", Matches: []jsonMatch{}, ScannedFileCount: res.Scanned, SourceRoot: l.Root, Message: l.Message}
	for _, m := range res.Matches {
		lr.Matches = append(lr.Matches, jsonMatch{
			Path:             m.Path,
			Score:            roundScore(m.Score),
			Snippet:          m.Snippet,
			SnippetStartLine: m.StartLine,
			SnippetEndLine:   m.EndLine,
			ModifiedAt:       m.ModTime.UTC().Format(time.RFC3339),
		})
	}
	if len(lr.Matches) == 0 {
		lr.Status = "empty"
	}
	return lr
}

func roundScore(s float64) float64 {
	return float64(int64(s*10000+0.5)) / 10000
}

func writeJSON(out io.Writer, v any) {
	enc := json.NewEncoder(out)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	_ = enc.Encode(v)
}

// writeText prints a readable list: path:lines, score, the policies' note,
// and the snippet with the query words highlighted (bold on a terminal,
// **…** otherwise).
func writeText(out io.Writer, l *research.Local, tty bool) {
	res := l.Result
	if len(res.Matches) == 0 {
		if len(res.Terms) == 0 {
			fmt.Fprintln(out, "no searchable words in the query (particles, symbols and stop words are not indexed)")
		} else {
			fmt.Fprintf(out, "no matches in %d indexed files of %s\n", res.Scanned, l.Root)
		}
		return
	}
	open, closing := "**", "**"
	if tty {
		open, closing = "\x1b[1;33m", "\x1b[0m"
	}
	for i, m := range res.Matches {
		fmt.Fprintf(out, "%d. %s:%d-%d  score %.3f  modified %s\n", i+1, m.Path, m.StartLine, m.EndLine, m.Score, m.ModTime.Local().Format("2006-01-02"))
		if i < len(l.Annotations) {
			if note := l.Annotations[i].Message; note != "" {
				fmt.Fprintln(out, "   ["+strings.TrimPrefix(note, m.Path+": ")+"]")
			}
		}
		var b strings.Builder
		last := 0
		for _, h := range m.Highlights {
			b.WriteString(m.Snippet[last:h[0]])
			b.WriteString(open + m.Snippet[h[0]:h[1]] + closing)
			last = h[1]
		}
		b.WriteString(m.Snippet[last:])
		for _, line := range strings.Split(b.String(), "\n") {
			fmt.Fprintln(out, "   "+line)
		}
		if m.Explain != "" {
			for _, line := range strings.Split(m.Explain, "\n") {
				fmt.Fprintln(out, "   | "+line)
			}
		}
		fmt.Fprintln(out)
	}
	fmt.Fprintf(out, "%d of %d files shown (%s, %d indexed, %s)\n", len(res.Matches), res.Total, res.Mode, res.Scanned, res.Took.Round(time.Microsecond))
}
