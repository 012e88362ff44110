package agent

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"lwr/research"
	"lwr/research/deep"
	"lwr/research/local"
	"lwr/research/report"
)

// The deep research tools: the phases of lwr deep for an agent that does
// the thinking itself (its own subtopics and queries, its own report)
// while lwr searches, keeps the state and verifies. They read and write
// only the server's workspace: a topic is named by its slug, never by a
// path, and a deep research folder that leads out of the workspace
// through a link is refused with path_outside_workspace.

// deepCodeOutside is the tool error code of a path outside the
// server's workspace.
const deepCodeOutside = "path_outside_workspace"

// DeepStartIn is the input of deep_start.
type DeepStartIn struct {
	Topic     string          `json:"topic" jsonschema:"調べるトピック（利用者の質問）. The topic to research, as the user asked it."`
	Subtopics []deep.Subtopic `json:"subtopics,omitempty" jsonschema:"3〜5個（5個まで）のサブトピックと、それぞれ2〜3個の検索語・資料の語. Your 3–5 subtopics (5 at the most), each with 2–3 queries and alternatives in the documents' formal vocabulary; none: lwr proposes them."`
	Refresh   bool            `json:"refresh,omitempty" jsonschema:"同じトピックの確認済みレポートがあっても新しく調査する. Start anew although a confirmed report (or a research in progress) of the topic is there."`
}

// DeepSearchIn is the input of deep_search.
type DeepSearchIn struct {
	Slug         string   `json:"slug" jsonschema:"deep_start が返した slug. The topic's slug, as deep_start returned it."`
	Subtopic     string   `json:"subtopic,omitempty" jsonschema:"検索するサブトピック（省略: 次の未検索のもの）. The subtopic to search; empty: the next one not yet searched."`
	Alternatives []string `json:"alternatives,omitempty" jsonschema:"資料側の正式な語を3〜5個. 3–5 more words in the documents' formal vocabulary for this search."`
	SkipWeb      bool     `json:"skip_web,omitempty" jsonschema:"ローカル資料のみ. Local documents only."`
}

// DeepGapsIn is the input of deep_gaps.
type DeepGapsIn struct {
	Slug         string   `json:"slug"`
	Alternatives []string `json:"alternatives,omitempty" jsonschema:"ギャップの再検索に加える資料の語. Words in the documents' vocabulary for the follow-up search of the gaps."`
	SkipWeb      bool     `json:"skip_web,omitempty"`
}

// DeepFinalizeIn is the input of deep_finalize.
type DeepFinalizeIn struct {
	Slug     string `json:"slug"`
	Markdown string `json:"markdown,omitempty" jsonschema:"あなたが書いたレポート（省略: lwr が統合したもの）. The deep report you wrote (front matter kind: deep, status: draft, topic, slug; a section per subtopic whose every line ends with its source labels [L1]; ## 出典 with a block per source); empty: lwr's own synthesis. The JSON comment may be left out: lwr computes it."`
	SkipWeb  bool   `json:"skip_web,omitempty"`
}

// DeepStatusIn is the input of deep_status.
type DeepStatusIn struct {
	Slug string `json:"slug,omitempty" jsonschema:"the topic's slug; empty: every topic of the workspace"`
}

// DeepStatusOut is the output of deep_status.
type DeepStatusOut struct {
	Topics []deep.TopicStatus `json:"topics"`
}

