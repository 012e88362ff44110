package agent

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"lwr/config"
	"lwr/config/configtest"
	"lwr/index"
	"lwr/research/deep"
	"lwr/research/local"
	"lwr/research/local/daemon"
	"lwr/research/report"
	"lwr/research/researchtest"
)

// deepServer is the MCP server over a copy of testdata/rules (indexed in
// the test) with its own workspace, and a client connected to it in
// memory.
func deepServer(t *testing.T) (cs *mcp.ClientSession, root, ws string) {
	t.Helper()
	root = configtest.TempDir(t)
	researchtest.CopyTree(t, filepath.Join(researchtest.Repo(), "testdata", "rules"), root)
	ws = configtest.TempDir(t)
	cache := configtest.TempDir(t)
	env := configtest.Env(t, "LWR_SOURCE_ROOT="+root, "LWR_CACHE_DIR="+cache)
	cfg, _, err := config.Load(config.Options{Environ: env})
	if err != nil {
		t.Fatal(err)
	}
	dir, err := index.DirFor(cfg.CacheDir, cfg.SourceRoot)
	if err != nil {
		t.Fatal(err)
	}
	ixo := index.Options{Root: cfg.SourceRoot, Dir: dir, Rules: index.Rules{Extensions: cfg.Index.Extensions, Exclude: cfg.Index.Exclude, MaxFileSize: cfg.Index.MaxFileSize}}
	ix, err := index.Open(context.Background(), ixo)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ix.Build(context.Background(), index.BuildOptions{}); err != nil {
		t.Fatal(err)
	}
	ix.Close()
	s, err := New(Options{Config: cfg, Local: daemon.Options{Local: local.Options{Index: ixo}}, Workspace: ws, Environ: env})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	ct, st := mcp.NewInMemoryTransports()
	done := make(chan error, 1)
	go func() { done <- s.Run(ctx, st) }()
	cs, err = mcp.NewClient(&mcp.Implementation{Name: "test"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cs.Close()
		cancel()
		<-done
	})
	return cs, root, ws
}

// deepCall calls a tool and decodes its structured content; a tool error
// fails the test unless wantErr.
func deepCall(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any, out any) *mcp.CallToolResult {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if res.IsError {
		return res
	}
	b, _ := json.Marshal(res.StructuredContent)
	if out != nil {
		if err := json.Unmarshal(b, out); err != nil {
			t.Fatalf("%s: %v\n%s", name, err, b)
		}
	}
	return res
}

