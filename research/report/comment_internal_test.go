package report

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"
)

// clone deep-copies a decoded JSON value.
func clone(v any) any {
	b, _ := json.Marshal(v)
	var out any
	json.Unmarshal(b, &out)
	return out
}

func obj(v any, path ...any) map[string]any {
	for _, p := range path {
		switch k := p.(type) {
		case string:
			v = v.(map[string]any)[k]
		case int:
			v = v.([]any)[k]
		}
	}
	return v.(map[string]any)
}

type mutation struct {
	name string
	f    func(v map[string]any)
}

func researchBase() map[string]any {
	var v map[string]any
	json.Unmarshal([]byte(`{"sections":[{"id":"local_info","title":"1. ローカル情報"},{"id":"web_info","title":"2. Web情報"},{"id":"deep_local_info","title":"3. 深堀りローカル情報"},{"id":"conclusion","title":"4. 結論"},{"id":"sources","title":"5. 出典"}],
		"sources":[{"title":"就業規則.md","source_type":"local","path":"/r/規程/就業規則.md","lines":{"start":3,"end":4}},{"title":"厚労省","source_type":"web","url":"https://www.mhlw.go.jp/"}],
		"conflict_resolution":{"detected":false},
		"metadata":{"step_number":4,"step_number_legacy":"D","schema_version":"1.0"}}`), &v)
	return v
}

func deepBase() map[string]any {
	var v map[string]any
	json.Unmarshal([]byte(`{"sections":[{"id":"subtopic_1","title":"1. 日当"},{"id":"sources","title":"出典"}],
		"sources":[{"ref":"L1","title":"旅費規程.md","source_type":"local","path":"/r/旅費規程.md","lines":{"start":20,"end":21}},{"ref":"W1","title":"x","source_type":"web","url":"https://example.com/"}],
		"metadata":{"kind":"deep","schema_version":"1.0","topic":"出張旅費","slug":"出張旅費-20260601-abcd"}}`), &v)
	return v
}

func set(path []any, key string, val any) func(map[string]any) {
	return func(v map[string]any) { obj(v, path...)[key] = val }
}

func del(path []any, key string) func(map[string]any) {
	return func(v map[string]any) { delete(obj(v, path...), key) }
}

func commonMutations(sourceIdx []any) []mutation {
	src := append([]any{"sources"}, sourceIdx...)
	return []mutation{
		{"no sections", del(nil, "sections")},
		{"no sources", del(nil, "sources")},
		{"no metadata", del(nil, "metadata")},
		{"extra key", set(nil, "extra", 1)},
		{"sections not a list", set(nil, "sections", "x")},
		{"sources not a list", set(nil, "sources", map[string]any{})},
		{"source not an object", func(v map[string]any) { v["sources"].([]any)[0] = "x" }},
		{"source without title", del(src, "title")},
		{"source title a number", set(src, "title", 3)},
		{"source without type", del(src, "source_type")},
		{"source type unknown", set(src, "source_type", "file")},
		{"local without path", del(src, "path")},
		{"local path null", set(src, "path", nil)},
		{"local path a number", set(src, "path", 7)},
		{"local without lines", del(src, "lines")},
		{"lines not an object", set(src, "lines", []any{1, 2})},
		{"lines start 0", set(append(src, "lines"), "start", 0)},
		{"lines start 1.5", set(append(src, "lines"), "start", 1.5)},
		{"lines start 2.0", set(append(src, "lines"), "start", 2.0)},
		{"lines start text", set(append(src, "lines"), "start", "3")},
		{"lines without end", del(append(src, "lines"), "end")},
		{"lines extra key", set(append(src, "lines"), "step", 1)},
		{"source extra key", set(src, "note", "x")},
		{"web without url", del([]any{"sources", 1}, "url")},
		{"web url http", set([]any{"sources", 1}, "url", "http://example.com/")},
		{"web url null", set([]any{"sources", 1}, "url", nil)},
		{"web url a number", set([]any{"sources", 1}, "url", 5)},
		{"web url odd but https", set([]any{"sources", 1}, "url", "https://ex ample/%zz")},
		{"local with a url too", set(src, "url", "https://example.com/a")},
		{"metadata not an object", set(nil, "metadata", "x")},
		{"metadata extra key", set([]any{"metadata"}, "x", 1)},
		{"metadata without schema_version", del([]any{"metadata"}, "schema_version")},
		{"schema_version a number", set([]any{"metadata"}, "schema_version", 1.0)},
	}
}

