package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"lwr/policy"
	"lwr/research"
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
}

func (o *finalizeOptions) AddFlags(cmd *cobra.Command) {
	fs := cmd.Flags()
	fs.StringVar(&o.markdown, "markdown", "", "the report the agent wrote (file, or - for standard input; required)")
	fs.StringVar(&o.query, "query", "", "the user's original question, for the context file (required)")
	fs.StringVar(&o.timestamp, "timestamp", "", "name the report research_<TS>.md with this UTC time, yyyyMMddTHHmmssZ (default now)")
	fs.StringVar(&o.workspace, "workspace", "", "folder the report goes into (default: the git top-level of the current folder, else the current folder)")
	fs.StringVar(&o.localStat, "local-status", "unknown", "status of the agent's local search: ok, empty, error or unknown")
	fs.StringVar(&o.webStat, "web-status", "unknown", "status of the agent's web search: ok, partial, empty, error, skipped, skipped-unconfigured or unknown")
	fs.StringVar(&o.deepStat, "deep-status", "unknown", "status of the agent's deep-drill: ok, empty, error, skipped or unknown")
	fs.BoolVar(&o.skipWeb, "skip-web", false, "the research did not use the web (for the context file)")
	fs.BoolVar(&o.json, "json", false, "print a machine summary instead of the saved line")
	fs.BoolVar(&o.ignorePref, "ignore-source-preference", false, "the research ignored source preferences (for the context file)")
}

func oneOf(flag, v string, allowed ...string) error {
	for _, a := range allowed {
		if v == a {
			return nil
		}
	}
	return usagef("--%s is %q; use %s", flag, v, strings.Join(allowed, ", "))
}

// Check validates the flags.
func (o *finalizeOptions) Check() error {
	if o.markdown == "" {
		return usagef("--markdown FILE is required: the report to finalize")
	}
	if strings.TrimSpace(o.query) == "" {
		return usagef("--query is required: the user's original question, for the context file")
	}
	if o.timestamp != "" {
		if _, err := research.ParseTimestamp(o.timestamp); err != nil {
			return usageError{"--timestamp: " + err.Error()}
		}
	}
	return errors.Join(
		oneOf("local-status", o.localStat, "ok", "empty", "error", "unknown"),
		oneOf("web-status", o.webStat, "ok", "partial", "empty", "error", "skipped", "skipped-unconfigured", "unknown"),
		oneOf("deep-status", o.deepStat, "ok", "empty", "error", "skipped", "unknown"),
	)
}

func newFinalizeCommand(g *globalOptions) *cobra.Command {
	var opts finalizeOptions
	cmd := &cobra.Command{
		Use:   "finalize --markdown FILE --query Q",
		Short: "Validate and atomically save a report an agent wrote, with its context file",
		Long: "Validate a research report written by an agent (as lwr validate does) and save it atomically to\n" +
			"<workspace>/result/research/research_<UTC time>.md with its schema-version log, its context file\n" +
			"(research_<ts>.context.json) and .last_research_output.json. The same report with the same\n" +
			"timestamp again is skipped; another report in the same second gets research_<ts>-2.md. A failure\n" +
			"leaves no temp file and writes only a reason code to result/research/.run-state/<ts>/.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runFinalize(cmd.Context(), opts, g, cmd)
		},
	}
	opts.AddFlags(cmd)
	return cmd
}

func runFinalize(ctx context.Context, opts finalizeOptions, g *globalOptions, cmd *cobra.Command) error {
	fail := func(err error) error { return failJSON(g, opts.json, err) }
	if err := opts.Check(); err != nil {
		var ue usageError
		if !errors.As(err, &ue) {
			err = usageError{err.Error()}
		}
		return fail(err)
	}
	cfg, _, err := g.load(cmd)
	if err != nil {
		return fail(err)
	}
	ws, err := workspaceOf(opts.workspace)
	if err != nil {
		return fail(err)
	}
	md, err := readLimited(cmd.InOrStdin(), opts.markdown, maxReport)
	if err != nil {
		return fail(usagef("--markdown: %v", err))
	}
	// The policies in force, for the context file; an invalid currentness
	// file fails here as it fails every search.
	var pols policy.Policies
	if st, err := os.Stat(cfg.SourceRoot); err == nil && st.IsDir() {
		cur, err := policy.LoadCurrentness(cfg.SourceRoot)
		if err != nil {
			return fail(&research.Failure{Reason: research.ReasonCurrentnessInvalid, Err: err})
		}
		prefs, err := policy.LoadPreferences(cfg.SourceRoot)
		if err != nil && !opts.ignorePref {
			return fail(&research.Failure{Reason: research.ReasonPreferencesInvalid, Err: err})
		}
		pols = policy.Describe(prefs, cur, policy.Options{IgnorePreference: opts.ignorePref})
	}
	fo := research.FinalizeOptions{
		Workspace: ws, OutputDir: cfg.Research.OutputDir, Markdown: md,
		Context: research.ContextInput{
			Query: opts.query, SourceRoot: cfg.SourceRoot, SkipWeb: opts.skipWeb, Policies: pols, Producer: "lwr finalize",
			Statuses: research.Statuses{Local: opts.localStat, Web: opts.webStat, Deep: opts.deepStat},
		},
	}
	if opts.timestamp != "" {
		fo.Timestamp, _ = research.ParseTimestamp(opts.timestamp)
	}
	f, err := research.Finalize(ctx, fo)
	if err != nil {
		var ve *research.ValidationError
		if errors.As(err, &ve) && !opts.json {
			for _, p := range ve.Problems {
				fmt.Fprintln(g.stderr, "lwr: "+p.String())
			}
		}
		return fail(err)
	}
	if opts.json {
		writeJSON(g.stdout, researchSummary{Status: f.Status, Name: f.Name, Report: f.Report, Context: f.Context, Log: f.Log,
			LastOutput: f.LastOutput, Timestamp: f.Timestamp, SHA256: f.SHA256, SchemaVersion: f.SchemaVersion, Workspace: ws})
		return nil
	}
	fmt.Fprintln(g.stdout, f.SavedLine())
	return nil
}
