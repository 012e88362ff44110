package main

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"lwr/research/local"
	"lwr/research/report"
)

type readOptions struct {
	formatName string
}

func (o *readOptions) AddFlags(cmd *cobra.Command) {
	cmd.Flags().StringVar(&o.formatName, "format", "text", "output format: text (numbered lines) or json")
}

func newReadCommand(g *globalOptions) *cobra.Command {
	var opts readOptions
	cmd := &cobra.Command{
		Use:   "read PATH[:START[-END]]",
		Short: "Print lines of a document with their numbers, as citations count them",
		Long: "Print lines START to END of a document of the source root (PATH relative to it, as searches\n" +
			"return it, or absolute inside it, as reports cite it), decoded as the index decodes it, each with\n" +
			"its line number: what a citation [file](…#L<START>-L<END>) quotes. 200 lines from START when END\n" +
			"is not given (PATH:74), at most 500. Files the index never reads (hidden, secrets, other types,\n" +
			"symbolic links) cannot be read.",
		Example: "  lwr read 規程/就業規則.md:20-24\n  lwr read 規程/就業規則.md:74\n  lwr read --format json 手順/VPN接続手順_v2.0.md:1-40",
		Args:    exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runRead(cmd.Context(), opts, g, g.stdout, args[0])
		},
	}
	opts.AddFlags(cmd)
	return cmd
}

// parseRange splits PATH[:START[-END]] (END 0 when it is not given: 200
// lines from START); a path that itself holds a colon keeps it unless what
// follows is a line range.
func parseRange(arg string) (path string, start, end int, err error) {
	i := strings.LastIndexByte(arg, ':')
	if i <= 0 || i == len(arg)-1 {
		return arg, 0, 0, nil
	}
	r := arg[i+1:]
	s, e, dash := strings.Cut(r, "-")
	if !digits(s) || dash && !digits(e) {
		return arg, 0, 0, nil // C:\…, a: in a name
	}
	start, err1 := strconv.Atoi(s)
	end, err2 := 0, error(nil) // PATH:START reads from START, 200 lines
	if dash {
		end, err2 = strconv.Atoi(e)
	}
	switch {
	case err1 != nil || err2 != nil || start > report.MaxLine || end > report.MaxLine:
		return "", 0, 0, usagef("the line range %q is past any document's lines; lines count from 1 to %d", r, report.MaxLine)
	case dash && end < start:
		return "", 0, 0, usagef("the line range %q is not START-END with START ≤ END, e.g. 規程/就業規則.md:20-24", r)
	}
	if start < 1 {
		return "", 0, 0, usagef("lines count from 1; %q starts at %d", r, start)
	}
	return arg[:i], start, end, nil
}

// digits reports a non-empty run of ASCII digits.
func digits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

func runRead(_ context.Context, opts readOptions, g *globalOptions, out io.Writer, arg string) error {
	if opts.formatName != "text" && opts.formatName != "json" {
		return usagef("unknown --format %q; use text or json", opts.formatName)
	}
	path, start, end, err := parseRange(arg)
	if err != nil {
		return err
	}
	cfg, _, err := g.load()
	if err != nil {
		return err
	}
	ix, err := g.indexOptions(cfg, "")
	if err != nil {
		return err
	}
	e, err := local.Read(cfg.SourceRoot, ix.DocumentRules(), path, start, end)
	if err != nil {
		return err
	}
	if opts.formatName == "json" {
		local.WriteJSON(out, e)
		return nil
	}
	w, ww := len(strconv.Itoa(e.EndLine)), 0
	for _, l := range e.Lines {
		ww = max(ww, len([]rune(l.Where)))
	}
	for _, l := range e.Lines {
		if ww > 0 {
			// PDF and Office documents: where each line stands.
			fmt.Fprintf(out, "%*d  %s%s  %s\n", w, l.N, l.Where, strings.Repeat(" ", ww-len([]rune(l.Where))), l.Text)
			continue
		}
		fmt.Fprintf(out, "%*d  %s\n", w, l.N, l.Text)
	}
	if e.More {
		fmt.Fprintf(g.stderr, "lwr: %s has %d lines; lines %d-%d shown (%s:%d-%d for more)\n", e.Path, e.TotalLines, e.StartLine, e.EndLine, e.Path, e.EndLine+1, min(e.EndLine+200, e.TotalLines))
	}
	return nil
}
