package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"lwr/config/configtest"
	"lwr/research/researchtest"
)

// mcpSession starts `lwr mcp` as a process (args are the global flags,
// then "mcp" and its own when they are given) and connects the SDK's
// client to it over its standard input and output.
func mcpSession(t *testing.T, env []string, args ...string) *mcp.ClientSession {
	t.Helper()
	if !slices.Contains(args, "mcp") {
		args = append(args, "mcp")
	}
	cmd := lwrCmd(env, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	client := mcp.NewClient(&mcp.Implementation{Name: "lwr-test", Version: "v0"}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connect: %v\n%s", err, stderr.String())
	}
	t.Cleanup(func() {
		cs.Close()
		if t.Failed() {
			t.Logf("lwr mcp stderr:\n%s", stderr.String())
		}
	})
	return cs
}

// toolSchemas lists the tools and compiles their declared output schemas
// with another validator than the server's own.
func toolSchemas(t *testing.T, cs *mcp.ClientSession) map[string]*jsonschema.Schema {
	t.Helper()
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]*jsonschema.Schema{}
	var names []string
	for _, tool := range res.Tools {
		names = append(names, tool.Name)
		if tool.Description == "" || tool.InputSchema == nil || tool.OutputSchema == nil {
			t.Errorf("tool %s lacks a description or a schema", tool.Name)
			continue
		}
		b, _ := json.Marshal(tool.OutputSchema)
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		c := jsonschema.NewCompiler()
		c.DefaultDraft(jsonschema.Draft2020)
		url := "urn:lwr:tool:" + tool.Name
		if err := c.AddResource(url, doc); err != nil {
			t.Fatal(err)
		}
		s, err := c.Compile(url)
		if err != nil {
			t.Fatalf("tool %s: output schema: %v", tool.Name, err)
		}
		out[tool.Name] = s
	}
	slices.Sort(names)
	if want := []string{"deep_finalize", "deep_gaps", "deep_search", "deep_start", "deep_status", "finalize", "read", "research", "search", "status", "validate", "web_search"}; !slices.Equal(names, want) {
		t.Errorf("tools %v, want %v", names, want)
	}
	return out
}

// call calls a tool and decodes its structured content into out, after
// validating it against the tool's declared output schema.
func call(t *testing.T, cs *mcp.ClientSession, schemas map[string]*jsonschema.Schema, name string, args map[string]any, out any) *mcp.CallToolResult {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if res.IsError {
		return res
	}
	b, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	if err := schemas[name].Validate(v); err != nil {
		t.Fatalf("%s: the output does not validate against its declared schema: %v\n%s", name, err, b)
	}
	if out != nil {
		if err := json.Unmarshal(b, out); err != nil {
			t.Fatal(err)
		}
	}
	return res
}

