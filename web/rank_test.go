package web

import (
	"slices"
	"testing"
	"time"
)

func TestDetectTopic(t *testing.T) {
	tests := []struct {
		query string
		want  Topic
	}{
		{"有給休暇 申請期限", TopicGeneral},
		{"Apache Struts 脆弱性 CVE-2024-1234", TopicSecurity},
		{"生成AI 社内利用 ガイドライン", TopicAI},
		{"ＬＬＭ の評価方法", TopicAI},
		{"Claude と GPT の比較", TopicAI},
		{"React Server Components 使い方", TopicFrontend},
		{"AWS Lambda タイムアウト", TopicCloud},
		{"TypeScript 5.0 新機能", TopicLanguage},
		{"Go 1.22 range over int", TopicLanguage},
		{"ダイクストラ法 アルゴリズム", TopicAlgorithm},
		{"mail server", TopicGeneral},   // "ai" only as a whole word
		{"React XSS 対策", TopicSecurity}, // the strictest topic wins
	}
	for _, tt := range tests {
		if got := DetectTopic(tt.query); got != tt.want {
			t.Errorf("DetectTopic(%q) = %s, want %s", tt.query, got, tt.want)
		}
	}
}

func TestJudgeFreshnessAndTrust(t *testing.T) {
	now := testNow
	ago := func(d time.Duration) time.Time { return now.Add(-d) }
	tests := []struct {
		name      string
		topic     Topic
		query     string
		entry     Entry
		host      string
		drop      bool
		freshness Freshness
		trust     int
	}{
		{"general recent", TopicGeneral, "q", Entry{Published: ago(30 * day)}, "example.com", false, FreshLatest, 1},
		{"general 18 months", TopicGeneral, "q", Entry{Published: ago(18 * month)}, "example.com", false, FreshReference, 0},
		{"general 3 years", TopicGeneral, "q", Entry{Published: ago(3 * year)}, "example.com", false, FreshOld, 0},
		{"general undated", TopicGeneral, "q", Entry{}, "example.com", false, FreshUnknown, 0},
		{"date in the future is unknown", TopicGeneral, "q", Entry{Published: now.Add(30 * day)}, "example.com", false, FreshUnknown, 0},
		{"two engines, official, recent", TopicGeneral, "q", Entry{Engines: []string{"a", "b"}, Published: ago(day)}, "www.mhlw.go.jp", false, FreshLatest, 4},
		{"official .gov", TopicGeneral, "q", Entry{}, "nist.gov", false, FreshUnknown, 1},
		{"configured official domain", TopicGeneral, "q", Entry{}, "docs.example.org", false, FreshUnknown, 1},
		{"not official: gov only inside the name", TopicGeneral, "q", Entry{}, "gov.example.com", false, FreshUnknown, 0},
		{"AI 5 months", TopicAI, "LLM", Entry{Published: ago(5 * month)}, "example.com", false, FreshLatest, 1},
		{"AI 8 months dropped", TopicAI, "LLM", Entry{Published: ago(8 * month)}, "example.com", true, FreshReference, 0},
		{"AI old paper kept", TopicAI, "LLM", Entry{Published: ago(3 * year)}, "arxiv.org", false, FreshOld, 0},
		{"AI old transformer theory kept", TopicAI, "LLM", Entry{Title: "Transformer の基礎", Published: ago(2 * year)}, "example.com", false, FreshOld, 0},
		{"AI old model dropped even undated", TopicAI, "LLM 比較", Entry{Title: "GPT-3.5 と Llama 2 の比較"}, "example.com", true, FreshUnknown, 0},
		{"AI old model kept when asked about", TopicAI, "GPT-3.5 の料金", Entry{Title: "GPT-3.5 の料金"}, "example.com", false, FreshUnknown, 0},
		{"security 2 months", TopicSecurity, "脆弱性", Entry{Published: ago(60 * day)}, "example.com", false, FreshLatest, 1},
		{"security 4 months dropped", TopicSecurity, "脆弱性", Entry{Published: ago(4 * month)}, "example.com", true, FreshOld, 0},
		{"security old official kept", TopicSecurity, "脆弱性", Entry{Published: ago(4 * month)}, "www.ipa.go.jp", false, FreshOld, 1},
		{"frontend 18 months old", TopicFrontend, "React", Entry{Published: ago(18 * month)}, "example.com", false, FreshOld, 0},
		{"cloud 6 months", TopicCloud, "AWS", Entry{Published: ago(6 * month)}, "example.com", false, FreshLatest, 1},
		{"language 18 months", TopicLanguage, "Go", Entry{Published: ago(18 * month)}, "example.com", false, FreshLatest, 1},
		{"language 3 years reference", TopicLanguage, "Go", Entry{Published: ago(3 * year)}, "example.com", false, FreshReference, 0},
		{"algorithm 10 years reference", TopicAlgorithm, "アルゴリズム", Entry{Published: ago(10 * year)}, "example.com", false, FreshReference, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := tt.entry
			if e.Engines == nil {
				e.Engines = []string{"one"}
			}
			drop := judge(&e, tt.host, tt.topic, tt.query, now, []string{"example.org"})
			if drop != tt.drop {
				t.Errorf("drop = %v, want %v", drop, tt.drop)
			}
			if drop {
				return
			}
			if e.Freshness != tt.freshness || e.Trust != tt.trust {
				t.Errorf("freshness %q trust %d (%v), want %q %d", e.Freshness, e.Trust, e.TrustReasons, tt.freshness, tt.trust)
			}
		})
	}
}

func TestLabels(t *testing.T) {
	got := []string{FreshLatest.String(), FreshReference.String(), FreshOld.String(), FreshUnknown.String()}
	if want := []string{"✓ 最新", "[参考]", "[古い情報]", ""}; !slices.Equal(got, want) {
		t.Errorf("labels %q, want %q", got, want)
	}
	for _, f := range []Freshness{FreshUnknown, FreshLatest, FreshReference, FreshOld} {
		b, _ := f.MarshalText()
		var back Freshness
		if err := back.UnmarshalText(b); err != nil || back != f {
			t.Errorf("round trip of %v gave %v", f, back)
		}
	}
}
