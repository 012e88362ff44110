package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"lwr/index"
	"lwr/policy"
	"lwr/research/local"
)

type searchOptions struct {
	formatName       string
	maxFiles         int
	maxChars         int
	modeName         string
	synonyms         []string
	exclude          []string
	explain          bool
	ignorePreference bool

	// Set by Check.
	format local.Format
	mode   index.Mode
}

func (o *searchOptions) AddFlags(cmd *cobra.Command) {
	fs := cmd.Flags()
	fs.StringVar(&o.formatName, "format", "text", "output format: text, json (the local_result of agent-output-schema.json) or json-ext (json plus editions, relations and currentness records)")
	fs.IntVar(&o.maxFiles, "max-files", 0, "files to return (default search.max_files, 8; in fulltext mode every matching file)")
	fs.IntVar(&o.maxChars, "max-chars", 0, "characters per snippet (default search.max_chars, 1200)")
	fs.StringVar(&o.modeName, "mode", "ranked", "ranked (by relevance) or fulltext (every file holding every word literally)")
	fs.StringArrayVar(&o.synonyms, "synonym", nil, "an extra word matched at a lower weight (repeatable)")
	fs.StringArrayVar(&o.exclude, "exclude-path", nil, "leave out a file, a folder or a glob, relative to the source root (repeatable)")
	fs.BoolVar(&o.explain, "explain", false, "show why each hit scored as it did (text format)")
	fs.BoolVar(&o.ignorePreference, "ignore-source-preference", false, "keep pure relevance order (historical or old-edition questions); editions are still reported")
}

// Check validates the flags and reads the format and the mode.
func (o *searchOptions) Check() error {
	f, err := local.ParseFormat(o.formatName)
	if err != nil {
		return usagef("--format: %v", err)
	}
	o.format = f
	m, err := index.ParseMode(o.modeName)
	if err != nil {
		return usageError{err.Error()}
	}
	o.mode = m
	if o.maxFiles < 0 {
		return usagef("--max-files is %d; use a positive number", o.maxFiles)
	}
	if o.maxChars != 0 && o.maxChars < 40 {
		return usagef("--max-chars is %d; use at least 40", o.maxChars)
	}
	if o.explain && o.format != local.FormatText {
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
			return runSearch(cmd.Context(), opts, g, g.stdout, args)
		},
	}
	opts.AddFlags(cmd)
	return cmd
}

func runSearch(ctx context.Context, opts searchOptions, g *globalOptions, out io.Writer, args []string) error {
	// The JSON formats answer errors with a local_result too.
	fail := func(err error) error {
		if opts.format == local.FormatText {
			return err
		}
		local.WriteJSON(out, local.ErrorResult(sentence(err), errors.Is(err, policy.ErrCurrentnessInvalid)))
		fmt.Fprintln(g.stderr, "lwr: "+sentence(err))
		return reportedError{err}
	}
	if err := opts.Check(); err != nil {
		return fail(err)
	}
	cfg, _, err := g.load()
	if err != nil {
		return fail(err)
	}
	q, err := index.ParseQuery(strings.Join(args, " "))
	if errors.Is(err, index.ErrEmptyQuery) {
		return fail(usagef("the query is empty; give the words to search for, e.g. lwr search 有給休暇 申請"))
	}
	if st, err := os.Stat(cfg.SourceRoot); err != nil || !st.IsDir() {
		if opts.format != local.FormatText {
			local.WriteJSON(out, local.EmptyResult(cfg.SourceRoot, local.MissingRootSentence))
			return nil
		}
		return usageError{local.MissingRootSentence + " (" + cfg.SourceRoot + ")"}
	}
	req := local.Request{
		Query: q, Mode: opts.mode, Limit: opts.maxFiles, MaxChars: opts.maxChars,
		Synonyms: opts.synonyms, Exclude: opts.exclude, Explain: opts.explain,
		NoHighlights: opts.format != local.FormatText, IgnorePreference: opts.ignorePreference,
	}
	if req.MaxChars == 0 {
		req.MaxChars = cfg.Search.MaxChars
	}
	if req.Limit == 0 && req.Mode == index.Ranked {
		req.Limit = cfg.Search.MaxFiles
	}
	lo, err := g.localOptions(cfg)
	if err != nil {
		return fail(err)
	}
	s, err := local.Open(ctx, lo)
	if err != nil {
		return fail(err)
	}
	text, err := s.Render(ctx, req, opts.format, g.stdoutIsTerminal())
	if cerr := s.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fail(explainSearchError(err))
	}
	_, err = io.WriteString(out, text)
	return err
}

// explainSearchError adds what the user of the command line can do.
func explainSearchError(err error) error {
	if errors.Is(err, policy.ErrPreferencesInvalid) {
		return fmt.Errorf("%w (or pass --ignore-source-preference to search without it)", err)
	}
	return err
}
