package agent

import (
	"context"
	"encoding/json"
	"slices"
	"testing"

	"lwr/analyzer/edition"
	"lwr/index"
	"lwr/policy"
	"lwr/research/report"
	"lwr/web"
)

// enumsIn collects every "enum" of a JSON Schema by the property holding
// it.
func enumsIn(v any, prop string, into map[string][]string) {
	switch m := v.(type) {
	case map[string]any:
		if e, ok := m["enum"].([]any); ok {
			for _, x := range e {
				into[prop] = append(into[prop], x.(string))
			}
		}
		for k, sub := range m {
			name := prop
			if k != "properties" && k != "items" && k != "$defs" {
				name = k
			}
			if k == "properties" || k == "$defs" {
				for pk, ps := range sub.(map[string]any) {
					enumsIn(ps, pk, into)
				}
				continue
			}
			enumsIn(sub, name, into)
		}
	case []any:
		for _, x := range m {
			enumsIn(x, prop, into)
		}
	}
}

// TestEnumsComeFromTheCode: every fixed value a tool's schema declares is
// one the code reads, and every value the code has is declared.
func TestEnumsComeFromTheCode(t *testing.T) {
	cs := connect(t, Options{})
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	enums := map[string][]string{}
	for _, tool := range res.Tools {
		for _, sch := range []any{tool.InputSchema, tool.OutputSchema} {
			b, _ := json.Marshal(sch)
			var v any
			json.Unmarshal(b, &v)
			enumsIn(v, "", enums)
		}
	}
	all := func(vs []string) []string { slices.Sort(vs); return slices.Compact(vs) }
	parsers := map[string]func(string) error{
		"mode":         func(s string) error { _, err := index.ParseMode(s); return err },
		"intent":       func(s string) error { _, err := web.ParseIntent(s); return err },
		"local_status": func(s string) error { _, err := report.PhaseLocal.ParseStatus(s); return err },
		"web_status":   func(s string) error { _, err := report.PhaseWeb.ParseStatus(s); return err },
		"deep_status":  func(s string) error { _, err := report.PhaseDeep.ParseStatus(s); return err },
		"kind": func(s string) error {
			var k edition.Kind
			if err := k.UnmarshalText([]byte(s)); err != nil {
				var r policy.RelationKind
				return r.UnmarshalText([]byte(s))
			}
			return nil
		},
	}
	for prop, parse := range parsers {
		vs := all(enums[prop])
		if len(vs) == 0 {
			t.Errorf("no tool declares the values of %s", prop)
		}
		for _, v := range vs {
			if err := parse(v); err != nil {
				t.Errorf("%s declares %q, which the code does not read: %v", prop, v, err)
			}
		}
	}
	want := map[string][]string{"mode": names2(index.Modes()), "intent": names2(web.Intents()), "model": report.Models}
	for _, k := range edition.Kinds() {
		want["kind"] = append(want["kind"], k.String())
	}
	for _, k := range policy.RelationKinds() {
		want["kind"] = append(want["kind"], k.String())
	}
	for prop, vs := range want {
		got := all(enums[prop])
		for _, v := range vs {
			if !slices.Contains(got, v) {
				t.Errorf("%s does not declare %q, which the code has", prop, v)
			}
		}
	}
}

func names2[T interface{ String() string }](vs []T) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = v.String()
	}
	return out
}

// TestReadOnlyTools: the tools that change nothing say so (readOnlyHint),
// and the ones that write do not.
func TestReadOnlyTools(t *testing.T) {
	cs := connect(t, Options{})
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	readOnly := map[string]bool{"search": true, "read": true, "status": true, "validate": true, "web_search": true, "deep_status": true}
	for _, tool := range res.Tools {
		got := tool.Annotations != nil && tool.Annotations.ReadOnlyHint
		if got != readOnly[tool.Name] {
			t.Errorf("%s: readOnlyHint %v, want %v", tool.Name, got, readOnly[tool.Name])
		}
	}
}