// addDeepTools registers the deep research tools.
func (s *Server) addDeepTools() error {
	for _, add := range []func() error{
		func() error {
			return add(s, &mcp.Tool{Name: "deep_start", Title: "Start a deep research: the plan of its subtopics",
				Description: "複数の資料をまとめる調査（「出張の旅費規程を全部まとめて」など）を始める。subtopics に自分で3〜5個のサブトピックと検索語を入れる（省略すると lwr が提案する）。返る slug で以降のツールを呼ぶ。同じトピックが調査中・確認済みなら existing が active / confirmed になり、その slug が返る。\n" +
					"Start a deep research for a question that needs several documents: your 3–5 subtopics with their queries (or lwr proposes them). Call the next tools with the slug returned. existing is active (resume it) or confirmed (its report is there; refresh starts anew) when the same topic was started before."}, s.deepStart)
		},
		func() error {
			return add(s, &mcp.Tool{Name: "deep_search", Title: "Search one subtopic of a deep research",
				Description: "サブトピックを1つ検索し、書かれた findings（証拠の行、出典、GAPS）を返す。すべてのサブトピックについて呼ぶ。検索済みのものは再検索しない。\n" +
					"Search one subtopic (the next one not yet searched when subtopic is empty) locally and on the web, and return the findings written: evidence lines with their citations, sources and gaps. Call it for every subtopic; a subtopic searched before is not searched again."}, s.deepSearch)
		},
		func() error {
			return add(s, &mcp.Tool{Name: "deep_gaps", Title: "Check the gaps of a deep research",
				Description: "全サブトピックの検索後に呼ぶ。GAPS がなければそのまま、あれば _followup を1回検索する（分岐は2つだけ）。\n" +
					"After every subtopic is searched: no gaps → ready to synthesize; gaps → one _followup subtopic searches them, its findings returned. Two branches only."}, s.deepGaps)
		},
		func() error {
			return add(s, &mcp.Tool{Name: "deep_finalize", Title: "Verify a deep research's report and confirm it",
				Description: "レポートを検証する（引用の行・引用文、Web出典、主張中の数値がすべて引用行にあること）。合格なら report.md が status: confirmed になる（これが完了の印）。不合格なら problems を直して再度呼ぶ。3回不合格で blocked。markdown を省略すると lwr の統合レポートを検証する。\n" +
					"Verify the report (markdown: yours; empty: lwr's synthesis): every local citation's lines and quote, every web citation against the pages fetched, every number of a claim in a cited line. Passed: report.md says status: confirmed, the sentinel. Failed: fix the problems and call again; the third failure blocks the topic, and so does a topic no subtopic found evidence for (no_evidence)."}, s.deepFinalize)
		},
		func() error {
			return add(s, &mcp.Tool{Name: "deep_status", Title: "Where deep researches stand",
				Description: "調査の状態（フェーズ、サブトピックと findings、検証回数、前回の検証結果）。slug 省略で全トピック。中断した調査はここで見つけて続きのツールを呼ぶ。\n" +
					"Where a deep research stands (phase, subtopics and their findings, attempts, the last verification's problems); without slug, every topic of the workspace. Resume an interrupted one with the tool of its phase.",
				Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}}, s.deepStatus)
		},
	} {
		if err := add(); err != nil {
			return err
		}
	}
	return nil
}

// deepOptions is deep research in the server's workspace.
func (s *Server) deepOptions() (deep.Options, error) {
	ws, err := s.workspace("")
	if err != nil {
		return deep.Options{}, err
	}
	cfg := s.opts.Config
	ro, err := research.Configure(cfg, s.opts.Environ, s.opts.Logger)
	if err != nil {
		return deep.Options{}, err
	}
	return deep.Options{
		Workspace: ws, OutputDir: cfg.Research.OutputDir, Research: ro, Logger: s.opts.Logger,
		Sources:   report.Sources{Root: cfg.SourceRoot, Rules: s.opts.Local.Local.Index.DocumentRules()},
		OpenLocal: func(ctx context.Context) (local.Searcher, error) { return s.searcher(ctx) },
	}, nil
}

// deepToolError is an error of a deep tool with its fixed code.
func deepToolError(err error) error {
	msg := strings.TrimSuffix(strings.TrimSpace(err.Error()), ".") + "."
	switch {
	case errors.Is(err, deep.ErrOutsideWorkspace):
		return fmt.Errorf("%s: %s", deepCodeOutside, msg)
	case errors.Is(err, deep.ErrInput), errors.Is(err, deep.ErrNoTopic):
		return fmt.Errorf("invalid_input: %s", msg)
	case errors.Is(err, deep.ErrBusy):
		return fmt.Errorf("topic_busy: %s", msg)
	case errors.Is(err, deep.ErrUnwritable):
		return fmt.Errorf("workspace_unwritable: %s", msg)
	}
	return toolError(err)
}

func (s *Server) deepStart(ctx context.Context, _ *mcp.CallToolRequest, in DeepStartIn) (*mcp.CallToolResult, deep.Started, error) {
	o, err := s.deepOptions()
	if err != nil {
		return nil, deep.Started{}, deepToolError(err)
	}
	st, err := deep.Start(ctx, o, deep.StartInput{Topic: in.Topic, Subtopics: in.Subtopics, Refresh: in.Refresh})
	if err != nil {
		return nil, deep.Started{}, deepToolError(err)
	}
	text := fmt.Sprintf("slug %s: %d subtopics; next: deep_search for each", st.Slug, len(st.Plan.Subtopics))
	switch st.Existing {
	case "active":
		text = fmt.Sprintf("the topic is in progress as %s (phase %s); resume it with the tool of its phase", st.Slug, st.State.Phase)
	case "confirmed":
		text = fmt.Sprintf("a confirmed report of the topic is there: %s (refresh starts anew)", st.Report)
	}
	return deepText(text), *st, nil
}

