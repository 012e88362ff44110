package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"lwr/config"
	"lwr/research/report"
)

// maxReport bounds the report files lwr reads.
const maxReport = 16 << 20

type validateOptions struct {
	noVerifySources bool
}

func (o *validateOptions) AddFlags(cmd *cobra.Command) {
	cmd.Flags().BoolVar(&o.noVerifySources, "no-verify-sources", false, "check the format only, not the cited files (for a report whose files moved); says so on stderr")
}

func newValidateCommand(g *globalOptions) *cobra.Command {
	var opts validateOptions
	cmd := &cobra.Command{
		Use:   "validate FILE",
		Short: "Validate a research report: its format, and every citation and quote against the cited files",
		Long: "Check a research report as the research skill's validator did: the <!-- JSON: {...} --> comment at its\n" +
			"end against output-schema.json (schema 1.0 and 1.1), the five section headings in order, and in\n" +
			"section 1 the local citations [file](<absolute path>#L<s>-L<e>) (L<s>-L<e>) [VS Codeで開く](vscode://file/…:<s>)\n" +
			"for files of any type. Then every citation against the source root: the file is a document of it\n" +
			"(citation_file_missing), the lines are inside it (citation_lines_out_of_range), the quote after the\n" +
			"citation is what those lines say (citation_quote_mismatch), and the JSON comment's sources are the\n" +
			"text's citations (citation_json_mismatch). Exit 0 when valid; else exit 1 with one JSON line per\n" +
			"problem on stderr. FILE - reads standard input.",
		Example: "  lwr validate result/research/research_20261129T231325Z.md\n" +
			"  lwr --source-root ~/skill-source validate draft.md\n" +
			"  lwr validate --no-verify-sources old-report.md",
		Args: exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runValidate(cmd.Context(), opts, g, g.stdout, args[0])
		},
	}
	opts.AddFlags(cmd)
	return cmd
}

// validationFailed is the error of an invalid report; the problems were
// printed already.
type validationFailed struct{ n int }

func (e validationFailed) Error() string { return fmt.Sprintf("the report has %d problem(s)", e.n) }

// sources is where the cited files of a report are read: the configured
// source root, with the index's rules.
func (g *globalOptions) sources(cfg config.Config) (*report.Sources, error) {
	ix, err := g.indexOptions(cfg, "")
	if err != nil {
		return nil, err
	}
	return &report.Sources{Root: cfg.SourceRoot, Rules: ix.DocumentRules()}, nil
}

func runValidate(ctx context.Context, opts validateOptions, g *globalOptions, out io.Writer, file string) error {
	problem := func(err error) error {
		line, _ := json.Marshal(report.Problem{Code: "unreadable", Message: sentence(err)})
		fmt.Fprintln(g.stderr, string(line))
		return reportedError{err}
	}
	data, err := readInput(ctx, g.stdin, file, maxReport)
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if err != nil {
		return problem(err)
	}
	var src *report.Sources
	if opts.noVerifySources {
		fmt.Fprintln(g.stderr, "lwr: the cited files were not checked (--no-verify-sources): not whether they exist, their line ranges, the quotes, nor the JSON comment's sources against the citations")
	} else {
		cfg, _, err := g.load()
		if err != nil {
			return problem(err)
		}
		if src, err = g.sources(cfg); err != nil {
			return problem(err)
		}
	}
	// Every problem at once, those of the citations too; a report without
	// its JSON comment is checked with the one finalize would write.
	problems := report.Check(data, src)
	if len(problems) == 0 {
		fmt.Fprintf(out, "valid: %s\n", file)
		return nil
	}
	enc := json.NewEncoder(g.stderr)
	enc.SetEscapeHTML(false)
	for _, p := range problems {
		_ = enc.Encode(p)
	}
	return reportedError{validationFailed{len(problems)}}
}
