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
	"lwr/research/local/daemon"
)

type searchOptions struct {
	formatName string
	maxFiles   int
	maxChars   int
	// maxSet: --max-files or --max-chars was given (0 is then a mistake,
	// not the default).
	maxFilesSet, maxCharsSet bool
	modeName                 string
	synonyms                 []string
	exclude                  []string
	explain                  bool
	ignorePreference         bool
	only                     []string
	filesOnly, count         bool
	after, before            int
	contextLines             int

	// Set by Check.
	format local.Format
	mode   index.Mode
}

func (o *searchOptions) AddFlags(cmd *cobra.Command) {
	fs := cmd.Flags()
	fs.StringVar(&o.formatName, "format", "text", "output format: text, json (the local_result of agent-output-schema.json), json-ext (json plus editions, relations and currentness records), grep (path:line:text of every line with a query word), files or count")
	fs.BoolVarP(&o.filesOnly, "files-with-matches", "l", false, "print the matching files' paths only (--format files)")
	fs.BoolVarP(&o.count, "count", "c", false, "print path:count of the lines with a query word (--format count)")
	fs.IntVarP(&o.after, "after-context", "A", 0, "with --format grep: lines to show after each matching line")
	fs.IntVarP(&o.before, "before-context", "B", 0, "with --format grep: lines to show before each matching line")
	fs.IntVarP(&o.contextLines, "context", "C", 0, "with --format grep: lines to show before and after each matching line")
	fs.StringArrayVar(&o.only, "path", nil, "search only what a path pattern names, as .gitignore writes them: 規程 (a folder at any depth), /規程 (the top one), \"規程/**/*.md\" (repeatable)")
	fs.IntVar(&o.maxFiles, "max-files", 0, "files to return (default search.max_files, 8; in fulltext mode every matching file)")
	fs.IntVar(&o.maxChars, "max-chars", 0, "characters per snippet (default search.max_chars, 1200)")
	fs.StringVar(&o.modeName, "mode", "ranked", "ranked (by relevance) or fulltext (every file holding every word literally)")
	fs.StringArrayVar(&o.synonyms, "synonym", nil, "an extra word matched at a lower weight (repeatable)")
	fs.StringArrayVar(&o.exclude, "exclude-path", nil, "leave out what a path pattern names, as .gitignore writes them: drafts, /drafts, \"**/旧*.md\" (repeatable)")
	fs.BoolVar(&o.explain, "explain", false, "show why each hit scored as it did (text format)")
	fs.BoolVar(&o.ignorePreference, "ignore-source-preference", false, "keep pure relevance order (historical or old-edition questions); editions are still reported")
}

// Check validates the flags of the command line itself and reads the
// format and the mode; what a search request may hold is checked by
// local.Request.Check, for every front end alike.
func (o *searchOptions) Check() error {
	switch {
	case o.filesOnly && o.count:
		return usagef("-l and -c exclude each other; give one")
	case o.filesOnly:
		o.formatName = "files"
	case o.count:
		o.formatName = "count"
	}
	f, err := local.ParseFormat(o.formatName)
	if err != nil {
		return usagef("--format: %v", err)
	}
	o.format = f
	if o.after < 0 || o.before < 0 || o.contextLines < 0 {
		return usagef("-A, -B and -C take a number of lines, 0 or more")
	}
	if (o.after > 0 || o.before > 0 || o.contextLines > 0) && f != local.FormatGrep {
		return usagef("-A, -B and -C show lines around matching lines: use them with --format grep")
	}
	m, err := index.ParseMode(o.modeName)
	if err != nil {
		return usage(err)
	}
	o.mode = m
	if o.maxFilesSet && o.maxFiles == 0 {
		return usagef("--max-files is 0; give a positive number, or leave it out for search.max_files")
	}
	if o.maxCharsSet && o.maxChars == 0 {
		return usagef("--max-chars is 0; give at least %d, or leave it out for search.max_chars", local.MinChars)
	}
	if o.explain && o.format != local.FormatText {
		return usagef("--explain works with --format text only")
	}
	return nil
}

func newSearchCommand(g *globalOptions) *cobra.Command {
	var opts searchOptions
	cmd := &cobra.Command{
		Use:     "search QUERY...",
		Example: "  lwr search 有給休暇 申請期限\n  lwr search --format json --max-files 8 --synonym 年次有給休暇 有休\n  lwr search --mode fulltext --format grep -C 1 160万円\n  lwr search -l --path \"規程/**\" 押印\n  lwr search -- -v",
		Short:   "Search the local documents (ranked, or every literal match with --mode fulltext)",
		Long: "Search the indexed source root. Words are matched after Japanese morphological analysis\n" +
			"(conjugations, width and long-vowel variants fold together); \"quoted words\" must occur as written.\n" +
			"With --mode fulltext every file that holds every word literally is returned. The source root's\n" +
			"policies (.research-policy/) order preferred editions first and annotate editions, relations\n" +
			"and currentness records. A running daemon (lwr index watch) answers without opening the index.",
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.maxFilesSet, opts.maxCharsSet = cmd.Flags().Changed("max-files"), cmd.Flags().Changed("max-chars")
			return runSearch(cmd.Context(), opts, g, g.stdout, args)
		},
	}
	opts.AddFlags(cmd)
	return cmd
}

func runSearch(ctx context.Context, opts searchOptions, g *globalOptions, out io.Writer, args []string) error {
	// The JSON formats answer errors with a local_result too; the line
	// formats (grep, files, count) print nothing on stdout, as grep does.
	asJSON := func() bool { return opts.format == local.FormatJSON || opts.format == local.FormatJSONExt } // set by Check
	fail := func(err error) error {
		if !asJSON() {
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
	if err != nil {
		return fail(err)
	}
	req := local.Request{
		Query: q, Mode: opts.mode, Limit: opts.maxFiles, MaxChars: opts.maxChars,
		Synonyms: opts.synonyms, Exclude: opts.exclude, Only: opts.only, Explain: opts.explain,
		NoHighlights: opts.format != local.FormatText, IgnorePreference: opts.ignorePreference,
	}
	if err := req.Check(cfg.Search, cfg.SourceRoot); err != nil {
		return fail(err)
	}
	if st, err := os.Stat(cfg.SourceRoot); err != nil || !st.IsDir() {
		if asJSON() {
			local.WriteJSON(out, local.EmptyResult(cfg.SourceRoot, local.MissingRootSentence))
			return nil
		}
		return usagef("%s (%s)", local.MissingRootSentence, cfg.SourceRoot)
	}
	lo, err := g.localOptions(cfg)
	if err != nil {
		return fail(err)
	}
	s, err := daemon.Open(ctx, lo)
	if err != nil {
		return fail(err)
	}
	res, err := s.Search(ctx, req)
	if cerr := s.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fail(explainSearchError(err))
	}
	_, err = io.WriteString(out, local.Render(res, opts.format, local.RenderOptions{
		TTY:     g.stdoutIsTerminal(),
		Context: local.LineContext{Before: max(opts.before, opts.contextLines), After: max(opts.after, opts.contextLines)},
		Rules:   lo.Local.Index.DocumentRules(),
	}))
	return err
}

// explainSearchError adds what the user of the command line can do.
func explainSearchError(err error) error {
	if errors.Is(err, policy.ErrPreferencesInvalid) {
		return fmt.Errorf("%w (or pass --ignore-source-preference to search without it)", err)
	}
	return err
}
