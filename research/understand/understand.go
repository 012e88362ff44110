package understand

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"lwr/analyzer"
	"lwr/web/intent"
)

// SkipWebWords are the words that, anywhere in a query, keep the research
// off the web (Phase A; compared after analyzer.Fold, so ｗｅｂ不要 counts).
var SkipWebWords = []string{"ローカルのみ", "ローカルだけ", "Web不要", "Web検索なし", "オフライン", "社内資料のみ"}

// SkipWebWord returns the first skip word the query holds, or "".
func SkipWebWord(query string) string {
	f := analyzer.Fold(query)
	for _, w := range SkipWebWords {
		if strings.Contains(f, analyzer.Fold(w)) {
			return w
		}
	}
	return ""
}

// StripSkipWords removes the skip words from a query, so that they are
// not searched for; the rest keeps its order. It works on the folded
// query, which is what searches compare anyway.
func StripSkipWords(query string) string {
	f := analyzer.Fold(query)
	for _, w := range SkipWebWords {
		f = strings.ReplaceAll(f, analyzer.Fold(w), " ")
	}
	if analyzer.Fold(query) == f {
		return strings.TrimSpace(query)
	}
	return strings.Join(strings.Fields(f), " ")
}

// Mode is how much query understanding Phase A does.
type Mode string

// The modes of query_understanding (env CC_LWR_QUERY_UNDERSTANDING).
const (
	// Off: intent default, no synonyms (the skill's default).
	Off Mode = "off"
	// Auto: heuristic intent, dictionary synonyms, ambiguity;
	// needs_llm is always false.
	Auto Mode = "auto"
	// Always: as auto, and needs_llm is true when the query is
	// ambiguous, with a hint for the agent's model.
	Always Mode = "always"
)

// ParseMode reads a mode name; "" is off.
func ParseMode(s string) (Mode, error) {
	switch m := Mode(strings.ToLower(strings.TrimSpace(s))); m {
	case "":
		return Off, nil
	case Off, Auto, Always:
		return m, nil
	}
	return Off, fmt.Errorf("unknown query understanding %q; use off, auto or always", s)
}

// MaxSynonyms bounds the synonyms query understanding adds.
const MaxSynonyms = 5

// AmbiguousAt is the ambiguity from which a query counts as ambiguous.
const AmbiguousAt = 0.5

// Result is the outcome of query understanding, as the skill's
// Invoke-QueryUnderstanding.ps1 printed it.
type Result struct {
	Mode      Mode          `json:"mode"`
	Intent    intent.Intent `json:"intent"`
	Synonyms  []string      `json:"synonyms"`
	Ambiguity float64       `json:"ambiguity"`
	NeedsLLM  bool          `json:"needs_llm"`
	// LLMPromptHint is always present ("" when there is nothing to ask):
	// what an agent's model should clarify before searching again.
	LLMPromptHint string `json:"llm_prompt_hint"`
	// Reinterpret are the words to restate when NeedsLLM (see Assess).
	Reinterpret []string `json:"reinterpret,omitempty"`
}

// intentCues are the cue words of each intent, matched in the folded
// query (Latin ones as whole words). The intent with the most cues wins;
// ties go to the earlier one here.
var intentCues = []struct {
	intent intent.Intent
	ja     []string
	latin  []string
}{
	{intent.IntentTroubleshooting, []string{"エラー", "失敗", "できない", "動かない", "つながらない", "繋がらない", "障害", "原因", "対処", "不具合", "トラブル", "落ちる", "止まる", "例外", "復旧"},
		[]string{"error", "fail", "failed", "failure", "exception", "crash", "broken", "troubleshoot", "troubleshooting", "502", "503", "500", "404", "timeout"}},
	{intent.IntentComparison, []string{"比較", "違い", "差異", "どちら", "どっち", "相違", "と比べ", "対比", "優劣", "新旧"},
		[]string{"vs", "versus", "compare", "comparison", "difference", "differences"}},
	{intent.IntentHowto, []string{"方法", "手順", "やり方", "仕方", "使い方", "するには", "したい", "設定方法", "申請方法", "流れ", "手続き", "どうやって", "どうすれば"},
		[]string{"how", "howto", "setup", "install", "configure", "guide", "tutorial", "steps"}},
	{intent.IntentDefinition, []string{"とは", "意味", "定義", "って何", "とは何", "概要", "用語"},
		[]string{"what", "definition", "define", "meaning"}},
	{intent.IntentFactcheck, []string{"本当", "正しい", "事実", "ファクト", "確認", "現行", "最新", "上限", "金額", "いくら", "何円", "基準", "期限", "いつから", "施行"},
		[]string{"true", "fact", "factcheck", "verify", "current", "latest"}},
}

// vagueWords make a query ambiguous: demonstratives and pronouns that
// point at something the query does not name.
var vagueWords = []string{"これ", "それ", "あれ", "どれ", "この件", "その件", "あの件", "例の", "あの", "その", "この", "あれこれ", "いろいろ", "色々", "など", "とか", "なんか", "件"}

var vagueLatin = []string{"it", "this", "that", "these", "those", "stuff", "thing", "things"}