func errorText(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

type mcpSearch struct {
	LocalResult json.RawMessage `json:"local_result"`
	Notes       []struct {
		Path     string `json:"path"`
		Edition  string `json:"edition"`
		Relation string `json:"relation"`
	} `json:"notes"`
	Annotations []struct {
		Path    string `json:"path"`
		Edition string `json:"edition"`
	} `json:"annotations"`
	Index struct {
		SyncedAt   string `json:"synced_at"`
		AnsweredBy string `json:"answered_by"`
	} `json:"index"`
}

type mcpMatch struct {
	Path    string `json:"path"`
	Snippet string `json:"snippet"`
	Start   int    `json:"snippetStartLine"`
	End     int    `json:"snippetEndLine"`
}

// checkSearchAndRead searches over MCP and reads every match's lines: the
// snippet is exactly those lines, and local_result is the agent schema's.
func checkSearchAndRead(t *testing.T, cs *mcp.ClientSession, schemas map[string]*jsonschema.Schema, query string) mcpSearch {
	t.Helper()
	var s mcpSearch
	call(t, cs, schemas, "search", map[string]any{"query": query, "alternatives": []string{"年次有給休暇"}}, &s)
	validateJSON(t, agentSchema(t), string(s.LocalResult))
	var lr struct {
		Status  string     `json:"status"`
		Matches []mcpMatch `json:"matches"`
	}
	json.Unmarshal(s.LocalResult, &lr)
	if lr.Status != "ok" || len(lr.Matches) == 0 || len(s.Notes) != len(lr.Matches) || len(s.Annotations) != 0 || s.Index.SyncedAt == "" {
		t.Fatalf("search %q: %s", query, s.LocalResult)
	}
	for _, m := range lr.Matches {
		var r struct {
			Lines []struct {
				N    int    `json:"n"`
				Text string `json:"text"`
			} `json:"lines"`
			Index struct {
				SyncedAt string `json:"synced_at"`
			} `json:"index"`
		}
		call(t, cs, schemas, "read", map[string]any{"path": m.Path, "start_line": m.Start, "end_line": m.End}, &r)
		if r.Index.SyncedAt == "" {
			t.Errorf("read %s: no synced_at", m.Path)
		}
		var text []string
		for i, l := range r.Lines {
			if l.N != m.Start+i {
				t.Errorf("%s: line %d numbered %d", m.Path, m.Start+i, l.N)
			}
			text = append(text, l.Text)
		}
		if got := strings.TrimSpace(strings.Join(text, "\n")); got != m.Snippet {
			t.Errorf("%s L%d-L%d: read gives\n%s\nthe snippet is\n%s", m.Path, m.Start, m.End, got, m.Snippet)
		}
	}
	return s
}

type mcpStatus struct {
	Documents        int    `json:"documents"`
	Daemon           bool   `json:"daemon"`
	AnsweredBy       string `json:"answered_by"`
	DictionaryLoaded bool   `json:"dictionary_loaded"`
	Stale            bool   `json:"stale"`
	LastSync         string `json:"last_sync"`
}

func TestMCPServer(t *testing.T) {
	if testing.Short() {
		t.Skip("process test")
	}
	root := researchtest.Sample(t)
	env := testEnv(t)
	cache := configtest.TempDir(t)
	ws := configtest.TempDir(t)
	cs := mcpSession(t, env, "--source-root", root, "--cache-dir", cache, "mcp", "--workspace", ws)
	schemas := toolSchemas(t, cs)

	s := checkSearchAndRead(t, cs, schemas, "有給休暇 申請")
	if s.Index.AnsweredBy != "this process" {
		t.Errorf("answered by %q without a daemon", s.Index.AnsweredBy)
	}
	var st mcpStatus
	call(t, cs, schemas, "status", nil, &st)
	if st.Documents == 0 || st.Daemon || st.Stale || st.LastSync == "" {
		t.Errorf("status %+v", st)
	}

	// Reading what the index never reads is refused with its code.
	if res := call(t, cs, schemas, "read", map[string]any{"path": ".env"}, nil); !res.IsError || !strings.HasPrefix(errorText(res), "not_a_document:") {
		t.Errorf("read .env: %v %s", res.IsError, errorText(res))
	}
	if res := call(t, cs, schemas, "read", map[string]any{"path": "../../etc/passwd"}, nil); !res.IsError {
		t.Errorf("read outside the root: %s", errorText(res))
	}

	// A research offline, and its report validated by the tool.
	var sum struct {
		Status string `json:"status"`
		Report string `json:"report"`
	}
	res := call(t, cs, schemas, "research", map[string]any{"query": "随意契約の上限額はいくらか", "skip_web": true, "workspace": ws}, &sum)
	if res.IsError || sum.Status != "ok" || !strings.HasPrefix(errorText(res), "保存しました: [research_") {
		t.Fatalf("research: %s %+v", errorText(res), sum)
	}
	var v struct {
		Valid          bool `json:"valid"`
		SourcesChecked bool `json:"sources_checked"`
	}
	call(t, cs, schemas, "validate", map[string]any{"path": sum.Report}, &v)
	if !v.Valid || !v.SourcesChecked {
		t.Errorf("validate of lwr's own report: %+v", v)
	}
	md, _ := os.ReadFile(sum.Report)
	var bad struct {
		Valid    bool `json:"valid"`
		Problems []struct {
			Code string `json:"code"`
		} `json:"problems"`
	}
	call(t, cs, schemas, "validate", map[string]any{"markdown": strings.Replace(string(md), "200万円", "300万円", 1)}, &bad)
	if bad.Valid || len(bad.Problems) == 0 || bad.Problems[0].Code != "citation_quote_mismatch" {
		t.Errorf("validate of a changed quote: %+v", bad)
	}
	// finalize takes the same report again (another name in the same second).
	var fin struct {
		Status    string `json:"status"`
		SavedLine string `json:"saved_line"`
	}
	if res := call(t, cs, schemas, "finalize", map[string]any{"markdown": string(md), "query": "随意契約の上限額", "workspace": ws, "local_status": "ok", "web_status": "skipped", "deep_status": "skipped", "skip_web": true}, &fin); res.IsError || fin.SavedLine == "" {
		t.Errorf("finalize: %s %+v", errorText(res), fin)
	}
	// No web provider: a clear tool error.
	if res := call(t, cs, schemas, "web_search", map[string]any{"query": "電子契約"}, nil); !res.IsError || !strings.Contains(errorText(res), "no web providers are configured") {
		t.Errorf("web_search without providers: %s", errorText(res))
	}

	// An invalid currentness file fails closed, with its code.
	researchtest.WriteFile(t, filepath.Join(root, ".research-policy", "currentness.json"), `{"version": 1, "records": [`)
	if res := call(t, cs, schemas, "search", map[string]any{"query": "契約"}, nil); !res.IsError || !strings.HasPrefix(errorText(res), "currentness_policy_invalid:") {
		t.Errorf("search with an invalid currentness file: %v %s", res.IsError, errorText(res))
	}
}

// Through a running daemon: the same answers, answered by the daemon, and
// the server process never loads the dictionary.
func TestMCPServerThroughTheDaemon(t *testing.T) {
	if testing.Short() {
		t.Skip("process test")
	}
	root := researchtest.Sample(t)
	env := testEnv(t)
	cache := configtest.TempDir(t)
	startDaemonProc(t, env, root, cache)
	cs := mcpSession(t, env, "--source-root", root, "--cache-dir", cache)
	schemas := toolSchemas(t, cs)
	s := checkSearchAndRead(t, cs, schemas, "有給休暇 申請")
	if s.Index.AnsweredBy != "daemon" {
		t.Errorf("answered by %q with a daemon running", s.Index.AnsweredBy)
	}
	checkSearchAndRead(t, cs, schemas, "160万円")
	var st mcpStatus
	call(t, cs, schemas, "status", nil, &st)
	if !st.Daemon || st.AnsweredBy != "daemon" || st.DictionaryLoaded {
		t.Errorf("status through the daemon: %+v (the server process must not load the dictionary)", st)
	}
}
