package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"lwr/research/report"
)

// maxReport bounds the report files lwr reads.
const maxReport = 16 << 20

func newValidateCommand(g *globalOptions) *cobra.Command {
	return &cobra.Command{
		Use:   "validate FILE",
		Short: "Validate a research report: its JSON comment (schema 1.0/1.1) and the citations of section 1",
		Long: "Check a research report as the research skill's validator did: the <!-- JSON: {...} --> comment at its\n" +
			"end against output-schema.json (schema 1.0 and 1.1), the five section headings in order, and in\n" +
			"section 1 the local citations [file](<absolute path>#L<s>-L<e>) (L<s>-L<e>) [VS Codeで開く](vscode://file/…:<s>)\n" +
			"for files of any type. Exit 0 when valid; else exit 1 with one JSON line per problem on stderr.\n" +
			"FILE - reads standard input.",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runValidate(cmd.Context(), g, g.stdout, args[0])
		},
	}
}

// validationFailed is the error of an invalid report; the problems were
// printed already.
type validationFailed struct{ n int }

func (e validationFailed) Error() string { return fmt.Sprintf("the report has %d problem(s)", e.n) }

func runValidate(_ context.Context, g *globalOptions, out io.Writer, file string) error {
	data, err := readLimited(g.stdin, file, maxReport)
	if err != nil {
		line, _ := json.Marshal(report.Problem{Code: "unreadable", Message: sentence(err)})
		fmt.Fprintln(g.stderr, string(line))
		return reportedError{err}
	}
	problems := report.Validate(data)
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