// Understand runs query understanding without a model: cue words for the
// intent, the synonym dictionary (dict; nil means the embedded default)
// for up to MaxSynonyms synonyms, and an ambiguity score from the query's
// length and its vague words. In off mode it returns the defaults and
// touches neither dictionary nor analyzer.
func Query(query string, mode Mode, dict *analyzer.Synonyms) Result {
	u := Result{Mode: mode, Intent: intent.IntentDefault, Synonyms: []string{}}
	if mode == "" {
		u.Mode = Off
	}
	if u.Mode == Off {
		return u
	}
	u.Intent = DetectIntent(query)
	if dict == nil {
		dict = analyzer.DefaultSynonyms()
	}
	// Synonyms in the query's own script first: a Japanese question is
	// answered by Japanese documents, the glossary's English words after.
	all := dict.Expand(query)
	ja := hasJapanese(query)
	for _, pass := range []bool{true, false} {
		for _, s := range all {
			if len(u.Synonyms) == MaxSynonyms {
				break
			}
			if (hasJapanese(s) == ja) == pass {
				u.Synonyms = append(u.Synonyms, s)
			}
		}
	}
	a := Assess(query)
	u.Ambiguity = a.Ambiguity
	if u.Mode == Always && a.NeedsLLM {
		u.NeedsLLM, u.LLMPromptHint, u.Reinterpret = true, a.LLMPromptHint, a.Reinterpret
	}
	return u
}

// Assessment says whether an agent's model should restate a query before
// it is searched, without analysing it (no dictionary is loaded).
type Assessment struct {
	Ambiguity float64 `json:"ambiguity"`
	NeedsLLM  bool    `json:"needs_llm"`
	// Reinterpret are the words to restate: the vague words the query
	// holds (これ, その件, …), else, for a short query, its words.
	Reinterpret   []string `json:"reinterpret,omitempty"`
	LLMPromptHint string   `json:"llm_prompt_hint,omitempty"`
}

// Assess scores a query's ambiguity and, from AmbiguousAt, says that it
// needs a model and which words to restate.
func Assess(query string) Assessment {
	a := Assessment{Ambiguity: Ambiguity(query)}
	if a.Ambiguity < AmbiguousAt {
		return a
	}
	a.NeedsLLM = true
	a.LLMPromptHint = "クエリが短い、または指示語を含むため曖昧です。調べたい対象（資料名・制度名）、時点（年度・版）、知りたいこと（定義・手順・金額など）を補ったクエリに言い換えてから再度 lwr research を実行してください。"
	f := analyzer.Fold(query)
	for _, w := range vagueWords {
		if strings.Contains(f, w) && !slices.ContainsFunc(a.Reinterpret, func(r string) bool { return strings.Contains(r, w) }) {
			a.Reinterpret = append(a.Reinterpret, w)
		}
	}
	words := latinWords(f)
	for _, w := range vagueLatin {
		if words[w] {
			a.Reinterpret = append(a.Reinterpret, w)
		}
	}
	if len(a.Reinterpret) == 0 {
		a.Reinterpret = strings.Fields(query)
	}
	return a
}

// DetectIntent returns the intent of a query by its cue words: the intent
// whose cue stands last wins (a question ends with what it asks: 〜する方法,
// 〜とは, 〜の違い), then the one with more cues.
func DetectIntent(query string) intent.Intent {
	f := analyzer.Fold(query)
	best, bestAt, bestN := intent.IntentDefault, -1, 0
	for _, ic := range intentCues {
		at, n := -1, 0
		for _, w := range ic.ja {
			if i := strings.LastIndex(f, analyzer.Fold(w)); i >= 0 {
				n++
				at = max(at, i+len(analyzer.Fold(w)))
			}
		}
		for _, w := range ic.latin {
			if i := lastWord(f, w); i >= 0 {
				n++
				at = max(at, i+len(w))
			}
		}
		if n > 0 && (at > bestAt || at == bestAt && n > bestN) {
			best, bestAt, bestN = ic.intent, at, n
		}
	}
	return best
}

// lastWord returns where the ASCII word w last stands alone in f, or -1.
func lastWord(f, w string) int {
	for end := len(f); end > 0; {
		i := strings.LastIndex(f[:end], w)
		if i < 0 {
			return -1
		}
		j := i + len(w)
		if (i == 0 || !isWordByte(f[i-1])) && (j == len(f) || !isWordByte(f[j])) {
			return i
		}
		end = i
	}
	return -1
}

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_'
}

// hasJapanese reports whether s holds kana or kanji.
func hasJapanese(s string) bool {
	for _, r := range s {
		if unicode.In(r, unicode.Hiragana, unicode.Katakana, unicode.Han) {
			return true
		}
	}
	return false
}

// Ambiguity scores a query from 0 (clear) to 1 (cannot tell what is
// asked): very short queries, a single word, and demonstratives or
// pronouns that point outside the query raise it.
func Ambiguity(query string) float64 {
	f := analyzer.Fold(strings.TrimSpace(query))
	content := 0
	for _, r := range f {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			content++
		}
	}
	score := 0.0
	switch {
	case content == 0:
		return 1
	case content <= 2:
		score += 0.6
	case content <= 4:
		score += 0.35
	case content <= 6:
		score += 0.15
	}
	if len(strings.Fields(f)) == 1 && utf8.RuneCountInString(f) <= 8 {
		score += 0.15
	}
	vague := 0
	for _, w := range vagueWords {
		if strings.Contains(f, w) {
			vague++
		}
	}
	words := latinWords(f)
	for _, w := range vagueLatin {
		if words[w] {
			vague++
		}
	}
	score += 0.25 * float64(min(vague, 3))
	return math.Round(min(score, 1)*100) / 100
}

// latinWords are the ASCII words of folded text.
func latinWords(f string) map[string]bool {
	out := map[string]bool{}
	for _, w := range strings.FieldsFunc(f, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9')
	}) {
		out[w] = true
	}
	return out
}
