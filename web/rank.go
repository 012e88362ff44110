package web

import (
	"fmt"
	"strings"
	"time"

	"golang.org/x/text/unicode/norm"
)

// Topic is what a query is about, as far as freshness goes (seed 003).
type Topic int

// The topics, strictest freshness first.
const (
	TopicGeneral   Topic = iota // no topic recognized: 1 year fresh, 2 years reference
	TopicSecurity               // 3 months; older results dropped
	TopicAI                     // AI/LLM: 6 months; older results dropped unless foundational
	TopicFrontend               // 1 year; older marked [古い情報]
	TopicCloud                  // 1 year; older marked [古い情報]
	TopicLanguage               // programming languages: 2 years; older kept as [参考]
	TopicAlgorithm              // algorithms and design: no limit
)

var topicNames = [...]string{"general", "security", "ai", "frontend", "cloud", "language", "algorithm"}

func (t Topic) String() string {
	if int(t) < len(topicNames) {
		return topicNames[t]
	}
	return fmt.Sprintf("Topic(%d)", int(t))
}

// MarshalText writes the topic's name.
func (t Topic) MarshalText() ([]byte, error) { return []byte(t.String()), nil }

// UnmarshalText reads a topic's name; an unknown name is TopicGeneral.
func (t *Topic) UnmarshalText(b []byte) error {
	*t = TopicGeneral
	for i, n := range topicNames {
		if n == string(b) {
			*t = Topic(i)
		}
	}
	return nil
}

// Freshness is the label a result gets from its date and the topic's policy.
type Freshness int

// The freshness labels.
const (
	FreshUnknown   Freshness = iota // no date: no label
	FreshLatest                     // ✓ 最新
	FreshReference                  // [参考]
	FreshOld                        // [古い情報]
)

var freshnessLabels = [...]string{"", "✓ 最新", "[参考]", "[古い情報]"}

// String is the label as the report prints it ("" for unknown).
func (f Freshness) String() string {
	if int(f) < len(freshnessLabels) {
		return freshnessLabels[f]
	}
	return fmt.Sprintf("Freshness(%d)", int(f))
}

// MarshalText writes the label.
func (f Freshness) MarshalText() ([]byte, error) { return []byte(f.String()), nil }

// UnmarshalText reads a label; anything else is FreshUnknown.
func (f *Freshness) UnmarshalText(b []byte) error {
	*f = FreshUnknown
	for i, l := range freshnessLabels {
		if l != "" && l == string(b) {
			*f = Freshness(i)
		}
	}
	return nil
}

// topicWords are matched against the folded query: words of Latin letters
// as whole words, Japanese ones as substrings. Order is priority.
var topicWords = []struct {
	topic Topic
	latin []string
	ja    []string
}{
	{TopicSecurity, []string{"security", "vulnerability", "vulnerabilities", "cve", "exploit", "malware", "ransomware", "zero-day", "0day", "xss", "csrf", "phishing"},
		[]string{"セキュリティ", "脆弱性", "ゼロデイ", "マルウェア", "ランサム", "サイバー攻撃", "不正アクセス", "情報漏洩", "情報漏えい", "フィッシング", "cve-"}},
	{TopicAI, []string{"ai", "llm", "llms", "gpt", "chatgpt", "claude", "gemini", "llama", "openai", "anthropic", "copilot", "rag", "genai", "mistral", "deepseek", "transformer", "mcp"},
		[]string{"生成ai", "人工知能", "大規模言語モデル", "機械学習", "深層学習", "ディープラーニング", "言語モデル", "プロンプト", "gpt-", "チャットボット"}},
	{TopicFrontend, []string{"react", "vue", "angular", "svelte", "next.js", "nextjs", "nuxt", "css", "html", "webpack", "vite", "tailwind", "frontend", "front-end", "dom", "browser", "jquery"},
		[]string{"フロントエンド", "ブラウザ"}},
	{TopicCloud, []string{"aws", "azure", "gcp", "kubernetes", "k8s", "terraform", "lambda", "s3", "ec2", "cloud", "serverless", "cloudflare", "vercel", "docker"},
		[]string{"クラウド", "サーバーレス", "google cloud"}},
	{TopicLanguage, []string{"go", "golang", "python", "rust", "java", "javascript", "typescript", "ruby", "php", "c++", "c#", "kotlin", "swift", "scala", "perl", "haskell", "elixir"},
		[]string{"プログラミング言語", "言語仕様"}},
	{TopicAlgorithm, []string{"algorithm", "algorithms", "sort", "sorting", "graph", "complexity", "dijkstra", "dynamic programming"},
		[]string{"アルゴリズム", "データ構造", "計算量", "デザインパターン", "設計パターン", "ソート", "探索"}},
}

