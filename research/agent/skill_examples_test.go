package agent

import (
	"context"
	"encoding/json"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"lwr/config/configtest"
	"lwr/research/agent/skill"
	"lwr/research/deep"
	"lwr/research/report"
)

// skillExample is the fenced block of SKILL.md whose info string says
// example=<name>.
func skillExample(t *testing.T, name string) string {
	t.Helper()
	md := string(skill.SkillMD())
	open := regexp.MustCompile("(?m)^```[a-z]* example=" + regexp.QuoteMeta(name) + "\n")
	loc := open.FindStringIndex(md)
	if loc == nil {
		t.Fatalf("SKILL.md has no example %s", name)
	}
	body, _, ok := strings.Cut(md[loc[1]:], "\n```\n")
	if !ok {
		t.Fatalf("the example %s is not closed", name)
	}
	return body + "\n"
}

// skillExampleRoot is where the skill's examples say the documents are.
const skillExampleRoot = "/home/u/skill-source"

// skillAtRoot moves an example's citations to the source root of the test.
func skillAtRoot(md, root string) string {
	root = filepath.ToSlash(root)
	enc := strings.TrimSuffix(report.VSCodeURI(root+"/x", 1), "x:1")
	md = strings.ReplaceAll(md, "vscode://file"+skillExampleRoot+"/", enc)
	md = strings.ReplaceAll(md, "vscode://file/"+strings.TrimPrefix(skillExampleRoot, "/")+"/", enc)
	return strings.ReplaceAll(md, skillExampleRoot+"/", root+"/")
}

// The skill's deep research example, call by call, as an agent makes it:
// its report is confirmed.
func TestSkillDeepExample(t *testing.T) {
	cs, root, _ := deepServer(t)
	calls := skillExample(t, "deep-calls")
	reportMD := skillAtRoot(skillExample(t, "deep-report"), root)
	slug := ""
	var last deep.Result
	for i, line := range strings.Split(strings.TrimSpace(calls), "\n") {
		var c struct {
			Tool      string         `json:"tool"`
			Arguments map[string]any `json:"arguments"`
		}
		if err := json.Unmarshal([]byte(line), &c); err != nil {
			t.Fatalf("call %d of the example is not JSON: %v\n%s", i+1, err, line)
		}
		if c.Arguments["slug"] == "<slug>" {
			c.Arguments["slug"] = slug
		}
		if c.Tool == "deep_finalize" {
			c.Arguments["markdown"] = strings.ReplaceAll(reportMD, "<slug>", slug)
		}
		var out map[string]any
		res := deepCall(t, cs, c.Tool, c.Arguments, &out)
		if res.IsError {
			t.Fatalf("%s: %s", c.Tool, deepToolText(res))
		}
		if c.Tool == "deep_start" {
			slug, _ = out["slug"].(string)
		}
		if c.Tool == "deep_finalize" {
			b, _ := json.Marshal(out)
			json.Unmarshal(b, &last)
		}
	}
	if last.Status != deep.StatusConfirmed {
		t.Fatalf("the example's report is not confirmed: %+v", last)
	}

	// The names the deep path tells an agent to use are the tools' and
	// their fields.
	tools, _ := cs.ListTools(context.Background(), nil)
	names := map[string]bool{}
	for _, tool := range tools.Tools {
		names[tool.Name] = true
		for _, sch := range []any{tool.InputSchema, tool.OutputSchema} {
			b, _ := json.Marshal(sch)
			var v any
			json.Unmarshal(b, &v)
			collectFields(v, "", names)
		}
	}
	md := string(skill.SkillMD())
	start, end := strings.Index(md, "### 経路4"), strings.Index(md, "例（")
	if start < 0 || end < start {
		t.Fatal("SKILL.md has no deep path (### 経路4)")
	}
	for _, m := range regexp.MustCompile("`([a-z_][a-z_.]*)`").FindAllStringSubmatch(md[start:end], -1) {
		if n := m[1]; !names[n] && n != "active" && n != "confirmed" && n != "blocked" && n != "verify_failed" {
			t.Errorf("the deep path names `%s`, which is neither a tool, a field nor a status", n)
		}
	}
}

// The skill's example of a report an agent writes finalizes as it is,
// without a JSON comment.
func TestSkillAgentReportExample(t *testing.T) {
	_, root, _ := deepServer(t)
	md := skillAtRoot(skillExample(t, "agent-report"), root)
	if strings.Contains(md, "<!-- JSON") {
		t.Fatal("the example has a JSON comment")
	}
	f, err := report.Finalize(context.Background(), report.FinalizeOptions{Workspace: configtest.TempDir(t), Markdown: []byte(md),
		Sources: &report.Sources{Root: root}, Context: report.ContextInput{Query: "出張の日当", SourceRoot: root}})
	if err != nil {
		t.Fatalf("the skill's example report: %v", err)
	}
	if !f.CommentComputed {
		t.Error("no comment computed")
	}
}