func TestCheckerAgreesWithTheSchema(t *testing.T) {
	research := append(commonMutations([]any{0}),
		mutation{"four sections", func(v map[string]any) { v["sections"] = v["sections"].([]any)[:4] }},
		mutation{"six sections", func(v map[string]any) {
			v["sections"] = append(v["sections"].([]any), map[string]any{"id": "x", "title": "x"})
		}},
		mutation{"sections swapped", func(v map[string]any) {
			s := v["sections"].([]any)
			s[0], s[1] = s[1], s[0]
		}},
		mutation{"section id wrong", set([]any{"sections", 2}, "id", "deep")},
		mutation{"section title a number", set([]any{"sections", 2}, "title", 3)},
		mutation{"section without title", del([]any{"sections", 2}, "title")},
		mutation{"section extra key", set([]any{"sections", 2}, "n", 3)},
		mutation{"section not an object", func(v map[string]any) { v["sections"].([]any)[1] = 1 }},
		mutation{"no sources at all", set(nil, "sources", []any{})},
		mutation{"a ref", set([]any{"sources", 0}, "ref", "L1")},
		mutation{"step 5", set([]any{"metadata"}, "step_number", 5)},
		mutation{"step as text", set([]any{"metadata"}, "step_number", "4")},
		mutation{"step 4.0", set([]any{"metadata"}, "step_number", 4.0)},
		mutation{"step 4.5", set([]any{"metadata"}, "step_number", 4.5)},
		mutation{"no step", del([]any{"metadata"}, "step_number")},
		mutation{"no legacy", del([]any{"metadata"}, "step_number_legacy")},
		mutation{"legacy a number", set([]any{"metadata"}, "step_number_legacy", 4)},
		mutation{"version 2.0", set([]any{"metadata"}, "schema_version", "2.0")},
		mutation{"1.0 with a model", set([]any{"metadata"}, "model", "claude-opus-4-6")},
		mutation{"1.1 without a model", set([]any{"metadata"}, "schema_version", "1.1")},
		mutation{"1.1 with a model", func(v map[string]any) {
			obj(v, "metadata")["schema_version"] = "1.1"
			obj(v, "metadata")["model"] = "claude-sonnet-4-6"
		}},
		mutation{"1.1 with an unknown model", func(v map[string]any) {
			obj(v, "metadata")["schema_version"] = "1.1"
			obj(v, "metadata")["model"] = "gpt"
		}},
		mutation{"no conflict_resolution", del(nil, "conflict_resolution")},
		mutation{"conflict_resolution not an object", set(nil, "conflict_resolution", true)},
		mutation{"conflict without detected", del([]any{"conflict_resolution"}, "detected")},
		mutation{"detected as text", set([]any{"conflict_resolution"}, "detected", "no")},
		mutation{"detected without rule", set([]any{"conflict_resolution"}, "detected", true)},
		mutation{"detected with rule and reason", func(v map[string]any) {
			c := obj(v, "conflict_resolution")
			c["detected"], c["applied_rule"], c["reason"] = true, "official", "newer"
		}},
		mutation{"not detected with a rule", set([]any{"conflict_resolution"}, "applied_rule", "x")},
		mutation{"rule a number", func(v map[string]any) {
			c := obj(v, "conflict_resolution")
			c["detected"], c["applied_rule"], c["reason"] = true, 1, "r"
		}},
		mutation{"conflict extra key", set([]any{"conflict_resolution"}, "note", "x")},
	)
	deep := append(commonMutations([]any{0}),
		mutation{"one section", func(v map[string]any) { v["sections"] = v["sections"].([]any)[:1] }},
		mutation{"three sections", func(v map[string]any) {
			v["sections"] = append([]any{map[string]any{"id": "subtopic_2", "title": "2. x"}}, v["sections"].([]any)...)
		}},
		mutation{"section id wrong", set([]any{"sections", 0}, "id", "local_info")},
		mutation{"section title a number", set([]any{"sections", 0}, "title", 1)},
		mutation{"section extra key", set([]any{"sections", 0}, "n", 1)},
		mutation{"no sources at all", set(nil, "sources", []any{})},
		mutation{"no ref", del([]any{"sources", 0}, "ref")},
		mutation{"ref wrong", set([]any{"sources", 0}, "ref", "S1")},
		mutation{"ref a number", set([]any{"sources", 0}, "ref", 1)},
		mutation{"kind research", set([]any{"metadata"}, "kind", "research")},
		mutation{"no kind", del([]any{"metadata"}, "kind")},
		mutation{"version 1.1", set([]any{"metadata"}, "schema_version", "1.1")},
		mutation{"topic empty", set([]any{"metadata"}, "topic", "")},
		mutation{"no slug", del([]any{"metadata"}, "slug")},
		mutation{"slug a number", set([]any{"metadata"}, "slug", 3)},
		mutation{"a conflict_resolution", set(nil, "conflict_resolution", map[string]any{"detected": false})},
	)
	rs, err := outputSchema()
	if err != nil {
		t.Fatal(err)
	}
	ds, err := deepSchema()
	if err != nil {
		t.Fatal(err)
	}
	for _, kind := range []struct {
		name  string
		base  func() map[string]any
		muts  []mutation
		check func(*checker, any)
		valid func(any) error
	}{
		{"research", researchBase, research, (*checker).researchComment, func(v any) error { return rs.Validate(v) }},
		{"deep", deepBase, deep, (*checker).deepComment, func(v any) error { return ds.Validate(v) }},
	} {
		for _, m := range append([]mutation{{"as it is", func(map[string]any) {}}}, kind.muts...) {
			t.Run(kind.name+"/"+m.name, func(t *testing.T) {
				v := clone(kind.base()).(map[string]any)
				m.f(v)
				v2 := clone(v)
				c := newChecker()
				kind.check(c, v2)
				schemaErr := kind.valid(v2)
				if (len(c.out) == 0) != (schemaErr == nil) {
					b, _ := json.Marshal(v)
					t.Errorf("checker %v, schema %v\n%s", c.out, schemaErr, b)
				}
				for _, p := range c.out {
					checkSentence(t, p)
				}
			})
		}
	}
}