func (s *Server) deepSearch(ctx context.Context, _ *mcp.CallToolRequest, in DeepSearchIn) (*mcp.CallToolResult, deep.SearchResult, error) {
	o, err := s.deepOptions()
	if err != nil {
		return nil, deep.SearchResult{}, deepToolError(err)
	}
	res, err := deep.Search(ctx, o, in.Slug, in.Subtopic, in.Alternatives, in.SkipWeb)
	if err != nil {
		return nil, deep.SearchResult{}, deepToolError(err)
	}
	return deepText(res.Markdown), *res, nil
}

func (s *Server) deepGaps(ctx context.Context, _ *mcp.CallToolRequest, in DeepGapsIn) (*mcp.CallToolResult, deep.GapResult, error) {
	o, err := s.deepOptions()
	if err != nil {
		return nil, deep.GapResult{}, deepToolError(err)
	}
	res, err := deep.Gaps(ctx, o, in.Slug, in.Alternatives, in.SkipWeb)
	if err != nil {
		return nil, deep.GapResult{}, deepToolError(err)
	}
	text := "no gaps; next: deep_finalize with your report"
	if len(res.Gaps) > 0 {
		text = fmt.Sprintf("%d gaps, searched as the _followup subtopic; next: deep_finalize with your report\n\n%s", len(res.Gaps), res.Markdown)
	}
	return deepText(text), *res, nil
}

func (s *Server) deepFinalize(ctx context.Context, _ *mcp.CallToolRequest, in DeepFinalizeIn) (*mcp.CallToolResult, deep.Result, error) {
	if len(in.Markdown) > maxReport {
		return nil, deep.Result{}, toolError(local.Invalidf("the report is more than %d bytes", maxReport))
	}
	o, err := s.deepOptions()
	if err != nil {
		return nil, deep.Result{}, deepToolError(err)
	}
	ro := deep.RunOptions{SkipWeb: in.SkipWeb}
	if strings.TrimSpace(in.Markdown) != "" {
		ro.Report = []byte(in.Markdown)
	}
	res, err := deep.Run(ctx, o, in.Slug, ro)
	if err != nil {
		return nil, deep.Result{}, deepToolError(err)
	}
	var text string
	switch {
	case res.Status == deep.StatusConfirmed:
		text = "確認済み: [report.md](" + report.PathTarget(strings.ReplaceAll(res.Report, `\`, "/")) + ")"
	case res.Status == deep.StatusBlocked && slices.ContainsFunc(res.Problems, func(p report.Problem) bool { return p.Code == report.ProblemNoEvidence }):
		text = "blocked: no subtopic found evidence in the documents, and a report without evidence is no research; tell the user, or start anew (deep_start with refresh) with subtopics and alternatives in the documents' own words"
	case res.Status == deep.StatusBlocked:
		text = fmt.Sprintf("blocked after %d failed verifications; the findings are kept: tell the user, or start anew with deep_start refresh", res.Attempts)
	default:
		var b strings.Builder
		fmt.Fprintf(&b, "the report failed verification (attempt %d of %d); fix these and call deep_finalize again:", res.Attempts, deep.MaxAttempts)
		for _, p := range res.Problems {
			b.WriteString("\n- " + p.String())
		}
		text = b.String()
	}
	return deepText(text), *res, nil
}

func (s *Server) deepStatus(_ context.Context, _ *mcp.CallToolRequest, in DeepStatusIn) (*mcp.CallToolResult, DeepStatusOut, error) {
	o, err := s.deepOptions()
	if err != nil {
		return nil, DeepStatusOut{}, deepToolError(err)
	}
	if in.Slug != "" {
		st, err := deep.Status(o, in.Slug)
		if err != nil {
			return nil, DeepStatusOut{}, deepToolError(err)
		}
		return nil, DeepStatusOut{Topics: []deep.TopicStatus{*st}}, nil
	}
	all, err := deep.List(o)
	if err != nil {
		return nil, DeepStatusOut{}, deepToolError(err)
	}
	return nil, DeepStatusOut{Topics: all}, nil
}

func deepText(s string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: s}}}
}
