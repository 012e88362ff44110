package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"lwr/config"
	"lwr/research"
	"lwr/research/deep"
	"lwr/research/local"
	"lwr/research/local/daemon"
	"lwr/research/report"
)

// killAtEnv names a checkpoint of a deep run (an event, or findings_written,
// draft_written, sentinel_written; NAME#N for its N-th time) at which the
// process kills itself as kill -9 would: for the crash tests.
const killAtEnv = "LWR_DEEP_KILL_AT"

func newDeepCommand(g *globalOptions) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "deep",
		Short: "Deep research: a topic in subtopics, each searched, gaps checked, a report synthesized and verified; resumable",
		Long: "Research a topic that needs several documents: lwr deep start writes the plan (3–5 subtopics with their\n" +
			"queries, or the ones given) under <workspace>/result/research/deep/<slug>/; lwr deep run searches each\n" +
			"subtopic, checks the gaps, writes report.md (status: draft) and verifies every citation, quote and\n" +
			"number against the files and the web results; a verified report says status: confirmed. A run can be\n" +
			"stopped (or killed) between any two phases and run again; several topics run at once.",
		Example: "  lwr deep start --subtopic 日当 --subtopic 宿泊料 出張旅費の規程\n" +
			"  lwr deep run --skip-web 出張旅費の規程-20260601-3fa9\n" +
			"  lwr deep status",
	}
	cmd.AddCommand(newDeepStartCommand(g), newDeepRunCommand(g), newDeepStatusCommand(g))
	return cmd
}

type deepStartOptions struct {
	subtopics []string
	refresh   bool
	json      bool
	workspace string
}

func newDeepStartCommand(g *globalOptions) *cobra.Command {
	var opts deepStartOptions
	cmd := &cobra.Command{
		Use:   "start QUERY...",
		Short: "Plan a deep research: its subtopics and their queries (phase 1)",
		Long: "Write plan.md (front matter: status, topic, slug, subtopics and their queries) and state.json for a new\n" +
			"topic; the slug is the topic in kebab form (at most 40 characters), the date and 4 hex digits. Without\n" +
			"--subtopic, lwr proposes 3–5 subtopics from the question's facets and the headings of the documents\n" +
			"its words find. A topic already in progress is resumed instead, and one with a confirmed report is\n" +
			"shown; --refresh starts it anew. --json prints {\"slug\", \"state\", \"plan\"}.",
		Example: "  lwr deep start --json --subtopic 日当 --subtopic 宿泊料 出張旅費の規程\n  lwr deep start 情報セキュリティの社内ルール",
		Args:    cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runDeepStart(cmd.Context(), opts, g, g.stdout, args)
		},
	}
	fs := cmd.Flags()
	fs.StringArrayVar(&opts.subtopics, "subtopic", nil, "a subtopic (repeatable, up to 5); its queries are its name and the topic with it")
	fs.BoolVar(&opts.refresh, "refresh", false, "start the topic anew although a confirmed report of it (or a research in progress) is there")
	fs.BoolVar(&opts.json, "json", false, `print {"slug", "state", "plan"}`)
	fs.StringVar(&opts.workspace, "workspace", "", "folder the research goes into (default: the git top-level of the current folder, else the current folder)")
	return cmd
}

type deepRunOptions struct {
	skipWeb   bool
	until     string
	json      bool
	workspace string
	report    string
}

