package understand

import (
	"lwr/web"
	"slices"
	"testing"
)

func TestSkipWebWords(t *testing.T) {
	tests := []struct {
		query, word, stripped string
	}{
		{"随意契約 上限額", "", "随意契約 上限額"},
		{"随意契約 上限額 ローカルのみ", "ローカルのみ", "随意契約 上限額"},
		{"社内資料のみで 有給休暇", "社内資料のみ", "で 有給休暇"},
		{"ＷＥＢ不要 旅費", "Web不要", "旅費"},
		{"オフラインで調べて", "オフライン", "で調べて"},
		{"Web検索なし 契約", "Web検索なし", "契約"},
		{"ローカルだけ", "ローカルだけ", ""},
	}
	for _, tc := range tests {
		if got := SkipWebWord(tc.query); got != tc.word {
			t.Errorf("SkipWebWord(%q) = %q, want %q", tc.query, got, tc.word)
		}
		if got := StripSkipWords(tc.query); got != tc.stripped {
			t.Errorf("StripSkipWords(%q) = %q, want %q", tc.query, got, tc.stripped)
		}
	}
}

func TestQuery(t *testing.T) {
	tests := []struct {
		name      string
		query     string
		mode      Mode
		intent    web.Intent
		synonym   string // one synonym that must be there
		ambiguous bool
		needsLLM  bool
	}{
		{name: "off", query: "バックアップの手順", mode: Off, intent: web.IntentDefault},
		{name: "howto", query: "バックアップの手順", mode: Auto, intent: web.IntentHowto, synonym: "退避"},
		{name: "troubleshooting", query: "経費精算システムで HTTP 502 エラーが出る原因", mode: Auto, intent: web.IntentTroubleshooting},
		{name: "definition", query: "随意契約とは", mode: Auto, intent: web.IntentDefinition},
		{name: "comparison", query: "VPN v1.2 と v2.0 の違い", mode: Auto, intent: web.IntentComparison},
		{name: "factcheck", query: "随意契約の上限額は本当に200万円か", mode: Auto, intent: web.IntentFactcheck},
		{name: "english howto", query: "how to configure backup", mode: Auto, intent: web.IntentHowto},
		{name: "ambiguous, auto", query: "あれ", mode: Auto, intent: web.IntentDefault, ambiguous: true},
		{name: "ambiguous, always", query: "それ", mode: Always, intent: web.IntentDefault, ambiguous: true, needsLLM: true},
		{name: "clear, always", query: "令和8年度版の契約事務研修テキストにある随意契約の上限額", mode: Always, intent: web.IntentFactcheck},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			u := Query(tc.query, tc.mode, nil)
			if u.Intent != tc.intent {
				t.Errorf("intent %s, want %s", u.Intent, tc.intent)
			}
			if tc.synonym != "" && !slices.Contains(u.Synonyms, tc.synonym) {
				t.Errorf("synonyms %v lack %s", u.Synonyms, tc.synonym)
			}
			if len(u.Synonyms) > MaxSynonyms || u.Synonyms == nil {
				t.Errorf("synonyms %v", u.Synonyms)
			}
			if (u.Ambiguity >= AmbiguousAt) != tc.ambiguous || u.Ambiguity < 0 || u.Ambiguity > 1 {
				t.Errorf("ambiguity %.2f, ambiguous %v", u.Ambiguity, tc.ambiguous)
			}
			if u.NeedsLLM != tc.needsLLM || (u.NeedsLLM && u.LLMPromptHint == "") {
				t.Errorf("needs_llm %v hint %q", u.NeedsLLM, u.LLMPromptHint)
			}
			if tc.mode == Off && (u.Ambiguity != 0 || len(u.Synonyms) != 0) {
				t.Errorf("off mode understood: %+v", u)
			}
		})
	}
}
