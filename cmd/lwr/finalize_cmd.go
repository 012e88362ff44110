package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"lwr/research/local"
	"lwr/research/report"
)

// finalizeOptions are the flags of `lwr finalize`.
type finalizeOptions struct {
	markdown   string
	query      string
	timestamp  string
	workspace  string
	localStat  string
	webStat    string
	deepStat   string
	skipWeb    bool
	json       bool
	ignorePref bool
	noVerify   bool

	// Set by Check.
	ts       time.Time
	statuses report.Statuses
}

func (o *finalizeOptions) AddFlags(cmd *cobra.Command) {
	fs := cmd.Flags()
	fs.StringVar(&o.markdown, "markdown", "", "the report the agent wrote (file, or - for standard input; required)")
	fs.StringVar(&o.query, "query", "", "the user's original question, for the context file (required, but for a deep report: its topic)")
	fs.StringVar(&o.timestamp, "timestamp", "", "name the report research_<TS>.md with this UTC time, yyyyMMddTHHmmssZ (default now)")
	fs.StringVar(&o.workspace, "workspace", "", "folder the report goes into (default: the git top-level of the current folder, else the current folder)")
	fs.StringVar(&o.localStat, "local-status", "unknown", "status of the agent's local search: ok, empty, error or unknown")
	fs.StringVar(&o.webStat, "web-status", "unknown", "status of the agent's web search: ok, partial, empty, error, skipped, skipped-unconfigured or unknown")
	fs.StringVar(&o.deepStat, "deep-status", "unknown", "status of the agent's deep-drill: ok, empty, error, skipped or unknown")
	fs.BoolVar(&o.skipWeb, "skip-web", false, "the research did not use the web (for the context file)")
	fs.BoolVar(&o.json, "json", false, "print a machine summary instead of the saved line")
	fs.BoolVar(&o.ignorePref, "ignore-source-preference", false, "the research ignored source preferences (for the context file)")
	fs.BoolVar(&o.noVerify, "no-verify-sources", false, "check the report's format only, not its citations and quotes against the cited files")
}

// Check validates the flags and reads the timestamp and the statuses.
func (o *finalizeOptions) Check() error {
	if o.markdown == "" {
		return usagef("--markdown FILE is required: the report to finalize")
	}
	if o.timestamp != "" {
		ts, err := report.ParseTimestamp(o.timestamp)
		if err != nil {
			return usagef("--timestamp: %v", err)
		}
		o.ts = ts
	}
	var errs []error
	for _, f := range []struct {
		flag  string
		phase report.Phase
		v     string
		into  *report.Status
	}{
		{"local-status", report.PhaseLocal, o.localStat, &o.statuses.Local},
		{"web-status", report.PhaseWeb, o.webStat, &o.statuses.Web},
		{"deep-status", report.PhaseDeep, o.deepStat, &o.statuses.Deep},
	} {
		st, err := f.phase.ParseStatus(f.v)
		if err != nil {
			errs = append(errs, usagef("--%s: %v", f.flag, err))
		}
		*f.into = st
	}
	return errors.Join(errs...)
}

func newFinalizeCommand(g *globalOptions) *cobra.Command {
	var opts finalizeOptions
	cmd := &cobra.Command{
		Use:     "finalize --markdown FILE [--query Q]",
		Example: "  lwr finalize --markdown draft.md --query \"随意契約の上限額は\" --local-status ok --web-status ok --deep-status skipped\n  lwr finalize --markdown - --query \"有給休暇の申請期限\" --json < draft.md",
		Short:   "Validate and atomically save a report an agent wrote, with its context file",
		Long: "Validate a research report written by an agent (as lwr validate does) and save it atomically to\n" +
			"<workspace>/result/research/research_<UTC time>.md with its schema-version log, its context file\n" +
			"(research_<ts>.context.json) and .last_research_output.json. The same report with the same\n" +
			"timestamp again is skipped; another report in the same second gets research_<ts>-2.md. A failure\n" +
			"leaves no temp file and writes only a reason code to result/research/.run-state/<ts>/.",
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runFinalize(cmd.Context(), opts, g, g.stdout)
		},
	}
	opts.AddFlags(cmd)
	return cmd
}

func runFinalize(ctx context.Context, opts finalizeOptions, g *globalOptions, out io.Writer) error {
	fail := func(err error) error { return failJSON(g, out, opts.json, err) }
	if err := opts.Check(); err != nil {
		return fail(usage(err))
	}
	cfg, _, err := g.load()
	if err != nil {
		return fail(err)
	}
	ws, err := workspaceOf(opts.workspace)
	if err != nil {
		return fail(err)
	}
	md, err := readInput(ctx, g.stdin, opts.markdown, maxReport)
	if ctx.Err() != nil {
		return fail(ctx.Err())
	}
	if err != nil {
		return fail(usagef("--markdown: %v", err))
	}
	if strings.TrimSpace(opts.query) == "" {
		// A deep report says its topic in its front matter.
		d, _ := report.ParseDeep(md)
		if report.KindOf(md) != report.KindDeep || strings.TrimSpace(d.Topic) == "" {
			return fail(usagef("--query is required: the user's original question, for the context file"))
		}
		opts.query = d.Topic
	}
	pols, err := report.PoliciesAt(cfg.SourceRoot, opts.ignorePref)
	if err != nil {
		return fail(err)
	}
	fo := report.FinalizeOptions{
		Workspace: ws, OutputDir: cfg.Research.OutputDir, Markdown: md, Timestamp: opts.ts,
		Context: report.ContextInput{
			Query: opts.query, SourceRoot: cfg.SourceRoot, SkipWeb: opts.skipWeb, Policies: pols, Producer: "lwr finalize",
			Statuses: opts.statuses,
		},
	}
	if opts.noVerify {
		fmt.Fprintln(g.stderr, "lwr: the cited files were not checked (--no-verify-sources)")
	} else if fo.Sources, err = g.sources(cfg); err != nil {
		return fail(err)
	}
	f, err := report.Finalize(ctx, fo)
	if err != nil {
		var ve *report.ValidationError
		if errors.As(err, &ve) && !opts.json {
			// Each problem once, then what to do.
			for _, p := range ve.Problems {
				fmt.Fprintln(g.stderr, "lwr: "+p.String())
			}
			fmt.Fprintf(g.stderr, "lwr: the report is not valid (%d %s above) and was not saved; correct it and run lwr finalize again.\n", len(ve.Problems), plural(len(ve.Problems), "problem", "problems"))
			return reportedError{err}
		}
		return fail(err)
	}
	if opts.json {
		local.WriteJSON(out, struct {
			*report.Finalized
			Workspace string `json:"workspace"`
		}{f, ws})
		return nil
	}
	fmt.Fprintln(out, f.SavedLine())
	return nil
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
