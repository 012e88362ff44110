package agent

import (
	"encoding/json"
	"strings"
	"testing"

	"lwr/config/configtest"
	"lwr/research/researchtest"
)

// TestSearchIsCompact: search answers what an agent needs per match —
// local_result and one note of each match's edition, relations and place —
// and the annotations (every edition statement of each document) only
// with detail; its message says which query words were dropped and why,
// and which it cut into single characters.
func TestSearchIsCompact(t *testing.T) {
	root := researchtest.Sample(t)
	cs := connect(t, serverOptions(t, root, configtest.TempDir(t)))
	type out struct {
		LocalResult struct {
			Message string            `json:"message"`
			Matches []json.RawMessage `json:"matches"`
		} `json:"local_result"`
		Notes []struct {
			Path     string `json:"path"`
			Edition  string `json:"edition"`
			Relation string `json:"relation"`
		} `json:"notes"`
		Annotations []json.RawMessage `json:"annotations"`
	}
	search := func(args map[string]any) (out, int) {
		t.Helper()
		text, isErr := callTool(t, cs, "search", args)
		var o out
		if isErr || json.Unmarshal([]byte(text), &o) != nil {
			t.Fatalf("search %v: %v %s", args, isErr, text)
		}
		return o, len(text)
	}
	compact, n := search(map[string]any{"query": "契約事務 上限額"})
	full, nFull := search(map[string]any{"query": "契約事務 上限額", "detail": true})
	if len(compact.LocalResult.Matches) == 0 || len(compact.Notes) != len(compact.LocalResult.Matches) || len(compact.Annotations) != 0 {
		t.Fatalf("compact: %d matches, %d notes, %d annotations", len(compact.LocalResult.Matches), len(compact.Notes), len(compact.Annotations))
	}
	for _, note := range compact.Notes {
		if note.Path == "" || note.Edition == "" || note.Relation == "" {
			t.Errorf("a note without its edition or relation: %+v", note)
		}
	}
	t.Logf("search 契約事務 上限額: %d matches, %d bytes; with detail %d bytes", len(compact.LocalResult.Matches), n, nFull)
	if len(full.Annotations) != len(full.LocalResult.Matches) || nFull <= n {
		t.Errorf("detail: %d annotations for %d matches, %d bytes (compact %d)", len(full.Annotations), len(full.LocalResult.Matches), nFull, n)
	}
	o, _ := search(map[string]any{"query": "有休 いつから もらえる"})
	if m := o.LocalResult.Message; !strings.Contains(m, "dropped=いつから(いつ: stop word, から: 助詞)") || !strings.Contains(m, "もらえる(もらえる: the potential form of the stop word もらう)") {
		t.Errorf("the message does not say which words were dropped and why: %s", m)
	}
	o, _ = search(map[string]any{"query": "離席"})
	if m := o.LocalResult.Message; !strings.Contains(m, "split=離席(離+席") {
		t.Errorf("the message does not say 離席 was cut apart: %s", m)
	}
}