func newDeepRunCommand(g *globalOptions) *cobra.Command {
	var opts deepRunOptions
	cmd := &cobra.Command{
		Use:   "run SLUG",
		Short: "Run a deep research's phases from where it stands: search, gaps, synthesize, verify",
		Long: "Search the subtopics not yet searched (findings/NN-<subtopic>.md each), check the gaps (none: go on;\n" +
			"some: one _followup subtopic searches them), write report.md as a draft and verify it: every local\n" +
			"citation's lines and quote against the file, every web citation against the results fetched, every\n" +
			"number of a claim against its cited lines. Verified: status: confirmed. Not: synthesized again; the\n" +
			"third failure blocks the topic. --until stops after a phase; --report verifies a report you wrote\n" +
			"instead of lwr's. --json prints {\"slug\", \"phase\", \"status\", \"report\"}. Exit 1 when the report failed\n" +
			"verification (its problems on stderr) or the topic is blocked.",
		Example: "  lwr deep run --skip-web --until search --json 出張旅費の規程-20260601-3fa9\n" +
			"  lwr deep run --report my-report.md 出張旅費の規程-20260601-3fa9",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runDeepRun(cmd.Context(), opts, g, g.stdout, args[0])
		},
	}
	fs := cmd.Flags()
	fs.BoolVar(&opts.skipWeb, "skip-web", false, "search the local documents only")
	fs.StringVar(&opts.until, "until", "", "stop after this phase: search, gaps or synthesize")
	fs.BoolVar(&opts.json, "json", false, `print {"slug", "phase", "status", "report"}`)
	fs.StringVar(&opts.workspace, "workspace", "", "folder the research is in (default: the git top-level of the current folder, else the current folder)")
	fs.StringVar(&opts.report, "report", "", "verify this report (a file, or - for standard input) instead of lwr's synthesis")
	return cmd
}

type deepStatusOptions struct {
	json      bool
	workspace string
}

func newDeepStatusCommand(g *globalOptions) *cobra.Command {
	var opts deepStatusOptions
	cmd := &cobra.Command{
		Use:     "status [SLUG]",
		Short:   "Where a deep research stands: phase, subtopics and their findings, attempts, the verifier's findings",
		Long:    "Show a topic's phase, its subtopics with their status and findings, the verification attempts and the\nlast verification's problems; without SLUG, every topic of the workspace.",
		Example: "  lwr deep status\n  lwr deep status --json 出張旅費の規程-20260601-3fa9",
		Args:    cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runDeepStatus(opts, g, g.stdout, args)
		},
	}
	cmd.Flags().BoolVar(&opts.json, "json", false, "print the status as JSON")
	cmd.Flags().StringVar(&opts.workspace, "workspace", "", "folder the research is in (default: the git top-level of the current folder, else the current folder)")
	return cmd
}

// deepOptions is deep research as the configuration sets it, in the
// workspace given.
func (g *globalOptions) deepOptions(cfg config.Config, ws string) (deep.Options, error) {
	log := g.logger()
	ro, err := research.Configure(cfg, g.environ, log)
	if err != nil {
		return deep.Options{}, err
	}
	src, err := g.sources(cfg)
	if err != nil {
		return deep.Options{}, err
	}
	o := deep.Options{
		Workspace: ws, OutputDir: cfg.Research.OutputDir, Sources: *src, Research: ro, Logger: log,
		OpenLocal: func(ctx context.Context) (local.Searcher, error) {
			lo, err := g.localOptions(cfg)
			if err != nil {
				return nil, err
			}
			return daemon.Open(ctx, lo)
		},
	}
	if v, ok := config.NewEnv(g.environ).Lookup(killAtEnv); ok && v != "" {
		o.Checkpoint = killAt(v)
	}
	return o, nil
}

// killAt is the checkpoint hook of LWR_DEEP_KILL_AT=NAME[#N].
func killAt(spec string) func(string) {
	name, nth, _ := strings.Cut(spec, "#")
	n, err := strconv.Atoi(nth)
	if err != nil || n < 1 {
		n = 1
	}
	seen := 0
	return func(point string) {
		if point != name {
			return
		}
		if seen++; seen == n {
			if p, err := os.FindProcess(os.Getpid()); err == nil {
				_ = p.Kill()
			}
			for {
				time.Sleep(time.Second) // until the kill arrives
			}
		}
	}
}

// deepError turns the deep package's errors into the command line's.
func deepError(err error) error {
	if errors.Is(err, deep.ErrInput) || errors.Is(err, deep.ErrNoTopic) || errors.Is(err, deep.ErrOutsideWorkspace) {
		return usage(err)
	}
	return err
}