func deepToolText(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

// An agent that does the thinking: its own subtopics and queries, the
// searches through deep_search, the gap check, and its own report,
// verified and confirmed by deep_finalize.
func TestDeepTools(t *testing.T) {
	cs, root, ws := deepServer(t)
	tools, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, tool := range tools.Tools {
		if strings.HasPrefix(tool.Name, "deep_") {
			n++
			if tool.InputSchema == nil || tool.OutputSchema == nil || tool.Description == "" {
				t.Errorf("%s lacks a schema or a description", tool.Name)
			}
		}
	}
	if n != 5 {
		t.Fatalf("%d deep_ tools, want 5", n)
	}

	var st deep.Started
	res := deepCall(t, cs, "deep_start", map[string]any{"topic": "出張旅費の規程", "subtopics": []map[string]any{
		{"name": "日当", "queries": []string{"日当", "出張 日当 課長"}},
		{"name": "宿泊料", "queries": []string{"宿泊料 上限"}, "alternatives": []string{"ホテル代"}},
	}}, &st)
	if res.IsError || st.Slug == "" || st.State == nil || st.State.Phase != deep.PhaseSearch || st.Plan.Subtopics[1].Alternatives[0] != "ホテル代" {
		t.Fatalf("deep_start: %s %+v", deepToolText(res), st)
	}
	if !strings.HasPrefix(st.Dir, filepath.Join(ws, "result", "research", "deep")) {
		t.Errorf("the topic is not in the server's workspace: %s", st.Dir)
	}
	var found deep.SearchResult
	deepCall(t, cs, "deep_search", map[string]any{"slug": st.Slug, "subtopic": "日当", "skip_web": true}, &found)
	if !found.Searched || found.Subtopic != "日当" || len(found.Findings.Evidence) == 0 || !strings.Contains(found.Markdown, "## EVIDENCE") || len(found.Pending) != 1 {
		t.Fatalf("deep_search 日当: %+v", found)
	}
	// The gap check waits for every subtopic.
	if res := deepCall(t, cs, "deep_gaps", map[string]any{"slug": st.Slug}, nil); !res.IsError || !strings.HasPrefix(deepToolText(res), "invalid_input: search the subtopics") {
		t.Errorf("deep_gaps before the searches: %s", deepToolText(res))
	}
	deepCall(t, cs, "deep_search", map[string]any{"slug": st.Slug, "skip_web": true}, &found)
	if found.Subtopic != "宿泊料" || !found.Searched || found.Phase != deep.PhaseGaps || len(found.Pending) != 0 {
		t.Fatalf("deep_search of the next subtopic: %+v", found)
	}
	var again deep.SearchResult
	deepCall(t, cs, "deep_search", map[string]any{"slug": st.Slug, "subtopic": "宿泊料"}, &again)
	if again.Searched || again.Markdown != found.Markdown {
		t.Errorf("a subtopic searched again: %+v", again)
	}
	var gaps deep.GapResult
	deepCall(t, cs, "deep_gaps", map[string]any{"slug": st.Slug, "skip_web": true}, &gaps)
	if gaps.Phase != deep.PhaseSynthesize || len(gaps.Gaps) != 0 || gaps.Followup != nil {
		t.Fatalf("deep_gaps: %+v", gaps)
	}

	// The agent's report: its own words, citing the lines the findings
	// gave (as read returns them), no JSON comment.
	abs := filepath.ToSlash(filepath.Join(root, "規程", "旅費規程.md"))
	agent := "---\nkind: deep\nstatus: draft\ntopic: 出張旅費の規程\nslug: " + st.Slug + "\n---\n\n# 出張旅費の規程\n\n" +
		"## 1. 日当\n\n- 日当は1日2,000円、課長以上は2,500円。 [L1]\n- 日帰りで片道100km未満なら支給しない。 [L1]\n\n" +
		"## 2. 宿泊料\n\n- 一般従業員の上限は11,000円、課長以上は14,000円。 [L2]\n\n## 出典\n\n" +
		"### [L1] 旅費規程.md\n\n" + report.Citation("旅費規程.md", abs, 21, 22) + "\n\n> 日当は1日につき2,000円とする。課長以上は2,500円とする。\n> 日帰り出張で片道100km未満のときは日当を支給しない。\n\n" +
		"### [L2] 旅費規程.md\n\n" + report.Citation("旅費規程.md", abs, 26, 27) + "\n\n> 一般従業員　11,000円\n> 課長以上　14,000円\n"
	var fin deep.Result
	bad := strings.Replace(agent, "課長以上は14,000円", "課長以上は15,000円", 1)
	res = deepCall(t, cs, "deep_finalize", map[string]any{"slug": st.Slug, "markdown": bad}, &fin)
	if res.IsError || fin.Status != deep.StatusVerifyFailed || fin.Attempts != 1 || fin.Problems[0].Code != report.ProblemClaimNumber || !strings.Contains(deepToolText(res), "15,000") {
		t.Fatalf("deep_finalize of an unsupported number: %s %+v", deepToolText(res), fin)
	}
	res = deepCall(t, cs, "deep_finalize", map[string]any{"slug": st.Slug, "markdown": agent}, &fin)
	if res.IsError || fin.Status != deep.StatusConfirmed || !strings.HasPrefix(deepToolText(res), "確認済み: [report.md](") {
		t.Fatalf("deep_finalize: %s %+v", deepToolText(res), fin)
	}
	md, _ := os.ReadFile(fin.Report)
	if !strings.HasPrefix(string(md), "---\nkind: deep\nstatus: confirmed\n") || !strings.Contains(string(md), "日帰りで片道100km未満なら支給しない。 [L1]") {
		t.Errorf("the confirmed report:\n%s", md)
	}
	if ps := report.Validate(md); ps != nil {
		t.Errorf("validate: %v", ps)
	}
	// The failed verification of the agent's first report counts.
	var status DeepStatusOut
	deepCall(t, cs, "deep_status", map[string]any{}, &status)
	if len(status.Topics) != 1 || status.Topics[0].Status != deep.StatusConfirmed || status.Topics[0].Attempts != 1 {
		t.Errorf("deep_status: %+v", status)
	}
	// A second agent asking for the same topic is pointed at the report.
	deepCall(t, cs, "deep_start", map[string]any{"topic": "出張旅費の規程"}, &st)
	if st.Existing != "confirmed" || st.Report != fin.Report {
		t.Errorf("deep_start of a confirmed topic: %+v", st)
	}
	if res := deepCall(t, cs, "deep_search", map[string]any{"slug": "../../etc-20260601-abcd"}, nil); !res.IsError || !strings.HasPrefix(deepToolText(res), "invalid_input:") {
		t.Errorf("a slug that is a path: %s", deepToolText(res))
	}
}

// The deep research folder through a link out of the workspace is
// refused with path_outside_workspace, and nothing is written there.
func TestDeepToolsStayInTheWorkspace(t *testing.T) {
	cs, _, ws := deepServer(t)
	outside := configtest.TempDir(t)
	os.MkdirAll(filepath.Join(ws, "result", "research"), 0o755)
	configtest.Symlink(t, outside, filepath.Join(ws, "result", "research", "deep"))
	for _, c := range []struct {
		tool string
		args map[string]any
	}{
		{"deep_start", map[string]any{"topic": "出張旅費の規程", "subtopics": []map[string]any{{"name": "日当"}}}},
		{"deep_status", map[string]any{}},
		{"deep_finalize", map[string]any{"slug": "出張旅費の規程-20260601-abcd"}},
	} {
		res := deepCall(t, cs, c.tool, c.args, nil)
		if !res.IsError || !strings.HasPrefix(deepToolText(res), deepCodeOutside+": ") {
			t.Errorf("%s through a link out of the workspace: %s", c.tool, deepToolText(res))
		}
	}
	if files := researchtest.Files(t, outside); len(files) > 0 {
		t.Errorf("written outside the workspace: %v", files)
	}
}

// The finalize tool takes a report without its JSON comment (the
// skill's example), and validate knows a deep report.
func TestFinalizeToolComputesTheComment(t *testing.T) {
	cs, root, ws := deepServer(t)
	md := skillAtRoot(skillExample(t, "agent-report"), root)
	var fin FinalizeOut
	res := deepCall(t, cs, "finalize", map[string]any{"markdown": md, "query": "出張の日当", "local_status": "ok", "web_status": "skipped", "deep_status": "skipped", "skip_web": true}, &fin)
	if res.IsError || !fin.CommentComputed || !strings.HasPrefix(fin.Report, filepath.Join(ws, "result", "research", "research_")) {
		t.Fatalf("finalize without the comment: %s %+v", deepToolText(res), fin)
	}
	saved, _ := os.ReadFile(fin.Report)
	if !strings.Contains(string(saved), "\n<!-- JSON: {\"sections\":[{\"id\":\"local_info\"") {
		t.Errorf("the saved report has no comment:\n%s", saved)
	}
	var v ValidateOut
	deepCall(t, cs, "validate", map[string]any{"path": fin.Report}, &v)
	if !v.Valid || !v.SourcesChecked {
		t.Errorf("validate of the finalized report: %+v", v)
	}
	deepMD := skillAtRoot(strings.ReplaceAll(skillExample(t, "deep-report"), "<slug>", "出張旅費の規程-20260601-abcd"), root)
	deepCall(t, cs, "validate", map[string]any{"markdown": deepMD}, &v)
	if v.Valid || len(v.Problems) != 1 || v.Problems[0].Code != report.ProblemJSONMissing {
		t.Errorf("validate of a deep report without its comment: %+v", v)
	}
	full, _ := report.Complete([]byte(deepMD))
	deepCall(t, cs, "validate", map[string]any{"markdown": string(full)}, &v)
	if !v.Valid {
		t.Errorf("validate of a deep report: %+v", v)
	}
	bad := strings.Replace(string(full), "1泊の上限は一般従業員11,000円", "1泊の上限は一般従業員12,000円", 1)
	deepCall(t, cs, "validate", map[string]any{"markdown": bad}, &v)
	if v.Valid || v.Problems[0].Code != report.ProblemClaimNumber {
		t.Errorf("validate of a deep report with an unsupported number: %+v", v)
	}
}