// checkSentence holds a problem to the form agents can act on: one
// sentence, "<field>: <what to write>", in lwr's words.
func checkSentence(t *testing.T, p Problem) {
	t.Helper()
	field, fix, ok := strings.Cut(p.Message, ": ")
	if !ok || strings.TrimSpace(field) == "" || strings.Contains(p.Message, "\n") {
		t.Errorf("%s: %q is not \"<field>: <what to write>\" on one line", p.Code, p.Message)
		return
	}
	verbs := []string{"write", "add", "move", "remove", "cite", "quote", "end", "save", "start", "label", "number", "give", "report"}
	found := false
	for _, v := range verbs {
		if strings.HasPrefix(fix, v+" ") || strings.Contains(fix, " "+v+" ") || strings.Contains(fix, "; "+v) || strings.Contains(fix, ", "+v) {
			found = true
		}
	}
	if !found {
		t.Errorf("%s: %q does not say what to write", p.Code, p.Message)
	}
	for _, w := range []string{"validating", "did not validate", "anonymous schema", "oneOf", "/properties", "additionalProperties", "unexpected end of JSON", "invalid character"} {
		if strings.Contains(p.Message, w) {
			t.Errorf("%s: %q speaks a library's words (%s)", p.Code, p.Message, w)
		}
	}
	if newSentence.MatchString(p.Message) || strings.HasSuffix(p.Message, ".") {
		t.Errorf("%s: %q is more than one sentence (lwr adds the final period)", p.Code, p.Message)
	}
}

// newSentence is a period that starts another sentence.
var newSentence = regexp.MustCompile(`[^0-9 ][.。] +[A-Z]`)