// deepFail is the failure of a deep command: with --json, the error as
// JSON on stdout too ({"status": "error", "reason", "message"}), as
// finalize --json prints it.
func deepFail(g *globalOptions, out io.Writer, asJSON bool, err error) error {
	err = deepError(err)
	if !asJSON || errors.Is(err, context.Canceled) {
		return err
	}
	s := research.Failed(err, sentence(err))
	// The one table's code (index_busy, failed, …), made finer below.
	s.Reason = report.Reason(local.OutcomeOf(err).Code)
	switch {
	case errors.Is(err, local.ErrInvalidInput):
		s.Reason = "usage"
	case errors.Is(err, deep.ErrBusy):
		s.Reason = "topic_busy"
	case errors.Is(err, deep.ErrUnwritable):
		s.Reason = "workspace_unwritable"
	case errors.Is(err, deep.ErrDamaged):
		s.Reason = "damaged"
	}
	local.WriteJSON(out, s)
	fmt.Fprintln(g.stderr, "lwr: "+sentence(err))
	return reportedError{err}
}

func (g *globalOptions) deepSetup(workspace string) (config.Config, deep.Options, error) {
	cfg, _, err := g.load()
	if err != nil {
		return cfg, deep.Options{}, err
	}
	ws, err := workspaceOf(workspace)
	if err != nil {
		return cfg, deep.Options{}, err
	}
	o, err := g.deepOptions(cfg, ws)
	return cfg, o, err
}

func runDeepStart(ctx context.Context, opts deepStartOptions, g *globalOptions, out io.Writer, args []string) error {
	fail := func(err error) error { return deepFail(g, out, opts.json, err) }
	_, o, err := g.deepSetup(opts.workspace)
	if err != nil {
		return fail(err)
	}
	in := deep.StartInput{Topic: strings.Join(args, " "), Refresh: opts.refresh}
	for _, s := range opts.subtopics {
		in.Subtopics = append(in.Subtopics, deep.Subtopic{Name: s})
	}
	st, err := deep.Start(ctx, o, in)
	if err != nil {
		return fail(err)
	}
	if opts.json {
		local.WriteJSON(out, st)
		return nil
	}
	switch st.Existing {
	case "confirmed":
		fmt.Fprintf(out, "確認済みのレポートがあります: [%s](%s)\n再調査するには --refresh を付けてください: lwr deep start --refresh %q\n", deep.ReportFile, report.PathTarget(toSlash(st.Report)), st.Plan.Topic)
	case "active":
		fmt.Fprintf(out, "同じトピックを調査中です: %s（%s）\n再開: lwr deep run %s\n", st.Slug, st.State.Phase, st.Slug)
	default:
		names := make([]string, len(st.Plan.Subtopics))
		for i, s := range st.Plan.Subtopics {
			names[i] = report.Text(s.Name)
		}
		fmt.Fprintf(out, "計画しました: %s（サブトピック: %s）\n次: lwr deep run %s\n", st.Slug, strings.Join(names, "、"), st.Slug)
	}
	return nil
}

