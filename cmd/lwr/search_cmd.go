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
)

type searchOptions struct {
	format   string
	maxFiles int
	maxChars int
	mode     string
	synonyms []string
	exclude  []string
	explain  bool
}

func (o *searchOptions) AddFlags(cmd *cobra.Command) {
	fs := cmd.Flags()
	fs.StringVar(&o.format, "format", "text", "output format: text or json (the local_result of agent-output-schema.json)")
	fs.IntVar(&o.maxFiles, "max-files", 0, "files to return (default 8; in fulltext mode every matching file)")
	fs.IntVar(&o.maxChars, "max-chars", 0, "characters per snippet (default 1200)")
	fs.StringVar(&o.mode, "mode", "ranked", "ranked (by relevance) or fulltext (every file holding every word literally)")
	fs.StringArrayVar(&o.synonyms, "synonym", nil, "an extra word matched at a lower weight (repeatable)")
	fs.StringArrayVar(&o.exclude, "exclude-path", nil, "leave out a file, a folder or a glob, relative to the source root (repeatable)")
	fs.BoolVar(&o.explain, "explain", false, "show why each hit scored as it did (text format)")
}

// Check validates the flags.
func (o *searchOptions) Check() error {
	if o.format != "text" && o.format != "json" {
		return usagef("unknown --format %q; use text or json", o.format)
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
	if o.explain && o.format == "json" {
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
			"With --mode fulltext every file that holds every word literally is returned.",
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

func runSearch(ctx context.Context, opts searchOptions, g *globalOptions, cmd *cobra.Command, args []string) error {
	out := g.stdout
	fail := func(err error) error {
		if opts.format != "json" {
			return err
		}
		writeJSON(out, localResult{AgentType: "local", Status: "error", Matches: []jsonMatch{}, ErrorMessage: sentence(err)})
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
	q, err := index.ParseQuery(strings.Join(args, " "))
	if errors.Is(err, index.ErrEmptyQuery) {
		return fail(usagef("the query is empty; give the words to search for, e.g. lwr search 有給休暇 申請"))
	}
	mode, _ := index.ParseMode(opts.mode)
	so := index.SearchOptions{
		Mode:     mode,
		Limit:    opts.maxFiles,
		MaxChars: opts.maxChars,
		Synonyms: opts.synonyms,
		Exclude:  opts.exclude,
		Explain:  opts.explain,
	}
	if so.MaxChars == 0 {
		so.MaxChars = cfg.Search.MaxChars
	}
	if so.Limit == 0 && mode == index.Ranked {
		so.Limit = cfg.Search.MaxFiles
	}
	if so.Dictionary, err = analyzer.LoadSynonyms(cfg.Search.SynonymFile); err != nil {
		return fail(usageError{err.Error()})
	}

	if st, err := os.Stat(cfg.SourceRoot); err != nil || !st.IsDir() {
		if opts.format == "json" {
			writeJSON(out, localResult{AgentType: "local", Status: "empty", Matches: []jsonMatch{}, SourceRoot: cfg.SourceRoot, Message: missingRootMessage})
			return nil
		}
		return usageError{missingRootMessage + " (" + cfg.SourceRoot + ")"}
	}
	ix, err := openForSearch(ctx, g, cfg)
	if err != nil {
		return fail(err)
	}
	defer ix.Close()
	res, err := ix.Search(ctx, q, so)
	if err != nil {
		return fail(err)
	}
	if opts.format == "json" {
		writeJSON(out, toLocalResult(ix.Root(), res))
		return nil
	}
	writeText(out, ix.Root(), res, g.stdoutIsTerminal())
	return nil
}

// openForSearch opens the index for reading; when there is none yet (or it
// must be rebuilt) and auto_build is on, it builds it first.
func openForSearch(ctx context.Context, g *globalOptions, cfg config.Config) (*index.Index, error) {
	iopts, err := g.indexOptions(cfg, "lwr search (building the index)")
	if err != nil {
		return nil, err
	}
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

func toLocalResult(root string, res *index.Result) localResult {
	lr := localResult{AgentType: "local", Status: "ok", Matches: []jsonMatch{}, ScannedFileCount: res.Scanned, SourceRoot: root}
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
	lr.Message = resultMessage(res)
	return lr
}

// resultMessage summarizes a result in one line for the message field.
func resultMessage(res *index.Result) string {
	if len(res.Terms) == 0 {
		return "検索語がありません: the query has only particles, symbols or stop words; use content words"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "mode=%s; files=%d/%d", res.Mode, len(res.Matches), res.Total)
	fmt.Fprintf(&b, "; indexed=%d; words=%s", res.Scanned, strings.Join(res.Terms, ","))
	if len(res.Synonyms) > 0 {
		fmt.Fprintf(&b, "; synonyms=%s", strings.Join(res.Synonyms, ","))
	}
	return b.String()
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

// writeText prints a readable list: path:lines, score, and the snippet
// with the query words highlighted (bold on a terminal, **…** otherwise).
func writeText(out io.Writer, root string, res *index.Result, tty bool) {
	if len(res.Matches) == 0 {
		if len(res.Terms) == 0 {
			fmt.Fprintln(out, "no searchable words in the query (particles, symbols and stop words are not indexed)")
		} else {
			fmt.Fprintf(out, "no matches in %d indexed files of %s\n", res.Scanned, root)
		}
		return
	}
	open, closing := "**", "**"
	if tty {
		open, closing = "\x1b[1;33m", "\x1b[0m"
	}
	for i, m := range res.Matches {
		fmt.Fprintf(out, "%d. %s:%d-%d  score %.3f  modified %s\n", i+1, m.Path, m.StartLine, m.EndLine, m.Score, m.ModTime.Local().Format("2006-01-02"))
		var b strings.Builder
		last := 0
		for _, h := range m.Highlights {
			b.WriteString(m.Snippet[last:h[0]])
			b.WriteString(open + m.Snippet[h[0]:h[1]] + closing)
			last = h[1]
		}
		b.WriteString(m.Snippet[last:])
		for _, l := range strings.Split(b.String(), "\n") {
			fmt.Fprintln(out, "   "+l)
		}
		if m.Explain != "" {
			for _, l := range strings.Split(m.Explain, "\n") {
				fmt.Fprintln(out, "   | "+l)
			}
		}
		fmt.Fprintln(out)
	}
	fmt.Fprintf(out, "%d of %d files shown (%s, %d indexed, %s)\n", len(res.Matches), res.Total, res.Mode, res.Scanned, res.Took.Round(time.Microsecond))
}
