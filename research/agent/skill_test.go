package agent

import (
	"context"
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"lwr/research/agent/skill"
)

// TestSkillNamesRealTools checks that the tools and fields the skill's
// MCP path tells an agent to use are the server's.
func TestSkillNamesRealTools(t *testing.T) {
	s, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	ct, st := mcp.NewInMemoryTransports()
	go s.Run(ctx, st)
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	res, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	tools := map[string]bool{}
	fields := map[string]bool{}
	for _, tool := range res.Tools {
		tools[tool.Name] = true
		for _, sch := range []any{tool.InputSchema, tool.OutputSchema} {
			b, _ := json.Marshal(sch)
			var v any
			json.Unmarshal(b, &v)
			collectFields(v, "", fields)
		}
	}

	md := string(skill.SkillMD())
	start := strings.Index(md, "### 経路1")
	end := strings.Index(md, "### 経路2")
	if start < 0 || end < start {
		t.Fatal("SKILL.md has no MCP path (### 経路1 … ### 経路2)")
	}
	section := md[start:end]
	named := 0
	for _, m := range regexp.MustCompile("`([a-z_][a-z_.]*)`").FindAllStringSubmatch(section, -1) {
		name := m[1]
		named++
		if !tools[name] && !fields[name] {
			t.Errorf("the skill's MCP path names `%s`, which is neither a tool nor a field of one", name)
		}
	}
	if named < 8 {
		t.Fatalf("found %d names in the MCP path; the parser no longer reads it", named)
	}
}

// collectFields adds every property of a JSON Schema, by name and by its
// dotted path from the schema's root.
func collectFields(v any, prefix string, into map[string]bool) {
	m, ok := v.(map[string]any)
	if !ok {
		return
	}
	if props, ok := m["properties"].(map[string]any); ok {
		for name, sub := range props {
			into[name] = true
			into[prefix+name] = true
			collectFields(sub, prefix+name+".", into)
		}
	}
	for _, k := range []string{"items", "additionalProperties"} {
		collectFields(m[k], prefix, into)
	}
	if defs, ok := m["$defs"].(map[string]any); ok {
		for _, sub := range defs {
			collectFields(sub, "", into)
		}
	}
}