// DetectTopic chooses the freshness topic of a query; the strictest topic
// whose words occur wins.
func DetectTopic(query string) Topic {
	q := strings.ToLower(norm.NFKC.String(query))
	words := map[string]bool{}
	for _, w := range strings.FieldsFunc(q, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '.' || r == '+' || r == '#' || r == '-')
	}) {
		words[strings.Trim(w, ".-")] = true
		words[w] = true
	}
	for _, tw := range topicWords {
		for _, w := range tw.latin {
			if words[w] || (strings.Contains(w, " ") && strings.Contains(q, w)) {
				return tw.topic
			}
		}
		for _, w := range tw.ja {
			if strings.Contains(q, w) {
				return tw.topic
			}
		}
	}
	return TopicGeneral
}

const (
	day   = 24 * time.Hour
	month = 30 * day
	year  = 365 * day
)

// policy is the freshness rule of a topic.
type policy struct {
	// fresh: a result this young is ✓ 最新 and earns the recency point.
	fresh time.Duration
	// reference: up to this age a result is [参考]; older is [古い情報].
	// Zero means never [古い情報].
	reference time.Duration
	// dropOld drops results older than fresh, unless keepOld says otherwise.
	dropOld bool
}

func policyFor(t Topic) policy {
	switch t {
	case TopicSecurity:
		return policy{fresh: 3 * month, reference: 3 * month, dropOld: true}
	case TopicAI:
		return policy{fresh: 6 * month, reference: year, dropOld: true}
	case TopicFrontend, TopicCloud:
		return policy{fresh: year, reference: year}
	case TopicLanguage:
		return policy{fresh: 2 * year}
	case TopicAlgorithm:
		return policy{fresh: year}
	}
	return policy{fresh: year, reference: 2 * year}
}

// officialSuffixes are always official (SPEC §6.2).
var officialSuffixes = []string{"go.jp", "lg.jp", "gov", "edu", "ac.jp"}

// isOfficial reports whether host is, or is under, one of the domains.
func isOfficial(host string, extra []string) bool {
	for _, list := range [][]string{officialSuffixes, extra} {
		for _, d := range list {
			d = strings.ToLower(strings.Trim(strings.TrimSpace(d), "."))
			if d != "" && (host == d || strings.HasSuffix(host, "."+d)) {
				return true
			}
		}
	}
	return false
}

// academicHosts keep AI results that are old but foundational (papers).
var academicHosts = []string{"arxiv.org", "openreview.net", "aclanthology.org", "acm.org", "ieee.org", "nature.com", "science.org", "neurips.cc", "jstage.jst.go.jp"}

// foundationalWords keep old AI results about theory and history.
var foundationalWords = []string{"transformer", "attention is all", "attention mechanism", "論文", "paper", "history", "歴史", "基礎理論", "theory"}

// oldModels are earlier-generation models (seed 003): results about them
// are dropped for an AI question that does not name them.
var oldModels = []string{"gpt-3.5", "gpt-3 ", "gpt3", "text-davinci", "claude 2", "claude-2", "claude 1", "claude-instant", "gemini 1.0", "bard", "llama 2", "llama-2", "llama2", "codex api"}

// keepOld reports whether an old result survives a dropping policy.
func keepOld(t Topic, e *Entry, host string, official bool) bool {
	switch t {
	case TopicSecurity:
		// Official advisories stay, labelled old.
		return official
	case TopicAI:
		if official || isOfficial(host, academicHosts) {
			return true
		}
		text := strings.ToLower(e.Title + " " + e.Snippet)
		for _, w := range foundationalWords {
			if strings.Contains(text, w) {
				return true
			}
		}
	}
	return false
}

// mentionsOldModel reports an earlier-generation model named in text but
// not in the query.
func mentionsOldModel(text, query string) bool {
	text, query = strings.ToLower(text)+" ", strings.ToLower(query)+" "
	for _, m := range oldModels {
		if strings.Contains(text, m) && !strings.Contains(query, strings.TrimSpace(m)) {
			return true
		}
	}
	return false
}

// judge sets e's freshness, trust and reasons, and reports whether the
// freshness policy drops it.
func judge(e *Entry, host string, t Topic, query string, now time.Time, official []string) (drop bool) {
	p := policyFor(t)
	e.Trust, e.TrustReasons = 0, nil
	if n := len(e.Engines); n > 1 {
		e.Trust += 2
		e.TrustReasons = append(e.TrustReasons, fmt.Sprintf("engines=%d(+2)", n))
	}
	off := isOfficial(host, official)
	if off {
		e.Trust++
		e.TrustReasons = append(e.TrustReasons, "official(+1)")
	}
	if t == TopicAI && mentionsOldModel(e.Title+" "+e.Snippet, query) && !keepOld(t, e, host, off) {
		return true
	}
	e.Freshness = FreshUnknown
	if e.Published.IsZero() || e.Published.After(now.Add(2*day)) {
		return false
	}
	age := now.Sub(e.Published)
	switch {
	case age <= p.fresh:
		e.Freshness = FreshLatest
		e.Trust++
		e.TrustReasons = append(e.TrustReasons, "recent(+1)")
		return false
	case p.reference == 0 || age <= p.reference:
		e.Freshness = FreshReference
	default:
		e.Freshness = FreshOld
	}
	return p.dropOld && !keepOld(t, e, host, off)
}