func toSlash(p string) string { return strings.ReplaceAll(p, `\`, "/") }

// verifyFailed is a deep run whose report failed verification or whose
// topic is blocked; its problems were printed already.
type verifyFailed struct{ status string }

func (e verifyFailed) Error() string { return "the deep research's report is " + e.status }

func runDeepRun(ctx context.Context, opts deepRunOptions, g *globalOptions, out io.Writer, slug string) error {
	fail := func(err error) error { return deepFail(g, out, opts.json, err) }
	until, err := deep.ParseUntil(opts.until)
	if err != nil {
		return fail(err)
	}
	if opts.report != "" && until != "" {
		return fail(usagef("--report and --until contradict each other: a report to verify runs to the end; give one"))
	}
	_, o, err := g.deepSetup(opts.workspace)
	if err != nil {
		return fail(err)
	}
	ro := deep.RunOptions{Until: until, SkipWeb: opts.skipWeb}
	if opts.report != "" {
		md, err := readInput(ctx, g.stdin, opts.report, maxReport)
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if err != nil {
			return fail(usagef("--report: %v", err))
		}
		ro.Report = md
	}
	res, err := deep.Run(ctx, o, slug, ro)
	if err != nil {
		return fail(err)
	}
	if opts.json {
		local.WriteJSON(out, res)
	}
	noEvidence := false
	for _, p := range res.Problems {
		if p.Code == report.ProblemNoEvidence {
			noEvidence = true
			continue // the sentence below says it
		}
		fmt.Fprintln(g.stderr, "lwr: "+p.String())
	}
	switch {
	case res.Status == deep.StatusVerifyFailed:
		fmt.Fprintf(g.stderr, "lwr: the report failed verification (attempt %d of %d); correct it and run again\n", res.Attempts, deep.MaxAttempts)
		return reportedError{verifyFailed{res.Status}}
	case res.Status == deep.StatusBlocked && noEvidence:
		fmt.Fprintf(g.stderr, "lwr: %s is blocked: no subtopic found evidence in the source root %s, and a report without evidence is no research; check that it holds the documents (lwr index status), then start the topic anew in the documents' own words: lwr deep start --refresh --subtopic <word of the documents> %q\n", slug, toSlash(o.Sources.Root), res.Topic)
		return reportedError{verifyFailed{res.Status}}
	case res.Status == deep.StatusBlocked:
		fmt.Fprintf(g.stderr, "lwr: %s is blocked after %d failed verifications; its findings are kept (lwr deep status %s) — read them, then start the topic anew: lwr deep start --refresh %q\n", slug, res.Attempts, slug, res.Topic)
		return reportedError{verifyFailed{res.Status}}
	}
	if opts.json {
		return nil
	}
	switch res.Status {
	case deep.StatusConfirmed:
		fmt.Fprintf(out, "確認済み: [%s](%s)\n", deep.ReportFile, report.PathTarget(toSlash(res.Report)))
	default:
		fmt.Fprintf(out, "%s: %s（次: lwr deep run %s）\n", slug, res.Phase, slug)
	}
	return nil
}

func runDeepStatus(opts deepStatusOptions, g *globalOptions, out io.Writer, args []string) error {
	fail := func(err error) error { return deepFail(g, out, opts.json, err) }
	_, o, err := g.deepSetup(opts.workspace)
	if err != nil {
		return fail(err)
	}
	var all []deep.TopicStatus
	if len(args) == 1 {
		st, err := deep.Status(o, args[0])
		if err != nil {
			return fail(err)
		}
		if opts.json {
			local.WriteJSON(out, st)
			return nil
		}
		all = []deep.TopicStatus{*st}
	} else {
		if all, err = deep.List(o); err != nil {
			return fail(err)
		}
		if opts.json {
			local.WriteJSON(out, struct {
				Topics []deep.TopicStatus `json:"topics"`
			}{all})
			return nil
		}
		if len(all) == 0 {
			fmt.Fprintf(out, "no deep research in %s\n", o.Root())
		}
	}
	for _, st := range all {
		fmt.Fprintf(out, "%s  %s  phase=%s status=%s attempts=%d\n", st.Slug, report.Text(st.Topic), st.Phase, st.Status, st.Attempts)
		for _, s := range append(st.Subtopics, followupOf(st)...) {
			fmt.Fprintf(out, "  - %s: %s (evidence %d, gaps %d)\n", report.Text(s.Name), s.Status, s.Evidence, s.Gaps)
		}
		if len(st.SearchedAgain) > 0 {
			names := make([]string, len(st.SearchedAgain))
			for i, n := range st.SearchedAgain {
				names[i] = report.Text(n)
			}
			fmt.Fprintf(out, "  searched again (a cited file changed): %s\n", strings.Join(names, ", "))
		}
		for _, p := range st.LastVerifierFeedback {
			fmt.Fprintf(out, "  ! %s\n", report.Text(p.String()))
		}
		if st.Report != "" {
			fmt.Fprintf(out, "  report: %s\n", toSlash(st.Report))
		}
	}
	return nil
}

func followupOf(st deep.TopicStatus) []deep.SubtopicStatus {
	if st.Followup == nil {
		return nil
	}
	return []deep.SubtopicStatus{*st.Followup}
}
